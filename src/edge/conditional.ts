/**
 * Conditional requests (RFC 9110 §13.1–13.2): If-None-Match with weak comparison wins over
 * If-Modified-Since; both only for GET and HEAD.
 */

/** The entity-tags of an If-None-Match value, or "*" (RFC 9110 §13.1.2). */
export function parseEtagList(value: string): string[] | "*" {
  if (value.trim() === "*") return "*";
  return [...value.matchAll(/(?:W\/)?"[^"]*"/g)].map((m) => m[0]);
}

/** Weak comparison (RFC 9110 §8.8.3.2): equal opaque-tags, whatever W/ either carries. */
export function weakMatch(a: string, b: string): boolean {
  return a.replace(/^W\//, "") === b.replace(/^W\//, "");
}

/** IMF-fixdate, the preferred HTTP-date format (RFC 9110 §5.6.7). */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

/**
 * True when the client's copy is current. If-None-Match, when present, decides alone; an
 * If-Modified-Since that is not a valid date is ignored (RFC 9110 §13.1.3).
 */
export function notModified(headers: Headers, etag: string, lastModifiedMs: number): boolean {
  const inm = headers.get("if-none-match");
  if (inm !== null) {
    const tags = parseEtagList(inm);
    return tags === "*" || tags.some((t) => weakMatch(t, etag));
  }
  const ims = headers.get("if-modified-since");
  if (ims === null) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(lastModifiedMs / 1000) * 1000 <= since;
}
