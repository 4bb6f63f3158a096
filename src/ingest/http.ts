/**
 * Polite and bounded HTTP for sources: a clear User-Agent with a contact (unless the source
 * configures its own, sent as written), an Accept header, and
 * per attempt one timeout that covers everything — connecting, the headers, every redirect and the
 * whole body. At most a couple of retries with exponential backoff for faults that may pass
 * (network errors, timeouts, 429 and 5xx); a 4xx other than 429 is the source refusing us.
 *
 * Bounded (docs/operating.md "What can go wrong"):
 * - the body is read here, inside the attempt's timeout and error handling, and never past
 *   `maxBytes` (default 5 MB): a longer answer is cut off and the source fails;
 * - `Retry-After` (RFC 9110 §10.2.3) on a 429 or 503 is honoured up to `maxRetryAfterMs` (30 s);
 *   a longer wait fails the source now, and the next hourly run asks again;
 * - redirects are followed by hand (RFC 9110 §15.4), at most `maxRedirects` (5) per attempt,
 *   and a redirect loop is not retried;
 * - a redirect is followed only within the configured URL's origin or to public addresses, and
 *   never from https down to http, unless the source allows private ones (redirects.ts); a refused
 *   redirect is not retried: the server would send us there again;
 * - credentials go only to the origin they are for (RFC 6454): a redirect that leaves the origin
 *   takes only the harmless headers along (redirects.ts `headersAcrossOrigins`), and a request's
 *   `credentialsFor` (a token and its cookies) are asked for again before every attempt and sent only
 *   while the request stays at their origin.
 *
 * Every failure is a SourceError naming what happened, so ingest reports it against its source.
 * Every answer met, and every request that got none, is told to `onAnswer` when it is set
 * (http-answers.ts): `ingest --save-bodies` keeps them.
 * The Response `request` returns is already read into memory: `.text()`, `.arrayBuffer()` and
 * `.json()` on it cannot stall, reset or grow past the cap.
 */
import { ShapeError, SourceError } from "../core/errors.js";
import { headersAcrossOrigins, redirectRefusal, systemLookup, type Lookup } from "./redirects.js";
import { retryAfterMs } from "./http-headers.js";
import { answerOf, readCapped, recordRefusal, type Answer, type AnswerRecorder } from "./http-answers.js";

export { cookiesOf, retryAfterMs, userAgent } from "./http-headers.js";
export type { Answer, AnswerRecorder } from "./http-answers.js";

export interface HttpOptions {
  userAgent: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  /** The largest body read, in bytes (default MAX_BODY_BYTES). */
  maxBytes?: number;
  /** The longest Retry-After waited for, in ms (default MAX_RETRY_AFTER_MS). */
  maxRetryAfterMs?: number;
  /** Redirects followed per attempt (default MAX_REDIRECTS). */
  maxRedirects?: number;
  /**
   * Follow redirects to loopback, private, link-local and other non-public addresses: the source's
   * `allowPrivateRedirects` (redirects.ts). Never a redirect from https down to http.
   */
  allowPrivateRedirects?: boolean;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Injected for tests: every address of a redirect target's host; node:dns lookup otherwise. */
  lookup?: Lookup;
  sleep?: (ms: number) => Promise<void>;
  /** Told every answer met and every request that got none (`ingest --save-bodies`, http-answers.ts). */
  onAnswer?: AnswerRecorder;
}

export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_RETRY_AFTER_MS = 30_000;
export const MAX_REDIRECTS = 5;

/**
 * Headers that are credentials for one origin (a token in its header, the cookies its answer set):
 * sent only to a request at that origin (RFC 6454 §5, scheme, host and port), and never after a
 * redirect has left it. Their values are secrets: every answer told to `onAnswer` names them, so
 * that what is saved can leave them out (src/io/saved-bodies.ts).
 */
export interface Credentials {
  origin: string;
  headers: Headers;
}

/** A request: RequestInit, what it accepts, and its credentials, asked for afresh before every attempt. */
export type RequestOptions = RequestInit & {
  accept: string;
  /** Called before each attempt (from 1); a failure to get them is that attempt's failure. */
  credentialsFor?: ((attempt: number) => Promise<Credentials>) | undefined;
};

