import http from "node:http";
import { describe, expect, test } from "vitest";
import { RedisStore } from "../../src/server/redis-store.js";
import { UpstashStore } from "../../src/edge/upstash-store.js";
import { BUILT_AT } from "../helpers/site.js";
import { servedWithRedis, startRedis, withRedisClient } from "../helpers/redis.js";

const served = servedWithRedis();
const server = served.server;

describe("price-feed serve over real HTTP", () => {
  test("feed, 304 revalidation, HEAD, preflight, pages and one log line per request", async () => {
    const logs: string[] = [];
    const s = await server({}, logs);
    const res = await fetch(`${s.url}/api/v1/feed.json?asset=us-dollar`, {
      headers: { "X-Contact": "dev@app.example" },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).assets[0].id).toBe("USD-EGP");
    const etag = res.headers.get("etag")!;
    const again = await fetch(`${s.url}/api/v1/feed.json?asset=us-dollar`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("ratelimit-remaining")).toBe("238");
    const ims = await fetch(`${s.url}/api/v1/feed.json`, {
      headers: { "If-Modified-Since": res.headers.get("last-modified")! },
    });
    expect(ims.status).toBe(304);
    const head = await fetch(`${s.url}/api/v1/feed.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const pre = await fetch(`${s.url}/api/v1/feed.json`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://127.0.0.2:9999",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("If-None-Match");
    const readyz = await fetch(`${s.url}/readyz`);
    expect(readyz.status).toBe(200);
    expect(logs[0]).toMatch(/^GET \/api\/v1\/feed\.json\?asset=us-dollar 200 \d+\.\dms contact="dev@app\.example"$/);
    expect(logs).toHaveLength(6);
  });

  test("small limits: 429 past the window, per socket address unless --trust-proxy", async () => {
    const s = await server({ limits: { window: 2, windowSeconds: 60, daily: 100 } });
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await fetch(`${s.url}/api/v1`, { headers: { "X-Forwarded-For": `198.51.100.${i}` } })).status);
    expect(codes).toEqual([200, 200, 429]);
    // Behind a proxy, the client is the hop the proxy appended (the rightmost), whatever the client wrote before it.
    const t = await server({ limits: { window: 2, windowSeconds: 60, daily: 100 }, trustProxy: true });
    const trusted = [];
    for (let i = 0; i < 3; i++)
      trusted.push(
        (await fetch(`${t.url}/api/v1`, { headers: { "X-Forwarded-For": `192.0.2.66, 198.51.100.${i}` } })).status,
      );
    expect(trusted).toEqual([200, 200, 200]);
  });

  test("a raw request target with traversal and bad encoding gets a 4xx problem", async () => {
    const s = await server();
    for (const target of [
      "/api/v1/../../package.json",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/api/v1/feed.json?asset=%zz",
      "/..%2f..%2fpackage.json",
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port: s.port, path: target }, (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          })
          .on("error", reject);
      });
      expect(status, target).toBeGreaterThanOrEqual(400);
      expect(status, target).toBeLessThan(500);
    }
  });
});

describe("a page's address with no page, over real HTTP", () => {
  test.each([
    // address, Accept-Language, status, language, words
    ["/days/2026-13-01/", "ar", 400, "en", "No page at this address"],
    ["/days/2026-11-20/", "", 404, "en", "No page at this address"],
    ["/ar/days/2026-13-01/", "en", 400, "ar", "لا توجد صفحة بهذا العنوان"],
    ["/prices/today", "ar-EG,ar;q=0.9,en;q=0.5", 404, "ar", "لا توجد صفحة بهذا العنوان"],
    ["/prices/today", "en-GB", 404, "en", "No page at this address"],
  ])("%s (Accept-Language %j) → %i, a page in %s", async (target, accept, status, lang, words) => {
    const logs: string[] = [];
    const s = await server({}, logs);
    const res = await fetch(`${s.url}${target}`, { headers: accept ? { "Accept-Language": accept } : {} });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-language")).toBe(lang);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const page = await res.text();
    expect(page).toMatch(new RegExp(`^<!doctype html>\n<html lang="${lang}"`));
    expect(page).toContain(`<h1>${words}</h1>`);
    // Its way home answers, from the depth the page was served at.
    const home = /<li><a href="([^"]+)">/.exec(page)![1]!;
    expect((await fetch(new URL(home, `${s.url}${target}`))).status).toBe(200);
    expect(logs[0]).toMatch(new RegExp(`^GET ${target.replace(/\//g, "\\/")} ${status} `));
  });
});

describe("the serve command", () => {
  test.each(["SIGTERM", "SIGINT"] as const)("shuts down cleanly on %s", async (signal) => {
    const { spawn } = await import("node:child_process");
    const child = spawn(
      "node",
      ["dist/cli/bin.js", "serve", "--dir", served.out, "--port", "0", "--now", "2026-11-19T11:31:00Z"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        const m = /on (http:\/\/[^ ]+)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}`)));
    });
    expect((await fetch(`${url}/api/v1`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(stdout).toContain(`${signal}: closing`);
  });
});

describe("counters in a real Redis", () => {
  test("two servers sharing one Redis enforce one limit together", async () => {
    const limits = { window: 5, windowSeconds: 60, daily: 1000 };
    const a = await server({ redisUrl: served.redis.url, limits });
    const b = await server({ redisUrl: served.redis.url, limits });
    const codes = [];
    for (let i = 0; i < 8; i++) codes.push((await fetch(`${(i % 2 ? a : b).url}/api/v1`)).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const last = await fetch(`${a.url}/api/v1`);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last.headers.get("ratelimit-remaining")).toBe("0");
  });

  test("the daily allowance is counted across servers too", async () => {
    const limits = { window: 100, windowSeconds: 60, daily: 3 };
    const nowMs = BUILT_AT + 120_000;
    const a = await server({ redisUrl: served.redis.url, limits, nowMs, trustProxy: true });
    const b = await server({ redisUrl: served.redis.url, limits, nowMs, trustProxy: true });
    const h = { "X-Forwarded-For": "203.0.113.9" };
    const codes = [];
    for (const s of [a, b, a, b]) codes.push((await fetch(`${s.url}/api/v1`, { headers: h })).status);
    expect(codes).toEqual([200, 200, 200, 429]);
    const over = await fetch(`${a.url}/api/v1`, { headers: h });
    expect((await over.json()).type).toBe("/docs/#problem-daily-limit");
  });

  test("Redis unreachable: serve without limits, log it once, recover when it is back", async () => {
    const other = await startRedis();
    const logs: string[] = [];
    const store = new RedisStore(other.url, (l) => logs.push(l));
    expect(await store.hit("x", BUILT_AT, 60_000)).toMatchObject({ windowCount: 1, dayCount: 1 });
    await other.stop();
    expect(await store.hit("x", BUILT_AT, 60_000)).toBeNull();
    expect(await store.hit("x", BUILT_AT, 60_000)).toBeNull();
    expect(logs.filter((l) => l.includes("unreachable"))).toHaveLength(1);
    await store.close();

    const s = await server({ redisUrl: "redis://127.0.0.1:1", limits: { window: 1, windowSeconds: 60, daily: 1 } });
    expect((await fetch(`${s.url}/api/v1`)).status).toBe(200);
    expect((await fetch(`${s.url}/api/v1`)).status).toBe(200);
  });

  test("the Upstash REST store runs the same script (through a loopback REST endpoint over the real Redis)", async () => {
    await withRedisClient(served.redis.url, async (client) => {
      const rest = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", async () => {
          if (req.headers.authorization !== "Bearer token-1") {
            res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Unauthorized" }));
            return;
          }
          const [cmd, ...args] = JSON.parse(body) as string[];
          try {
            const result = await client.call(cmd!, ...args);
            res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ result }));
          } catch (e) {
            res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: String(e) }));
          }
        });
      });
      await new Promise<void>((r) => rest.listen(0, "127.0.0.1", () => r()));
      const url = `http://127.0.0.1:${(rest.address() as { port: number }).port}`;
      const store = new UpstashStore(url, "token-1");
      const started = Date.now();
      expect(await store.hit("u1", BUILT_AT, 60_000)).toMatchObject({ windowCount: 1, dayCount: 1 });
      const second = await store.hit("u1", BUILT_AT, 60_000);
      const answered = Date.now();
      expect(second).toMatchObject({ windowCount: 2, dayCount: 2 });
      // The window began at the first hit and lasts 60 s: what is left is 60 s less at most what passed
      // between the first hit's sending and the second's answer (both clocks count whole milliseconds).
      expect(second!.windowResetMs).toBeLessThanOrEqual(60_000);
      expect(second!.windowResetMs).toBeGreaterThanOrEqual(60_000 - (answered - started) - 1);
      const logs: string[] = [];
      expect(await new UpstashStore(url, "wrong", (l) => logs.push(l)).hit("u1", BUILT_AT, 60_000)).toBeNull();
      expect(logs[0]).toContain("Unauthorized");
      rest.close();
    });
  });
});
