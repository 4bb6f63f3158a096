/**
 * The bundled Netlify edge function in its real runtime, Deno (the npm package `deno` ships the
 * binary), behind test/helpers/netlify-harness.ts, which plays Netlify's side: routes from
 * netlify.toml, `context.next()` answering the built files, `context.ip`, `Netlify.env`. Deno runs
 * with the least it needs: the network of 127.0.0.1 only, reading the site and the bundle only, and
 * the adapter's environment variables only. Every check is over real HTTP on loopback.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bundleEdge } from "../../scripts/bundle-edge.js";
import { Feed } from "../../src/schema/outputs.js";
import { Manifest, Problem } from "../../src/schema/documents.js";
import { builtSite, depsFor } from "../helpers/site.js";
import { handle } from "../../src/edge/handler.js";
import { tempDir } from "../helpers/dataset.js";
import { installability } from "../helpers/installable.js";
import { WORKER_CSP } from "../../src/core/csp.js";

const HARNESS = fileURLToPath(new URL("../helpers/netlify-harness.ts", import.meta.url));
/** The variables the adapter reads, and the only ones Deno may. */
const ENV_VARS = [
  "PRICE_FEED_BUSY_THRESHOLD",
  "PRICE_FEED_INTERNAL_TOKEN",
  "PRICE_FEED_RATE_LIMIT",
  "PRICE_FEED_DAILY_LIMIT",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
];
const INTERNAL = "x-price-feed-internal";
const TOKEN = `test-${randomUUID()}`;
const NOT_SET = "PRICE_FEED_INTERNAL_TOKEN is not set";

/**
 * The Deno binary: the project's optional dependency `@deno/<platform>` (the platform package of the
 * `deno` npm package, which ships the binary itself), else `DENO_BIN` or `deno` on the PATH. Only the
 * Linux x64 package is a dependency: this project's registry mirror serves no other platform's, and
 * a lockfile naming them would make `npm ci` fail.
 */
function denoBinary(): string {
  const pkg = `@deno/${process.platform}-${process.arch}${process.platform === "linux" ? "-glibc" : ""}`;
  try {
    return path.join(
      path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)),
      process.platform === "win32" ? "deno.exe" : "deno",
    );
  } catch {
    return process.env["DENO_BIN"] ?? "deno";
  }
}

interface Harness {
  url: string;
  stderr: () => string;
  stop: () => void;
}

const running: ChildProcess[] = [];
let deno: string;
let denoDir: string;
let out: string;
let bundle: string;
let routes: string[];
let manifest: Manifest;
let feedFile: string;

