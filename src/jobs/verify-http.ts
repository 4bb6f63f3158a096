/**
 * How `price-feed verify` reads a site (src/jobs/verify.ts): what a reader is, and a deployment over
 * HTTP, bounded and polite (issue 50): a time-out per request and for the whole check, a body
 * counted as it streams, the site's published rate limit kept and every Retry-After waited out.
 */
import { VERIFY_REQUEST_TIMEOUT_MS, VERIFY_RUN_TIMEOUT_MS } from "../core/limits.js";
import { retryAfterMs } from "../ingest/http-headers.js";
import { readCapped } from "../ingest/http-answers.js";

/** Where the site's files are read: a folder, or a base URL (its path prefix included). */
export interface SiteReader {
  /** The file's bytes; null when it is not there (404, ENOENT); a string says what else went wrong. */
  read(file: string): Promise<Uint8Array<ArrayBuffer> | null | string>;
  /** Every file the folder holds (a URL cannot be listed: null). */
  list(): Promise<string[] | null>;
  where: string;
  /** Why the site cannot be read at all (a folder that is not there), before anything is asked; null when it can. */
  check?(): Promise<Stop | null>;
  /** Lets go of what the reader holds (the run's timer), once the check is over. */
  close?(): void;
}

/** What stops a check, in one line, and what to do about it. */
export interface Stop {
  problem: string;
  hint: string;
}

/** Thrown by a reader when the whole check must stop (the run's time is spent, the site's daily limit). */
export class VerifyStopped extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** The largest file read over HTTP: far above the largest the build writes (a history, a few MB). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** One request, from asking to the last byte of its body (`verify --timeout`). */
export const REQUEST_TIMEOUT_MS = VERIFY_REQUEST_TIMEOUT_MS;
/** The whole check over HTTP, waits for the site's rate limit included (`verify --run-timeout`). */
export const RUN_TIMEOUT_MS = VERIFY_RUN_TIMEOUT_MS;
/** Times one file is asked again after a 429 or 503 that says when (Retry-After). */
const MAX_ATTEMPTS = 5;

/**
 * A path of the statement, before it is joined to a folder or a URL: relative, forward slashes, no
 * `..` or empty segment. A statement is checked before it is believed, but the path is read first.
 */
export const safePath = (p: string) =>
  /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(p) && !p.split("/").includes("..");

export interface UrlReaderOptions {
  fetch?: typeof fetch;
  /** One request, from asking to its body's last byte (REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The whole check (RUN_TIMEOUT_MS): waiting for the site's rate limit counts. */
  runTimeoutMs?: number;
  /** The largest body read (MAX_FILE_BYTES); a longer one is cut off as it streams. */
  maxBytes?: number;
  /** Injected for tests: the clock the waits are measured on, and the wait itself. */
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Waits `ms`, or until `signal` aborts (then rejects with its reason). */
const sleepFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
    };
    const abort = () => {
      done();
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener("abort", abort, { once: true });
  });

/** A whole number of a header, or null. */
const headerInt = (h: Headers, name: string) => {
  const v = h.get(name);
  return v !== null && /^\s*\d+\s*$/.test(v) ? Number(v) : null;
};

/**
 * Keeps a check within the rate limit the site publishes (docs/serving.md "Rate limits": RateLimit-
 * Remaining and RateLimit-Reset, draft-ietf-httpapi-ratelimit-headers): while the requests answered
 * and those still on their way would spend what remains of the window, no new one is sent before the
 * window ends; a 429 or 503's Retry-After (RFC 9110 §10.2.3) holds every request back that long.
 */
class Pacer {
  private remaining: number | null = null;
  private resetAt = 0;
  private heldUntil = 0;
  private inFlight = 0;
  constructor(
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  ) {}

  /** Resolves when a request may be sent (and counts it as on its way). */
  async ready(signal: AbortSignal): Promise<void> {
    for (;;) {
      const t = this.now();
      if (t < this.heldUntil) await this.sleep(this.heldUntil - t, signal);
      else if (this.remaining !== null && t >= this.resetAt)
        this.remaining = null; // a new window
      else if (this.remaining !== null && this.remaining - this.inFlight <= 0)
        await this.sleep(this.resetAt - t, signal);
      else {
        this.inFlight++;
        return;
      }
    }
  }

  /** What an answer said of the window; `headers` null for a request that got none. */
  answered(headers: Headers | null): void {
    this.inFlight--;
    if (!headers) return;
    const remaining = headerInt(headers, "RateLimit-Remaining");
    const reset = headerInt(headers, "RateLimit-Reset");
    if (remaining === null || reset === null) return;
    // A quarter-second past the end the site gives, so that its window has surely turned.
    const resetAt = this.now() + reset * 1000 + 250;
    // Answers of one window arrive out of order: the lowest count is the true one.
    if (this.remaining === null || resetAt > this.resetAt + 1000) this.remaining = remaining;
    else this.remaining = Math.min(this.remaining, remaining);
    this.resetAt = resetAt;
  }

  /** Holds every request back until `at` (a Retry-After). */
  hold(at: number): void {
    this.heldUntil = Math.max(this.heldUntil, at);
  }
}

