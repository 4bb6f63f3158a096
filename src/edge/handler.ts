/**
 * The one handler behind every path of /api/v1 and /readyz (and, in the local server, the pages):
 * `(Request, deps) → Promise<Response>`, web-standard, no node:* imports. It runs as the Netlify
 * edge function and inside `price-feed serve`. Headers are set here because Netlify applies no
 * [[headers]] rules to edge-function answers (README "Deploying on Netlify").
 */
import { canonical, strongEtag } from "../core/canonical.js";
import { API, FEED_PATH, READYZ_PATH, files as F } from "../feed/paths.js";
import { nextCairoMidnight } from "../core/cairo.js";
import { CACHE_MAX_AGE_SECONDS, MAX_PARAMS, MAX_URL_LENGTH } from "../core/limits.js";
import type { Manifest } from "../schema/documents.js";
import type { CounterStore, Hit } from "./counters.js";
import { httpDate, notModified } from "./conditional.js";
import { selectAssets } from "./filters.js";
import { clientKey } from "./client.js";
import { ALLOWED_METHODS, HttpProblem, PROBLEM_TYPE, problems } from "./problem.js";
import { readiness } from "./readyz.js";

export interface Limits {
  window: number;
  windowSeconds: number;
  daily: number;
}

export interface Deprecation {
  /** When the version was deprecated (RFC 9745 `Deprecation: @<seconds>`). */
  deprecatedAt: string;
  /** When it goes away (RFC 8594 `Sunset: <HTTP-date>`). */
  sunset: string;
}

export interface HandlerDeps {
  /** A file of the published site, by its path relative to the site's root; null when absent. */
  readFile(path: string): Promise<string | null>;
  manifest(): Promise<Manifest>;
  counters: CounterStore;
  now(): number;
  /** The client's address as the adapter knows it (client.ts clientAddress); the handler keys it by clientKey. */
  clientAddress: string;
  limits: Limits;
  /** Deprecated API versions, by path prefix ("v1"). */
  deprecations?: Readonly<Record<string, Deprecation>>;
  /** The local server also serves the pages; on Netlify the CDN does. */
  serveSite?: boolean;
  /** Parsed documents reused across requests of one build. */
  cache?: FeedCache;
}

const FEED_CACHE = `public, max-age=${CACHE_MAX_AGE_SECONDS}`;
const ALLOW = ALLOWED_METHODS.join(", ");
/**
 * The pages are static HTML with inline styles and inline SVG, and no script at all; the same
 * policy is set for them in netlify.toml, where the CDN serves them.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/**
 * The API's own answers (JSON, problems, 304s, preflights) are data, never a document to render:
 * nothing may load from them or frame them. HTML pages served by the handler get PAGE_CSP instead.
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
const EXPOSE = [
  "ETag",
  "Last-Modified",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Daily-Limit",
  "Daily-Used",
  "Daily-Reset",
  "Deprecation",
  "Sunset",
  "Link",
].join(", ");

/** Per build: the feed's header and each asset's canonical JSON, for answers composed on request. */
export class FeedCache {
  private key = "";
  private parsed: Promise<{ header: Record<string, unknown>; assets: Map<string, Uint8Array> }> | null = null;
  private readonly etags = new Map<string, Promise<string>>();
  private readonly encoded = new Map<string, Uint8Array<ArrayBuffer>>();
  private encodedBytes = 0;
  private readonly encoder = new TextEncoder();

  /**
   * A body's UTF-8 bytes, made once per ETag and URL rather than on every request (one URL has
   * one body per ETag: its `_self` is the URL); `body` runs only on a miss. A new build brings new
   * ETags; the old entries are dropped when the cache passes its size. The bytes are answered as
   * they are: a Uint8Array is the body @hono/node-server's Response hands to the socket uncopied
   * (a string would be encoded on every write); Deno copies it once, as the Fetch standard says.
   */
  bytes(key: string, body: () => string | Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    let b = this.encoded.get(key);
    if (!b) {
      const made = body();
      b = typeof made === "string" ? this.encoder.encode(made) : made;
      if (this.encodedBytes + b.length > 64 * 1024 * 1024) {
        this.encoded.clear();
        this.encodedBytes = 0;
      }
      this.encoded.set(key, b);
      this.encodedBytes += b.length;
    }
    return b;
  }

  /**
   * The feed of this build, prepared once: its header, and each asset's canonical JSON as UTF-8
   * bytes (encoded once, so never a rope walked again), for answers composed on request.
   */
  feed(m: Manifest, read: () => Promise<string | null>) {
    if (this.key !== m.generatedAt || !this.parsed) {
      this.key = m.generatedAt;
      this.etags.clear();
      this.parsed = read().then((text) => {
        if (text === null) throw new Error("the published feed is missing");
        const { assets, ...header } = JSON.parse(text) as { assets: Array<{ slug: string }> };
        return { header, assets: new Map(assets.map((a) => [a.slug, this.encoder.encode(canonical(a))])) };
      });
      this.parsed.catch(() => (this.parsed = null));
    }
    return this.parsed;
  }

