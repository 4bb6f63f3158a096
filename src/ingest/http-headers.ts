/** The headers of a source's HTTP exchange that are ours to write or read: who asks, when to come back, cookies. */

export function userAgent(contact: string): string {
  // Browser-like prefix: the CBE's firewall refuses clients without one; the rest says who we are.
  return `Mozilla/5.0 (compatible; price-feed/1.0; +${contact})`;
}

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; in ms from `nowMs`, or null when
 * absent or unreadable.
 */
export function retryAfterMs(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return /[a-z]/i.test(v) && Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

/** Cookies a response sets, as a Cookie header to send back (name=value pairs only). */
export function cookiesOf(res: Pick<Response, "headers">): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!.trim())
    .filter(Boolean)
    .join("; ");
}
