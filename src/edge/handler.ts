/**
 * The one handler behind every path of /api/v1 and /readyz (and, in the local server, the pages, and
 * for a page's address with none, the page that says so: pages.ts):
 * `(Request, deps) → Promise<Response>`, web-standard, no node:* imports. It runs as the Netlify
 * edge function and inside `price-feed serve`. Headers are set here because Netlify applies no
 * [[headers]] rules to edge-function answers (docs/deployment.md "On Netlify").
 */
import { API, FEED_PATH, READYZ_PATH, SERVICE_WORKER_PATH } from "../feed/paths.js";
import { nextCairoMidnight } from "../core/cairo.js";
import { MAX_PARAMS, MAX_URL_LENGTH } from "../core/limits.js";
import { evaluatePreconditions } from "./conditional.js";
import { httpDate } from "../core/http-date.js";
import { ALLOWED_REQUEST_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from "../core/http-contract.js";
import { clientKey } from "./client.js";
import { capsFor, identifies, windowFor } from "./policy.js";
import { HttpProblem, problems } from "../core/http-problem.js";
import { readiness } from "../feed/readiness.js";
import type { HandlerDeps } from "./deps.js";
import { FeedCache } from "./feed-cache.js";
import { ALLOW, PAGE_CSP, WORKER_CSP, baseHeaders, problemResponse, rateHeaders } from "./headers.js";
import { archiveRepresentation } from "./archive.js";
import { sellerRepresentation } from "./sellers.js";
import { feedRepresentation, fileRepresentation, siteFileFor, type Representation } from "./representation.js";
import { isPagePath, missingPage } from "./pages.js";

function validateTarget(url: URL): void {
  if (url.href.length > MAX_URL_LENGTH) throw problems.uriTooLong();
  let n = 0;
  for (const _ of url.searchParams) if (++n > MAX_PARAMS) throw problems.tooManyParameters();
  for (const [k, v] of url.searchParams)
    if ((k === "category" || k === "asset") && v.includes("\uFFFD")) throw problems.invalidEncoding(k);
}

const sharedCache = new FeedCache();

/**
 * Requests answered free of charge: a CORS preflight (the browser's, not the caller's, request: it
 * precedes the one that counts) and the health check (a monitor must keep its signal while the
 * caller it watches for is throttled). They read the counters without spending (CounterStore.peek).
 */
function free(request: Request, url: URL): boolean {
  return request.method === "OPTIONS" || (url.pathname === READYZ_PATH && ["GET", "HEAD"].includes(request.method));
}

export async function handle(request: Request, deps: HandlerDeps): Promise<Response> {
  const nowMs = deps.now();
  // The limiter's clock is the wall clock even when the data clock is pinned (deps.ts limiterNow).
  const limitMs = deps.limiterNow?.() ?? nowMs;
  const url = new URL(request.url);
  const instance = url.pathname;
  const head = request.method === "HEAD";
  const headers = baseHeaders();
  const cache = deps.cache ?? sharedCache;

  // One key per client however its address is spelled (an IPv6 client by its /64): client.ts.
  const key = clientKey(deps.clientAddress);
  const identified = identifies(request.headers);
  const caps = capsFor(deps.limits, identified);
  const windowMs = deps.limits.windowSeconds * 1000;
  const costless = free(request, url);
  const hit = costless
    ? ((await deps.counters.peek?.(key, limitMs, windowMs, caps)) ?? null)
    : await deps.counters.hit(key, limitMs, windowMs, caps);
  rateHeaders(headers, hit, deps.limits, limitMs, identified);
  const window = windowFor(deps.limits, identified, hit?.busy ?? false);
  const version = /^\/api\/(v\d+)(\/|$)/.exec(url.pathname)?.[1];
  const dep = version ? deps.deprecations?.[version] : undefined;
  if (dep) {
    headers.set("Deprecation", `@${Math.floor(Date.parse(dep.deprecatedAt) / 1000)}`);
    headers.set("Sunset", httpDate(Date.parse(dep.sunset)));
    headers.set("Link", '</api/v1/changelog.json>; rel="deprecation"; type="application/json"');
  }

  try {
    // A store that checks the caps says what it refused (and counted nothing); for one that only
    // counts, the counts past the caps say it. A free request is never refused: its look at the
    // counters says where the caller stands, nothing more.
    const limited = costless ? null : hit;
    const refused = limited?.refused ?? (limited && limited.dayCount > deps.limits.daily ? "daily" : undefined);
    if (limited && refused === "daily") {
      const retry = Math.ceil((nextCairoMidnight(limitMs) - limitMs) / 1000);
      throw problems.dailyLimit(deps.limits.daily, retry);
    }
    if (limited && (refused === "window" || (limited.refused === undefined && limited.windowCount > window))) {
      const retry = Math.max(1, Math.ceil(limited.windowResetMs / 1000));
      throw window < deps.limits.window
        ? problems.anonymousLimited(window, deps.limits.window, deps.limits.windowSeconds, retry)
        : problems.rateLimited(window, deps.limits.windowSeconds, retry);
    }
    if (request.method === "OPTIONS") {
      headers.set("Access-Control-Allow-Methods", ALLOW);
      headers.set("Access-Control-Allow-Headers", ALLOWED_REQUEST_HEADERS.join(", "));
      headers.set("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS));
      headers.set("Allow", ALLOW);
      return new Response(null, { status: 204, headers });
    }
    if (request.method !== "GET" && !head) throw problems.methodNotAllowed();
    validateTarget(url);

    const manifest = await deps.manifest();
    if (url.pathname === READYZ_PATH) {
      const r = readiness(manifest, nowMs, hit ? "enforced" : "fail-open", deps.local);
      headers.set("Content-Type", "application/json; charset=utf-8");
      headers.set("Cache-Control", "no-store");
      return new Response(head ? null : JSON.stringify(r.body), { status: r.status, headers });
    }
    let rep: Representation;
    let archived: Representation | null;
    if (url.pathname === FEED_PATH) rep = await feedRepresentation(url, manifest, deps, cache);
    else if (
      (archived =
        (await archiveRepresentation(url, manifest, deps)) ?? (await sellerRepresentation(url, manifest, deps)))
    )
      rep = archived;
    else {
      const file = siteFileFor(url.pathname, manifest, deps.serveSite ?? false);
      if (file === null) throw problems.notFound(API);
      rep = await fileRepresentation(file, manifest, deps);
    }
    headers.set("ETag", rep.etag);
    headers.set("Last-Modified", httpDate(rep.lastModifiedMs));
    headers.set("Cache-Control", rep.cacheControl);
    // Before the 304: a cache updates its stored headers from a 304's (RFC 9111 §4.3.4), so a
    // page's 304 must carry the page's policy, not the API's.
    if (rep.contentType.startsWith("text/html")) headers.set("Content-Security-Policy", PAGE_CSP);
    // The service worker: its own policy (a worker is governed by its script's, and it fetches the
    // site's files), and revalidated on every check for an update, so a deployment's worker is found
    // at once (Service Workers §"Update": a browser checks at most a day apart whatever it says).
    if (url.pathname === SERVICE_WORKER_PATH) {
      headers.set("Content-Security-Policy", WORKER_CSP);
      headers.set("Cache-Control", "no-cache");
    }
    const outcome = evaluatePreconditions(request.headers, rep.etag, rep.lastModifiedMs, nowMs);
    if (outcome === "not-modified") return new Response(null, { status: 304, headers });
    // 412 keeps ETag and Last-Modified: those of the current representation, so the client can
    // fetch it or retry with the right validator (RFC 9110 §15.5.13). A problem, so no-store.
    if (outcome !== "proceed") throw problems.preconditionFailed(outcome.failed);
    headers.set("Content-Type", rep.contentType);
    if (head) return new Response(null, { status: 200, headers });
    const bytes = cache.bytes(`${rep.etag} ${url.pathname}${url.search}`, rep.body);
    return new Response(bytes, { status: 200, headers });
  } catch (e) {
    // A page's address with no page: the reader's page for it, not the API's JSON (pages.ts).
    if (e instanceof HttpProblem && e.status === 404 && isPagePath(url.pathname)) {
      const page = await missingPage(request, url, deps, headers);
      if (page) return page;
    }
    if (e instanceof HttpProblem) return problemResponse(e, instance, headers, head);
    // A fault of ours: logged by the adapter, never a stack trace to the client.
    console.error(`price-feed handler: ${(e as Error).stack ?? String(e)}`);
    return problemResponse(problems.unavailable(), instance, headers, head);
  }
}
