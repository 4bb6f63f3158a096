/**
 * Rate-limit counters: a fixed window per client and an allowance per Cairo day, reset at midnight
 * Africa/Cairo, and — when the operator sets a busy threshold — the total rate across all clients.
 * Two stores implement the interface: in memory (exact in one process) and Redis
 * (src/server/redis-store.ts, src/edge/upstash-store.ts), both with the same semantics. The clock
 * they are given is the wall clock, never a pinned data clock (`serve --now`): a window must end for
 * a client that waits out its Retry-After (RFC 9110 §10.2.3).
 */
import { cairoDate, nextCairoMidnight } from "../core/cairo.js";

export interface Hit {
  /** Requests counted in the current window (this one included when it was admitted). */
  windowCount: number;
  windowResetMs: number; // until the window ends
  /** Requests counted in the Cairo day (this one included when it was admitted). */
  dayCount: number;
  /** Set when the request was refused and so not counted: which allowance was used up. */
  refused?: "window" | "daily" | undefined;
  /** The total rate across all clients is past the busy threshold (Caps.busy). */
  busy?: boolean | undefined;
}

/**
 * What a client may spend, checked and spent in one atomic step (so a refused request costs
 * nothing: a 429 does not raise Daily-Used). `busyWindow` is this client's window while the service
 * is busy: less than `window` for an anonymous caller, the same for one that identified itself.
 */
export interface Caps {
  window: number;
  busyWindow: number;
  daily: number;
  /** The service is busy while more than `limit` requests per `windowMs` arrive from all clients together. */
  busy?: { limit: number; windowMs: number } | undefined;
}