/** Why a request got no answer, in words: the cause's code when there is one (undici's fetch says only "fetch failed"). */
function networkReason(e: unknown, url: URL): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (e as { code?: string }).code;
  const host = url.host;
  switch (code) {
    case "ECONNREFUSED":
      return `nothing is listening at ${host} (connection refused)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host ${url.hostname} cannot be resolved (${code})`;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return `the connection to ${host} was reset`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${host} cannot be reached (${code})`;
    default:
      return `no answer from ${host}: ${cause?.message ?? (e as Error).message ?? String(e)}`;
  }
}

/**
 * A deployment over HTTP, bounded and polite: each request has its time-out (`timeoutMs`, the body's
 * last byte included), the whole check has its own (`runTimeoutMs`), a body is counted as it streams
 * and cut off past `maxBytes` (never held whole first), and the site's rate limit is kept (Pacer). A
 * wait the site asks for that the run's time cannot cover, or its daily limit spent, stops the check
 * (VerifyStopped) rather than hammer it.
 */
export function urlReader(base: string, fetchOrOptions: typeof fetch | UrlReaderOptions = {}): SiteReader {
  const o: UrlReaderOptions = typeof fetchOrOptions === "function" ? { fetch: fetchOrOptions } : fetchOrOptions;
  const fetchFn = o.fetch ?? fetch;
  const timeoutMs = o.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const runTimeoutMs = o.runTimeoutMs ?? RUN_TIMEOUT_MS;
  const maxBytes = o.maxBytes ?? MAX_FILE_BYTES;
  const now = o.now ?? (() => Date.now());
  const root = base.replace(/\/+$/, "");
  const started = now();
  const run = new AbortController();
  const timer = setTimeout(() => run.abort(new Error("run-timeout")), runTimeoutMs);
  timer.unref?.();
  const pacer = new Pacer(now, o.sleep ?? sleepFor);
  let answered = 0;
  const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;
  const runOut = () =>
    new VerifyStopped(
      `the check took longer than its ${seconds(runTimeoutMs)} (--run-timeout), with ${answered} answers received; the site answers too slowly, or its rate limit is too low for its number of files`,
      "run it again with a longer --run-timeout SECONDS, or from a machine nearer the site",
    );

  async function once(
    url: URL,
  ): Promise<{ retryAt: number; daily: boolean } | Uint8Array<ArrayBuffer> | null | string> {
    try {
      await pacer.ready(run.signal);
    } catch {
      throw runOut();
    }
    const signal = AbortSignal.any([run.signal, AbortSignal.timeout(timeoutMs)]);
    let res: Response;
    try {
      res = await fetchFn(url, { headers: { "User-Agent": "price-feed verify" }, signal });
    } catch (e) {
      pacer.answered(null);
      if (run.signal.aborted) throw runOut();
      if (signal.aborted) return `got no answer within ${timeoutMs} ms (--timeout)`;
      return `could not be fetched: ${networkReason(e, url)}`;
    }
    pacer.answered(res.headers);
    answered++;
    if (res.status === 429 || res.status === 503) {
      const wait = retryAfterMs(res.headers.get("Retry-After"), now());
      await res.body?.cancel().catch(() => {});
      if (wait === null) return `answered ${res.status} without Retry-After`;
      const limit = headerInt(res.headers, "Daily-Limit");
      const used = headerInt(res.headers, "Daily-Used");
      return { retryAt: now() + wait, daily: res.status === 429 && limit !== null && used !== null && used >= limit };
    }
    if (res.status === 404) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return `answered ${res.status}`;
    }
    const length = Number(res.headers.get("Content-Length") ?? NaN);
    if (length > maxBytes) {
      await res.body?.cancel().catch(() => {});
      return `announced ${length} bytes, more than the limit of ${maxBytes}`;
    }
    try {
      const bytes = await readCapped(res, maxBytes);
      return bytes === "too-large" ? `sent more than the limit of ${maxBytes} bytes: cut off` : bytes;
    } catch {
      if (run.signal.aborted) throw runOut();
      return signal.aborted
        ? `was not received whole within ${timeoutMs} ms (--timeout): the body came too slowly`
        : "its body was cut off";
    }
  }

  return {
    where: root,
    read: async (file) => {
      if (!safePath(file)) return "not a path inside the site";
      const url = new URL(`${root}/${file}`);
      for (let attempt = 1; ; attempt++) {
        const got = await once(url);
        if (got === null || typeof got === "string" || got instanceof Uint8Array) return got;
        const left = started + runTimeoutMs - now();
        if (got.retryAt - now() > left)
          throw new VerifyStopped(
            got.daily
              ? `${root} answered 429: this address has spent the site's daily limit, and it asks to wait ${seconds(got.retryAt - now())} (Retry-After), past the check's time left (${seconds(left)})`
              : `${root} asks to wait ${seconds(got.retryAt - now())} (Retry-After), past the check's time left (${seconds(left)})`,
            got.daily
              ? "run the check again after the site's day turns (midnight Africa/Cairo), or from another address"
              : "run it again later, or with a longer --run-timeout SECONDS",
          );
        if (attempt >= MAX_ATTEMPTS) return `answered 429 or 503 ${attempt} times, waiting out each Retry-After`;
        pacer.hold(got.retryAt);
      }
    },
    list: async () => null,
    close: () => {
      clearTimeout(timer);
      run.abort(new Error("closed"));
    },
  };
}
