/**
 * The frame every page shares: escaping, the document shell, navigation and the style sheet.
 * Pages are plain HTML written at build time, with no JavaScript; their Content-Security-Policy
 * (PAGE_CSP in src/edge/handler.ts, and netlify.toml) allows inline styles and nothing else.
 */
import { CHANGELOG_PATH, DOCS_PATH, INDEX_PATH, OPENAPI_PATH, TERMS_PATH } from "../../feed/paths.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an element or a quoted attribute. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Arabic text inside an English page: `lang` lets screen readers switch voice, `dir="rtl"` lays it
 * out right to left, and <bdi> isolates it so that neighbouring numbers and punctuation keep
 * their own direction (Unicode bidirectional algorithm, HTML §4.5.24).
 */
export function arabic(text: string | null | undefined): string {
  return text ? `<bdi lang="ar" dir="rtl">${esc(text)}</bdi>` : "";
}

/** A number shown with the asset's decimals; an em dash when absent. */
export function num(v: number | null | undefined, decimals: number): string {
  return v === null || v === undefined ? "—" : v.toFixed(decimals);
}

export interface PageOptions {
  title: string;
  /** The page's own path, marked as current in the navigation. */
  path: string;
  description: string;
  body: string;
  banner?: string;
}

const NAV: Array<[string, string]> = [
  ["/", "Today's market"],
  [DOCS_PATH, "Documentation"],
  [INDEX_PATH, "API index"],
  [OPENAPI_PATH, "OpenAPI"],
  [CHANGELOG_PATH, "Changelog"],
  [TERMS_PATH, "Terms"],
];

export function page(o: PageOptions): string {
  const nav = NAV.map(([href, label]) => `<li><a href="${href}"${href === o.path ? ' aria-current="page"' : ""}>${label}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}</title>
<meta name="description" content="${esc(o.description)}">
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Site"><ul>${nav}</ul></nav></header>
${o.banner ? `<p class="banner" role="note">${o.banner}</p>` : ""}
<main id="main">
${o.body}
</main>
<footer><p>Indicative rates for information only, not financial advice. <a href="${TERMS_PATH}">Terms</a> · <a href="${DOCS_PATH}">How the numbers are made</a></p></footer>
</body>
</html>
`;
}

const STYLE = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#4a5560;--line:#c9d1d9;--bg:#fff;--soft:#f4f6f8;--accent:#0b5cad;--sell:#a33b00;--buy:#1a6b36;--bench:#333}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic",sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header{background:var(--soft);border-bottom:1px solid var(--line)}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0 auto;padding:.75rem 1rem;max-width:72rem}
nav a[aria-current]{font-weight:700;color:var(--ink)}
main{max-width:72rem;margin:0 auto;padding:1rem}
footer{max-width:72rem;margin:2rem auto;padding:1rem;border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
.banner{margin:0;padding:.6rem 1rem;background:#fff4ce;border-bottom:1px solid #e0c96a;text-align:center}
h1{font-size:1.8rem;margin:.5rem 0 1rem}h2{margin-top:2.5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}h3{margin-top:1.75rem}
table{border-collapse:collapse;width:100%;margin:.75rem 0;font-size:.95rem}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:start;vertical-align:top}
th{background:var(--soft)}
td.n{text-align:end;font-variant-numeric:tabular-nums;white-space:nowrap}
.wrap{overflow-x:auto}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:var(--soft);border:1px solid var(--line);padding:.75rem;overflow-x:auto}
.muted{color:var(--muted)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(21rem,1fr));gap:1rem}
.card{border:1px solid var(--line);border-radius:.4rem;padding:.75rem 1rem}
.card h3{margin:0 0 .25rem}
.card dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .75rem;margin:.5rem 0}
.card dt{color:var(--muted)}.card dd{margin:0}
.tag{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;font-size:.85rem}
.v-favorable{border-color:var(--buy);color:var(--buy)}.v-weak{border-color:var(--sell);color:var(--sell)}
svg.chart{width:100%;height:auto;display:block}
.legend{font-size:.85rem;color:var(--muted);margin:.25rem 0 0}
.key{display:inline-block;width:.9rem;height:.6rem;margin:0 .25rem 0 .5rem;vertical-align:middle}
.key.sell{background:var(--sell);opacity:.45}.key.buy{background:var(--buy);opacity:.45}.key.bench{height:2px;background:var(--bench)}
bdi[lang=ar]{font-size:1.05em}
`;
