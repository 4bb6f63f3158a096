/**
 * The HTTP rules the client keeps: how long an answer may be reused (Cache-Control max-age, RFC 9111
 * §5.2.2.1), how long to wait when told to (Retry-After, RFC 9110 §10.2.3), how much of a body it
 * reads, and the clock and timers it does all of that with, injected so that a test (or an app with
 * its own scheduler) drives time. What a server says is believed only within bounds: a home that
 * fails, or someone who controls its answers, can cost the client an hour or a few megabytes, never
 * its memory or its next years.
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
 * The longest an answer is reused without asking, whatever its max-age says: an hour, the feed's own
 * rhythm (a build an hour). A cache may always validate sooner than the lifetime it was given (RFC
 * 9111 §4.2, a lifetime is an upper bound), and `max-age=999999999` would otherwise keep one answer,
 * re-dated but never re-asked, for 31 years.
 */
export const MAX_REUSE_MS = 3600 * 1000;

/**
 * For how many milliseconds an answer may be used without asking again: its max-age (RFC 9111
 * §5.2.2.1), at most MAX_REUSE_MS; 0 for no-store, no-cache or no max-age at all, so the next call
 * asks (conditionally).
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
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_REUSE_MS) : 0;
}

/**
 * The longest a Retry-After keeps a home unasked: an hour, whatever the server says. The feed is
 * built hourly, so an hour is the longest an honest server can mean; `Retry-After: 999999999` (or
 * a date in 2058) from a broken or hostile home would otherwise silence it for decades.
 */
export const MAX_RETRY_AFTER_MS = 3600 * 1000;

/**
 * How long Retry-After says to wait, in milliseconds from `now`, at most MAX_RETRY_AFTER_MS: its
 * delta-seconds or its HTTP-date (RFC 9110 §10.2.3). Null when absent, unreadable, or a date not
 * after `now` (a clock that disagrees says nothing of when to come back): the caller's own back-off
 * applies then.
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  // delta-seconds = 1*DIGIT (RFC 9110 §10.2.3); any number of digits is read, then capped.
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS);
  const at = httpDate(v, now);
  return at === null || at <= now ? null : Math.min(at - now, MAX_RETRY_AFTER_MS);
}

const DAY_NAMES = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const LONG_DAY_NAMES = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = MONTHS.join("|");
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
// The three forms a recipient must accept (RFC 9110 §5.6.7), anchored and without nested repetition.
const IMF_FIXDATE = new RegExp(`^(?:${DAY_NAMES}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:${LONG_DAY_NAMES}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:${DAY_NAMES}) (${MONTH}) ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 §5.6.7) in milliseconds since the epoch; null for anything else. Date.parse
 * is not used: it reads almost any text as some date ("x 2099" included), and what it accepts
 * differs between runtimes.
 */
export function httpDate(value: string, now: number): number | null {
  let m = IMF_FIXDATE.exec(value);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m.slice(4, 7));
  m = RFC850_DATE.exec(value);
  if (m) {
    // A two-digit year more than 50 years ahead is the latest past year of those digits (§5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    return utc(year, m[2]!, Number(m[1]), m.slice(4, 7));
  }
  m = ASCTIME_DATE.exec(value);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m.slice(3, 6));
  return null;
}

/** The instant of a date and a time of day in GMT; null for one that does not exist (31 Feb, 25:00). */
function utc(year: number, month: string, day: number, time: string[]): number | null {
  const [h, min, s] = time.map(Number) as [number, number, number];
  const m = MONTHS.indexOf(month);
  const date = new Date(Date.UTC(year, m, day));
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === m && date.getUTCDate() === day;
  // A second of 60 is a leap second (RFC 9110 §5.6.7 allows it): read as the next second's start.
  return exists && h < 24 && min < 60 && s <= 60 ? date.getTime() + ((h * 60 + min) * 60 + s) * 1000 : null;
}

/**
 * The largest body the client reads, by default: 8 MiB. The largest documents it asks for are the
 * feed (86 KB for the real catalog today, 1.3 MB for the bench's large dataset) and a history (about
 * 140 KB per asset per year of archive, 42 KB today), so this leaves room for years of growth while a
 * body that never ends costs at most this much memory.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A body read to its end, or refused for its size: `announced` is its Content-Length, null when it was cut off while read. */
export type Body = { text: string } | { tooLarge: true; announced: number | null };

/**
 * The body of `res` as text (UTF-8, as `Response.text()`), read as a stream and given up as soon as
 * it passes `maxBytes`, so memory stays bounded whatever the server sends; a Content-Length over the
 * limit is refused before a byte is read. The count is of the bytes after any Content-Encoding is
 * undone, so a small compressed body that inflates past the limit is refused too.
 */
export async function readBody(res: Response, maxBytes: number): Promise<Body> {
  const announced = contentLength(res.headers.get("Content-Length"));
  if (announced !== null && announced > maxBytes) {
    void res.body?.cancel().catch(() => {});
    return { tooLarge: true, announced };
  }
  if (!res.body) return { text: "" };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      return { tooLarge: true, announced: null };
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return { text: parts.join("") };
}

/** Content-Length as a number (RFC 9110 §8.6: 1*DIGIT); null when absent or not one plain value. */
function contentLength(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value.trim()) : null;
}