/** The values of credential headers, each cookie's value apart: what saved metadata must not hold. */
export function secretsOf(c: Credentials | undefined): string[] {
  if (!c) return [];
  const out: string[] = [];
  for (const [name, value] of c.headers)
    if (name === "cookie")
      for (const pair of value.split(";")) {
        const v = pair.slice(pair.indexOf("=") + 1).trim();
        if (v) out.push(v);
      }
    else if (value) out.push(value);
  return out;
}

/** A successful answer, its body read whole (at most maxBytes). */
export interface Fetched {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  statusText: string;
  headers: Headers;
  bytes: Uint8Array<ArrayBuffer>;
}

const retriable = (status: number) => status === 429 || status >= 500;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One attempt's outcome: the answer, or why not and whether another attempt may help. */
type Outcome = { ok: Fetched } | { error: SourceError; retry: boolean; waitMs?: number };

const describe = (e: unknown): string => {
  const err = e as Error & { cause?: { message?: string; code?: string } };
  const cause = err.cause ? ` (${err.cause.message ?? err.cause.code ?? String(err.cause)})` : "";
  return `${err.message ?? String(e)}${cause}`;
};

async function attempt(
  url: string,
  init: RequestInit,
  headers: Headers,
  o: HttpOptions,
  attemptNo: number,
  creds?: Credentials,
): Promise<Outcome> {
  const doFetch = o.fetch ?? fetch;
  const maxBytes = o.maxBytes ?? MAX_BODY_BYTES;
  const maxRedirects = o.maxRedirects ?? MAX_REDIRECTS;
  // One deadline for the whole attempt: connect, headers, redirects and body.
  const signal = AbortSignal.timeout(o.timeoutMs);
  let phase = "before the answer's headers";
  let current = url;
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  const hdrs = new Headers(headers);
  // The credentials ride only while the request is at their origin; once a redirect has left it they
  // stay off, even should a later redirect come back (the Fetch standard's rule for Authorization).
  let withCreds = creds !== undefined && new URL(url).origin === creds.origin;
  const sent = () => {
    if (!withCreds || !creds) return hdrs;
    const h = new Headers(hdrs);
    for (const [k, v] of creds.headers) h.set(k, v);
    return h;
  };
  const secret = creds === undefined ? {} : { secretHeaders: [...creds.headers.keys()], secrets: secretsOf(creds) };
  const record = o.onAnswer && ((a: Answer) => o.onAnswer!({ ...a, ...secret }));
  // What the recorder is told of the request in flight: its URL and method change with redirects.
  const asked = () => ({ url: current, method, attempt: attemptNo });
  /** The answer whose body is being read, for the recorder should the read fail. */
  let reading: Response | undefined;
  try {
    let res: Response;
    for (let hops = 0; ; hops++) {
      res = await doFetch(current, {
        ...init,
        method,
        body: body ?? null,
        headers: sent(),
        signal,
        redirect: "manual",
      });
      const location = res.headers.get("location");
      if (!REDIRECTS.has(res.status) || location === null) break;
      // A redirect's body is never read: its headers (Location) are what it says.
      record?.(answerOf(asked(), res, null));
      void res.body?.cancel().catch(() => {});
      if (hops >= maxRedirects)
        return {
          error: new SourceError(`more than ${maxRedirects} redirects (the last to ${location.slice(0, 200)})`, {
            url,
            status: res.status,
          }),
          retry: false,
        };
      let next: URL;
      try {
        next = new URL(location, current);
      } catch (e) {
        return {
          error: new SourceError(`a redirect to an unreadable Location "${location.slice(0, 200)}"`, {
            url,
            status: res.status,
            cause: e,
          }),
          retry: false,
        };
      }
      if (next.protocol !== "http:" && next.protocol !== "https:")
        return {
          error: new SourceError(`a redirect to ${next.protocol} is not followed`, { url, status: res.status }),
          retry: false,
        };
      // A redirect is the server's choice, not the operator's: public addresses, no downgrade (redirects.ts).
      phase = "before following a redirect";
      const refused = await Promise.race([
        redirectRefusal(new URL(url), new URL(current), next, {
          allowPrivate: o.allowPrivateRedirects === true,
          lookup: o.lookup ?? systemLookup,
        }),
        // The lookup takes no signal: the attempt's deadline still ends the wait for it.
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason as Error);
          signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
        }),
      ]);
      phase = "before the answer's headers";
      if (refused !== null)
        return {
          error: new SourceError(`a redirect to ${next.href.slice(0, 200)} is not followed: ${refused}`, {
            url,
            status: res.status,
            hint: refused.includes("https down to http")
              ? "if the source is to be read over http, configure its http:// URL"
              : 'a source on your own network may set "allowPrivateRedirects": true in the sources file',
          }),
          retry: false,
        };
      // RFC 9110 §15.4.4 (303), and §15.4.2–3 as browsers do: a POST redirected by 301/302/303 becomes a GET without its body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        if (method !== "HEAD") method = "GET";
        body = null;
        hdrs.delete("content-type");
        hdrs.delete("content-length");
      }
      // Credentials are for the origin that was asked: leaving it, only harmless headers go on (redirects.ts).
      if (next.origin !== new URL(current).origin) {
        const kept = headersAcrossOrigins(hdrs);
        for (const name of [...hdrs.keys()]) if (!kept.has(name)) hdrs.delete(name);
        withCreds = false;
      }
      current = next.href;
    }
    if (!res.ok) {
      await recordRefusal(res, maxBytes, record, asked());
      const error = new SourceError(`HTTP ${res.status} ${res.statusText}`.trim(), { url, status: res.status });
      if (!retriable(res.status)) return { error, retry: false };
      const after = retryAfterMs(res.headers.get("retry-after"), Date.now());
      if (after === null) return { error, retry: true };
      const maxWait = o.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
      if (after > maxWait)
        return {
          error: new SourceError(
            `${error.message}: asked to retry after ${Math.ceil(after / 1000)} s, more than the ${Math.round(maxWait / 1000)} s we wait; next run`,
            { url, status: res.status },
          ),
          retry: false,
        };
      return { error, retry: true, waitMs: after };
    }
    const length = Number(res.headers.get("content-length") ?? NaN);
    if (Number.isFinite(length) && length > maxBytes) {
      void res.body?.cancel().catch(() => {});
      record?.(answerOf(asked(), res, null, `${length} bytes announced, more than the limit of ${maxBytes}`));
      return {
        error: new SourceError(`the answer is ${length} bytes, more than the limit of ${maxBytes}`, {
          url,
          status: res.status,
        }),
        retry: false,
      };
    }
    phase = "while reading the body";
    reading = res;
    const bytes = await readCapped(res, maxBytes);
    const cut = `larger than the limit of ${maxBytes} bytes: cut off`;
    record?.(bytes === "too-large" ? answerOf(asked(), res, null, cut) : answerOf(asked(), res, bytes));
    if (bytes === "too-large")
      return {
        error: new SourceError(`the answer is larger than the limit of ${maxBytes} bytes: cut off`, {
          url,
          status: res.status,
        }),
        retry: false,
      };
    return { ok: { url: current, status: res.status, statusText: res.statusText, headers: res.headers, bytes } };
  } catch (e) {
    const name = (e as Error)?.name;
    const timedOut = name === "TimeoutError" || (name === "AbortError" && signal.aborted);
    const error = timedOut
      ? new SourceError(`timed out after ${o.timeoutMs} ms ${phase}`, { url, cause: e })
      : new SourceError(`network error ${phase}: ${describe(e)}`, { url, cause: e });
    // Reading the body, the headers had come (a body that stalled or reset): kept with why the body
    // is not. Before, the last answer (a redirect) was told already, and this request got none.
    record?.(answerOf(asked(), reading, null, error.message));
    return { error, retry: true };
  }
}

