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

export function scriptInputs(
  client: string,
  nowMs: number,
  windowMs: number,
): { keys: [string, string]; args: [string, string] } {
  return {
    keys: [`pf:w:${client}`, `pf:d:${cairoDate(nowMs)}:${client}`],
    args: [String(windowMs), String(Math.max(1, nextCairoMidnight(nowMs) - nowMs))],
  };
}

export function hitFromReply(reply: unknown): Hit {
  if (!Array.isArray(reply) || reply.length !== 3 || !reply.every((x) => Number.isFinite(Number(x))))
    throw new Error(`unexpected script reply ${JSON.stringify(reply)}`);
  const [w, ttl, d] = reply.map(Number) as [number, number, number];
  return { windowCount: w, windowResetMs: ttl, dayCount: d };
}

/** How long a store may take to count one request before the handler serves without it (fail open). */
export const STORE_BUDGET_MS = 1000;
/** While a store is down, at most one request per this interval waits for it (a probe); the others fail open at once. */
export const PROBE_INTERVAL_MS = 1000;

/**
 * Fail open, said once, and cheaply: the first failure is logged; while the store is down only one
 * request per PROBE_INTERVAL_MS waits for it (so an outage does not add the whole budget to every
 * request), the others are served without limits at once; when it answers again the log says so
 * and how many requests were served unlimited meanwhile. A request served open gets `null`, which
 * the handler reports in /readyz (`rateLimiting: "fail-open"`) and by leaving out RateLimit-Remaining.
 */
export class FailOpen {
  private down = false;
  private nextProbe = 0;
  private unlimited = 0;
  constructor(
    private readonly name: string,
    private readonly log: (line: string) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  async run(fn: () => Promise<Hit>): Promise<Hit | null> {
    if (this.down && this.clock() < this.nextProbe) {
      this.unlimited++;
      return null;
    }
    if (this.down) this.nextProbe = this.clock() + PROBE_INTERVAL_MS;
    try {
      const hit = await fn();
      if (this.down)
        this.log(
          `${this.name} reachable again: rate limits enforced (${this.unlimited} requests were served without limits)`,
        );
      this.down = false;
      this.unlimited = 0;
      return hit;
    } catch (e) {
      if (!this.down)
        this.log(
          `${this.name} unreachable (${(e as Error).message}): serving without rate limits (fail open), probing once a second`,
        );
      if (!this.down) this.nextProbe = this.clock() + PROBE_INTERVAL_MS;
      this.down = true;
      this.unlimited++;
      return null;
    }
  }
}

/** Most clients the in-memory store tracks at once (about 200 bytes each). */
export const MEMORY_STORE_MAX_KEYS = 100_000;
/** The key every client beyond the bound shares (see MemoryStore). */
export const OVERFLOW_KEY = "(overflow)";

/**
 * Counters in one process's memory, bounded. Expired windows are dropped as it goes, and the day's
 * allowances at Cairo midnight. At most `maxKeys` clients are tracked: once that many are counted
 * (a flood of unique addresses), a new client is counted under one shared key, OVERFLOW_KEY, until
 * room frees up — so the flood cannot grow memory, nor reset (evict) the counts of clients already
 * tracked, and the newcomers are limited together: conservative, they may get 429 sooner than
 * alone, never later. Window entries free up as they expire; day entries at Cairo midnight.
 */
export class MemoryStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly days = new Map<string, number>();
  private day = "";
  private nextSweep = 0;

  constructor(private readonly maxKeys = MEMORY_STORE_MAX_KEYS) {}

  /** How many clients are tracked (windows, days): for tests and metrics. */
  get size(): { windows: number; days: number } {
    return { windows: this.windows.size, days: this.days.size };
  }

  private sweep(nowMs: number): void {
    for (const [k, w] of this.windows) if (w.endsAt <= nowMs) this.windows.delete(k);
  }

  async hit(client: string, nowMs: number, windowMs: number): Promise<Hit> {
    const today = cairoDate(nowMs);
    if (today !== this.day) {
      this.day = today; // a new Cairo day: every allowance starts again
      this.days.clear();
    }
    // Expired windows go once per window, or once a second while the map is full: never on every
    // request, so a flood cannot make each one walk the map.
    if (nowMs >= this.nextSweep) {
      this.sweep(nowMs);
      this.nextSweep = nowMs + (this.windows.size >= this.maxKeys ? Math.min(1000, windowMs) : windowMs);
    }
    const known = this.windows.has(client) || this.days.has(client);
    const full = this.windows.size >= this.maxKeys || this.days.size >= this.maxKeys;
    const key = known || !full ? client : OVERFLOW_KEY;
    let w = this.windows.get(key);
    if (!w || w.endsAt <= nowMs) this.windows.set(key, (w = { count: 0, endsAt: nowMs + windowMs }));
    w.count++;
    const dayCount = (this.days.get(key) ?? 0) + 1;
    this.days.set(key, dayCount);
    return { windowCount: w.count, windowResetMs: w.endsAt - nowMs, dayCount };
  }
}
