/** Public paths of the API (docs/data-formats.md "The output: `public/`"), shared by the build and the handler. */
export const API = "/api/v1";
export const FEED_PATH = `${API}/feed.json`;
export const INDEX_PATH = API;
export const OPENAPI_PATH = `${API}/openapi.json`;
export const CHANGELOG_PATH = `${API}/changelog.json`;
export const SOURCES_PATH = `${API}/sources.json`;
export const DAYS_PATH = `${API}/days.json`;
/** The archive's paths by asset and by day (`{asset}` a slug or an id in any case; `{date}` YYYY-MM-DD). */
export const HISTORY_PREFIX = `${API}/history/`;
export const DAYS_PREFIX = `${API}/days/`;
/** What changed (docs/methodology.md §12): every event, and one asset's, as JSON and as Atom. */
export const EVENTS_PATH = `${API}/events.json`;
export const EVENTS_ATOM_PATH = `${API}/events.atom`;
export const EVENTS_ASSET_PREFIX = `${API}/events/asset/`;
/** The sellers' records (docs/methodology.md §13): the list, and one seller's record by id. */
export const SELLERS_PATH = `${API}/sellers.json`;
export const SELLERS_PREFIX = `${API}/sellers/`;
export const DOCS_PATH = "/docs/";
export const TERMS_PATH = "/terms/";
/** The human page of source health. */
export const SOURCES_PAGE_PATH = "/sources/";
/** The Arabic pages sit under this prefix, each at the path of its English twin: /ar/, /ar/terms/, /ar/assets/<slug>/. */
export const AR_PREFIX = "/ar";
export const READYZ_PATH = "/readyz";
/**
 * The web app (src/render/pages/app.ts): its manifest (the Arabic one at localized(path, "ar")), its
 * icons, its service worker at the site's root (its scope is the folder it is in: Service Workers
 * §3.2.1), and the pages' script that registers it and says when a page is a saved copy.
 */
export const APP_MANIFEST_PATH = "/app.webmanifest";
export const SERVICE_WORKER_PATH = "/sw.js";
export const OFFLINE_SCRIPT_PATH = "/offline.js";
export const iconPath = (purpose: "any" | "maskable", size: number) => `/icons/${purpose}-${size}.png`;
export const MANIFEST_FILE = "_manifest.json";

/** Files, relative to the output folder. */
export const files = {
  feed: "api/v1/feed.json",
  category: (slug: string) => `api/v1/feed/category/${slug}.json`,
  asset: (slug: string) => `api/v1/feed/asset/${slug}.json`,
  index: "api/v1/index.json",
  openapi: "api/v1/openapi.json",
  changelog: "api/v1/changelog.json",
  sources: "api/v1/sources.json",
  /** The archive (docs/methodology.md §5.5): by asset, as JSON and CSV, and by day. */
  history: (slug: string) => `api/v1/history/${slug}.json`,
  historyCsv: (slug: string) => `api/v1/history/${slug}.csv`,
  day: (date: string) => `api/v1/days/${date}.json`,
  days: "api/v1/days.json",
  /** What changed (docs/methodology.md §12): all events and one asset's, as JSON and Atom (RFC 4287). */
  events: "api/v1/events.json",
  eventsAtom: "api/v1/events.atom",
  assetEvents: (slug: string) => `api/v1/events/asset/${slug}.json`,
  assetEventsAtom: (slug: string) => `api/v1/events/asset/${slug}.atom`,
  /** The sellers' records (docs/methodology.md §13): the list, and one seller's (by its registry id). */
  sellers: "api/v1/sellers.json",
  seller: (id: string) => `api/v1/sellers/${id}.json`,
  /**
   * The signed statement of a build, every other file's SHA-256, and its detached Ed25519 signature
   * (docs/deployment.md "Signed builds"): under /api/v1, so the edge serves them as any document
   * (ETag, 304, CORS), and on the mirror as files.
   */
  statement: "api/v1/statement.json",
  statementSig: "api/v1/statement.sig.json",
  /** The public keys that may sign a build, from data/keys.json, at a well-known URI (RFC 8615). */
  keys: ".well-known/price-feed-keys.json",
  docs: "docs/index.html",
  terms: "terms/index.html",
  home: "index.html",
  /** A human page's file from its public path ("/assets/us-dollar/" → "assets/us-dollar/index.html"). */
  page: (path: string) => `${path.slice(1)}index.html`,
  /**
   * The page for an address that has none, in a language: what a static host serves for any missing
   * path (GitHub Pages and Netlify read `404.html` at the root), and what the handler answers for one.
   */
  notFound: (lang: PageLang) => (lang === "ar" ? "ar/404.html" : "404.html"),
} as const;

/** The languages of the human pages; the docs are English only (with an Arabic summary). */
export type PageLang = "en" | "ar";

/** The page of one asset: its full seller table, references and chart. */
export const assetPagePath = (slug: string) => `/assets/${slug}/`;
/** The list of every day of the archive, and the page of one past day: every asset's close that day. */
export const DAYS_PAGE_PATH = "/days/";
export const dayPagePath = (date: string) => `${DAYS_PAGE_PATH}${date}/`;
/** The list of every seller with a record, and one seller's page: how often it was best, per asset. */
export const SELLERS_PAGE_PATH = "/sellers/";
export const sellerPagePath = (id: string) => `${SELLERS_PAGE_PATH}${id}/`;

/** The public path of a page in a language: the English path, under AR_PREFIX for Arabic. */
export function localized(path: string, lang: PageLang): string {
  return lang === "ar" ? `${AR_PREFIX}${path}` : path;
}

/**
 * The pre-filtered feed files as path templates (`{slug}` the lower-case slug), what a host that
 * serves the files only (the mirror, docs/deployment.md "The second home") answers instead of
 * `?category=`/`?asset=` with one value: the feed names them in `_variants`, the index in `homes`.
 */
export const VARIANT_PATHS = {
  category: `/${files.category("{slug}")}`,
  asset: `/${files.asset("{slug}")}`,
} as const;

/** Where a host that serves the files only has the index: the file itself (`/api/v1` is the edge's route). */
export const INDEX_FILE_PATH = `/${files.index}`;

/** The public URL path of a file of the output folder. */
export function urlOf(file: string): string {
  if (file === files.index) return INDEX_PATH;
  if (file.endsWith("/index.html")) return `/${file.slice(0, -"index.html".length)}`;
  if (file === "index.html") return "/";
  return `/${file}`;
}
