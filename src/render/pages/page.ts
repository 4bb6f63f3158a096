/**
 * The frame every page shares: the document shell with its language and direction, the navigation
 * with the language switch, the footer, and what makes them a web app (app.ts: the manifest's link,
 * the theme colours, the script that registers the service worker and the banner a saved copy
 * shows). Pages are plain HTML written at build time; their scripts, an asset page's field for any
 * amount (amount-script.ts) and the web app's, only add to what works without them. Their
 * Content-Security-Policy (src/core/csp.ts: the primary's header, and netlify.toml) allows inline
 * styles and those scripts, files of the site, the manifest, its icons and the worker, and nothing else; every page carries it in a
 * `<meta http-equiv>` as well (PAGE_CSP_META: all of it but frame-ancestors, which only a header can
 * deliver), so the mirror, which sends no headers, serves the pages under the same policy.
 *
 * Pages are written with site paths (`href="/docs/"`) and page() makes every one relative to the
 * page's own path as its last step (relativeLinks), so the same files work at the root of a host
 * and under any prefix (a mirror at `/some/prefix/`): a browser resolves `../docs/` from where the
 * page is (RFC 3986 §5.2).
 */
import {
  DOCS_PATH,
  EVENTS_ATOM_PATH,
  SELLERS_PAGE_PATH,
  SOURCES_PAGE_PATH,
  TERMS_PATH,
  localized,
  type PageLang,
} from "../../feed/paths.js";
import { PAGE_CSP_META } from "../../core/csp.js";
import { STYLE } from "./style.js";
import { html, join, type SafeHtml } from "./html.js";
import { PAGE_WORDS } from "./page-words.js";
import { appHead, offlineBanner } from "./app.js";

/**
 * A site path as seen from a page's path: `/api/v1/feed.json` from `/ar/assets/us-dollar/` is
 * `../../../api/v1/feed.json`, `/` from `/` is `./`. Both are site paths; `to` may carry a query
 * or a fragment.
 */
export function relativePath(from: string, to: string): string {
  const depth = from.split("/").length - 2;
  const up = depth > 0 ? "../".repeat(depth) : "./";
  return `${up}${to.slice(1)}`;
}

