/**
 * Rate-limit counters in Redis over TCP (ioredis), shared by every server that points at it. One
 * Lua script advances both counters atomically (src/edge/counters.ts ScriptStore: what it counts,
 * and how it fails open). A slow Redis is waited for, up to STORE_BUDGET_MS per request (a pause of a
 * few hundred ms still counts every request); only one that does not answer within it, or refuses
 * the connection, is treated as down ⇒ fail open (src/edge/counters.ts FailOpen).
 */
import { Redis } from "ioredis";
import { HIT_SCRIPT, STORE_BUDGET_MS, ScriptStore } from "../edge/counters.js";

export class RedisStore extends ScriptStore {
  private readonly redis: Redis;
  /** The first connection, awaited (at most a second) so that a fresh server does not start open. */
  private readonly firstReady: Promise<void>;

  constructor(url: string, log: (line: string) => void = console.error, budgetMs = STORE_BUDGET_MS) {
    super(`Redis at ${new URL(url).host}`, log);
    this.redis = new Redis(url, {
      enableOfflineQueue: false, // while disconnected, fail at once instead of queueing
      maxRetriesPerRequest: 0,
      commandTimeout: budgetMs,
      retryStrategy: (times) => Math.min(200 * times, 2000), // keep reconnecting
      lazyConnect: false,
    });
    this.redis.on("error", () => {}); // reported through FailOpen, once
    this.firstReady = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, budgetMs);
      this.redis.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  protected async evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    await this.firstReady;
    return this.redis.eval(HIT_SCRIPT, keys.length, ...keys, ...args);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
