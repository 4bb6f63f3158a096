/**
 * Rate-limit counters: a fixed 60-second window per client and an allowance per Cairo day, reset at
 * midnight Africa/Cairo. Two stores implement the interface: in memory (exact in one process) and
 * Redis (src/server/redis-store.ts, src/edge/upstash-store.ts), both with the same semantics.
 */
import { cairoDate, nextCairoMidnight } from "../core/cairo.js";

export interface Hit {
  windowCount: number;
  windowResetMs: number; // until the window ends
  dayCount: number;
}

export interface CounterStore {
  /** Counts one request; null when the store cannot be reached (the handler then fails open). */
  hit(client: string, nowMs: number, windowMs: number): Promise<Hit | null>;
  close?(): Promise<void>;
}

/**
 * One Lua script advances both counters atomically and returns what the headers need:
 * KEYS = window key, day key; ARGV = window length (ms), time left in the Cairo day (ms).
 * Both expiries are relative, so the counters follow the handler's clock (`--now`), not Redis's.
 */
export const HIT_SCRIPT = `
local w = redis.call('INCR', KEYS[1])
if w == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
local d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return {w, ttl, d}
`;

export function scriptInputs(client: string, nowMs: number, windowMs: number): { keys: [string, string]; args: [string, string] } {
  return {
    keys: [`pf:w:${client}`, `pf:d:${cairoDate(nowMs)}:${client}`],
    args: [String(windowMs), String(Math.max(1, nextCairoMidnight(nowMs) - nowMs))],
  };
}

export function hitFromReply(reply: unknown): Hit {
  if (!Array.isArray(reply) || reply.length !== 3 || !reply.every((x) => Number.isFinite(Number(x)))) throw new Error(`unexpected script reply ${JSON.stringify(reply)}`);
  const [w, ttl, d] = reply.map(Number) as [number, number, number];
  return { windowCount: w, windowResetMs: ttl, dayCount: d };
}

/** Fail open, said once: the first failure is logged, then nothing until the store answers again. */
export class FailOpen {
  private down = false;
  constructor(private readonly name: string, private readonly log: (line: string) => void) {}
  async run(fn: () => Promise<Hit>): Promise<Hit | null> {
    try {
      const hit = await fn();
      if (this.down) this.log(`${this.name} reachable again: rate limits enforced`);
      this.down = false;
      return hit;
    } catch (e) {
      if (!this.down) this.log(`${this.name} unreachable (${(e as Error).message}): serving without rate limits, retrying on every request`);
      this.down = true;
      return null;
    }
  }
}

export class MemoryStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly days = new Map<string, number>();
  private day = "";

  async hit(client: string, nowMs: number, windowMs: number): Promise<Hit> {
    const today = cairoDate(nowMs);
    if (today !== this.day) {
      this.day = today; // a new Cairo day: every allowance starts again
      this.days.clear();
    }
    if (this.windows.size > 50_000) for (const [k, w] of this.windows) if (w.endsAt <= nowMs) this.windows.delete(k);
    let w = this.windows.get(client);
    if (!w || w.endsAt <= nowMs) this.windows.set(client, (w = { count: 0, endsAt: nowMs + windowMs }));
    w.count++;
    const dayCount = (this.days.get(client) ?? 0) + 1;
    this.days.set(client, dayCount);
    return { windowCount: w.count, windowResetMs: w.endsAt - nowMs, dayCount };
  }
}