/** Every root-relative `href` and `src` of a page's HTML made relative to the page (not `//host` ones). */
export function relativeLinks(page: string, from: string): string {
  // A replacement string, not a callback: V8 applies it without calling back into JavaScript for
  // each link (docs/performance.md). `up` holds no `$`.
  const up = relativePath(from, "/");
  return page.replace(/ (href|src)="\/(?!\/)/g, ` $1="${up}`);
}

/**
 * Every root-relative `href` and `src` of a page served at any address made absolute with the base
 * URL; without one they stay root-relative, right on a host that serves the site at its root.
 */
export function anywhereLinks(page: string, baseUrl: string | undefined): string {
  if (!baseUrl) return page;
  const base = baseUrl.replace(/\/+$/, "");
  return page.replace(/ (href|src)="\/(?!\/)/g, (_, attr: string) => ` ${attr}="${base}/`);
}

/**
 * Code blocks and wide tables scroll sideways on a phone: tabindex lets a keyboard scroll them too
 * (axe's scrollable-region-focusable).
 */
const scrollable = (page: string) =>
  page.replace(/<pre(?=[ >])/g, '<pre tabindex="0"').replace(/<div class="wrap">/g, '<div class="wrap" tabindex="0">');

export interface PageOptions {
  lang: PageLang;
  title: string;
  /** The English path of the page; its Arabic twin is at localized(path, "ar"). */
  path: string;
  description: string;
  body: SafeHtml;
  banner?: SafeHtml;
  /**
   * The deployment's base URL: with it, the canonical link, the hreflang links, og:url and og:image,
   * all absolute as search engines and the Open Graph protocol want them; without it, none of them
   * (the language switch in the navigation links the twin all the same).
   */
  baseUrl?: string | undefined;
  /** The body has code blocks or wide tables (`<div class="wrap">`) that scroll (the docs pages). */
  scrolls?: boolean;
  /**
   * The page shows prices: the newest one's instant (the feed's observedAt), which the banner a
   * saved copy shows counts its age from (app.ts offlineBanner).
   */
  pricesAt?: string | null | undefined;
  /** More of the head: an asset page's script (amount-script.ts). */
  head?: SafeHtml;
  /** An asset page's own Atom feed, announced before the feed of every event (autodiscovery). */
  feed?: { path: string; title: string };
  /** The picture a shared link shows (og:image), a site path; only with the base URL. */
  image?: { path: string; alt: string; width: number; height: number };
  /**
   * The page is served at any address (the page for an address that has none, not-found.ts): no
   * relative link is right from every depth, so its links are absolute with the base URL, else
   * root-relative (anywhereLinks); it is no address's page, so it has no canonical, hreflang or
   * og:url; and its language switch leads to the other language's home page.
   */
  anywhere?: boolean;
}

/** The navigation's links, in order: where each leads, and its words' key (PAGE_WORDS nav). */
const NAV = [
  ["/", "prices"],
  [SELLERS_PAGE_PATH, "sellers"],
  [SOURCES_PAGE_PATH, "sources"],
  [DOCS_PATH, "docs"],
  [TERMS_PATH, "terms"],
] as const;

/** The other language: the one the switch leads to. */
export const OTHER_LANG: Record<PageLang, PageLang> = { en: "ar", ar: "en" };

function navigation(o: PageOptions): SafeHtml {
  const w = PAGE_WORDS[o.lang];
  const items = NAV.map(
    ([path, key]) =>
      html`<li><a href="${localized(path, o.lang)}"${path === o.path ? html` aria-current="page"` : ""}>${w.nav[key]}</a></li>`,
  );
  const other = OTHER_LANG[o.lang];
  items.push(
    html`<li class="lang"><a href="${localized(o.anywhere ? "/" : o.path, other)}" hreflang="${other}" lang="${other}" rel="alternate">${PAGE_WORDS[other].ownName}</a></li>`,
  );
  return html`<nav aria-label="${w.site}"><ul>${items}</ul></nav>`;
}

/** Absolute with the deployment's base URL when it has one; else a site path, made relative with the rest. */
const absolute = (o: PageOptions, p: string) => `${o.baseUrl ? o.baseUrl.replace(/\/+$/, "") : ""}${p}`;

/**
 * The page's other forms: with the base URL its canonical address and its twin's by hreflang
 * (absolute, as search engines want them: a relative hreflang is an error to them); the Atom feeds
 * always (a feed reader resolves a relative link against the page).
 */
function alternates(o: PageOptions): SafeHtml {
  const links: SafeHtml[] = [];
  if (o.baseUrl && !o.anywhere)
    links.push(
      html`<link rel="canonical" href="${absolute(o, localized(o.path, o.lang))}">`,
      html`<link rel="alternate" hreflang="en" href="${absolute(o, o.path)}">`,
      html`<link rel="alternate" hreflang="ar" href="${absolute(o, localized(o.path, "ar"))}">`,
      html`<link rel="alternate" hreflang="x-default" href="${absolute(o, o.path)}">`,
    );
  const feeds = [...(o.feed ? [o.feed] : []), { path: EVENTS_ATOM_PATH, title: PAGE_WORDS[o.lang].everyEvent }];
  for (const f of feeds)
    links.push(html`<link rel="alternate" type="application/atom+xml" title="${f.title}" href="${f.path}">`);
  return join(links, "\n");
}

/**
 * Open Graph (ogp.me) for a link shared in a chat: title, description, type and locale; og:url and
 * og:image (an asset's card, card-image.ts) only with the base URL, since the protocol wants them
 * absolute.
 */
function openGraph(o: PageOptions): SafeHtml {
  const tags = [
    html`<meta property="og:type" content="website">`,
    html`<meta property="og:site_name" content="Price Feed">`,
    html`<meta property="og:title" content="${o.title}">`,
    html`<meta property="og:description" content="${o.description}">`,
    html`<meta property="og:locale" content="${PAGE_WORDS[o.lang].locale}">`,
    html`<meta property="og:locale:alternate" content="${PAGE_WORDS[OTHER_LANG[o.lang]].locale}">`,
  ];
  if (o.baseUrl && !o.anywhere)
    tags.push(html`<meta property="og:url" content="${absolute(o, localized(o.path, o.lang))}">`);
  if (o.baseUrl && o.image)
    tags.push(
      html`<meta property="og:image" content="${absolute(o, o.image.path)}">`,
      html`<meta property="og:image:type" content="image/png">`,
      html`<meta property="og:image:width" content="${o.image.width}">`,
      html`<meta property="og:image:height" content="${o.image.height}">`,
      html`<meta property="og:image:alt" content="${o.image.alt}">`,
      html`<meta name="twitter:card" content="summary_large_image">`,
    );
  return join(tags, "\n");
}

/** The page's document, its links relative to its own path. */
export function page(o: PageOptions): string {
  const w = PAGE_WORDS[o.lang];
  // The policy's meta element comes before anything it governs: a meta policy applies only to what
  // follows it in the document (CSP Level 3 §3.3), so it is the first element after the charset.
  // The banner sits in the header, a landmark, so that no content is outside one (WCAG 1.3.1).
  const doc = html`<!doctype html>
<html lang="${o.lang}" dir="${w.dir}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP_META}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${o.title}</title>
<meta name="description" content="${o.description}">
${openGraph(o)}
${alternates(o)}
<link rel="icon" href="data:,">
${appHead(o.lang)}${o.head ?? ""}
<style>${STYLE}</style>
</head>
<body>
<header><a class="skip" href="#main">${w.skip}</a>${navigation(o)}${o.banner ? html`<p class="banner" role="note">${o.banner}</p>` : ""}${o.pricesAt ? offlineBanner(o.lang, o.pricesAt) : ""}</header>
<main id="main">
${o.body}
</main>
<footer><p>${w.footer}</p></footer>
</body>
</html>
`;
  const text = o.scrolls ? scrollable(doc.text) : doc.text;
  return o.anywhere ? anywhereLinks(text, o.baseUrl) : relativeLinks(text, localized(o.path, o.lang));
}
