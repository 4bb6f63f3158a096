/**
 * `price-feed verify URL|DIR` bounded and polite (issue 50, item 5), on loopback: against the
 * project's own server with its default limits (240 a minute, 1,000 a day) and a real signed build
 * of the sample data, it keeps within the window the site publishes and passes, where it used to
 * get 267 lines of "answered 429"; it waits out Retry-After; a server that never answers, one that
 * sends a byte at a time, an endless body and a run that outlasts its time-out each end in one line;
 * a statement of 200,000 unreadable entries is checked in linear time; and each failure says what
 * is wrong and what to do (a missing folder, a folder with nothing built, an unsigned build,
 * nothing listening, a host that cannot be resolved).
 *
 * The waits run on a clock the test advances (the server's limiter and verify's pacing share it),
 * so a minute's window costs no minute; every request is real HTTP on loopback.
 */
import { createServer, type Server } from "node:http";
import { createPrivateKey, sign } from "node:crypto";
import { promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { folderReader, urlReader, verifySite, type UrlReaderOptions } from "../../src/jobs/verify.js";
import { newKeyPair, SIGNING_KEY_VAR } from "../../src/io/signing-key.js";
import { statementText } from "../../src/core/statement.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../src/core/limits.js";
import { files } from "../../src/feed/paths.js";
import { main } from "../../src/cli/main.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import type { PublicKeyEntry } from "../../src/schema/signing.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";

const SAMPLE_AT = Date.parse("2026-11-19T12:30:00Z");

let root: string;
let key: { privatePem: string; entry: PublicKeyEntry };
/** The committed sample data, built and signed (505 files: more than a window of 240 allows). */
let sample: string;
/** The small test dataset, built and signed (about 120 files). */
let small: string;
let unsigned: string;

beforeAll(async () => {
  root = await tempDir("pf-verify-");
  key = await newKeyPair(SAMPLE_AT - 30 * 86_400_000);
  const keys = JSON.stringify({ schemaVersion: 1, keys: [key.entry] });
  const env = { [SIGNING_KEY_VAR]: key.privatePem };
  const data = path.join(root, "data");
  await fs.cp(path.resolve("data"), data, { recursive: true });
  await fs.writeFile(path.join(data, "keys.json"), keys);
  sample = path.join(root, "sample");
  await runBuild({ dataDir: data, outDir: sample, nowMs: SAMPLE_AT, saveState: false, env });
  const smallData = await writeDataset(path.join(root, "small-data"), smallRows());
  await fs.writeFile(path.join(smallData, "keys.json"), keys);
  small = path.join(root, "small");
  await runBuild({ dataDir: smallData, outDir: small, nowMs: BUILT_AT, saveState: false, env });
  unsigned = path.join(root, "unsigned");
  await runBuild({ dataDir: smallData, outDir: unsigned, nowMs: BUILT_AT, saveState: false, unsigned: true });
}, 120_000);
afterAll(() => fs.rm(root, { recursive: true, force: true }));

/** A clock the test advances: verify's waits move it instead of passing real time. */
function fakeTime() {
  const clock = { t: Date.now(), waited: 0 };
  const sleep = async (ms: number) => {
    const until = clock.t + ms;
    await new Promise((r) => setImmediate(r));
    if (until > clock.t) {
      clock.waited += until - clock.t;
      clock.t = until;
    }
  };
  const o: UrlReaderOptions = { now: () => clock.t, sleep };
  return { clock, o };
}

/** `price-feed serve` over `dir` on loopback, its limiter on `clock`, each log line kept. */
async function serve(
  dir: string,
  clock: { t: number },
  limits = { window: WINDOW_LIMIT, windowSeconds: WINDOW_SECONDS, daily: DAILY_LIMIT },
): Promise<{ server: RunningServer; logs: string[] }> {
  const logs: string[] = [];
  const server = await startServer({
    dir,
    port: 0,
    host: "127.0.0.1",
    nowMs: SAMPLE_AT + 60_000,
    limits,
    trustProxy: false,
    limiterClock: () => clock.t,
    log: (l) => logs.push(l),
  });
  return { server, logs };
}

/** A loopback server answering each request with `handle`; its base URL and close. */
async function loopback(
  handle: Parameters<typeof createServer>[1],
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe("polite: within the site's published rate limit", () => {
  test("passes against price-feed serve with its default limits, 505 files, no 429", async () => {
    const { clock, o } = fakeTime();
    const { server, logs } = await serve(sample, clock);
    try {
      const r = await verifySite(urlReader(server.url, o), [key.entry]);
      expect(r.fatal, r.hint ?? "").toBeNull();
      expect(r.problems).toEqual([]);
      expect(r.checked).toBeGreaterThan(2 * WINDOW_LIMIT);
      // It waited for the window to turn rather than be refused: two full windows and more.
      expect(logs.filter((l) => / 429 /.test(l))).toEqual([]);
      expect(clock.waited).toBeGreaterThanOrEqual(2 * WINDOW_SECONDS * 1000);
    } finally {
      await server.close();
    }
  }, 120_000);

  test("waits out Retry-After on a 429 without RateLimit headers, then passes", async () => {
    const { clock, o } = fakeTime();
    const asked = new Map<string, number>();
    const site = await loopback((req, res) => {
      const p = decodeURIComponent(new URL(req.url!, "http://x").pathname.slice(1));
      const n = (asked.get(p) ?? 0) + 1;
      asked.set(p, n);
      if (n === 1) {
        res.writeHead(429, { "Retry-After": "2", "Content-Type": "application/problem+json" });
        res.end("{}");
        return;
      }
      void fs.readFile(path.join(small, p)).then(
        (b) => res.end(b),
        () => res.writeHead(404).end(),
      );
    });
    try {
      const r = await verifySite(urlReader(site.url, o), [key.entry]);
      expect(r.fatal, r.hint ?? "").toBeNull();
      expect(r.problems).toEqual([]);
      expect([...asked.values()].every((n) => n === 2)).toBe(true);
      expect(clock.waited).toBeGreaterThanOrEqual(2000);
    } finally {
      await site.close();
    }
  });

  test("the site's daily limit spent: stops at once, saying so and what to do", async () => {
    const { clock, o } = fakeTime();
    const { server, logs } = await serve(small, clock, {
      window: WINDOW_LIMIT,
      windowSeconds: WINDOW_SECONDS,
      daily: 40,
    });
    try {
      const r = await verifySite(urlReader(server.url, o), [key.entry]);
      expect(r.fatal).toMatch(/answered 429: this address has spent the site's daily limit, and it asks to wait \d+ s/);
      expect(r.hint).toMatch(/after the site's day turns \(midnight Africa\/Cairo\), or from another address/);
      // It stopped: not one more request per file past the limit.
      expect(logs.filter((l) => / 429 /.test(l)).length).toBeLessThanOrEqual(8);
    } finally {
      await server.close();
    }
  });
});

describe("bounded: time-outs and the byte limit", () => {
  test("a server that never answers: the request's time-out, one line", async () => {
    const site = await loopback(() => {});
    try {
      const started = Date.now();
      const r = await verifySite(urlReader(site.url, { timeoutMs: 300 }), [key.entry]);
      expect(r.fatal).toBe(`${files.statement} got no answer within 300 ms (--timeout)`);
      expect(r.hint).toMatch(/^check that http:\/\/127\.0\.0\.1:\d+ is the site's base URL/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await site.close();
    }
  });

  test("a body sent a byte at a time: cut at the time-out", async () => {
    const site = await loopback((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const timer = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(timer));
    });
    try {
      const r = await verifySite(urlReader(site.url, { timeoutMs: 400 }), [key.entry]);
      expect(r.fatal).toBe(
        `${files.statement} was not received whole within 400 ms (--timeout): the body came too slowly`,
      );
    } finally {
      await site.close();
    }
  });

  test("an endless body without Content-Length: counted as it streams, cut at the limit", async () => {
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const site = await loopback((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    try {
      const r = await verifySite(urlReader(site.url, { maxBytes: 1024 * 1024 }), [key.entry]);
      expect(r.fatal).toBe(`${files.statement} sent more than the limit of 1048576 bytes: cut off`);
      // The server was stopped near the limit, not read to its end (a 1 GB body took 3.2 GB).
      expect(sent).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await site.close();
    }
  });

  test("the whole run's time-out: files that never come stop the check in one line", async () => {
    const site = await loopback((req, res) => {
      const p = decodeURIComponent(new URL(req.url!, "http://x").pathname.slice(1));
      if (p !== files.statement && p !== files.statementSig) return; // never answered
      fs.readFile(path.join(small, p)).then((b) => res.end(b));
    });
    try {
      const r = await verifySite(urlReader(site.url, { timeoutMs: 60_000, runTimeoutMs: 800 }), [key.entry]);
      expect(r.fatal).toMatch(/^the check took longer than its 1 s \(--run-timeout\), with 2 answers received/);
      expect(r.hint).toMatch(/--run-timeout SECONDS/);
    } finally {
      await site.close();
    }
  });

  test("a statement of 200,000 entries that cannot be read: each named once, in linear time", async () => {
    const dir = path.join(root, "hostile");
    await fs.mkdir(path.join(dir, "api/v1"), { recursive: true });
    const listed: Record<string, string> = {};
    for (let i = 0; i < 200_000; i++) listed[`../x${i}`] = "0".repeat(64);
    const text = statementText({
      generatedAt: new Date(SAMPLE_AT).toISOString(),
      feedEtag: '"x"',
      site: null,
      files: listed,
    });
    await fs.writeFile(path.join(dir, files.statement), text);
    const sig = sign(null, Buffer.from(text), createPrivateKey(key.privatePem)).toString("base64url");
    await fs.writeFile(
      path.join(dir, files.statementSig),
      JSON.stringify({ alg: "Ed25519", keyId: key.entry.id, sig }),
    );
    const r = await verifySite(folderReader(dir), [key.entry]);
    expect(r.fatal).toBeNull();
    expect(r.problems).toHaveLength(200_000);
    expect(new Set(r.problems.map((p) => p.problem))).toEqual(new Set(["not a path inside the site"]));
  }, 60_000);
});

describe("each failure says what is wrong and what to do", () => {
  /** `price-feed verify ...args` in-process: its exit status and what it printed. */
  async function verifyCli(...args: string[]): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = [];
    const log = vi
      .spyOn(console, "log")
      .mockImplementation((...a: unknown[]) => void lines.push(...a.join(" ").split("\n")));
    const err = vi
      .spyOn(console, "error")
      .mockImplementation((...a: unknown[]) => void lines.push(...a.join(" ").split("\n")));
    try {
      return { code: await main(["node", "price-feed", "verify", ...args, "--key", key.entry.publicKey]), lines };
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  }

  test("a folder that is not there is not called unsigned", async () => {
    const missing = path.join(root, "nowhere");
    expect(await verifyCli(missing)).toEqual({
      code: 1,
      lines: [
        `price-feed verify: ${missing}: no such folder`,
        "pass a folder `price-feed build --out` wrote, or a deployment's URL (http:// or https://)",
      ],
    });
  });

  test("a folder with nothing built, and an unsigned build, each in its words", async () => {
    const empty = path.join(root, "empty");
    await fs.mkdir(empty, { recursive: true });
    const none = await verifyCli(empty);
    expect(none.code).toBe(1);
    expect(none.lines[0]).toBe(
      `price-feed verify: ${empty}: ${files.statement} is missing, and so is _manifest.json: no build of price-feed is there`,
    );
    expect(none.lines[1]).toMatch(/^check that .* is the site's base URL/);
    const plain = await verifyCli(unsigned);
    expect(plain.lines).toEqual([
      `price-feed verify: ${unsigned}: the build is not signed (${files.statement} is missing and _manifest.json says "signed": false)`,
      `build it with PRICE_FEED_SIGNING_KEY set to a key data/keys.json lists (docs/operating.md "Signing keys")`,
    ]);
  });

  test("nothing listening is not just 'fetch failed'", async () => {
    const site = await loopback(() => {});
    const url = site.url;
    await site.close();
    const r = await verifyCli(url);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe(
      `price-feed verify: ${url}: ${files.statement} could not be fetched: nothing is listening at ${url.slice(7)} (connection refused)`,
    );
    expect(r.lines[1]).toMatch(/and that it answers; then run verify again$/);
  });

  test("a host that cannot be resolved (RFC 6761 .invalid)", async () => {
    const r = await verifyCli("http://price-feed.invalid", "--timeout", "5000");
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(
      /could not be fetched: the host price-feed\.invalid cannot be resolved \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
  });
});
