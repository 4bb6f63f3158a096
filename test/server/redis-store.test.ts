/**
 * The counters in a real redis-server, through both stores that run HIT_SCRIPT (src/edge/counters.ts
 * ScriptStore): the Redis store over TCP and the Upstash store over a loopback REST endpoint that
 * passes its commands to the same Redis. Each must count as the in-memory store does (src/edge/
 * counters.ts says the stores share their semantics): the same steps, the same counts, refusals and
 * busy flags.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MemoryStore, type Caps, type CounterStore, type Hit } from "../../src/edge/counters.js";
import { UpstashStore } from "../../src/edge/upstash-store.js";
import { RedisStore } from "../../src/server/redis-store.js";
import { startRedis, withRedisClient, type RedisServer } from "../helpers/redis.js";

const NOW = Date.parse("2026-11-19T12:00:00Z");
const WINDOW_MS = 60_000;
const TOKEN = "token-1";

let redis: RedisServer;
let rest: http.Server;
let restUrl: string;

/** Upstash's REST API as the store uses it: `POST /` a JSON command, `{"result": …}` back. */
function upstashOver(url: string): http.Server {
  return http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const answer = (status: number, json: unknown) =>
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(json));
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        answer(401, { error: "Unauthorized" });
        return;
      }
      const [cmd, ...args] = JSON.parse(body) as string[];
      void withRedisClient(url, (c) => c.call(cmd!, ...args)).then(
        (result) => answer(200, { result }),
        (e: Error) => answer(400, { error: e.message }),
      );
    });
  });
}

beforeAll(async () => {
  redis = await startRedis();
  rest = upstashOver(redis.url);
  await new Promise<void>((r) => rest.listen(0, "127.0.0.1", () => r()));
  restUrl = `http://127.0.0.1:${(rest.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => rest?.close(r));
  await redis?.stop();
});

const caps: Caps = { window: 2, busyWindow: 1, daily: 3 };
const oneADay: Caps = { window: 5, busyWindow: 5, daily: 1 };
const busyCaps: Caps = { window: 5, busyWindow: 1, daily: 100, busy: { limit: 3, windowMs: WINDOW_MS } };

/** Steps in one window and one Cairo day: a store's counts, refusals and busy flags, in order. */
const STEPS: Array<["hit" | "peek", string, Caps]> = [
  ["hit", "a", caps],
  ["hit", "a", caps],
  ["hit", "a", caps], // past the window: refused, not counted
  ["peek", "a", caps], // says it would be refused, spends nothing
  ["peek", "b", caps], // a client never seen
  ["hit", "b", oneADay],
  ["hit", "b", oneADay], // past the day's allowance
  ["hit", "c", busyCaps],
  ["hit", "d", busyCaps],
  ["peek", "e", busyCaps], // a look adds nothing to the total
  ["hit", "e", busyCaps],
  ["hit", "f", busyCaps], // the fourth of the total: busy, and the busy window applies
  ["hit", "f", busyCaps],
];

async function run(store: CounterStore): Promise<Array<Omit<Hit, "windowResetMs">>> {
  const seen = [];
  for (const [op, client, c] of STEPS) {
    const hit = await (op === "hit" ? store.hit(client, NOW, WINDOW_MS, c) : store.peek!(client, NOW, WINDOW_MS, c));
    expect(hit, `${op} ${client}`).not.toBeNull();
    const { windowResetMs, ...rest } = hit!;
    expect(windowResetMs).toBeGreaterThan(0);
    expect(windowResetMs).toBeLessThanOrEqual(WINDOW_MS);
    seen.push(rest);
  }
  return seen;
}

describe("the stores that run the script count as the in-memory store does", () => {
  test.each<[string, () => CounterStore]>([
    ["Redis (TCP)", () => new RedisStore(redis.url)],
    ["Upstash (REST)", () => new UpstashStore(restUrl, TOKEN)],
  ])("%s", async (_, make) => {
    const expected = await run(new MemoryStore());
    expect(expected.map((h) => [h.windowCount, h.dayCount, h.refused ?? null, h.busy])).toEqual([
      [1, 1, null, false],
      [2, 2, null, false],
      [2, 2, "window", false],
      [2, 2, "window", false],
      [0, 0, null, false],
      [1, 1, null, false],
      [1, 1, "daily", false],
      [1, 1, null, false],
      [1, 1, null, false],
      [0, 0, null, false],
      [1, 1, null, false],
      [1, 1, null, true],
      [1, 1, "window", true],
    ]);
    await withRedisClient(redis.url, (c) => c.flushall());
    const store = make();
    try {
      expect(await run(store)).toEqual(expected);
    } finally {
      await store.close?.();
    }
  });

  test("a store Redis refuses fails open, said once", async () => {
    const logs: string[] = [];
    const store = new UpstashStore(restUrl, "wrong", (l) => logs.push(l));
    expect(await store.hit("a", NOW, WINDOW_MS)).toBeNull();
    expect(await store.peek("a", NOW, WINDOW_MS)).toBeNull();
    expect(logs).toEqual([expect.stringContaining("Upstash Redis unreachable (Unauthorized)")]);
  });
});
