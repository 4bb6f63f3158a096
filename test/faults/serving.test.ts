/**
 * Fault injection, serving (issue 26, items 7, 8, 9, 12 and 16), against the real local server —
 * `price-feed serve` spawned, or its module on a loopback port — and a real Redis where counters are
 * shared: preconditions answered 412 per RFC 9110; the limiter's window moving on when the data clock
 * is pinned by --now; the health check and preflights answered without spending the caller's quota,
 * and a 429 not counted as used; the stale-site hint leading to a 200 when followed as printed; heavy
 * anonymous traffic limited first while an identified caller keeps the full window.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../src/server/serve.js";
import { MemoryStore } from "../../src/edge/counters.js";
import { handle } from "../../src/edge/handler.js";
import { nextCairoMidnight } from "../../src/core/cairo.js";
import { Problem, Readiness } from "../../src/schema/documents.js";
import { builtSite, BUILT_AT, depsFor } from "../helpers/site.js";
import { servedWithRedis, withRedisClient } from "../helpers/redis.js";

const served = servedWithRedis();
const server = served.server;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) stopGroup(c);
});

/** Stops a process group this file started (spawned detached), by its own id. */
function stopGroup(c: ChildProcess): void {
  if (c.exitCode !== null || c.pid === undefined) return;
  try {
    process.kill(-c.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** Spawns a command line in its own process group and resolves with the URL it prints, and its output so far. */
function spawnServer(
  command: string,
  args: string[],
  shell = false,
): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true, shell });
  children.push(child);
  let text = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s:\n${text}`)), 30_000);
    const read = (d: Buffer) => {
      text += d.toString();
      const m = /on (http:\/\/[^ ]+) /.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, output: () => text, child });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}:\n${text}`));
    });
  });
}

/** `price-feed serve --dir <dir> --port 0 <flags>` as a user runs it (spawnServer). */
const serveCli = (dir: string, ...flags: string[]) =>
  spawnServer("node", ["dist/cli/bin.js", "serve", "--dir", dir, "--port", "0", ...flags]);

const get = (url: string, headers: Record<string, string> = {}, method = "GET") => fetch(url, { headers, method });
const problem = async (res: Response) => {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return Problem.parse(await res.json());
};

