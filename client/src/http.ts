/**
 * The HTTP rules the client keeps: how long an answer may be reused (Cache-Control max-age, RFC 9111
 * §5.2.2.1), how long to wait when told to (Retry-After, RFC 9110 §10.2.3), and the clock and timers
 * it does all of that with, injected so that a test (or an app with its own scheduler) drives time.
 */

/** The clock and the timers the client reads and sets; by default the platform's. */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** A promise that settles after `ms` on the given timers. */
export const sleep = (timers: Timers, ms: number): Promise<void> =>
  new Promise((resolve) => void timers.setTimeout(resolve, Math.max(0, ms)));

/**
 * For how many milliseconds an answer may be used without asking again: its max-age (RFC 9111
 * §5.2.2.1); 0 for no-store, no-cache or no max-age at all, so the next call asks (conditionally).
 */
export function freshFor(cacheControl: string | null): number {
  if (!cacheControl) return 0;
  const directives = cacheControl
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return 0;
  const maxAge = directives.find((d) => d.startsWith("max-age="));
  const seconds = maxAge ? Number(maxAge.slice("max-age=".length).replace(/^"|"$/g, "")) : NaN;
  return Number.isInteger(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * How long Retry-After says to wait, in milliseconds: delta-seconds or an HTTP-date (RFC 9110
 * §10.2.3), measured from `now`; null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