export interface CounterStore {
  /**
   * Counts one request; null when the store cannot be reached (the handler then fails open). With
   * `caps`, a request past them is refused and not counted (Hit.refused); without, it is always counted.
   */
  hit(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null>;
  /**
   * The client's counts without spending anything: for the requests answered free of charge (the
   * health check and CORS preflights). Null when the store cannot be reached.
   */
  peek?(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null>;
  close?(): Promise<void>;
}

/**
 * The total rate as a sliding window estimated from two fixed ones (the previous window's count
 * weighted by the part of it still inside the sliding window, plus the current one's): smooth at
 * the window's edges, two counters per window whatever the traffic.
 */
export function busyIndex(nowMs: number, windowMs: number): { index: number; elapsed: number } {
  return { index: Math.floor(nowMs / windowMs), elapsed: (nowMs % windowMs) / windowMs };
}
export const isBusy = (previous: number, current: number, elapsed: number, limit: number): boolean =>
  previous * (1 - elapsed) + current > limit;

/**
 * One Lua script checks and advances the counters atomically and returns what the headers need.
 * KEYS = window key, day key, total key of this busy window, of the previous one.
 * ARGV = window length (ms), time left in the Cairo day (ms), window cap, busy window cap, daily cap
 * (caps 0: no cap, always counted), busy limit (0: never busy), busy window (ms), the part of the busy
 * window elapsed (0–1), count (1) or only look (0).
 * Expiries are relative: a window ends its length after its first request, whatever Redis's clock says.
 * Returns {window count, window ms left, day count, refused (0, 1 window, 2 daily), busy (0, 1)}.
 */
export const HIT_SCRIPT = `
local count = ARGV[9] == '1'
local busy = 0
local limit = tonumber(ARGV[6])
if limit > 0 then
  local cur
  if count then
    cur = redis.call('INCR', KEYS[3])
    if cur == 1 then redis.call('PEXPIRE', KEYS[3], 2 * tonumber(ARGV[7])) end
  else
    cur = tonumber(redis.call('GET', KEYS[3]) or '0')
  end
  local prev = tonumber(redis.call('GET', KEYS[4]) or '0')
  if prev * (1 - tonumber(ARGV[8])) + cur > limit then busy = 1 end
end
local cap = tonumber(ARGV[3])
if busy == 1 then cap = tonumber(ARGV[4]) end
local daily = tonumber(ARGV[5])
local w = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local refused = 0
if daily > 0 and d >= daily then refused = 2
elseif cap > 0 and w >= cap then refused = 1
elseif count then
  w = redis.call('INCR', KEYS[1])
  if w == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  d = redis.call('INCR', KEYS[2])
  if d == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if ttl < 0 then ttl = tonumber(ARGV[1]) end
return {w, ttl, d, refused, busy}
`;

export function scriptInputs(
  client: string,
  nowMs: number,
  windowMs: number,
  caps?: Caps,
  count = true,
): { keys: [string, string, string, string]; args: string[] } {
  const busyMs = caps?.busy?.windowMs ?? 1000;
  const { index, elapsed } = busyIndex(nowMs, busyMs);
  return {
    keys: [
      `pf:w:${client}`,
      `pf:d:${cairoDate(nowMs)}:${client}`,
      `pf:t:${busyMs}:${index}`,
      `pf:t:${busyMs}:${index - 1}`,
    ],
    args: [
      String(windowMs),
      String(Math.max(1, nextCairoMidnight(nowMs) - nowMs)),
      String(caps?.window ?? 0),
      String(caps?.busyWindow ?? 0),
      String(caps?.daily ?? 0),
      String(caps?.busy?.limit ?? 0),
      String(busyMs),
      String(elapsed),
      count ? "1" : "0",
    ],
  };
}

export function hitFromReply(reply: unknown): Hit {
  if (!Array.isArray(reply) || reply.length !== 5 || !reply.every((x) => Number.isFinite(Number(x))))
    throw new Error(`unexpected script reply ${JSON.stringify(reply)}`);
  const [w, ttl, d, refused, busy] = reply.map(Number) as [number, number, number, number, number];
  return {
    windowCount: w,
    windowResetMs: ttl,
    dayCount: d,
    ...(refused ? { refused: refused === 2 ? ("daily" as const) : ("window" as const) } : {}),
    busy: busy === 1,
  };
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

/**
 * A store that keeps its counters in a Redis and spends them with HIT_SCRIPT: the Redis store over
 * TCP (src/server/redis-store.ts) and the Upstash one over its REST API (src/edge/upstash-store.ts)
 * differ only in how the script reaches Redis, `evalScript`. A hit counts, a peek only looks (the
 * script's last argument), and both go through one FailOpen, so a peek can be the probe of a store
 * that is down.
 */
export abstract class ScriptStore implements CounterStore {
  private readonly guard: FailOpen;
  constructor(name: string, log: (line: string) => void, clock?: () => number) {
    this.guard = new FailOpen(name, log, clock);
  }

  hit(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null> {
    return this.run(scriptInputs(client, nowMs, windowMs, caps, true));
  }

  /** The counts without spending (health, preflight). */
  peek(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null> {
    return this.run(scriptInputs(client, nowMs, windowMs, caps, false));
  }

  /** Runs HIT_SCRIPT on the Redis with these keys and arguments: its reply, or a throw when it cannot. */
  protected abstract evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown>;

  private run({ keys, args }: ReturnType<typeof scriptInputs>): Promise<Hit | null> {
    return this.guard.run(async () => hitFromReply(await this.evalScript(keys, args)));
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

  /** The total across all clients, by busy window (see busyIndex). */
  private total = { index: 0, current: 0, previous: 0 };

  private busy(nowMs: number, caps: Caps | undefined, count: boolean): boolean {
    if (!caps?.busy) return false;
    const { index, elapsed } = busyIndex(nowMs, caps.busy.windowMs);
    const t = this.total;
    if (index !== t.index) {
      // The window that just ended becomes the previous one; after a quiet gap, both are empty.
      this.total = { index, current: 0, previous: index === t.index + 1 ? t.current : 0 };
    }
    if (count) this.total.current++;
    return isBusy(this.total.previous, this.total.current, elapsed, caps.busy.limit);
  }

  async hit(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit> {
    return this.step(client, nowMs, windowMs, caps, true);
  }

  async peek(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit> {
    return this.step(client, nowMs, windowMs, caps, false);
  }

  private step(client: string, nowMs: number, windowMs: number, caps: Caps | undefined, count: boolean): Hit {
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
    const busy = this.busy(nowMs, caps, count);
    const known = this.windows.has(client) || this.days.has(client);
    const full = this.windows.size >= this.maxKeys || this.days.size >= this.maxKeys;
    const key = known || !full ? client : OVERFLOW_KEY;
    let w = this.windows.get(key);
    if (w && w.endsAt <= nowMs) w = undefined;
    const windowCount = w?.count ?? 0;
    const dayCount = this.days.get(key) ?? 0;
    const cap = busy ? (caps?.busyWindow ?? 0) : (caps?.window ?? 0);
    const refused =
      caps && caps.daily > 0 && dayCount >= caps.daily
        ? ("daily" as const)
        : cap > 0 && windowCount >= cap
          ? ("window" as const)
          : undefined;
    if (!count || refused) {
      // Nothing spent: a look (health, preflight), or a refusal: a request answered 429 was not
      // served, so it uses none of the allowance (issue 26).
      const resetMs = w ? w.endsAt - nowMs : windowMs;
      return { windowCount, windowResetMs: resetMs, dayCount, busy, ...(refused ? { refused } : {}) };
    }
    if (!w) this.windows.set(key, (w = { count: 0, endsAt: nowMs + windowMs }));
    w.count++;
    this.days.set(key, dayCount + 1);
    return { windowCount: w.count, windowResetMs: w.endsAt - nowMs, dayCount: dayCount + 1, busy };
  }
}
