/**
 * The frame every page shares: escaping, the document shell with its language and direction, the
 * navigation with the language switch, and the footer. Pages are plain HTML written at build time,
 * with no JavaScript; their Content-Security-Policy (PAGE_CSP in src/edge/handler.ts, and
 * netlify.toml) allows inline styles and nothing else.
 */
import { DOCS_PATH, SOURCES_PAGE_PATH, TERMS_PATH, localized, type PageLang } from "../../feed/paths.js";
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

export interface PageOptions {
  lang: PageLang;
  title: string;
  /** The English path of the page; its Arabic twin is at localized(path, "ar"). */
  path: string;
  /** False when the page has no Arabic twin (the docs): the switch then points at `arabicAnchor`. */
  twin?: boolean;
  arabicAnchor?: string;
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
  en: `Indicative prices for information only, not financial advice. <a href="${TERMS_PATH}">Terms</a> · <a href="${DOCS_PATH}#methodology">How the numbers are made</a>`,
  ar: `أسعار استرشادية للعلم فقط، وليست نصيحة مالية. <a href="${localized(TERMS_PATH, "ar")}">الشروط</a> · <a href="${DOCS_PATH}#arabic-summary" hreflang="en">كيف تُحسب الأرقام</a>`,
};

function navigation(o: PageOptions): string {
  const items = NAV[o.lang].map(([path, label]) => {
    // The docs exist in English only: an Arabic page links them as English.
    const href = path === DOCS_PATH ? path : localized(path, o.lang);
    const current = path === o.path ? ' aria-current="page"' : "";
    const hreflang = path === DOCS_PATH && o.lang === "ar" ? ' hreflang="en"' : "";
    return `<li><a href="${href}"${current}${hreflang}>${label}</a></li>`;
  });
  const other: PageLang = o.lang === "ar" ? "en" : "ar";
  const twin = o.twin === false ? `${o.path}${o.arabicAnchor ?? ""}` : localized(o.path, other);
  const label = other === "ar" ? "العربية" : "English";
  items.push(
    `<li class="lang"><a href="${twin}" hreflang="${other}" lang="${other}"${o.twin === false ? "" : ` rel="alternate"`}>${label}</a></li>`,
  );
  return `<nav aria-label="${o.lang === "ar" ? "الموقع" : "Site"}"><ul>${items.join("")}</ul></nav>`;
}

function alternates(o: PageOptions): string {
  if (o.twin === false) return "";
  const abs = (p: string) => `${o.baseUrl ? o.baseUrl.replace(/\/+$/, "") : ""}${p}`;
  return [
    `<link rel="alternate" hreflang="en" href="${abs(o.path)}">`,
    `<link rel="alternate" hreflang="ar" href="${abs(localized(o.path, "ar"))}">`,
    `<link rel="alternate" hreflang="x-default" href="${abs(o.path)}">`,
  ].join("\n");
}

export function page(o: PageOptions): string {
  const ar = o.lang === "ar";
  return `<!doctype html>
<html lang="${o.lang}" dir="${ar ? "rtl" : "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}</title>
<meta name="description" content="${esc(o.description)}">
${alternates(o)}
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">${ar ? "انتقل إلى المحتوى" : "Skip to content"}</a>
<header>${navigation(o)}</header>
${o.banner ? `<p class="banner" role="note">${o.banner}</p>` : ""}
<main id="main">
${o.body}
</main>
<footer><p>${FOOTER[o.lang]}</p></footer>
</body>
</html>
`;
}
