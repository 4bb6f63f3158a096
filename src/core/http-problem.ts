/**
 * Problem details (RFC 9457): one error class with a status that renders itself, and every problem
 * the handler answers with, made in one place (problems) so that the OpenAPI description's examples
 * (src/render/openapi/examples.ts) are the very bodies it sends. The types, statuses and titles are
 * the contract's (src/core/http-contract.ts PROBLEM_TYPES). No node:* imports: the edge runtime
 * loads this module.
 */
import { PriceFeedError } from "./errors.js";
import { ALLOWED_METHODS, PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from "./http-contract.js";
import { MAX_PARAMS, MAX_URL_LENGTH } from "./limits.js";

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
