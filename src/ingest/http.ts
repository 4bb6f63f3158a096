/**
 * Polite HTTP for sources: a clear User-Agent with a contact, an Accept header, a timeout, and at
 * most a couple of retries with exponential backoff for faults that may pass (network errors,
 * timeouts, 429 and 5xx). A 4xx other than 429 is the source refusing us: retrying would not help.
 */
export interface HttpOptions {
  userAgent: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

import { SourceError } from "../core/errors.js";

export { SourceError };

const retriable = (status: number) => status === 429 || status >= 500;

export function userAgent(contact: string): string {
  // Browser-like prefix: the CBE's firewall refuses clients without one; the rest says who we are.
  return `Mozilla/5.0 (compatible; price-feed/1.0; +${contact})`;
}

export async function request(url: string, init: RequestInit & { accept: string }, o: HttpOptions): Promise<Response> {
  const doFetch = o.fetch ?? fetch;
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const headers = new Headers(init.headers);
  headers.set("User-Agent", o.userAgent);
  headers.set("Accept", init.accept);
  let last: SourceError = new SourceError("not attempted", url);
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (attempt > 0) await sleep(o.backoffMs * 2 ** (attempt - 1));
    try {
      const res = await doFetch(url, { ...init, headers, signal: AbortSignal.timeout(o.timeoutMs), redirect: "follow" });
      if (res.ok) return res;
      last = new SourceError(`HTTP ${res.status} ${res.statusText}`.trim(), url, res.status);
      await res.body?.cancel();
      if (!retriable(res.status)) break;
    } catch (e) {
      const err = e as Error;
      last = new SourceError(err.name === "TimeoutError" ? `timed out after ${o.timeoutMs} ms` : `network error: ${err.message}${err.cause ? ` (${(err.cause as Error).message ?? err.cause})` : ""}`, url);
    }
  }
  throw last;
}

/** Cookies a response sets, as a Cookie header to send back (name=value pairs only). */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!.trim())
    .filter(Boolean)
    .join("; ");
}