/**
 * A successful answer with its whole body, read within the timeout and the size cap; retried as
 * the module says. Throws a SourceError otherwise.
 */
export async function requestBytes(url: string, init: RequestOptions, o: HttpOptions): Promise<Fetched> {
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const { accept, credentialsFor, ...rest } = init;
  const headers = new Headers(rest.headers);
  // A source's own User-Agent, in any letter case (header names are case-insensitive, RFC 9110
  // §5.1), is sent as written: the operator may need the one a site lets through. Ours otherwise.
  if (!headers.has("user-agent")) headers.set("User-Agent", o.userAgent);
  headers.set("Accept", accept);
  let wait = 0;
  let last: SourceError = new SourceError("not attempted", { url });
  for (let n = 0; n <= o.retries; n++) {
    if (n > 0) await sleep(Math.max(wait, o.backoffMs * 2 ** (n - 1)));
    let creds: Credentials | undefined;
    if (credentialsFor)
      try {
        // A fresh token for every attempt: a nonce is for one use, and a retry may come after it expired.
        creds = await credentialsFor(n + 1);
      } catch (e) {
        if (!(e instanceof SourceError)) throw e;
        last = e;
        // Getting the token failed as a request fails: retried when that may pass (no status: the
        // network, a timeout; 429 or 5xx), not when it was refused, did not fit or held no token.
        if (e instanceof ShapeError || (e.status !== null && !retriable(e.status))) break;
        continue;
      }
    const out = await attempt(url, rest, headers, o, n + 1, creds);
    if ("ok" in out) return out.ok;
    last = out.error;
    if (!out.retry) break;
    wait = out.waitMs ?? 0;
  }
  throw last;
}

