/**
 * Conditional requests (RFC 9110 §13.1–13.2), evaluated in the order of §13.2.2: If-Match (strong
 * comparison), else If-Unmodified-Since; then If-None-Match (weak comparison), else
 * If-Modified-Since. A false If-Match or If-Unmodified-Since is 412 Precondition Failed; a false
 * If-None-Match or If-Modified-Since is 304 (the API answers GET and HEAD only). Every field is
 * parsed strictly: a value that is not of the field's grammar never yields a 304, and never makes
 * an If-Match true.
 */
import { parseHttpDate } from "../core/http-date.js";

/**
 * entity-tag = [ weak ] opaque-tag; weak = "W/"; opaque-tag = DQUOTE *etagc DQUOTE;
 * etagc = %x21 / %x23-7E / obs-text (RFC 9110 §8.8.3).
 */
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7E\x80-\xFF]*"$/;

/**
 * The entity-tags of an If-None-Match value, "*", or null when the value is not of its grammar
 * (RFC 9110 §13.1.2: `"*" / #entity-tag`). List elements are split at commas outside quotes and
 * trimmed of optional whitespace; empty elements are allowed (§5.6.1.2). Each element must be an
 * entity-tag whole: `x"abc"y` is not one, so it matches nothing.
 */
export function parseEtagList(value: string): string[] | "*" | null {
  if (value.trim() === "*") return "*";
  const tags: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if ((c === "," && !quoted) || i === value.length) {
      const el = value.slice(start, i).replace(/^[ \t]+|[ \t]+$/g, "");
      start = i + 1;
      if (el === "") continue;
      if (!ENTITY_TAG.test(el)) return null;
      tags.push(el);
    }
  }
  return quoted ? null : tags;
}

/** Weak comparison (RFC 9110 §8.8.3.2): equal opaque-tags, whatever W/ either carries. */
export function weakMatch(a: string, b: string): boolean {
  return a.replace(/^W\//, "") === b.replace(/^W\//, "");
}

/**
 * Strong comparison (RFC 9110 §8.8.3.2): both entity-tags strong and their opaque-tags equal, so a
 * weak tag never matches, not even itself.
 */
export function strongMatch(a: string, b: string): boolean {
  return !a.startsWith("W/") && !b.startsWith("W/") && a === b;
}

/**
 * What the preconditions of a GET or HEAD decide (RFC 9110 §13.2.2): serve it, 304, or 412 naming
 * the field that was false.
 */
export type PreconditionOutcome = "proceed" | "not-modified" | { failed: "If-Match" | "If-Unmodified-Since" };

/** Last-Modified as sent: an HTTP-date has whole seconds, so comparisons use the second it names. */
const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * The preconditions of a GET or HEAD against the selected representation (`etag`, `lastModifiedMs`)
 * at the server's clock `nowMs`, in the order of RFC 9110 §13.2.2:
 *
 * 1. If-Match (§13.1.1): `*` is true (there is always a current representation here); a list is true
 *    when one of its entity-tags matches by strong comparison, so a weak tag never does; a value not
 *    of the field's grammar matches nothing. False: 412.
 * 2. Only without If-Match, If-Unmodified-Since (§13.1.4): ignored when not a valid HTTP-date; true
 *    when the representation was last modified at or before that date (a date in the future is
 *    therefore true). False: 412.
 * 3. If-None-Match (§13.1.2), weak comparison: when a tag matches (or `*`), 304 for GET and HEAD.
 * 4. Only without If-None-Match, If-Modified-Since (§13.1.3): ignored when not a valid HTTP-date or
 *    later than `nowMs` (such a date is invalid: RFC 2616 §14.25, RFC 7232 §3.3), so a client
 *    cannot pin a 304 with a date in the future; else 304 when not modified since.
 */
export function evaluatePreconditions(
  headers: Headers,
  etag: string,
  lastModifiedMs: number,
  nowMs: number,
): PreconditionOutcome {
  const im = headers.get("if-match");
  if (im !== null) {
    const tags = parseEtagList(im);
    if (tags !== "*" && !(tags !== null && tags.some((t) => strongMatch(t, etag)))) return { failed: "If-Match" };
  } else {
    const ius = headers.get("if-unmodified-since");
    const date = ius === null ? null : parseHttpDate(ius);
    if (date !== null && toSecond(lastModifiedMs) > date) return { failed: "If-Unmodified-Since" };
  }
  return notModified(headers, etag, lastModifiedMs, nowMs) ? "not-modified" : "proceed";
}

/**
 * True when the client's copy is current. If-None-Match, when present, decides alone (RFC 9110
 * §13.2.2); a value not of its grammar matches nothing. If-Modified-Since is ignored when it is not
 * a valid HTTP-date (§13.1.3) or when it is later than the server's current time `nowMs` (such a
 * date is invalid: RFC 2616 §14.25, RFC 7232 §3.3), so a client cannot pin a 304 with a date in the
 * future.
 */
export function notModified(headers: Headers, etag: string, lastModifiedMs: number, nowMs: number): boolean {
  const inm = headers.get("if-none-match");
  if (inm !== null) {
    const tags = parseEtagList(inm);
    return tags === "*" || (tags !== null && tags.some((t) => weakMatch(t, etag)));
  }
  const ims = headers.get("if-modified-since");
  if (ims === null) return false;
  const since = parseHttpDate(ims);
  if (since === null || since > nowMs) return false;
  return toSecond(lastModifiedMs) <= since;
}
