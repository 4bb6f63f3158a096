/**
 * Fault injection, the limits (issue 11): nobody escapes them by writing X-Forwarded-For, by
 * spelling one address many ways, or by flooding the in-memory store with unique keys; a slow Redis
 * (paused with SIGSTOP for 400 ms) still enforces them, and only a dead one fails open — visibly, in
 * the log and in /readyz.
 */
import { describe, expect, test } from "vitest";
import { Redis } from "ioredis";
import { MemoryStore, OVERFLOW_KEY } from "../../src/edge/counters.js";
import { clientAddress, clientKey, normalizeIp } from "../../src/edge/client.js";
import { handle } from "../../src/edge/handler.js";
import { BUILT_AT, depsFor } from "../helpers/site.js";
import { servedWithRedis, startRedis } from "../helpers/redis.js";

const served = servedWithRedis({ limits: { window: 3, windowSeconds: 60, daily: 1000 } });
const server = served.server;

const statuses = async (url: string, headers: Array<Record<string, string>>) => {
  const out: number[] = [];
  for (const h of headers) out.push((await fetch(url, { headers: h })).status);
  return out;
};

describe("the client key is the address the trusted proxy saw", () => {
  test("--trust-proxy: rotating the leftmost X-Forwarded-For hop (the client's own) does not escape a 3/60 limit", async () => {
    const s = await server({ trustProxy: true });
    const codes = await statuses(
      `${s.url}/api/v1`,
      Array.from({ length: 8 }, (_, i) => ({ "X-Forwarded-For": `198.51.100.${i}, 203.0.113.5` })),
    );
    expect(codes).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  });

  test("--trusted-proxies: the rightmost hop that is not a trusted proxy is the client", async () => {
    const s = await server({ trustProxy: true, trustedProxies: ["10.0.0.0/8"] });
    const spoofed = Array.from({ length: 5 }, (_, i) => ({ "X-Forwarded-For": `192.0.2.${i}, 203.0.113.7, 10.1.2.3` }));
    expect(await statuses(`${s.url}/api/v1`, spoofed)).toEqual([200, 200, 200, 429, 429]);
    // Another client behind the same proxies has its own allowance.
    expect(await statuses(`${s.url}/api/v1`, [{ "X-Forwarded-For": "203.0.113.8, 10.1.2.3" }])).toEqual([200]);
    const h = (xff: string) => new Headers({ "x-forwarded-for": xff });
    const trusted = (a: string) => a.startsWith("10.");
    expect(clientAddress("10.0.0.1", h("6.6.6.6, 203.0.113.7, 10.0.0.2"), { trustProxy: true, trusted })).toBe(
      "203.0.113.7",
    );
    expect(clientAddress("10.0.0.1", h("6.6.6.6, 203.0.113.7"), { trustProxy: true })).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.1", h("6.6.6.6"), { trustProxy: false })).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", h("not-an-ip, 10.0.0.2"), { trustProxy: true, trusted })).toBe("10.0.0.2");
  });

  test("--client-ip-header: the header the proxy sets is the client, X-Forwarded-For is ignored", async () => {
    const s = await server({ trustProxy: true, clientIpHeader: "X-Real-IP" });
    const codes = await statuses(
      `${s.url}/api/v1`,
      Array.from({ length: 4 }, (_, i) => ({ "X-Real-IP": "203.0.113.9", "X-Forwarded-For": `198.51.100.${i}` })),
    );
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  test("IPv6 spellings are one client, and an IPv6 client is keyed by its /64; an IPv4-mapped address is the IPv4 one", async () => {
    const s = await server({ trustProxy: true });
    const v6 = ["2001:DB8:0:0:0:0:0:1", "2001:db8::1", "[2001:db8::1]:443", "2001:db8::abcd", "2001:db8::1"].map(
      (a) => ({ "X-Forwarded-For": a }),
    );
    expect(await statuses(`${s.url}/api/v1`, v6)).toEqual([200, 200, 200, 429, 429]);
    const v4 = ["::ffff:198.51.100.200", "198.51.100.200", "::FFFF:C633:64C8", "198.51.100.200:5555"].map((a) => ({
      "X-Forwarded-For": a,
    }));
    expect(await statuses(`${s.url}/api/v1`, v4)).toEqual([200, 200, 200, 429]);
    expect(normalizeIp("2001:0DB8:0000:0000:0001:0000:0000:0001")).toBe("2001:db8::1:0:0:1"); // RFC 5952: the first longest run
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientKey("x".repeat(8192)).length).toBe(64);
  });
});

