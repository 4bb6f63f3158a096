/**
 * The documentation page (`_docs`, /docs/): first what starts a developer in one minute — a request
 * to copy and paste against the deployment's base URL with its real answer from this build, a
 * `fetch` example and the three things to know — then the reference (docs-reference.ts), the
 * rulebook docs/methodology.md rendered as it stands, the licensed sellers, and the glossary of the
 * pages' words. Its Arabic twin, /ar/docs/, is docs-ar.ts.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Site } from "../../schema/inputs.js";
import type { Asset, Feed } from "../../schema/outputs.js";
import { canonical } from "../../core/canonical.js";
import type { CategoryCalendar } from "../../schema/inputs.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { DOCS_PATH, FEED_PATH, files, localized } from "../../feed/paths.js";
import { arabic, html, join, raw, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { referenceSections } from "./docs-reference.js";
import { glossary } from "./glossary.js";
import { categoryTitle, simulatedBanner } from "./words.js";

export const LOCAL_BASE_URL = "http://127.0.0.1:8888";

/** The base URL the examples call: the site's `baseUrl`, or the local server of `npm start`. */
export const baseUrlOf = (site: Site) => (site.baseUrl ?? LOCAL_BASE_URL).replace(/\/+$/, "");

/** The asset the examples use: the first with competing sellers, as the OpenAPI examples do. */
export const exampleAsset = (feed: Feed): Asset =>
  feed.assets.find((a) => a.market === "competitive") ?? feed.assets[0]!;

/**
 * JSON laid out for reading: a value on one line when it fits, else one member or item a line; its
 * members in canonical order, as the served file has them.
 */