async function startHarness(env: Record<string, string>): Promise<Harness> {
  const child = spawn(
    deno,
    [
      "run",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      "--no-remote",
      "--no-npm",
      "--allow-net=127.0.0.1",
      `--allow-read=${out},${bundle}`,
      `--allow-env=${ENV_VARS.join(",")}`,
      HARNESS,
      bundle,
      out,
      ...routes,
    ],
    // Nothing of this process's environment: only what the test gives the "deploy".
    {
      env: { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PACKAGE_JSON: "1", DENO_DIR: denoDir, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the harness did not listen within 20 s: ${stderr}`)), 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /\{"listening":(\d+)\}/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the harness exited (${code}): ${stderr}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, stderr: () => stderr, stop: () => child.kill() };
}

/** Waits for Deno's stderr to catch up with the answers already received. */
async function stderrOnceSettled(h: Harness, expected: string): Promise<string> {
  for (let i = 0; i < 40 && !h.stderr().includes(expected); i++) await new Promise((r) => setTimeout(r, 50));
  return h.stderr();
}

/** A GET from another loopback address, so that `context.ip` differs (fetch cannot choose its source). */
function getFrom(
  localAddress: string,
  url: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { localAddress }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

let site: Harness;
let limited: Harness;
let unset: Harness;
let blank: Harness;

beforeAll(async () => {
  const [built, edgeDir, dir, toml] = await Promise.all([
    builtSite(),
    tempDir(),
    tempDir(),
    fs.readFile("netlify.toml", "utf8"),
  ]);
  out = built.out;
  denoDir = dir;
  bundle = await bundleEdge(path.join(edgeDir, "api.js"));
  // The paths netlify.toml gives the function, as Netlify would route them.
  routes = [...toml.matchAll(/\[\[edge_functions\]\]\s*function = "api"\s*path = "([^"]+)"/g)].map((m) => m[1]!);
  expect(routes).toEqual(["/api/*", "/readyz", "/sw.js"]);
  deno = denoBinary();
  manifest = Manifest.parse(JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")));
  feedFile = await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8");
  [site, limited, unset, blank] = await Promise.all([
    startHarness({ PRICE_FEED_INTERNAL_TOKEN: TOKEN }),
    startHarness({ PRICE_FEED_INTERNAL_TOKEN: TOKEN, PRICE_FEED_RATE_LIMIT: "3/60", PRICE_FEED_DAILY_LIMIT: "50" }),
    startHarness({}),
    startHarness({ PRICE_FEED_INTERNAL_TOKEN: "  " }),
  ]);
}, 60_000);

afterAll(() => {
  for (const c of running) c.kill();
});

async function expectProblem(res: Response, status: number, slug: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const p = Problem.parse(await res.json());
  expect(p).toMatchObject({ status, type: `/docs/#problem-${slug}` });
  return p;
}

describe("the web app on the edge (issue 53)", () => {
  test("the service worker comes from the function with its own headers; the pages and the manifest are static", async () => {
    const sw = await fetch(`${site.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get("x-harness")).toBeNull(); // the function's answer, not the CDN's
    expect(sw.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(sw.headers.get("content-security-policy")).toBe(WORKER_CSP);
    expect(sw.headers.get("cache-control")).toBe("no-cache");
    expect(await sw.text()).toBe(await fs.readFile(path.join(out, "sw.js"), "utf8"));
    const m = await fetch(`${site.url}/app.webmanifest`);
    expect(m.headers.get("x-harness")).toBe("static");
    expect(((await m.json()) as { start_url: string }).start_url).toBe("./");
  });

  test.each(["/", "/ar/"])(
    "Chromium finds no installability error on %s served by the edge",
    async (p) => {
      const found = await installability(site.url + p);
      expect(found.url).toBe(`${site.url}${p}app.webmanifest`);
      expect(found.manifest).toEqual([]);
      expect(found.console).toEqual([]);
      expect(found.errors).toEqual([]);
    },
    60_000,
  );
});

describe("the edge function under Deno, behind Netlify's side", () => {
  test("the runtime is Deno 2", async () => {
    const version = await new Promise<string>((resolve, reject) => {
      const c = spawn(deno, ["--version"], { env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } });
      let s = "";
      c.stdout.on("data", (d: Buffer) => (s += d.toString()));
      c.once("exit", () => resolve(s)).once("error", reject);
    });
    expect(version).toMatch(/^deno 2\./);
  });

  test("the feed: 200 with the published bytes, ETag, cache, CORS, security and rate-limit headers", async () => {
    const res = await fetch(`${site.url}/api/v1/feed.json`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(feedFile);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      etag: manifest.files["api/v1/feed.json"]!.etag,
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cross-origin-resource-policy": "cross-origin",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "ratelimit-limit": "240",
      "ratelimit-policy": "240;w=60",
      "daily-limit": "1000",
    });
    expect(Number(res.headers.get("ratelimit-remaining"))).toBeLessThan(240);
    expect(Number(res.headers.get("daily-used"))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get("x-harness")).toBeNull(); // the function's answer, not the CDN's
  });

  test("304 on If-None-Match, without a body", async () => {
    const etag = manifest.files["api/v1/feed.json"]!.etag;
    const res = await fetch(`${site.url}/api/v1/feed.json`, { headers: { "If-None-Match": etag } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("a filtered answer: composed from the feed, _self echoing the request, revalidating with its own ETag", async () => {
    const q = "/api/v1/feed.json?asset=USD-EGP,gold-24k";
    const res = await fetch(`${site.url}${q}`);
    expect(res.status).toBe(200);
    const body = Feed.parse(await res.json());
    expect(body.assets.map((a) => a.id)).toEqual(["USD-EGP", "XAU24K-EGP"]);
    expect(body._self).toBe(q);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((await fetch(`${site.url}${q}`, { headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  test("a 400 problem naming the valid values, and a 404 problem", async () => {
    const bad = await fetch(`${site.url}/api/v1/feed.json?category=stocks`);
    expect((await expectProblem(bad, 400, "unknown-category"))["validCategories"]).toEqual(manifest.categories);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
    expect(bad.headers.get("cache-control")).toBe("no-store");
    await expectProblem(await fetch(`${site.url}/api/v1/nothing.json`), 404, "not-found");
  });

  test("the archive: narrowed at the edge as the local server narrows it, with its own ETag; its 400 and 404", async () => {
    const local = depsFor(out);
    for (const q of [
      "/api/v1/history/USD-EGP.json?from=2026-11-10&to=2026-11-12",
      "/api/v1/history/us-dollar.csv?from=2026-11-17",
      "/api/v1/history/GOLD-24K.json",
      "/api/v1/days.json",
    ]) {
      const res = await fetch(`${site.url}${q}`);
      const mine = await handle(new Request(`http://feed.test${q}`), local);
      expect(res.status, q).toBe(200);
      expect(res.headers.get("etag"), q).toBe(mine.headers.get("etag"));
      expect(res.headers.get("content-type"), q).toBe(mine.headers.get("content-type"));
      expect(await res.text(), q).toBe(await mine.text());
      const etag = res.headers.get("etag")!;
      expect((await fetch(`${site.url}${q}`, { headers: { "If-None-Match": etag } })).status, q).toBe(304);
    }
    const bad = await expectProblem(
      await fetch(`${site.url}/api/v1/history/us-dollar.json?to=2026-13-01`),
      400,
      "invalid-date",
    );
    expect(bad["parameter"]).toBe("to");
    const unknown = await expectProblem(
      await fetch(`${site.url}/api/v1/history/bitcoin.csv`),
      404,
      "unknown-asset-path",
    );
    expect(unknown["validAssets"]).toEqual(manifest.assets.map((a) => a.slug));
    await expectProblem(await fetch(`${site.url}/api/v1/days/2020-01-01.json`), 404, "no-such-day");
  });

  test("/readyz is the function's, never cached", async () => {
    const res = await fetch(`${site.url}/readyz`);
    expect([200, 503]).toContain(res.status);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("ratelimit-limit")).toBe("240");
    expect(await res.json()).toHaveProperty("status");
  });

  test("the secret header with the right token steps aside to the published file", async () => {
    // Even for a target the handler would refuse: the CDN answers the file at the path.
    for (const target of ["/api/v1/feed.json", "/api/v1/feed.json?category=stocks"]) {
      const res = await fetch(`${site.url}${target}`, { headers: { [INTERNAL]: TOKEN } });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-harness")).toBe("static");
      expect(res.headers.get("ratelimit-limit")).toBeNull();
      expect(await res.text()).toBe(feedFile);
    }
  });

  test.each(["price-feed-internal", `${TOKEN}x`, ""])(
    "the secret header with a wrong token (%j) is answered by the handler",
    async (token) => {
      const res = await fetch(`${site.url}/api/v1/feed.json?category=stocks`, { headers: { [INTERNAL]: token } });
      expect(res.headers.get("x-harness")).toBeNull();
      expect(res.headers.get("ratelimit-limit")).toBe("240");
      await expectProblem(res, 400, "unknown-category");
    },
  );

  test("paths netlify.toml does not give the function are the CDN's", async () => {
    const res = await fetch(`${site.url}/_manifest.json`);
    expect(res.headers.get("x-harness")).toBe("static");
    expect(Manifest.parse(await res.json()).generatedAt).toBe(manifest.generatedAt);
  });

  test("a configured deploy logs nothing about the token", async () => {
    expect(site.stderr()).not.toContain(NOT_SET);
  });
});

describe("rate limits set by PRICE_FEED_RATE_LIMIT and PRICE_FEED_DAILY_LIMIT", () => {
  test("3 per 60 s: the 4th request is a 429 with Retry-After; the function's own reads do not count; another address is apart", async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) answers.push(await fetch(`${limited.url}/api/v1/feed.json`));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(Object.fromEntries(answers[0]!.headers)).toMatchObject({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "2",
      "ratelimit-policy": "3;w=60",
      "daily-limit": "50",
      "daily-used": "1",
    });
    const last = answers[3]!;
    expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(last.headers.get("ratelimit-remaining")).toBe("0");
    expect(last.headers.get("cache-control")).toBe("no-store");
    expect(last.headers.get("x-content-type-options")).toBe("nosniff");
    await expectProblem(last, 429, "rate-limited");
    for (const r of answers.slice(0, 3)) await r.body?.cancel();
    // context.ip is the connection's address: 127.0.0.2 has its own window.
    const other = await getFrom("127.0.0.2", `${limited.url}/api/v1/feed.json`);
    expect(other.status).toBe(200);
    expect(other.headers["ratelimit-remaining"]).toBe("2");
  });
});