/** The body as text (UTF-8 unless the answer's charset says otherwise). */
export async function requestText(
  url: string,
  init: RequestOptions,
  o: HttpOptions,
): Promise<{ text: string; fetched: Fetched }> {
  const fetched = await requestBytes(url, init, o);
  const charset = /charset="?([\w-]+)"?/i.exec(fetched.headers.get("content-type") ?? "")?.[1] ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return { text: decoder.decode(fetched.bytes), fetched };
}

/**
 * The answer as a Response whose body is already in memory (see requestBytes): adapters may call
 * `.text()`, `.arrayBuffer()` or `.json()` on it without any risk of a stall, a reset or a flood.
 */
export async function request(url: string, init: RequestOptions, o: HttpOptions): Promise<Response> {
  const f = await requestBytes(url, init, o);
  const empty = f.status === 204 || f.status === 205;
  const res = new Response(empty ? null : f.bytes, { status: f.status, statusText: f.statusText, headers: f.headers });
  Object.defineProperty(res, "url", { value: f.url });
  return res;
}

/** Why a request reached no server: its host name did not resolve, or no connection could be made. */
export interface NetworkFailure {
  kind: "resolve" | "connect";
  /** The system's code: ENOTFOUND, EAI_AGAIN, ECONNREFUSED, ENETUNREACH… */
  code: string;
  /** The host name that did not resolve, when the error names it. */
  host: string | null;
}

/** getaddrinfo's answers for a name it could not resolve (RFC 3493 §6.1; Node's dns errors). */
const RESOLVE_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
/** A connection that could not be made: no server listening, no route, the network down. */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * What an error says of the network, from its chain of causes (a SourceError wraps fetch's
 * TypeError, which wraps the socket's error; several addresses tried give an AggregateError): the
 * host that did not resolve, or the connection that failed; null for anything else (a status, a
 * time-out, a body cut short: the server was reached).
 */
export function networkFailureOf(e: unknown): NetworkFailure | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [e];
  while (queue.length) {
    const err = queue.shift() as { code?: unknown; hostname?: unknown; cause?: unknown; errors?: unknown } | null;
    if (!err || typeof err !== "object" || seen.has(err)) continue;
    seen.add(err);
    const code = typeof err.code === "string" ? err.code : null;
    const host = typeof err.hostname === "string" ? err.hostname.toLowerCase().replace(/\.$/, "") : null;
    if (code && RESOLVE_CODES.has(code)) return { kind: "resolve", code, host };
    if (code && CONNECT_CODES.has(code)) return { kind: "connect", code, host };
    // Several tries (a source's fallback URLs, a host's addresses): a network failure only when each was one.
    if (Array.isArray(err.errors) && err.errors.length) {
      const each = (err.errors as unknown[]).map(networkFailureOf);
      if (each.every((f) => f !== null)) return each.find((f) => f.kind === "resolve") ?? each[0]!;
      continue;
    }
    queue.push(err.cause);
  }
  return null;
}
