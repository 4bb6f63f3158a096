/**
 * Who is limited first when the service is busy (specification, Authentication 3 and Limits: "heavy
 * anonymous traffic is slowed first"). While the total rate across all addresses is ordinary, every
 * caller gets the published limits. When it passes the threshold the operator sets (`serve
 * --busy-threshold N/SECONDS`, PRICE_FEED_BUSY_THRESHOLD on Netlify), an anonymous caller's window
 * shrinks to a quarter of the burst, and a caller that identified itself — a URL or an e-mail
 * address in X-Contact or in User-Agent — keeps the full limit. Web-standard, no node:* imports.
 */
import { anonymousWindow } from "../feed/index-doc.js";
import type { Caps } from "./counters.js";
import type { Limits } from "./deps.js";

/** A URL of a named host (RFC 3986 authority with a dot: `https://app.example/about`), or an e-mail address (RFC 5322 addr-spec, its usual form; `mailto:` included). */
const URL_RE = /\bhttps?:\/\/[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/i;
const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;
/** Only the start of a header is read: an identification is short, and a huge header costs nothing more. */
const READ_CHARS = 512;

/** Whether a header value holds a URL or an e-mail address. */
export function holdsContact(value: string | null): boolean {
  if (value === null) return false;
  const v = value.slice(0, READ_CHARS);
  return URL_RE.test(v) || EMAIL_RE.test(v);
}

/**
 * A caller identifies itself with a URL or an e-mail address in X-Contact or in User-Agent
 * (`Mozilla/5.0 (compatible; my-app/1.0; +https://my-app.example/contact)`). Anything else — no
 * header, a bare product token such as `curl/8.5.0`, a name without an address — is anonymous.
 */
export function identifies(headers: Headers): boolean {
  return holdsContact(headers.get("x-contact")) || holdsContact(headers.get("user-agent"));
}

/** `N/SECONDS`: more than N requests per SECONDS from all addresses together makes the service busy; null when not of that form. */
export function parseBusyThreshold(value: string): { limit: number; seconds: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!m) return null;
  const [limit, seconds] = [Number(m[1]), Number(m[2])];
  return limit >= 1 && seconds >= 1 && Number.isSafeInteger(limit) && Number.isSafeInteger(seconds)
    ? { limit, seconds }
    : null;
}

/** What this caller may spend (counters.ts Caps): its busy window is the reduced one when anonymous. */
export function capsFor(limits: Limits, identified: boolean): Caps {
  return {
    window: limits.window,
    busyWindow: identified ? limits.window : anonymousWindow(limits.window),
    daily: limits.daily,
    ...(limits.busy ? { busy: { limit: limits.busy.limit, windowMs: limits.busy.seconds * 1000 } } : {}),
  };
}

/** The window that applies to this request: the reduced one for an anonymous caller while the service is busy. */
export function windowFor(limits: Limits, identified: boolean, busy: boolean): number {
  return busy && !identified ? anonymousWindow(limits.window) : limits.window;
}

/**
 * RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers: `limit;w=seconds`, other parameters are
 * comments a client ignores): the policy that applies to this caller now, so an anonymous caller
 * limited first while the service is busy reads its reduced policy, and why.
 */
export function policyHeader(limits: Limits, identified: boolean, busy: boolean): string {
  const window = windowFor(limits, identified, busy);
  const base = `${window};w=${limits.windowSeconds}`;
  return window < limits.window ? `${base};comment="busy: anonymous callers limited first; send X-Contact"` : base;
}