describe.each([
  { name: "unset", harness: () => unset },
  { name: "blank", harness: () => blank },
])("PRICE_FEED_INTERNAL_TOKEN $name: the function fails closed", ({ harness }) => {
  test.each([
    { target: "/api/v1/feed.json", init: {} },
    { target: "/api/v1/feed.json", init: { headers: { [INTERNAL]: "price-feed-internal" } } },
    { target: "/api/v1/feed.json", init: { headers: { [INTERNAL]: "" } } },
    { target: "/api/v1", init: {} },
    { target: "/readyz", init: {} },
    { target: "/api/v1/feed.json", init: { method: "OPTIONS" } },
  ])("$target $init → 503 problem, never the file", async ({ target, init }) => {
    const res = await fetch(`${harness().url}${target}`, init);
    expect(res.headers.get("x-harness")).toBeNull();
    expect(res.headers.get("ratelimit-limit")).toBeNull();
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "access-control-allow-origin": "*",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    });
    const p = await expectProblem(res, 503, "unavailable");
    expect(p.instance).toBe(new URL(target, "http://x").pathname);
    expect(JSON.stringify(p)).not.toContain("PRICE_FEED");
  });

  test("HEAD → 503 without a body", async () => {
    const res = await fetch(`${harness().url}/api/v1/feed.json`, { method: "HEAD" });
    expect(res.status).toBe(503);
    expect(await res.text()).toBe("");
  });

  test("says why in the log, once", async () => {
    const log = await stderrOnceSettled(harness(), NOT_SET);
    expect(count(log, NOT_SET)).toBe(1);
  });
});
