/**
 * The frame every page shares: escaping, the document shell with its language and direction, the
 * navigation with the language switch, and the footer. Pages are plain HTML written at build time,
 * with no JavaScript; their Content-Security-Policy (PAGE_CSP in src/edge/handler.ts, and
 * netlify.toml) allows inline styles and nothing else.
 *
 * Pages are written with site paths (`href="/docs/"`) and page() makes every one relative to the
 * page's own path as its last step (relativeLinks), so the same files work at the root of a host
 * and under any prefix (a mirror at `/some/prefix/`): a browser resolves `../docs/` from where the
 * page is (RFC 3986 §5.2).
 */
import { DOCS_PATH, FEED_PATH, SOURCES_PAGE_PATH, TERMS_PATH, localized, type PageLang } from "../../feed/paths.js";
import { STYLE } from "./style.js";
import { westernDigits } from "./format.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an element or a quoted attribute. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Text of the other language inside a page: `lang` lets screen readers switch voice, `dir` lays it
 * out, and <bdi> isolates it so that neighbouring numbers and punctuation keep their own direction
 * (Unicode bidirectional algorithm, HTML §4.5.24).
 */
export function arabic(text: string | null | undefined): string {
  return text ? `<bdi lang="ar" dir="rtl">${esc(westernDigits(text))}</bdi>` : "";
}
export function english(text: string | null | undefined): string {
  return text ? `<bdi lang="en" dir="ltr">${esc(text)}</bdi>` : "";
}
/** A name in the page's language when there is one, else the English one marked as English. */
export function nameIn(lang: PageLang, en: string, ar: string | null | undefined): string {
  if (lang === "ar") return ar ? esc(westernDigits(ar)) : english(en);
  return esc(en);
}
/** The name in the other language, for a second line. */
export function otherName(lang: PageLang, en: string, ar: string | null | undefined): string {
  return lang === "ar" ? (ar ? english(en) : "") : arabic(ar);
}

/** A number shown with fixed decimals, no grouping (the docs' examples); an em dash when absent. */
export function num(v: number | null | undefined, decimals: number): string {
  return v === null || v === undefined ? "—" : v.toFixed(decimals);
}

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
export function relativeLinks(html: string, from: string): string {
  // relativePath only puts the same `../`s (or `./`) in place of a path's leading slash: a
  // replacement string, which V8 applies without calling back into JavaScript for each link (the
  // large build's 400 pages: ~100 ms with a callback). `up` holds no `$`.
  const up = relativePath(from, "/");
  return html.replace(/ (href|src)="\/(?!\/)/g, ` $1="${up}`);
}

export interface PageOptions {
  lang: PageLang;
  title: string;
  /** The English path of the page; its Arabic twin is at localized(path, "ar"). */
  path: string;
  description: string;
  body: string;
  banner?: string;
  /** The deployment's base URL, for absolute hreflang links; relative links without it. */
  baseUrl?: string | undefined;
}

const NAV: Record<PageLang, Array<[string, string]>> = {
  en: [
    ["/", "Prices"],
    [SOURCES_PAGE_PATH, "Sources"],
    [DOCS_PATH, "Developers"],
    [TERMS_PATH, "Terms"],
  ],
  ar: [
    ["/", "الأسعار"],
    [SOURCES_PAGE_PATH, "المصادر"],
    [DOCS_PATH, "للمطورين"],
    [TERMS_PATH, "الشروط"],
  ],
};

const FOOTER: Record<PageLang, string> = {
  en: `Indicative prices for information only, not financial advice. <a href="${TERMS_PATH}">Terms</a> · <a href="${DOCS_PATH}#methodology">How the numbers are made</a> · <a href="${FEED_PATH}">The data as JSON</a>`,
  ar: `أسعار استرشادية للعلم فقط، وليست نصيحة مالية. <a href="${localized(TERMS_PATH, "ar")}">الشروط</a> · <a href="${localized(DOCS_PATH, "ar")}#arabic-numbers">كيف تُحسب الأرقام</a> · <a href="${FEED_PATH}">البيانات بصيغة JSON</a>`,
};

function navigation(o: PageOptions): string {
  const items = NAV[o.lang].map(([path, label]) => {
    const current = path === o.path ? ' aria-current="page"' : "";
    return `<li><a href="${localized(path, o.lang)}"${current}>${label}</a></li>`;
  });
  const other: PageLang = o.lang === "ar" ? "en" : "ar";
  const label = other === "ar" ? "العربية" : "English";
  items.push(
    `<li class="lang"><a href="${localized(o.path, other)}" hreflang="${other}" lang="${other}" rel="alternate">${label}</a></li>`,
  );
  return `<nav aria-label="${o.lang === "ar" ? "الموقع" : "Site"}"><ul>${items.join("")}</ul></nav>`;
}

/** Absolute with the deployment's base URL when it has one; else a site path, made relative with the rest. */
const absolute = (o: PageOptions, p: string) => `${o.baseUrl ? o.baseUrl.replace(/\/+$/, "") : ""}${p}`;

function alternates(o: PageOptions): string {
  return [
    `<link rel="alternate" hreflang="en" href="${absolute(o, o.path)}">`,
    `<link rel="alternate" hreflang="ar" href="${absolute(o, localized(o.path, "ar"))}">`,
    `<link rel="alternate" hreflang="x-default" href="${absolute(o, o.path)}">`,
  ].join("\n");
}

/**
 * Open Graph (ogp.me) for a link shared in a chat: title, description, type and locale; og:url only
 * with the base URL, since the protocol wants it absolute.
 */
function openGraph(o: PageOptions): string {
  const tags = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="Price Feed">`,
    `<meta property="og:title" content="${esc(o.title)}">`,
    `<meta property="og:description" content="${esc(o.description)}">`,
    `<meta property="og:locale" content="${o.lang === "ar" ? "ar_EG" : "en_GB"}">`,
    `<meta property="og:locale:alternate" content="${o.lang === "ar" ? "en_GB" : "ar_EG"}">`,
  ];
  if (o.baseUrl) tags.push(`<meta property="og:url" content="${esc(absolute(o, localized(o.path, o.lang)))}">`);
  return tags.join("\n");
}

export function page(o: PageOptions): string {
  const ar = o.lang === "ar";
  const self = localized(o.path, o.lang);
  // The banner sits in the header, a landmark, so that no content is outside one (WCAG 1.3.1).
  return relativeLinks(
    `<!doctype html>
<html lang="${o.lang}" dir="${ar ? "rtl" : "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(o.title)}</title>
<meta name="description" content="${esc(o.description)}">
${openGraph(o)}
${alternates(o)}
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header><a class="skip" href="#main">${ar ? "انتقل إلى المحتوى" : "Skip to content"}</a>${navigation(o)}${o.banner ? `<p class="banner" role="note">${o.banner}</p>` : ""}</header>
<main id="main">
${o.body}
</main>
<footer><p>${FOOTER[o.lang]}</p></footer>
</body>
</html>
`,
    self,
  );
}