describe("the in-memory store is bounded", () => {
  test("a flood of unique keys cannot grow it, nor reset a tracked client's counts; newcomers share one overflow count", async () => {
    const store = new MemoryStore(1000);
    const t = BUILT_AT;
    for (let i = 0; i < 5; i++) await store.hit("203.0.113.1", t, 60_000);
    for (let i = 0; i < 20_000; i++) await store.hit(`key-${i}-${"k".repeat(100)}`, t + 1, 60_000);
    expect(store.size.windows).toBeLessThanOrEqual(1001);
    expect(store.size.days).toBeLessThanOrEqual(1001);
    expect(await store.hit("203.0.113.1", t + 2, 60_000)).toMatchObject({ windowCount: 6, dayCount: 6 });
    // Newcomers beyond the bound are counted together: limited sooner, never later.
    const newcomer = await store.hit("198.51.100.99", t + 3, 60_000);
    expect(newcomer.windowCount).toBeGreaterThan(19_000);
    expect(store.size.windows).toBeLessThanOrEqual(1001);
    void OVERFLOW_KEY;
  });

  test("expired windows are evicted as time passes", async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 5000; i++) await store.hit(`198.51.${i >> 8}.${i & 255}`, BUILT_AT, 60_000);
    expect(store.size.windows).toBe(5000);
    await store.hit("203.0.113.1", BUILT_AT + 61_000, 60_000);
    expect(store.size.windows).toBe(1);
  });

  test("through the handler: 20,000 requests with unique 8 KB addresses keep the store small", async () => {
    const counters = new MemoryStore(2000);
    const d = depsFor(served.out, { counters });
    for (let i = 0; i < 20_000; i += 1) {
      // GET: a preflight spends nothing and makes no counter (docs/operating.md), so it would not test the bound.
      const res = await handle(new Request("http://feed.test/api/v1/feed.json"), {
        ...d,
        clientAddress: `${i}:${"a".repeat(8192)}`,
      });
      if (res.status !== 200 && res.status !== 429) throw new Error(`status ${res.status}`);
    }
    expect(counters.size.windows).toBeLessThanOrEqual(2001);
  }, 60_000);
});

describe("Redis: a slow one is waited for, only a dead one fails open", () => {
  const burst = async (url: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () => fetch(url).then(async (r) => ({ status: r.status, body: await r.text() }))),
    );

  test("200 concurrent requests against 50/60 while Redis is paused for 400 ms: exactly the limit passes, every round", async () => {
    const flush = new Redis(served.redis.url);
    const s = await server({ redisUrl: served.redis.url, limits: { window: 50, windowSeconds: 60, daily: 100_000 } });
    try {
      for (const pauseMs of [0, 400, 400]) {
        await flush.flushall();
        await fetch(`${s.url}/readyz`).then((r) => r.text()); // warm the connection (health is not counted)
        if (pauseMs) served.redis.pause();
        const results = burst(`${s.url}/api/v1`, 200);
        if (pauseMs) setTimeout(() => served.redis.resume(), pauseMs);
        const codes = (await results).map((r) => r.status);
        expect({ pauseMs, ok: codes.filter((c) => c === 200).length }).toEqual({ pauseMs, ok: 50 });
        expect(codes.filter((c) => c === 429)).toHaveLength(150);
      }
    } finally {
      served.redis.resume();
      flush.disconnect();
    }
  }, 30_000);

  test("a dead Redis (paused for good): fail open within the budget, said once in the log and in /readyz; enforced again when it is back", async () => {
    const other = await startRedis();
    const logs: string[] = [];
    const s = await server(
      { redisUrl: other.url, limits: { window: 2, windowSeconds: 60, daily: 100_000 }, trustProxy: true },
      logs,
    );
    const readyz = async (client: string) => fetch(`${s.url}/readyz`, { headers: { "X-Forwarded-For": client } });
    try {
      expect(JSON.parse(await (await readyz("192.0.2.1")).text())).toMatchObject({ rateLimiting: "enforced" });
      other.pause();
      const during = await burst(`${s.url}/api/v1`, 20);
      // All answered, and unlimited (more than 2), while Redis is still paused: none waited for it
      // to come back; each gave up on it after the budget, a timeout, as the log says.
      expect(other.paused()).toBe(true);
      expect(during.map((r) => r.status)).toEqual(Array(20).fill(200));
      const ready = await readyz("192.0.2.2");
      expect(ready.headers.get("ratelimit-remaining")).toBeNull();
      expect(JSON.parse(await ready.text())).toMatchObject({ rateLimiting: "fail-open" });
      expect(logs.filter((l) => /unreachable \(.*timed out.*\).*fail open/i.test(l))).toHaveLength(1);
      other.resume();
      await new Promise((r) => setTimeout(r, 1100)); // the next probe
      for (let i = 0; i < 3 && !logs.some((l) => l.includes("reachable again")); i++)
        await fetch(`${s.url}/api/v1`).then((r) => r.text());
      expect(
        logs.some((l) => /reachable again: rate limits enforced \(\d+ requests were served without limits\)/.test(l)),
      ).toBe(true);
      expect(JSON.parse(await (await readyz("192.0.2.3")).text())).toMatchObject({ rateLimiting: "enforced" });
      expect((await burst(`${s.url}/api/v1`, 5)).filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(3);
    } finally {
      other.resume();
      await other.stop();
    }
  }, 30_000);
});