describe("preconditions (RFC 9110 §13.1.1, §13.1.4, in the order of §13.2.2)", () => {
  let s: RunningServer;
  let etag: string;
  let lastModified: string;
  const feed = () => `${s.url}/api/v1/feed.json`;
  beforeAll(async () => {
    s = await server();
    const first = await get(feed());
    etag = first.headers.get("etag")!;
    lastModified = first.headers.get("last-modified")!;
    await first.text();
  });
  const failed = async (res: Response, field: string) => {
    expect(res.status, field).toBe(412);
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("last-modified")).toBe(lastModified);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await problem(res)).toMatchObject({
      type: "/docs/#problem-precondition-failed",
      status: 412,
      title: "Precondition failed",
      instance: "/api/v1/feed.json",
    });
  };

  test("If-Match with the current ETag is 200; with another, 412 with the current ETag", async () => {
    expect((await get(feed(), { "If-Match": etag })).status).toBe(200);
    await failed(await get(feed(), { "If-Match": '"not-the-current-one"' }), "If-Match");
  });

  test("If-Match: * matches the current representation", async () => {
    expect((await get(feed(), { "If-Match": "*" })).status).toBe(200);
  });

  test("If-Match compares strongly: the weak form of the current ETag does not match", async () => {
    await failed(await get(feed(), { "If-Match": `W/${etag}` }), "weak");
  });

  test("If-Match takes a list: one current tag among others is enough", async () => {
    expect((await get(feed(), { "If-Match": `"a", W/"b", ${etag}` })).status).toBe(200);
  });

  test("If-Match that is not an entity-tag matches nothing: 412", async () => {
    await failed(await get(feed(), { "If-Match": `x${etag}y` }), "malformed");
  });

  test("If-Unmodified-Since before Last-Modified is 412", async () => {
    await failed(await get(feed(), { "If-Unmodified-Since": "Thu, 01 Jan 2026 00:00:00 GMT" }), "past");
  });

  test("If-Unmodified-Since in the future, or at Last-Modified, is 200", async () => {
    expect((await get(feed(), { "If-Unmodified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" })).status).toBe(200);
    expect((await get(feed(), { "If-Unmodified-Since": lastModified })).status).toBe(200);
  });

  test("If-Unmodified-Since that is not an HTTP-date is ignored", async () => {
    expect((await get(feed(), { "If-Unmodified-Since": "2026-01-01" })).status).toBe(200);
  });

  test("If-Unmodified-Since is ignored when If-Match is present", async () => {
    const h = { "If-Match": etag, "If-Unmodified-Since": "Thu, 01 Jan 2026 00:00:00 GMT" };
    expect((await get(feed(), h)).status).toBe(200);
  });

  test("If-Match is evaluated before If-None-Match: false If-Match is 412 even when If-None-Match matches", async () => {
    await failed(await get(feed(), { "If-Match": '"old"', "If-None-Match": etag }), "order");
  });

  test("true If-Match, then a matching If-None-Match: 304", async () => {
    expect((await get(feed(), { "If-Match": etag, "If-None-Match": etag })).status).toBe(304);
  });

  test("HEAD with a false precondition: 412 without a body", async () => {
    const res = await get(feed(), { "If-Match": '"old"' }, "HEAD");
    expect(res.status).toBe(412);
    expect(res.headers.get("etag")).toBe(etag);
    expect(await res.text()).toBe("");
  });

  test("a filtered answer and a page are checked against their own ETags", async () => {
    const filtered = `${s.url}/api/v1/feed.json?asset=us-dollar`;
    const own = (await get(filtered)).headers.get("etag")!;
    expect(own).not.toBe(etag);
    expect((await get(filtered, { "If-Match": own })).status).toBe(200);
    expect((await get(filtered, { "If-Match": etag })).status).toBe(412);
    const page = await get(`${s.url}/docs/`, { "If-Match": '"old"' });
    expect(page.status).toBe(412);
  });
});

describe("serve --now pins the data, not the rate limiter", () => {
  test("with --rate-limit 2/2, a 429's Retry-After waited out yields 200", async () => {
    const { url } = await serveCli(
      served.out,
      "--now",
      new Date(BUILT_AT + 60_000).toISOString(),
      "--rate-limit",
      "2/2",
    );
    const feed = `${url}/api/v1`;
    let refused: Response | null = null;
    for (let i = 0; i < 5 && !refused; i++) {
      const res = await get(feed);
      await res.text();
      if (res.status === 429) refused = res;
    }
    expect(refused, "the third request in the window is refused").not.toBeNull();
    const retry = Number(refused!.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, retry * 1000 + 100));
    const after = await get(feed);
    expect(after.status).toBe(200);
    // The data is still served at the pinned instant: the feed answer is the same build's.
    expect((await (await get(`${url}/readyz`)).json()).checkedAt).toBe(new Date(BUILT_AT + 60_000).toISOString());
  });

  test("the daily allowance's Cairo day and Daily-Reset follow the wall clock too", async () => {
    const s = await server({ nowMs: BUILT_AT + 60_000 });
    // The server read the wall clock between these two readings of it: Daily-Reset is what an instant
    // between them gives (the seconds to the next Cairo midnight only go down, or jump up at
    // midnight), whatever the pinned --now.
    const resetAt = (ms: number) => Math.ceil((nextCairoMidnight(ms) - ms) / 1000);
    const before = Date.now();
    const res = await get(`${s.url}/api/v1`);
    const after = Date.now();
    const reset = Number(res.headers.get("daily-reset"));
    const [lo, hi] = [resetAt(after), resetAt(before)].sort((x, y) => x - y);
    expect(reset).toBeGreaterThanOrEqual(lo!);
    expect(reset).toBeLessThanOrEqual(hi!);
  });
});