  encode(text: string): Uint8Array<ArrayBuffer> {
    return this.encoder.encode(text);
  }

  etag(key: string, make: () => Promise<string>): Promise<string> {
    let e = this.etags.get(key);
    if (!e) this.etags.set(key, (e = make()));
    return e;
  }
}

function baseHeaders(): Headers {
  return new Headers({
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSE,
    ...SECURITY_HEADERS,
  });
}

function rateHeaders(h: Headers, hit: Hit | null, limits: Limits, nowMs: number): void {
  h.set("RateLimit-Limit", String(limits.window));
  h.set("RateLimit-Policy", `${limits.window};w=${limits.windowSeconds}`);
  h.set("Daily-Limit", String(limits.daily));
  if (!hit) return; // counters unreachable: limits are not enforced, so no remaining count is claimed
  h.set("RateLimit-Remaining", String(Math.max(0, limits.window - hit.windowCount)));
  h.set("RateLimit-Reset", String(Math.max(1, Math.ceil(hit.windowResetMs / 1000))));
  h.set("Daily-Used", String(Math.min(hit.dayCount, limits.daily)));
  h.set("Daily-Reset", String(Math.ceil((nextCairoMidnight(nowMs) - nowMs) / 1000)));
}

function problemResponse(p: HttpProblem, instance: string, headers: Headers, head: boolean): Response {
  headers.set("Content-Type", PROBLEM_TYPE);
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

/** Replaces the top-level `_self` of a canonical feed (the first `"_self":` can only be that one). */
export function withSelf(body: string, fileSelf: string, self: string): string {
  if (fileSelf === self) return body;
  const needle = `"_self":${JSON.stringify(fileSelf)}`;
  const at = body.indexOf(needle);
  return at < 0 ? body : body.slice(0, at) + `"_self":${JSON.stringify(self)}` + body.slice(at + needle.length);
}

interface Representation {
  /** The body, made only for a 200 GET, and then once per ETag and URL (FeedCache.bytes). */
  body: () => string | Uint8Array<ArrayBuffer>;
  etag: string;
  lastModifiedMs: number;
  contentType: string;
  cacheControl: string;
}

/** Only files the manifest lists are ever read: no path of a request reaches the disk by itself. */
const listed = (m: Manifest, file: string) => Object.hasOwn(m.files, file);

/** The published file behind a public path, or null. */
function siteFileFor(pathname: string, m: Manifest, serveSite: boolean): string | null {
  if (pathname === API || pathname === `${API}/`) return F.index;
  const rel = pathname.slice(1);
  if (rel.startsWith("api/v1/") && rel !== F.index && listed(m, rel)) return rel;
  if (!serveSite || rel.startsWith("api/")) return null;
  const candidate = rel === "" || rel.endsWith("/") ? `${rel}index.html` : rel;
  return listed(m, candidate) ? candidate : null;
}

/**
 * A file's manifest entry. The manifest and the feed come from one build, so a missing entry means a
 * half-published site: answer the "file missing" problem rather than emit a broken body.
 */
function entryOf(m: Manifest, file: string): Manifest["files"][string] {
  const meta = listed(m, file) ? m.files[file] : undefined;
  if (!meta) throw problems.fileMissing();
  return meta;
}

async function fileRepresentation(file: string, m: Manifest, deps: HandlerDeps): Promise<Representation> {
  const meta = entryOf(m, file);
  const body = await deps.readFile(file);
  if (body === null) throw problems.fileMissing();
  return {
    body: () => body,
    etag: meta.etag,
    lastModifiedMs: Date.parse(meta.lastModified),
    contentType: meta.contentType,
    cacheControl: FEED_CACHE,
  };
}

async function feedRepresentation(url: URL, m: Manifest, deps: HandlerDeps, cache: FeedCache): Promise<Representation> {
  const self = url.pathname + url.search;
  const selected = selectAssets(url.searchParams, m);
  const variant = (file: string) =>
    fileRepresentation(file, m, deps).then((r) => ({
      ...r,
      body: () => withSelf(r.body() as string, `/${file}`, self),
    }));
  if (selected === null || selected.length === m.assets.length) return variant(F.feed);
  if (selected.length === 1) return variant(F.asset(selected[0]!));
  for (const c of m.categories) {
    const inCat = m.assets.filter((a) => a.category === c).map((a) => a.slug);
    if (inCat.length === selected.length && inCat.every((s, i) => s === selected[i])) return variant(F.category(c));
  }
  // Any other selection is composed from the feed: the same bytes the build would have written.
  const feed = await cache.feed(m, () => deps.readFile(F.feed));
  const assetBytes = selected.map((s) => {
    const bytes = feed.assets.get(s);
    if (bytes === undefined) throw problems.fileMissing(); // the manifest lists an asset the feed lacks
    return bytes;
  });
  // The same bytes as composeWithAssets' text, encoded: the header around, each asset's prepared bytes joined.
  const body = () => {
    const h = canonical({ ...feed.header, _self: self, assets: [] });
    const at = h.indexOf('"assets":[]');
    const head = cache.encode(`${h.slice(0, at)}"assets":[`);
    const tail = cache.encode(`]${h.slice(at + 11)}`);
    let n = head.length + tail.length + Math.max(0, assetBytes.length - 1);
    for (const b of assetBytes) n += b.length;
    const out = new Uint8Array(n);
    out.set(head, 0);
    let o = head.length;
    assetBytes.forEach((b, i) => {
      if (i > 0) out[o++] = 44; // ","
      out.set(b, o);
      o += b.length;
    });
    out.set(tail, o);
    return out;
  };
  const feedEntry = entryOf(m, F.feed);
  const parts = selected.length ? selected.map((s) => entryOf(m, F.asset(s))) : [feedEntry];
  const etag = await cache.etag(selected.join(",") || "-", () =>
    strongEtag(`${selected.length ? "" : "none|"}${parts.map((p) => p.etag).join("|")}`),
  );
  const lastModifiedMs = Math.max(...parts.map((p) => Date.parse(p.lastModified)));
  return { body, etag, lastModifiedMs, contentType: feedEntry.contentType, cacheControl: FEED_CACHE };
}

function validateTarget(url: URL): void {
  if (url.href.length > MAX_URL_LENGTH) throw problems.uriTooLong();
  let n = 0;
  for (const _ of url.searchParams) if (++n > MAX_PARAMS) throw problems.tooManyParameters();
  for (const [k, v] of url.searchParams)
    if ((k === "category" || k === "asset") && v.includes("\uFFFD")) throw problems.invalidEncoding(k);
}

const sharedCache = new FeedCache();

export async function handle(request: Request, deps: HandlerDeps): Promise<Response> {
  const nowMs = deps.now();
  const url = new URL(request.url);
  const instance = url.pathname;
  const head = request.method === "HEAD";
  const headers = baseHeaders();
  const cache = deps.cache ?? sharedCache;

  // One key per client however its address is spelled (an IPv6 client by its /64): client.ts.
  const hit = await deps.counters.hit(clientKey(deps.clientAddress), nowMs, deps.limits.windowSeconds * 1000);
  rateHeaders(headers, hit, deps.limits, nowMs);
  const version = /^\/api\/(v\d+)(\/|$)/.exec(url.pathname)?.[1];
  const dep = version ? deps.deprecations?.[version] : undefined;
  if (dep) {
    headers.set("Deprecation", `@${Math.floor(Date.parse(dep.deprecatedAt) / 1000)}`);
    headers.set("Sunset", httpDate(Date.parse(dep.sunset)));
    headers.set("Link", '</api/v1/changelog.json>; rel="deprecation"; type="application/json"');
  }

  try {
    if (hit && hit.dayCount > deps.limits.daily) {
      const retry = Math.ceil((nextCairoMidnight(nowMs) - nowMs) / 1000);
      throw problems.dailyLimit(deps.limits.daily, retry);
    }
    if (hit && hit.windowCount > deps.limits.window) {
      const retry = Math.max(1, Math.ceil(hit.windowResetMs / 1000));
      throw problems.rateLimited(deps.limits.window, deps.limits.windowSeconds, retry);
    }
    if (request.method === "OPTIONS") {
      headers.set("Access-Control-Allow-Methods", ALLOW);
      headers.set("Access-Control-Allow-Headers", "If-None-Match, If-Modified-Since, X-Contact");
      headers.set("Access-Control-Max-Age", "86400");
      headers.set("Allow", ALLOW);
      return new Response(null, { status: 204, headers });
    }
    if (request.method !== "GET" && !head) throw problems.methodNotAllowed();
    validateTarget(url);

    const manifest = await deps.manifest();
    if (url.pathname === READYZ_PATH) {
      const r = readiness(manifest, nowMs, hit ? "enforced" : "fail-open");
      headers.set("Content-Type", "application/json; charset=utf-8");
      headers.set("Cache-Control", "no-store");
      return new Response(head ? null : JSON.stringify(r.body), { status: r.status, headers });
    }
    let rep: Representation;
    if (url.pathname === FEED_PATH) rep = await feedRepresentation(url, manifest, deps, cache);
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
    if (notModified(request.headers, rep.etag, rep.lastModifiedMs, nowMs))
      return new Response(null, { status: 304, headers });
    headers.set("Content-Type", rep.contentType);
    if (head) return new Response(null, { status: 200, headers });
    const bytes = cache.bytes(`${rep.etag} ${url.pathname}${url.search}`, rep.body);
    return new Response(bytes, { status: 200, headers });
  } catch (e) {
    if (e instanceof HttpProblem) return problemResponse(e, instance, headers, head);
    // A fault of ours: logged by the adapter, never a stack trace to the client.
    console.error(`price-feed handler: ${(e as Error).stack ?? String(e)}`);
    return problemResponse(problems.unavailable(), instance, headers, head);
  }
}
