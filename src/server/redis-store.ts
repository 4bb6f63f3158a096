/**
 * Rate-limit counters in Redis over TCP (ioredis), shared by every server that points at it. One
 * Lua script advances both counters atomically. A slow Redis is waited for, up to STORE_BUDGET_MS
 * per request (a pause of a few hundred ms still counts every request); only one that does not
 * answer within it, or refuses the connection, is treated as down ⇒ fail open (counters.ts FailOpen).
 */
import { Redis } from "ioredis";
import {
  FailOpen,
  HIT_SCRIPT,
  STORE_BUDGET_MS,
  hitFromReply,
  scriptInputs,
  type Caps,
  type CounterStore,
  type Hit,
} from "../edge/counters.js";

export class RedisStore implements CounterStore {
  private readonly redis: Redis;
  private readonly guard: FailOpen;
  /** The first connection, awaited (at most a second) so that a fresh server does not start open. */
  private readonly firstReady: Promise<void>;

  constructor(url: string, log: (line: string) => void = console.error, budgetMs = STORE_BUDGET_MS) {
    this.guard = new FailOpen(`Redis at ${new URL(url).host}`, log);
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

  hit(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null> {
    return this.run(scriptInputs(client, nowMs, windowMs, caps, true));
  }

  /** The counts without spending (health, preflight); through the same guard, so it can be the probe. */
  peek(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null> {
    return this.run(scriptInputs(client, nowMs, windowMs, caps, false));
  }

  private run({ keys, args }: ReturnType<typeof scriptInputs>): Promise<Hit | null> {
    return this.guard.run(async () => {
      await this.firstReady;
      return hitFromReply(await this.redis.eval(HIT_SCRIPT, keys.length, ...keys, ...args));
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