describe("health and preflight cost nothing; a refusal is not counted as used", () => {
  const preflight = { "Access-Control-Request-Method": "GET", Origin: "https://app.example" };

  test.each([{ store: "memory" }, { store: "redis" }])(
    "/readyz and OPTIONS do not spend the window nor the day ($store)",
    async ({ store }) => {
      const s = await server({
        limits: { window: 2, windowSeconds: 60, daily: 3 },
        trustProxy: true,
        ...(store === "redis" ? { redisUrl: served.redis.url } : {}),
      });
      const me = { "X-Forwarded-For": `198.51.100.${store === "redis" ? 21 : 20}` };
      for (let i = 0; i < 6; i++) {
        expect((await get(`${s.url}/readyz`, me)).status).toBe(200);
        expect((await get(`${s.url}/api/v1/feed.json`, { ...me, ...preflight }, "OPTIONS")).status).toBe(204);
      }
      const first = await get(`${s.url}/api/v1`, me);
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-remaining")).toBe("1");
      expect(first.headers.get("daily-used")).toBe("1");
      // They still say where the caller stands, and whether limits are enforced.
      const health = await get(`${s.url}/readyz`, me);
      expect(health.headers.get("ratelimit-remaining")).toBe("1");
      expect(Readiness.parse(await health.json()).rateLimiting).toBe("enforced");
    },
  );

  test("/readyz answers a caller that the window refuses", async () => {
    const s = await server({ limits: { window: 1, windowSeconds: 60, daily: 100 } });
    expect((await get(`${s.url}/api/v1`)).status).toBe(200);
    expect((await get(`${s.url}/api/v1`)).status).toBe(429);
    const health = await get(`${s.url}/readyz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("ratelimit-remaining")).toBe("0");
  });

  /** From one address, the [status, Daily-Used] of each answer; and, in Redis, the day's count kept. */
  const dailyUse: Array<{
    title: string;
    store: "memory" | "redis";
    limits: { window: number; windowSeconds: number; daily: number };
    client: string;
    seen: Array<[number, string]>;
    kept?: string;
  }> = [
    ...(["memory", "redis"] as const).map((store) => ({
      title: `a 429 does not raise Daily-Used (${store})`,
      store,
      limits: { window: 2, windowSeconds: 60, daily: 100 },
      client: `198.51.100.${store === "redis" ? 31 : 30}`,
      seen: [
        [200, "1"],
        [200, "2"],
        [429, "2"],
        [429, "2"],
        [429, "2"],
      ] as Array<[number, string]>,
      ...(store === "redis" ? { kept: "2" } : {}),
    })),
    {
      title: "past the daily allowance, the refusals are not counted either",
      store: "redis",
      limits: { window: 100, windowSeconds: 60, daily: 2 },
      client: "198.51.100.40",
      seen: [
        [200, "1"],
        [200, "2"],
        [429, "2"],
        [429, "2"],
      ],
    },
  ];

  for (const { title, store, limits, client, seen, kept } of dailyUse)
    test(title, async () => {
      const s = await server({
        limits,
        trustProxy: true,
        ...(store === "redis" ? { redisUrl: served.redis.url } : {}),
      });
      const used: Array<[number, string | null]> = [];
      for (let i = 0; i < seen.length; i++) {
        const res = await get(`${s.url}/api/v1`, { "X-Forwarded-For": client });
        used.push([res.status, res.headers.get("daily-used")]);
      }
      expect(used).toEqual(seen);
      if (kept !== undefined) {
        await withRedisClient(served.redis.url, async (redis) => {
          const keys = await redis.keys(`pf:d:*:${client}`);
          expect(await redis.get(keys[0]!)).toBe(kept);
        });
      }
    });

  test("a flood of unique addresses through the handler keeps the in-memory store bounded (GET, now that preflights are free)", async () => {
    const counters = new MemoryStore(500);
    const d = depsFor(served.out, { counters });
    for (let i = 0; i < 5000; i++) {
      const res = await handle(new Request("http://feed.test/api/v1"), {
        ...d,
        clientAddress: `${i}:${"a".repeat(1024)}`,
      });
      await res.body?.cancel();
      if (res.status !== 200 && res.status !== 429) throw new Error(`status ${res.status}`);
    }
    expect(counters.size.windows).toBeLessThanOrEqual(501);
  }, 60_000);
});

describe("the stale-site hint leads to a 200, and to a feed whose assets are not stale", () => {
  /**
   * Runs the backquoted commands of the hint's last line exactly as printed, in a shell: a build
   * first when it names one (from `data`, the --data it was built from, as the hint says), then the
   * server.
   */
  async function follow(output: string, data?: string): Promise<string> {
    const lines = output.split("\n").filter((l) => / --now \S+`/.test(l));
    expect(lines, output).toHaveLength(1);
    const commands = [...lines[0]!.matchAll(/`([^`]+ --now [^`]+)`/g)].map((m) => m[1]!);
    const build = commands.find((c) => c.includes(" build "));
    const serve = commands.find((c) => c.includes(" serve "))!;
    const line = build ? `${build} --data ${data} && ${serve}` : serve;
    const { url } = await spawnServer("bash", ["-c", line]);
    return url;
  }

  /** The feed's assets that say they are stale. */
  const staleInFeed = async (url: string) => {
    const feed = (await (await get(`${url}/api/v1/feed.json`)).json()) as {
      assets: Array<{ slug: string; freshness: { stale: boolean } }>;
    };
    return feed.assets.filter((a) => a.freshness.stale).map((a) => a.slug);
  };

  test("a build made days after its data ended, served at the real clock: the printed command answers /readyz 200", async () => {
    // As `npm run build` on the committed data: the build's own instant is long after the data went stale.
    const { out: late, data } = await builtSite(Date.now());
    const first = await serveCli(late);
    expect(await staleInFeed(first.url)).not.toEqual([]);
    expect((await get(`${first.url}/readyz`)).status).toBe(503);
    const until = Date.now() + 10_000;
    while (!first.output().includes("npm start") && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const output = first.output();
    expect(output).toContain("warning: serving data that is not fresh at the real clock");
    expect(output).not.toContain(`--now ${new Date(Date.now()).toISOString().slice(0, 13)}`);
    expect(output).toContain("when its data was already stale, and its documents say so at any clock");
    stopGroup(first.child);
    const url = await follow(output, data);
    const ready = await get(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(Readiness.parse(await ready.json()).status).toBe("ready");
    // Served at the same instant it was built at, the feed agrees with /readyz (issue 44).
    expect(await staleInFeed(url)).toEqual([]);
  });

  test("served at a pinned instant where it is stale: the printed command answers /readyz 200, and /readyz's action says the same", async () => {
    const first = await serveCli(served.out, "--now", "2026-11-25T12:00:00Z");
    const body = Readiness.parse(await (await get(`${first.url}/readyz`)).json());
    expect(body.status).toBe("not-ready");
    expect(body.action).toContain(`npx price-feed serve --dir ${served.out} --port 0 --now `);
    const until = Date.now() + 10_000;
    while (!first.output().includes("npm start") && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    stopGroup(first.child);
    const url = await follow(first.output());
    expect((await get(`${url}/readyz`)).status).toBe(200);
    expect(await staleInFeed(url)).toEqual([]);
    // /readyz's action ends with the very command the start-up line printed.
    expect(first.output()).toContain(/`([^`]+ --now [^`]+)`/.exec(body.action!)![1]!);
  });
});

describe("heavy anonymous traffic is limited first (real Redis, two servers)", () => {
  const limits = { window: 8, windowSeconds: 60, daily: 1000, busy: { limit: 6, seconds: 60 } };

  test("ordinary traffic: everyone gets the published limits", async () => {
    await withRedisClient(served.redis.url, (redis) => redis.flushall());
    const s = await server({ limits, redisUrl: served.redis.url, trustProxy: true });
    const res = await get(`${s.url}/api/v1`, { "X-Forwarded-For": "203.0.113.50" });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe("8;w=60");
    expect(res.headers.get("ratelimit-limit")).toBe("8");
  });

  test("busy: an anonymous caller gets a quarter of the burst, told how to identify itself; an identified one keeps it", async () => {
    await withRedisClient(served.redis.url, (redis) => redis.flushall());
    const a = await server({ limits, redisUrl: served.redis.url, trustProxy: true });
    const b = await server({ limits, redisUrl: served.redis.url, trustProxy: true });
    // Total traffic past 6 per 60 s, from many addresses, through server b only.
    for (let i = 0; i < 8; i++) await (await get(`${b.url}/api/v1`, { "X-Forwarded-For": `192.0.2.${i}` })).text();

    // Server a sees the total counted in Redis: anonymous callers are limited to 2.
    const anon = { "X-Forwarded-For": "203.0.113.60", "User-Agent": "curl/8.5.0" };
    const codes: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 4; i++) {
      last = await get(`${a.url}/api/v1`, anon);
      codes.push(last.status);
      if (i === 0) {
        expect(last.headers.get("ratelimit-limit")).toBe("2");
        expect(last.headers.get("ratelimit-policy")).toMatch(/^2;w=60;comment="[^"]*anonymous[^"]*"$/);
      }
      if (last.status === 200) await last.text();
    }
    expect(codes).toEqual([200, 200, 429, 429]);
    const p = await problem(last!);
    expect(p).toMatchObject({ type: "/docs/#problem-rate-limited", status: 429 });
    expect(p.detail).toContain("X-Contact");
    expect(p.detail).toContain("User-Agent");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);

    // Identified callers, by X-Contact or by a URL or e-mail address in User-Agent, keep the full 8.
    for (const [n, who] of [
      [61, { "X-Contact": "ops@app.example" }],
      [62, { "User-Agent": "Mozilla/5.0 (compatible; app/1.0; +https://app.example/contact)" }],
    ] as const) {
      const them = { "X-Forwarded-For": `203.0.113.${n}`, ...who };
      const got: number[] = [];
      for (let i = 0; i < 9; i++) {
        const res = await get(`${a.url}/api/v1`, them);
        got.push(res.status);
        if (i === 0) expect(res.headers.get("ratelimit-policy")).toBe("8;w=60");
        await res.text();
      }
      expect(got).toEqual([...Array(8).fill(200), 429]);
    }
  });

  test("without a shared store, the total is counted in memory", async () => {
    const s = await server({ limits, trustProxy: true });
    for (let i = 0; i < 8; i++)
      await (await get(`${s.url}/api/v1`, { "X-Forwarded-For": `192.0.2.${100 + i}` })).text();
    const res = await get(`${s.url}/api/v1`, { "X-Forwarded-For": "203.0.113.70" });
    expect(res.headers.get("ratelimit-limit")).toBe("2");
    const known = await get(`${s.url}/api/v1`, {
      "X-Forwarded-For": "203.0.113.71",
      "X-Contact": "https://app.example",
    });
    expect(known.headers.get("ratelimit-limit")).toBe("8");
  });

  test("serve --busy-threshold: the flag sets it, and a bad value is refused in one line", async () => {
    const { url } = await serveCli(served.out, "--rate-limit", "8/60", "--busy-threshold", "2/60");
    for (let i = 0; i < 3; i++) await (await get(`${url}/api/v1`)).text();
    expect((await get(`${url}/api/v1`)).headers.get("ratelimit-limit")).toBe("2");
    const bad = spawn(
      "node",
      ["dist/cli/bin.js", "serve", "--dir", served.out, "--port", "0", "--busy-threshold", "lots"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    bad.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => bad.once("exit", r));
    expect(code).toBe(1);
    expect(err).toContain('"lots" is not N/SECONDS');
  });
});
