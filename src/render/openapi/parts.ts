/**
 * The OpenAPI description's reusable parts: response headers (RFC 9110, RFC 9111, the IETF
 * RateLimit draft, RFC 9745, RFC 8594), problem answers (RFC 9457) and the shape of a plain JSON
 * document's operation. index.ts assembles the paths from them.
 */
import type { Day, Days, History } from "../../schema/archive.js";
import type { Events } from "../../schema/events.js";
import type { SellerRecord, Sellers } from "../../schema/sellers.js";
import { CACHE_MAX_AGE_SECONDS, DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import {
  ALLOWED_METHODS,
  ALLOWED_REQUEST_HEADERS,
  PREFLIGHT_MAX_AGE_SECONDS,
  PROBLEM_MEDIA_TYPE,
  PROBLEM_TYPES,
  problemTypeUri,
  RATE_LIMIT_HEADERS,
  SECURITY_HEADERS,
  type ProblemSlug,
} from "../../core/http-contract.js";
import type { Feed } from "../../schema/outputs.js";
import type { Changelog, IndexDoc, Problem, Readiness, SourceHealth } from "../../schema/documents.js";

export type Json = Record<string, unknown>;

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

export interface OpenApiExamples {
  /** A feed answer filtered to one asset, as the build wrote it. */
  feed: Feed;
  index: IndexDoc;
  changelog: Changelog;
  /** The build's source health file. */
  sources: SourceHealth;
  /** The build's own readiness at the build instant, under the status it has. */
  readiness: { ready?: Readiness; notReady?: Readiness };
  /** One body per problem type, made by the handler's own code. */
  problems: Partial<Record<ProblemSlug, Problem>>;
  /** The archive's examples (src/render/openapi/archive.ts). */
  archive: ArchiveExamples;
  /** What changed, cut down from the build's events (src/render/openapi/events.ts); without it, no example. */
  events?: EventsExamples;
  /** The sellers' records, cut down from the build's (src/render/openapi/sellers.ts); without it, no example. */
  sellers?: SellersExamples;
}

/** What the archive's description quotes, cut down from the build's files (src/render/openapi/archive.ts). */
export interface ArchiveExamples {
  /** One asset's history narrowed to its last days, as `?from=` gives it. */
  history: History | null;
  /** The same rows as CSV. */
  csv: string | null;
  /** A day with one of its assets. */
  day: Day | null;
  days: Days;
}

/** What the sellers' description quotes (src/render/openapi/sellers.ts): the list cut to its first sellers, one record to one asset. */
export interface SellersExamples {
  list: Sellers;
  record: SellerRecord | null;
}

/** What the events' description quotes: the events document cut to its newest, and the same as Atom. */
export interface EventsExamples {
  events: Events;
  atom: string;
}

/** The Contact Object of `info` (OpenAPI 3.1 §4.8.3): who answers for this deployment. */
export interface Contact {
  name?: string | undefined;
  url?: string | undefined;
  email?: string | undefined;
}

export interface About {
  description: string;
  license: string;
  /** The site's contact (site.json `contact`); without it, the docs page of the host that serves the description. */
  contact?: Contact | undefined;
  /** The homes site.json names (src/feed/homes.ts): the description's `servers` list them. */
  homes?: { primary: string | null; mirror: string | null } | undefined;
  /** Header examples from this build. */
  etagExample: string;
  lastModifiedExample: string;
}

const int = (description: string, example?: number): Json => ({
  description,
  schema: { type: "integer", minimum: 0 },
  ...(example === undefined ? {} : { example }),
});
const str = (description: string, example?: string): Json => ({
  description,
  schema: { type: "string" },
  ...(example === undefined ? {} : { example }),
});

/** Response headers (RFC 9110, RFC 9111, the IETF RateLimit draft, RFC 9745, RFC 8594). */
export function headers(about: About): Record<string, Json> {
  return {
    ETag: str("Strong validator of the body without generatedAt; send it back as If-None-Match.", about.etagExample),
    "Last-Modified": str(
      "HTTP-date of the last change of the data (moves exactly when the ETag does).",
      about.lastModifiedExample,
    ),
    "Cache-Control": str(
      `Caching rule: documents may be cached for ${CACHE_MAX_AGE_SECONDS} seconds; errors and /readyz are no-store.`,
      `public, max-age=${CACHE_MAX_AGE_SECONDS}`,
    ),
    "Access-Control-Allow-Origin": str("Open CORS: any origin may read the answer.", "*"),
    "RateLimit-Limit": int("Requests allowed per window.", WINDOW_LIMIT),
    "RateLimit-Remaining": int(
      "Requests left in the current window (absent when the counters are unreachable and limits are not enforced).",
      WINDOW_LIMIT - 1,
    ),
    "RateLimit-Reset": int("Seconds until the current window resets.", WINDOW_SECONDS),
    "RateLimit-Policy": str(
      "The quota that applies to this caller: limit;w=window seconds. While the service is busy, an anonymous caller may be given a reduced policy (a smaller limit) before callers that identify themselves with X-Contact or a URL or e-mail address in User-Agent; this header then carries the reduced policy.",
      `${WINDOW_LIMIT};w=${WINDOW_SECONDS}`,
    ),
    "Daily-Limit": int("Requests allowed per address per Cairo day.", DAILY_LIMIT),
    "Daily-Used": int("Requests this address has made today, Cairo time.", 1),
    "Daily-Reset": int("Seconds until midnight Africa/Cairo, when the daily allowance resets.", 3600),
    "Retry-After": int("Seconds to wait before retrying.", 30),
    Allow: str("The methods the API answers.", ALLOWED_METHODS.join(", ")),
    "Access-Control-Allow-Methods": str(
      "A preflight's answer: the methods a page may send.",
      ALLOWED_METHODS.join(", "),
    ),
    "Access-Control-Allow-Headers": str(
      "A preflight's answer: the request headers a page may send.",
      ALLOWED_REQUEST_HEADERS.join(", "),
    ),
    "Access-Control-Max-Age": int("A preflight's answer: seconds a browser may keep it.", PREFLIGHT_MAX_AGE_SECONDS),
    Deprecation: str("Only on a deprecated version: when it was deprecated (RFC 9745 structured date).", "@1798761600"),
    Sunset: str(
      "Only on a deprecated version: the HTTP-date after which it may stop answering (RFC 8594).",
      "Thu, 01 Jul 2027 00:00:00 GMT",
    ),
    "X-Content-Type-Options": str(
      "Always nosniff: the body is only ever what Content-Type says.",
      SECURITY_HEADERS["X-Content-Type-Options"],
    ),
    "Referrer-Policy": str("Always no-referrer.", SECURITY_HEADERS["Referrer-Policy"]),
    "Cross-Origin-Resource-Policy": str(
      "Always cross-origin: any origin may load the answer, as CORS allows it to read it.",
      SECURITY_HEADERS["Cross-Origin-Resource-Policy"],
    ),
    "Content-Security-Policy": str(
      "The answers are data, not documents: nothing may load from them or frame them.",
      SECURITY_HEADERS["Content-Security-Policy"],
    ),
  };
}

/** Headers every answer carries: CORS, the rate-limit state and the security headers. */
export const COMMON = [
  "Access-Control-Allow-Origin",
  ...RATE_LIMIT_HEADERS,
  "Deprecation",
  "Sunset",
  ...Object.keys(SECURITY_HEADERS),
];

export function headerRefs(...keys: string[]): Json {
  return Object.fromEntries([...keys, ...COMMON].map((k) => [k, ref("headers", k)]));
}

/**
 * Every problem type answered with `status`, from the one table of them (PROBLEM_TYPES), so a type
 * added there is described under its status without another edit here.
 */
export const slugsWithStatus = (status: number): ProblemSlug[] =>
  (Object.keys(PROBLEM_TYPES) as ProblemSlug[]).filter((s) => PROBLEM_TYPES[s].status === status);

export function problemContent(slugs: ProblemSlug[], examples: OpenApiExamples["problems"]): Json {
  const ex = Object.fromEntries(
    slugs.filter((s) => examples[s]).map((s) => [s, { summary: PROBLEM_TYPES[s].title, value: examples[s] }]),
  );
  return {
    [PROBLEM_MEDIA_TYPE]: {
      schema: ref("schemas", "Problem"),
      ...(Object.keys(ex).length ? { examples: ex } : {}),
    },
  };
}

export function problemResponse(
  description: string,
  slugs: ProblemSlug[],
  examples: OpenApiExamples["problems"],
  ...extraHeaders: string[]
): Json {
  return {
    description,
    headers: headerRefs("Cache-Control", ...extraHeaders),
    content: problemContent(slugs, examples),
  };
}

export function responses(ex: OpenApiExamples): Record<string, Json> {
  const p = ex.problems;
  return {
    NotModified: {
      description:
        "The client's copy is current (If-None-Match matched, or nothing changed since If-Modified-Since). No body.",
      headers: headerRefs("ETag", "Last-Modified", "Cache-Control"),
    },
    BadRequest: problemResponse(
      "A filter value is unknown or empty, or the query or the request itself is malformed. On a filter, the body lists the accepted values.",
      ["unknown-category", "unknown-asset", "too-many-parameters", "invalid-encoding", "malformed-request"],
      p,
    ),
    // Every path reads the query's bounds and encoding, and the server refuses what is not HTTP.
    MalformedRequest: problemResponse(
      "The query or the request itself is malformed: too many parameters, a filter parameter that is not UTF-8, or a request target or Host the server cannot read.",
      ["too-many-parameters", "invalid-encoding", "malformed-request"],
      p,
    ),
    NotFound: problemResponse("Nothing is published at this path.", ["not-found"], p),
    MethodNotAllowed: problemResponse(
      "Sent for any method other than GET, HEAD and OPTIONS: the API is read-only. (OpenAPI lists responses per operation, so it is listed under GET.)",
      ["method-not-allowed"],
      p,
      "Allow",
    ),
    UriTooLong: problemResponse("The request target is too long.", ["uri-too-long"], p),
    TooManyRequests: problemResponse(
      "The per-minute window or the daily allowance of this address is used up. While the service is busy, anonymous callers are limited first (RateLimit-Policy then carries their reduced policy): identify yourself with X-Contact, or a URL or e-mail address in User-Agent.",
      slugsWithStatus(429),
      p,
      "Retry-After",
    ),
    PreconditionFailed: problemResponse(
      `A precondition of the request is false (RFC 9110 §13.1.1, §13.1.4): If-Match names no current ETag, or the data changed after If-Unmodified-Since. The body is a problem of type ${PRECONDITION_FAILED_TYPE}; ETag and Last-Modified are those of the current representation.`,
      slugsWithStatus(412),
      p,
      "ETag",
      "Last-Modified",
    ),
    Unavailable: problemResponse("The published files could not be read; retry shortly.", ["unavailable"], p),
  };
}

export const ERRORS = {
  "400": ref("responses", "MalformedRequest"),
  "404": ref("responses", "NotFound"),
  "405": ref("responses", "MethodNotAllowed"),
  "414": ref("responses", "UriTooLong"),
  "429": ref("responses", "TooManyRequests"),
  "503": ref("responses", "Unavailable"),
};
/** The problem type of a false precondition (src/core/http-contract.ts). */
export const PRECONDITION_FAILED_TYPE = problemTypeUri("precondition-failed" as ProblemSlug);

/** The request headers every document's GET (and HEAD) reads. */
export const CONDITIONAL = [
  ref("parameters", "IfNoneMatch"),
  ref("parameters", "IfModifiedSince"),
  ref("parameters", "IfMatch"),
  ref("parameters", "IfUnmodifiedSince"),
  ref("parameters", "XContact"),
];

/** The answers of a document with an ETag beside its 200: 304, 412 and the common errors. */
export const DOCUMENT_ERRORS = {
  "304": ref("responses", "NotModified"),
  "412": ref("responses", "PreconditionFailed"),
  ...ERRORS,
};

export function jsonDocument(
  operationId: string,
  summary: string,
  description: string,
  schema: Json,
  example: unknown,
): Json {
  return {
    get: {
      operationId,
      summary,
      description,
      tags: ["API"],
      parameters: CONDITIONAL,
      responses: {
        "200": {
          description: "The document.",
          headers: headerRefs("ETag", "Last-Modified", "Cache-Control"),
          content: { "application/json": { schema, example } },
        },
        ...DOCUMENT_ERRORS,
      },
    },
  };
}

/**
 * The host that served the description first (a relative URL: OpenAPI 3.1 §4.8.5), then the homes
 * site.json names (docs/deployment.md "The second home"): the primary, and the mirror, whose base
 * URL keeps its path prefix, so that a server URL followed by a path is a file there.
 */
export function servers(homes: About["homes"]): Json[] {
  return [
    { url: "/", description: "The host that served this description." },
    ...(homes?.primary
      ? [{ url: homes.primary, description: "The primary home: every path, with filters, limits and problems." }]
      : []),
    ...(homes?.mirror
      ? [
          {
            url: homes.mirror,
            description:
              "The mirror: the same build as static files. It reads no query string: use the pre-filtered files instead of ?category= and ?asset=, and /api/v1/index.json for the index.",
          },
        ]
      : []),
  ];
}
