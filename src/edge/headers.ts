/**
 * The headers of every answer: CORS, the security headers, cache control, rate-limit state, and
 * problem+json answers (RFC 9457) with them. Set in code because Netlify applies no [[headers]]
 * rules to edge-function answers (docs/deployment.md "On Netlify"). Which security and rate-limit
 * headers there are is the contract's (src/core/http-contract.ts), which the OpenAPI description
 * reads too.
 */
import { nextCairoMidnight } from "../core/cairo.js";
import { CACHE_MAX_AGE_SECONDS, MAX_URL_LENGTH } from "../core/limits.js";
import type { Hit } from "./counters.js";
import type { Limits } from "./deps.js";
import { policyHeader, windowFor } from "./policy.js";
import { ALLOWED_METHODS, PROBLEM_MEDIA_TYPE, RATE_LIMIT_HEADERS, SECURITY_HEADERS } from "../core/http-contract.js";
import type { HttpProblem } from "../core/http-problem.js";

export const FEED_CACHE = `public, max-age=${CACHE_MAX_AGE_SECONDS}`;
export const ALLOW = ALLOWED_METHODS.join(", ");
/**
 * The pages' policy (src/core/csp.ts, where it is defined once: the pages carry it in a meta element
 * too, for the mirror, which sends no headers). The same policy is set for them in netlify.toml,
 * where the CDN serves them (test/edge/handler.test.ts holds the two equal).
 */
export { PAGE_CSP, WORKER_CSP } from "../core/csp.js";
/** What a page's script may read of an answer (CORS): the representation's headers and the rate-limit state. */
export const EXPOSE = [
  "ETag",
  "Last-Modified",
  "Retry-After",
  ...RATE_LIMIT_HEADERS,
  "Deprecation",
  "Sunset",
  "Link",
].join(", ");

export function baseHeaders(): Headers {
  return new Headers({
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSE,
    ...SECURITY_HEADERS,
  });
}

/**
 * The rate-limit state of this caller at the limiter's clock `nowMs` (the wall clock): the window
 * that applies to it (reduced while the service is busy when it is anonymous: policy.ts).
 */
export function rateHeaders(h: Headers, hit: Hit | null, limits: Limits, nowMs: number, identified = true): void {
  const busy = hit?.busy ?? false;
  const window = windowFor(limits, identified, busy);
  h.set("RateLimit-Limit", String(window));
  h.set("RateLimit-Policy", policyHeader(limits, identified, busy));
  h.set("Daily-Limit", String(limits.daily));
  if (!hit) return; // counters unreachable: limits are not enforced, so no remaining count is claimed
  h.set("RateLimit-Remaining", String(Math.max(0, window - hit.windowCount)));
  h.set("RateLimit-Reset", String(Math.max(1, Math.ceil(hit.windowResetMs / 1000))));
  h.set("Daily-Used", String(Math.min(hit.dayCount, limits.daily)));
  h.set("Daily-Reset", String(Math.ceil((nextCairoMidnight(nowMs) - nowMs) / 1000)));
}

export function problemResponse(p: HttpProblem, instance: string, headers: Headers, head: boolean): Response {
  headers.set("Content-Type", PROBLEM_MEDIA_TYPE);
  headers.set("Cache-Control", "no-store");
  for (const [k, v] of Object.entries(p.headers)) headers.set(k, v);
  return new Response(head ? null : JSON.stringify(p.body(instance)), { status: p.status, headers });
}

/**
 * A problem answered before the handler runs at all (the Netlify adapter refusing to serve when it
 * is misconfigured): the same headers as the handler's own problems, without rate-limit state.
 */
export function refusal(request: Request, p: HttpProblem): Response {
  return problemResponse(p, new URL(request.url).pathname, baseHeaders(), request.method === "HEAD");
}

/**
 * A problem answered outside the handler by a server adapter — above all to a request it could not
 * read as HTTP at all (a raw backslash or space in the target, a bad Host: src/server/serve.ts) —
 * with the handler's own problem, CORS and security headers. `target` is the raw request target;
 * characters a URI may not hold are percent-encoded in `instance`.
 */
export function bareProblem(p: HttpProblem, target: string | undefined, head = false): Response {
  const instance = (target ?? "")
    .slice(0, MAX_URL_LENGTH)
    .replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => encodeURIComponent(c));
  return problemResponse(p, instance || "/", baseHeaders(), head);
}
