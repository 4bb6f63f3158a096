/**
 * Problem details (RFC 9457): one error class with a status that renders itself. `type` is a
 * relative URI to the documentation's section on that problem, so a person can follow it.
 * PROBLEM_TYPES is the one list of them: the handler, the OpenAPI description and the docs page read it.
 */
import { PriceFeedError } from "../core/errors.js";
import { MAX_PARAMS, MAX_URL_LENGTH } from "../core/limits.js";

export interface ProblemExtras {
  validCategories?: string[];
  validAssets?: string[];
  /** On a seller without a record (docs/methodology.md §13): the ids of those with one. */
  validSellers?: string[];
  allow?: string[];
  /** On a bad archive range: the query parameter at fault. */
  parameter?: string;
  /** On a date the archive does not have: the nearest dates it has (null when there is none that side). */
  earlier?: string | null;
  later?: string | null;
}

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

/** An answer other than the document asked for: renders itself as problem+json (RFC 9457). */
export class HttpProblem extends PriceFeedError {
  override name = "HttpProblem";
  readonly kind = "http";
  readonly status: number;
  readonly title: string;
  constructor(
    readonly slug: ProblemSlug,
    readonly detail: string,
    readonly error: string,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = PROBLEM_TYPES[slug].status;
    this.title = PROBLEM_TYPES[slug].title;
  }

  body(instance: string): Record<string, unknown> {
    return {
      type: problemTypeUri(this.slug),
      title: this.title,
      status: this.status,
      detail: this.detail,
      error: this.error,
      instance,
      ...this.extras,
    };
  }
}

export const PROBLEM_TYPE = "application/problem+json";

/** The API is read-only (specification, rule 1). */
export const ALLOWED_METHODS = ["GET", "HEAD", "OPTIONS"] as const;

/** The handler's problems, made in one place so the OpenAPI examples are the very bodies it sends. */
export const problems = {
  fileMissing: () =>
    new HttpProblem("not-found", "This file is listed but missing; the site is being republished.", "not found"),
  notFound: (index: string) =>
    new HttpProblem("not-found", `Nothing is published at this path. The API's index is at ${index}.`, "not found"),
  uriTooLong: () =>
    new HttpProblem("uri-too-long", `Request targets are limited to ${MAX_URL_LENGTH} characters.`, "uri too long"),
  tooManyParameters: () =>
    new HttpProblem("too-many-parameters", `At most ${MAX_PARAMS} query parameters are read.`, "too many parameters"),
  invalidEncoding: (param: string) =>
    new HttpProblem(
      "invalid-encoding",
      `The ${param} parameter is not valid percent-encoded UTF-8.`,
      "invalid encoding",
    ),
  dailyLimit: (daily: number, retry: number) =>
    new HttpProblem(
      "daily-limit",
      `This address has used its ${daily} requests of the Cairo day; the allowance resets at midnight Africa/Cairo, in ${retry} s.`,
      "daily allowance exceeded",
      {},
      { "Retry-After": String(retry) },
    ),
  rateLimited: (window: number, windowSeconds: number, retry: number) =>
    new HttpProblem(
      "rate-limited",
      `At most ${window} requests per ${windowSeconds} s from one address; retry in ${retry} s, and use If-None-Match to poll cheaply.`,
      "rate limit exceeded",
      {},
      { "Retry-After": String(retry) },
    ),
  preconditionFailed: (field: "If-Match" | "If-Unmodified-Since") =>
    new HttpProblem(
      "precondition-failed",
      field === "If-Match"
        ? "If-Match names no current ETag of this resource (strong comparison: a weak tag never matches); the ETag header carries the current one."
        : "The resource changed after the date in If-Unmodified-Since; the ETag and Last-Modified headers carry its current representation's.",
      "precondition failed",
    ),
  /** The reduced window of an anonymous caller while the service is busy: how to keep the full one. */
  anonymousLimited: (window: number, full: number, windowSeconds: number, retry: number) =>
    new HttpProblem(
      "rate-limited",
      `The service is busy, and anonymous callers are limited first: at most ${window} requests per ${windowSeconds} s from one address. ` +
        `Identify yourself to keep the full ${full} per ${windowSeconds} s: send an X-Contact header with a URL or an e-mail address ` +
        `(X-Contact: https://your-app.example/contact or X-Contact: you@your-app.example), or put one in User-Agent. Retry in ${retry} s.`,
      "rate limit exceeded (anonymous, busy)",
      {},
      { "Retry-After": String(retry) },
    ),
  methodNotAllowed: (allow: readonly string[] = ALLOWED_METHODS) =>
    new HttpProblem(
      "method-not-allowed",
      `The API is read-only: ${allow.join(", ")}.`,
      "method not allowed",
      { allow: [...allow] },
      { Allow: allow.join(", ") },
    ),
  unavailable: () => new HttpProblem("unavailable", "The feed could not be read; retry shortly.", "unavailable"),
  invalidDate: (parameter: "from" | "to" | "date", detail: string) =>
    new HttpProblem("invalid-date", `${detail} Send a Cairo date as YYYY-MM-DD.`, `invalid ${parameter}`, {
      parameter,
    }),
  unknownAssetPath: (name: string, validAssets: string[]) =>
    new HttpProblem(
      "unknown-asset-path",
      `No asset is published as "${name.slice(0, 64)}". Use a slug or an id of: ${validAssets.join(", ")}.`,
      "unknown asset",
      { validAssets },
    ),
  unknownSeller: (id: string, validSellers: string[]) =>
    new HttpProblem(
      "unknown-seller",
      `No seller has a record as "${id.slice(0, 64)}". Use an id of: ${validSellers.join(", ")}.`,
      "unknown seller",
      { validSellers },
    ),
  noSuchDay: (date: string, earlier: string | null, later: string | null) =>
    new HttpProblem(
      "no-such-day",
      `The archive has no entry on ${date.slice(0, 32)}.` +
        (earlier ? ` The nearest earlier date is ${earlier}.` : " There is no earlier date.") +
        (later ? ` The nearest later date is ${later}.` : " There is no later date."),
      "no data on this date",
      { earlier, later },
    ),
  malformed: (why: string) =>
    new HttpProblem("malformed-request", `The request could not be read: ${why}.`, "malformed request"),
};
