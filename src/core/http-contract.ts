/**
 * The API's HTTP contract, defined once below both of its sides: src/edge/, which answers by it,
 * and src/render/, which describes it (the OpenAPI description, the docs page). The problem types
 * (RFC 9457) with their statuses, titles and documentation URIs, the methods the API answers, what a
 * CORS preflight allows, and the headers every answer carries. PROBLEM_TYPES is the one list of
 * problems: the handler, the OpenAPI description and the docs page read it. No node:* imports: the
 * edge runtime loads this module.
 */
import { MAX_PARAMS, MAX_URL_LENGTH } from "./limits.js";

/**
 * Every problem the API answers with. `type` is a relative URI to the documentation's section on
 * that problem (problemTypeUri), so a person can follow it.
 */
export const PROBLEM_TYPES = {
  "unknown-category": {
    status: 400,
    title: "Unknown category",
    when: "A value of ?category= is not a published category slug.",
    fix: "Use a value from validCategories, or drop the filter.",
  },
  "unknown-asset": {
    status: 400,
    title: "Unknown asset",
    when: "A value of ?asset= is neither a published slug nor an id.",
    fix: "Use a value from validAssets (slugs; ids work too).",
  },
  "too-many-parameters": {
    status: 400,
    title: "Too many parameters",
    when: `The query has more than ${MAX_PARAMS} parameters.`,
    fix: "Send comma-separated values in one parameter.",
  },
  "invalid-encoding": {
    status: 400,
    title: "Invalid encoding",
    when: "A filter value is not valid percent-encoded UTF-8.",
    fix: "Percent-encode the value as UTF-8.",
  },
  "malformed-request": {
    status: 400,
    title: "Malformed request",
    when: "The request could not be read as HTTP: a character a request target may not hold (a raw backslash, a space, a control character), or a missing or invalid Host header.",
    fix: "Percent-encode the path and query, and send the host name in Host.",
  },
  "invalid-date": {
    status: 400,
    title: "Invalid date",
    when: "A ?from= or ?to= of the archive, or the date in /api/v1/days/{date}.json, is not a date that exists, written YYYY-MM-DD; or from is after to.",
    fix: "Send Cairo calendar dates as YYYY-MM-DD, from on or before to; the parameter member names the one at fault (date: the path's).",
  },
  "not-found": {
    status: 404,
    title: "Not found",
    when: "Nothing is published at the path.",
    fix: "Start from the index at /api/v1.",
  },
  "unknown-asset-path": {
    status: 404,
    title: "Unknown asset",
    when: "The archive path names neither a published slug nor an id.",
    fix: "Use a value from validAssets (slugs; ids work too, in any letter case).",
  },
  "unknown-seller": {
    status: 404,
    title: "Unknown seller",
    when: "The path /api/v1/sellers/{id}.json names no seller with a record: not in the registry, or it never quoted.",
    fix: "Use an id from validSellers, or from /api/v1/sellers.json.",
  },
  "no-such-day": {
    status: 404,
    title: "No data on this date",
    when: "The archive has no entry on the date of the path: a day without quotes or references, or one before the data begins or after the last build.",
    fix: "Use a date from /api/v1/days.json; the earlier and later members name the nearest dates there are.",
  },
  "method-not-allowed": {
    status: 405,
    title: "Method not allowed",
    when: "A method other than GET, HEAD or OPTIONS: the API is read-only.",
    fix: "Use GET; the allow member and the Allow header list the methods.",
  },
  "precondition-failed": {
    status: 412,
    title: "Precondition failed",
    when: "If-Match names no current ETag of the resource (strong comparison: a weak tag never matches), or, without If-Match, the resource changed after the date in If-Unmodified-Since (RFC 9110 §13.1.1, §13.1.4).",
    fix: "Fetch the resource again: the ETag and Last-Modified headers of this answer are those of its current representation.",
  },
  "uri-too-long": {
    status: 414,
    title: "URI too long",
    when: `The request target is longer than ${MAX_URL_LENGTH} characters.`,
    fix: "Filter by category, or by fewer assets.",
  },
  "rate-limited": {
    status: 429,
    title: "Too many requests",
    when: "More requests than the per-minute window allows from one address. While the service is busy, an anonymous caller's window is a quarter of the burst (its RateLimit-Policy says so).",
    fix: "Wait Retry-After seconds; poll with If-None-Match and space the calls. Send X-Contact (a URL or an e-mail address), or put one in User-Agent, to keep the full window while the service is busy.",
  },
  "daily-limit": {
    status: 429,
    title: "Daily allowance used",
    when: "The address has used its daily allowance of the Cairo day.",
    fix: "Wait Retry-After seconds, until midnight Africa/Cairo.",
  },
  unavailable: {
    status: 503,
    title: "Service unavailable",
    when: "The published files could not be read (for example during a deployment).",
    fix: "Retry shortly.",
  },
} as const satisfies Record<string, { status: number; title: string; when: string; fix: string }>;
export type ProblemSlug = keyof typeof PROBLEM_TYPES;

export const problemTypeUri = (slug: ProblemSlug) => `/docs/#problem-${slug}`;

/** The media type of every problem answer (RFC 9457 §3). */
export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/** The API is read-only (specification, rule 1). */
export const ALLOWED_METHODS = ["GET", "HEAD", "OPTIONS"] as const;

/**
 * What a CORS preflight allows a page to send (Fetch Standard, "CORS protocol"): the conditional
 * request fields (RFC 9110 §13.1) and X-Contact, with which a caller identifies itself
 * (src/edge/policy.ts); and how long a browser may keep the preflight's answer.
 */
export const ALLOWED_REQUEST_HEADERS = [
  "If-None-Match",
  "If-Modified-Since",
  "If-Match",
  "If-Unmodified-Since",
  "X-Contact",
] as const;
export const PREFLIGHT_MAX_AGE_SECONDS = 86400;

/**
 * The API's own answers (JSON, problems, 304s, preflights) are data, never a document to render:
 * nothing may load from them or frame them. HTML pages served by the handler get PAGE_CSP
 * (src/core/csp.ts) instead.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Sent on every answer of the handler: no MIME sniffing of a body into something executable, no
 * Referer leaked from a page of ours, and an explicit consent to cross-origin reads (the API is meant
 * to be read from any origin, so Cross-Origin-Embedder-Policy pages may load it too).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "cross-origin",
  "Content-Security-Policy": API_CSP,
};

/** The rate-limit state every answer carries (the IETF RateLimit draft, and the Cairo-day allowance). */
export const RATE_LIMIT_HEADERS = [
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Daily-Limit",
  "Daily-Used",
  "Daily-Reset",
] as const;