function pretty(v: unknown, indent = ""): string {
  const flat = canonical(v);
  if (v === null || typeof v !== "object" || indent.length + flat.length <= 110) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + pretty(x, inner)).join(",\n")}\n${indent}]`;
  return `{\n${Object.entries(v)
    .filter(([, x]) => x !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`)
    .join(",\n")}\n${indent}}`;
}

const CUT_DAYS = "__earlier_days__";
const CUT_SELLERS = "__more_sellers__";

/**
 * The built one-asset answer, as the handler serves `?asset=<slug>`: the full body, with its series
 * cut to the last days and its seller table to the first rows, each cut said where it is.
 */
function realAnswer(ctx: RenderContext, a: Asset, keep = 2): string {
  const body = ctx.assetFeed(a);
  const asset = body.assets[0]!;
  const earlier = Math.max(0, asset.series.length - keep);
  const more = Math.max(0, asset.sellers.length - keep);
  const shown = {
    ...body,
    _self: `${FEED_PATH}?asset=${a.slug}`,
    assets: [
      {
        ...asset,
        series: [...(earlier ? [CUT_DAYS] : []), ...asset.series.slice(-keep)],
        sellers: [...asset.sellers.slice(0, keep), ...(more ? [CUT_SELLERS] : [])],
      },
    ],
  };
  return pretty(shown)
    .replace(`${JSON.stringify(CUT_DAYS)},`, `/* … ${earlier} earlier days … */`)
    .replace(JSON.stringify(CUT_SELLERS), `/* … ${more} more sellers … */`);
}

function sessionsText(cal: CategoryCalendar): string {
  const days = (d: string[]) => d.map((x) => x.charAt(0).toUpperCase() + x.slice(1)).join(", ");
  const s = cal.sessions.map((x) => `${days(x.days)} ${x.open}–${x.close}`).join("; ");
  return `${s || "no sessions"}${cal.holidays.length ? `; closed on ${cal.holidays.length} listed holidays` : ""}`;
}

function startSection(ctx: RenderContext, base: string): SafeHtml {
  const a = exampleAsset(ctx.feed);
  const url = `${base}${FEED_PATH}?asset=${a.slug}`;
  const best = a.directions.sell.best;
  const bestJson = best ? JSON.stringify(best) : "null";
  return html`<h2 id="quick-start">Start in one minute</h2>
<p>No key, no sign-up, open CORS. Ask for one asset:</p>
<pre class="cmd"><code>curl -s '${url}'</code></pre>
<p>On <a href="#mirror">the mirror</a>, which reads no query string, the same answer is the file <code>/${files.asset(a.slug)}</code>.</p>
<p>The answer, as this build serves it (cut here to the last two days of its <code>series</code> and the first two rows of its seller table):</p>
<pre class="answer"><code>${realAnswer(ctx, a)}</code></pre>
<p>The same from JavaScript, in a browser or in Node 18+:</p>
<pre><code>const res = await fetch("${url}");
const { assets: [asset] } = await res.json();
console.log(asset.directions.sell.best);    // ${bestJson}
console.log(asset.directions.sell.verdict); // "${a.directions.sell.verdict}"</code></pre>
<p><code>sell</code> is what a customer pays a seller (lower is better; the pages say “You buy at”), <code>buy</code> what a seller pays the customer (higher is better; “You sell at”); every price is EGP per unit, already rounded. The <a href="#glossary">glossary</a> maps each word of the pages to its field.</p>
<h3 id="three-things">The three things to know</h3>
<ol>
<li><strong><a href="#filters">Filters</a></strong>: <code>?asset=</code> takes slugs or ids, <code>?category=</code> category slugs, each a comma-separated list (<code>?asset=${a.slug},${ctx.feed.assets.find((x) => x !== a)?.slug ?? a.slug}</code>); both together give the assets that match both. No filter: every asset. An unknown value answers 400 with the valid ones.</li>
<li><strong><a href="#conditional-requests">Poll with the ETag</a></strong>: keep the <code>ETag</code> of each answer and send it back as <code>If-None-Match</code>; while nothing changed the answer is <code>304 Not Modified</code> with no body. The data changes at most once an hour, so polling every five minutes is plenty:
<pre class="cmd"><code>curl -si '${base}${FEED_PATH}' -H 'If-None-Match: "&lt;the ETag you got&gt;"'</code></pre></li>
<li><strong><a href="#limits">Limits</a></strong>: ${WINDOW_LIMIT} requests per ${WINDOW_SECONDS} seconds and ${DAILY_LIMIT} per Cairo day, per address; every answer carries <code>RateLimit-Remaining</code> and <code>Daily-Used</code>, and past a limit a 429 says when to retry (<code>Retry-After</code>).</li>
</ol>`;
}

export function renderDocs(ctx: RenderContext): string {
  const { feed, input } = ctx;
  const ds = input.dataset;
  const base = baseUrlOf(ds.site);
  const sellerRows = ds.registry.map(
    (s) =>
      html`<tr><td>${s.name}</td><td>${arabic(s.nameAr) || html`<span class="muted">—</span>`}</td><td>${s.kind}</td><td>${s.licensedBy}</td><td>${s.categories.join(", ")}</td></tr>`,
  );
  const sessionRows = Object.entries(ds.calendar.categories).map(
    ([c, cal]) => html`<li><strong>${categoryTitle(c)}</strong>: ${sessionsText(cal)}.</li>`,
  );
  // The rulebook's HTML as methodology.ts made it from the markdown, its text escaped there.
  const rulebook = raw(input.methodologyHtml);
  const body = html`<h1>Price Feed API documentation</h1>
<p class="lead">Currency and gold prices of Egypt's licensed banks, exchange houses and gold dealers, as read-only JSON.</p>
${startSection(ctx, base)}
<nav aria-label="On this page"><ul>
<li><a href="#quick-start">Start in one minute</a></li><li><a href="#about">What the feed is</a></li><li><a href="#endpoints">The URL contract</a></li><li><a href="#fields">Fields</a></li>
<li><a href="#filters">Filters</a></li><li><a href="#conditional-requests">Conditional requests</a></li><li><a href="#errors">Errors</a></li>
<li><a href="#limits">Limits</a></li><li><a href="#versioning">Versioning and changelog</a></li><li><a href="#methodology">How the numbers are made</a></li>
<li><a href="#sellers">Licensed sellers</a></li><li><a href="#glossary">Words on the pages</a></li><li><a href="${localized(DOCS_PATH, "ar")}" hreflang="ar" lang="ar">التوثيق بالعربية</a></li>
</ul></nav>
<h2 id="about">What the feed is</h2>
<p>${feed._about}</p>
<p>One request returns, for every tracked currency and gold price: the best licensed seller on each side, whether the day is a good one against recent history, the central bank's official rate, the global mid-market reference, ${feed.seriesWindowDays} days of history and the day's full seller table. Read-only JSON over HTTPS, no key, open CORS.</p>
${referenceSections(ds, input.changelog, base)}
<section id="methodology" aria-label="How the numbers are made">
${rulebook}
<h3 id="sessions">This deployment's trading sessions</h3>
<p>From its calendar configuration (Cairo time), which freshness (§7) counts in:</p>
<ul>${sessionRows}</ul>
</section>

<h2 id="sellers">Licensed sellers</h2>
<p>Only these sellers' quotes are accepted, each for the categories it is licensed in.</p>
<div class="wrap"><table><thead><tr><th scope="col">Seller</th><th scope="col">Arabic name</th><th scope="col">Kind</th><th scope="col">Licensed by</th><th scope="col">Categories</th></tr></thead>
<tbody>${join(sellerRows, "\n")}</tbody></table></div>
<h2 id="glossary">Words on the pages</h2>
<p>The human pages name each side from the customer's side, in both languages, and never with the banks' own column words (which name it from the bank's side, the other way round). Each label and the field it is:</p>
${glossary("en")}`;
  return page({
    lang: "en",
    path: DOCS_PATH,
    title: "Documentation · Price Feed API",
    description: "How to use the Price Feed API in one minute, and how every number in it is made.",
    body,
    scrolls: true,
    baseUrl: ds.site.baseUrl,
    ...simulatedBanner(ds.site),
  });
}
