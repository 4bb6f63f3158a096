/**
 * What an answer carries before headers: the body, its ETag and Last-Modified, for a published file
 * or a feed filtered on request. Only files the manifest lists are ever read.
 */
import { canonical, strongEtag } from "../core/canonical.js";
import { API, SERVICE_WORKER_PATH, files as F } from "../feed/paths.js";
import type { Manifest } from "../schema/documents.js";
import type { HandlerDeps } from "./deps.js";
import type { FeedCache } from "./feed-cache.js";
import { selectAssets } from "../feed/filters.js";
import { FEED_CACHE } from "./headers.js";
import { problems } from "../core/http-problem.js";

/**
 * The ETag of a file's bytes with its `_self` replaced by the request's (withSelf): the file's own
 * when nothing was replaced, else one made from the file's and the `_self` written, so that equal
 * ETags always mean equal bytes (RFC 9110 §8.8.3: a strong validator changes with every byte), and a
 * 304 never answers one spelling of a request with another's body.
 */
export async function selfEtag(etag: string, fileSelf: string, self: string): Promise<string> {
  return fileSelf === self ? etag : strongEtag(`${etag}|_self=${self}`);
}

/** Replaces the top-level `_self` of a canonical feed (the first `"_self":` can only be that one). */
export function withSelf(body: string, fileSelf: string, self: string): string {
  if (fileSelf === self) return body;
  const needle = `"_self":${JSON.stringify(fileSelf)}`;
  const at = body.indexOf(needle);
  return at < 0 ? body : body.slice(0, at) + `"_self":${JSON.stringify(self)}` + body.slice(at + needle.length);
}

export interface Representation {
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
export function siteFileFor(pathname: string, m: Manifest, serveSite: boolean): string | null {
  if (pathname === API || pathname === `${API}/`) return F.index;
  const rel = pathname.slice(1);
  // The index's file answers too (as /api/v1 does): a static second home can serve the index only
  // as /api/v1/index.json, so that one path reads the index on both homes (docs/api.md "Homes").
  if (rel.startsWith("api/v1/") && listed(m, rel)) return rel;
  // The service worker is answered by the handler wherever it runs (on Netlify too: netlify.toml),
  // with its own headers (handler.ts).
  if (pathname === SERVICE_WORKER_PATH && listed(m, rel)) return rel;
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

export async function fileRepresentation(file: string, m: Manifest, deps: HandlerDeps): Promise<Representation> {
  const meta = entryOf(m, file);
  // A text file says its charset (every document and page of the site); a picture is read as bytes.
  const text = meta.contentType.includes("charset=");
  const body = text ? await deps.readFile(file) : ((await deps.readBytes?.(file)) ?? null);
  if (body === null) throw problems.fileMissing();
  return {
    body: () => body,
    etag: meta.etag,
    lastModifiedMs: Date.parse(meta.lastModified),
    contentType: meta.contentType,
    cacheControl: FEED_CACHE,
  };
}

export async function feedRepresentation(
  url: URL,
  m: Manifest,
  deps: HandlerDeps,
  cache: FeedCache,
): Promise<Representation> {
  const self = url.pathname + url.search;
  const selected = selectAssets(url.searchParams, m);
  const variant = (file: string) =>
    fileRepresentation(file, m, deps).then(async (r) => ({
      ...r,
      etag: await selfEtag(r.etag, `/${file}`, self),
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
  const base = await cache.etag(selected.join(",") || "-", () =>
    strongEtag(`${selected.length ? "" : "none|"}${parts.map((p) => p.etag).join("|")}`),
  );
  // The selection's ETag, and the `_self` the body echoes: two spellings of one selection differ there.
  const etag = await selfEtag(base, "", self);
  const lastModifiedMs = Math.max(...parts.map((p) => Date.parse(p.lastModified)));
  return { body, etag, lastModifiedMs, contentType: feedEntry.contentType, cacheControl: FEED_CACHE };
}
