/**
 * The documentation page (`_docs`): the URL contract, every field, filters, conditional requests,
 * errors, limits, versioning and the whole methodology. Field tables are generated from the same
 * JSON Schema the OpenAPI description carries, and every number of the methodology comes from
 * src/core/methodology.ts, so the page cannot drift from the code.
 */
import type { RenderContext } from "../../feed/site.js";
import * as M from "../../core/methodology.js";
import { CACHE_MAX_AGE_SECONDS, DAILY_LIMIT, MAX_PARAMS, MAX_URL_LENGTH, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { CHANGELOG_PATH, DOCS_PATH, FEED_PATH, INDEX_PATH, OPENAPI_PATH, READYZ_PATH, TERMS_PATH } from "../../feed/paths.js";
import { PROBLEM_TYPES, type ProblemSlug } from "../../edge/problem.js";
import { componentSchemas } from "../openapi.js";
import type { Changelog } from "../../schema/documents.js";
import type { CategoryCalendar } from "../../schema/inputs.js";
import { arabic, esc, page } from "./html.js";
import { VERDICT_LABELS, categoryTitle, simulatedBanner } from "./words.js";

type Schema = Record<string, unknown>;
const FIELD_SCHEMAS = ["Feed", "Asset", "Direction", "BestSeller", "Signals", "SeriesEntry", "SellerRow", "Problem"];

const refName = (s: Schema) => (typeof s["$ref"] === "string" ? (s["$ref"] as string).split("/").pop()! : null);

/** A readable type for a JSON Schema: links for named schemas, "or null", enums and arrays. */
function typeOf(s: Schema): string {
  const named = refName(s);
  if (named) return `<a href="#schema-${named}">${named}</a>`;
  if (Array.isArray(s["anyOf"])) return (s["anyOf"] as Schema[]).map(typeOf).join(" or ");
  if (s["const"] !== undefined) return `<code>${esc(JSON.stringify(s["const"]))}</code>`;
  if (Array.isArray(s["enum"])) return (s["enum"] as unknown[]).map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(" | ");
  if (s["type"] === "array") return `array of ${typeOf((s["items"] as Schema) ?? {})}`;
  if (s["type"] === "object" && s["properties"]) return "object (below)";
  if (s["type"] === "object") return "object";
  return esc(String(s["type"] ?? "any"));
}

/** Rows for an object's properties; nested anonymous objects are listed as `parent.child`. */
function fieldRows(s: Schema, prefix: string, all: Record<string, Schema>): string[] {
  const props = (s["properties"] ?? {}) as Record<string, Schema>;
  const required = new Set((s["required"] ?? []) as string[]);
  return Object.entries(props).flatMap(([name, p]) => {
    const full = `${prefix}${name}`;
    const inner = Array.isArray(p["anyOf"]) ? ((p["anyOf"] as Schema[]).find((x) => x["type"] === "object" && x["properties"]) ?? p) : p;
    const named = refName(p) ?? (Array.isArray(p["anyOf"]) ? (p["anyOf"] as Schema[]).map(refName).find(Boolean) : null);
    const desc = (p["description"] ?? inner["description"] ?? (named ? all[named]?.["description"] : undefined) ?? "") as string;
    const row = `<tr><td><code>${esc(full)}</code>${required.has(name) ? "" : ' <span class="muted">(optional)</span>'}</td><td>${typeOf(p)}</td><td>${esc(desc)}</td></tr>`;
    return inner !== p || (p["type"] === "object" && p["properties"]) ? [row, ...fieldRows(inner, `${full}.`, all)] : [row];
  });
}

function fieldTables(): string {
  const all = componentSchemas();
  return FIELD_SCHEMAS.map((name) => {
    const s = all[name]!;
    return `<h3 id="schema-${name}">${name}</h3>
<p>${esc((s["description"] as string) ?? "")}</p>
<div class="wrap"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>${fieldRows(s, "", all).join("\n")}</tbody></table></div>`;
  }).join("\n");
}

const hours = (ms: number) => `${ms / 3_600_000} h`;
const pct = (x: number) => `${x} %`;

function sessionsText(cal: CategoryCalendar): string {
  const days = (d: string[]) => d.map((x) => x.charAt(0).toUpperCase() + x.slice(1)).join(", ");
  const s = cal.sessions.map((x) => `${days(x.days)} ${x.open}–${x.close}`).join("; ");
  return `${s || "no sessions"}${cal.holidays.length ? `; closed on ${cal.holidays.length} listed holidays` : ""}`;
}

function changelogHtml(c: Changelog): string {
  return c.versions
    .map((v) => {
      const kinds = Object.entries(v.changes)
        .map(([kind, items]) => `<h4>${esc(kind.charAt(0).toUpperCase() + kind.slice(1))}</h4><ul>${(items ?? []).map((i) => `<li>${esc(i)}</li>`).join("")}</ul>`)
        .join("");
      return `<h3 id="v${esc(v.version)}">${esc(v.version)} <span class="muted">(${esc(v.date)})</span></h3><p>${esc(v.summary)}</p>${kinds}`;
    })
    .join("\n");
}

export function renderDocs({ feed, input }: RenderContext): string {
  const ds = input.dataset;
  const categories = [...new Set(ds.catalog.map((a) => a.category))];
  const example = ds.catalog[0]!;
  const problemRows = (Object.keys(PROBLEM_TYPES) as ProblemSlug[])
    .map((slug) => {
      const p = PROBLEM_TYPES[slug];
      return `<tr id="problem-${slug}"><td>${p.status}</td><td><code>/docs/#problem-${slug}</code></td><td>${esc(p.title)}</td><td>${esc(p.when)}</td><td>${esc(p.fix)}</td></tr>`;
    })
    .join("\n");
  const assetRows = ds.catalog
    .map((a) => `<tr><td><code>${esc(a.slug)}</code></td><td><code>${esc(a.id)}</code></td><td>${esc(a.name)} ${arabic(a.nameAr)}</td><td>${esc(a.category)}</td><td>${esc(a.market)}</td><td>${esc(a.unit)}</td></tr>`)
    .join("\n");
  const sellerRows = ds.registry
    .map((s) => `<tr><td>${esc(s.name)}</td><td>${arabic(s.nameAr) || '<span class="muted">—</span>'}</td><td>${esc(s.kind)}</td><td>${esc(s.licensedBy)}</td><td>${esc(s.categories.join(", "))}</td></tr>`)
    .join("\n");
  const sessionRows = Object.entries(ds.calendar.categories)
    .map(([c, cal]) => `<li><strong>${esc(categoryTitle(c))}</strong>: ${esc(sessionsText(cal))}.</li>`)
    .join("");

  const body = `<h1>Price Feed API documentation</h1>
<p>${esc(feed._about)}</p>
<p>One request returns, for every tracked currency and gold price: the best licensed seller on each side today, whether today is a good day against recent history, the central bank's official rate, the global mid-market reference, ${M.SERIES_WINDOW_DAYS} days of history and today's full seller table. Everything is read-only JSON over HTTPS, with no key and open CORS, so a browser may call it directly.</p>
<nav aria-label="On this page"><ul>
<li><a href="#quick-start">Quick start</a></li><li><a href="#endpoints">The URL contract</a></li><li><a href="#fields">Fields</a></li>
<li><a href="#filters">Filters</a></li><li><a href="#conditional-requests">Conditional requests</a></li><li><a href="#errors">Errors</a></li>
<li><a href="#limits">Limits</a></li><li><a href="#versioning">Versioning and changelog</a></li><li><a href="#methodology">How the numbers are made</a></li>
<li><a href="#sellers">Licensed sellers</a></li>
</ul></nav>

<h2 id="quick-start">Quick start</h2>
<pre><code>curl -s https://&lt;host&gt;${FEED_PATH}?asset=${esc(example.slug)}</code></pre>
<pre><code>const res = await fetch("${FEED_PATH}?category=${esc(categories[0]!)}");
const feed = await res.json();
for (const a of feed.assets) console.log(a.id, a.directions.sell.best?.value, a.directions.sell.verdict);</code></pre>
<p>Rates are EGP per unit of the asset (per gram for gold). <strong>Sell</strong> is what a customer pays the seller: lower is better. <strong>Buy</strong> is what a customer receives from the seller: higher is better. Clients must ignore fields they do not know: new ones are added without notice.</p>

<h2 id="endpoints">The URL contract</h2>
<p>All paths answer <code>GET</code> (and <code>HEAD</code>, and <code>OPTIONS</code> as a CORS preflight) and need no authentication.</p>
<div class="wrap"><table><thead><tr><th scope="col">Path</th><th scope="col">What it returns</th></tr></thead><tbody>
<tr><td><a href="${FEED_PATH}"><code>${FEED_PATH}</code></a></td><td>The feed: every asset, or the subset chosen by <code>?category=</code> and <code>?asset=</code>.</td></tr>
<tr><td><a href="${INDEX_PATH}"><code>${INDEX_PATH}</code></a></td><td>The index: endpoints, the values the filters accept, the limits, links.</td></tr>
<tr><td><a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a></td><td>The OpenAPI 3.1 description of every path, field, header and response, usable to generate a client.</td></tr>
<tr><td><a href="${CHANGELOG_PATH}"><code>${CHANGELOG_PATH}</code></a></td><td>The changelog, one entry per release.</td></tr>
<tr><td><a href="${READYZ_PATH}"><code>${READYZ_PATH}</code></a></td><td>200 when the data is fresh, 503 when it is not, with the reasons. For monitors.</td></tr>
</tbody></table></div>
<p>Every feed carries links: <code>_self</code> (the exact request), <code>_docs</code> (this page), <code>_spec</code>, <code>_changelog</code> and <code>_terms</code> (<a href="${TERMS_PATH}">the terms</a>).</p>

<h2 id="fields">Fields</h2>
<p>The feed is one <a href="#schema-Feed">Feed</a> object. Keys are in sorted order; numbers are already rounded to the asset's <code>decimals</code>. Verdicts are codes for the client to put in its own words (this site says ${Object.values(VERDICT_LABELS).map((l) => `“${esc(l)}”`).join(", ")}).</p>
${fieldTables()}

<h2 id="filters">Filters</h2>
<p><code>?category=</code> takes category slugs, <code>?asset=</code> asset slugs or ids; both take several values separated by commas, in any letter case. With both, an asset must match both (the intersection). Assets come back in catalog order whatever the order asked. An unknown value answers 400 with the accepted values in <code>validCategories</code> or <code>validAssets</code>.</p>
<p>Categories: ${categories.map((c) => `<code>${esc(c)}</code>`).join(", ")}.</p>
<div class="wrap"><table><thead><tr><th scope="col">Slug</th><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Category</th><th scope="col">Market</th><th scope="col">Unit</th></tr></thead>
<tbody>${assetRows}</tbody></table></div>

<h2 id="conditional-requests">Conditional requests</h2>
<p>Every answer carries a strong <code>ETag</code> and a <code>Last-Modified</code>. The ETag hashes the body without <code>generatedAt</code>, so an hourly rebuild of unchanged data keeps it. Send it back as <code>If-None-Match</code> and an unchanged feed answers <code>304 Not Modified</code> with no body (a 304 costs a request of your allowance, but no bandwidth). <code>If-None-Match</code> takes precedence over <code>If-Modified-Since</code> (RFC 9110 §13.2.2). Answers may be cached for ${CACHE_MAX_AGE_SECONDS} seconds (<code>Cache-Control: public, max-age=${CACHE_MAX_AGE_SECONDS}</code>); errors are <code>no-store</code>.</p>
<pre><code>curl -si https://&lt;host&gt;${FEED_PATH} | grep -i etag
# etag: "…"
curl -si https://&lt;host&gt;${FEED_PATH} -H 'If-None-Match: "…"'
# HTTP/2 304</code></pre>
<pre><code>let etag = null, feed = null;
async function poll() {
  const res = await fetch("${FEED_PATH}", { headers: etag ? { "If-None-Match": etag } : {} });
  if (res.status === 304) return feed;            // unchanged: keep the copy you have
  if (!res.ok) throw new Error((await res.json()).detail);
  etag = res.headers.get("ETag");
  return (feed = await res.json());
}
setInterval(poll, 5 * 60 * 1000);                 // about every five minutes is enough</code></pre>
<p>In a browser, <code>fetch(url, { cache: "no-cache" })</code> does the same: the browser revalidates its cached copy with <code>If-None-Match</code> and reuses it on a 304.</p>

<h2 id="errors">Errors</h2>
<p>Errors are <code>application/problem+json</code> documents (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, a short <code>error</code> and the fields that fix the call. A successful answer never carries an error, and no answer carries a stack trace.</p>
<pre><code>{"type":"/docs/#problem-unknown-category","title":"Unknown category","status":400,
 "detail":"The category filter has unknown category \\"crypto\\". Use one of: ${esc(categories.join(", "))}.",
 "error":"unknown category \\"crypto\\"","instance":"${FEED_PATH}","validCategories":[${categories.map((c) => `"${esc(c)}"`).join(",")}]}</code></pre>
<div class="wrap"><table><thead><tr><th scope="col">Status</th><th scope="col"><code>type</code></th><th scope="col">Title</th><th scope="col">When</th><th scope="col">What to do</th></tr></thead>
<tbody>${problemRows}</tbody></table></div>
<p><code>${READYZ_PATH}</code> answers 503 with its own body (not a problem document) when the data is not fresh; retry later.</p>

<h2 id="limits">Limits</h2>
<ul>
<li><strong>Burst</strong>: ${WINDOW_LIMIT} requests per ${WINDOW_SECONDS}-second window per address; beyond it, 429 <a href="#problem-rate-limited"><code>rate-limited</code></a> with <code>Retry-After</code>.</li>
<li><strong>Daily allowance</strong>: ${DAILY_LIMIT} requests per address per day, reset at midnight Africa/Cairo; beyond it, 429 <a href="#problem-daily-limit"><code>daily-limit</code></a> with <code>Retry-After</code> until midnight.</li>
<li><strong>Requests</strong>: targets up to ${MAX_URL_LENGTH} characters, at most ${MAX_PARAMS} query parameters.</li>
<li><strong>History</strong>: ${M.SERIES_WINDOW_DAYS} days per asset (<code>seriesWindowDays</code>); the verdict looks back up to ${M.LOOKBACK_DAYS} days.</li>
<li><strong>Change rate</strong>: the data changes at most about once an hour; polling about every five minutes is enough.</li>
</ul>
<p>Every answer says where you stand: <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code>, <code>RateLimit-Reset</code> (seconds), <code>RateLimit-Policy</code> (<code>${WINDOW_LIMIT};w=${WINDOW_SECONDS}</code>), <code>Daily-Limit</code>, <code>Daily-Used</code> and <code>Daily-Reset</code> (seconds to Cairo midnight). Browsers can read them all (<code>Access-Control-Expose-Headers</code>). If you run the feed in production, say who you are with an <code>X-Contact</code> header (a URL or an e-mail address): anonymous heavy traffic is limited first.</p>

<h2 id="versioning">Versioning and changelog</h2>
<p>The version is in the path: <code>/api/v1</code> is stable. Fields and filters are added backwards-compatibly. A breaking change ships as <code>/api/v2</code> beside v1, announced in the changelog; v1 then answers with <code>Deprecation</code> and <code>Sunset</code> headers and stays available for a migration period. The body's <code>schemaVersion</code> is 1 and the OpenAPI description's version is 1.0.</p>
${changelogHtml(input.changelog)}

<h2 id="methodology">How the numbers are made</h2>
<p>This is the rulebook the build follows; every constant named here is one constant in the code.</p>

<h3 id="words">Words</h3>
<ul>
<li><strong>Seller</strong>: a licensed bank, exchange house or gold dealer. The registry below says who is licensed, by whom, and for which categories.</li>
<li><strong>Source</strong>: where an observation came from — a bank's own rate page, an aggregator, the central bank's file, a global reference. Several sources may report the same seller.</li>
<li><strong>Quote</strong>: one observation of a seller's <code>buy</code> and <code>sell</code> for an asset at an instant, by a source.</li>
<li><strong>Sides</strong>, always from the customer's point of view: on the <code>sell</code> side the seller sells to the customer, who pays <code>sell</code> EGP per unit, so lower is better; on the <code>buy</code> side the seller buys from the customer, who receives <code>buy</code> EGP per unit, so higher is better.</li>
<li><strong>Business date</strong> (<code>asOf</code>, per asset): the Cairo calendar date (daylight saving time included) of the latest day on which the asset has accepted quotes — for a reference asset, a reference price — and never later than the build's own Cairo date. On a Friday the currencies' <code>asOf</code> is Thursday. “Today” below always means <code>asOf</code>.</li>
</ul>

<h3 id="acceptance">Which quotes are used</h3>
<p>A quote counts only if every rule holds; otherwise it is rejected, and the build report lists it with the reason.</p>
<ol>
<li>Its seller is in the licensed registry, licensed for the asset's category.</li>
<li><code>buy</code> and <code>sell</code> are each absent (null) or a finite number above zero, and not both absent.</li>
<li>When both are present, <code>buy</code> is not above <code>sell</code>: a crossed quote is rejected.</li>
<li>Its <code>observedAt</code> is a valid instant no later than the build instant plus <code>CLOCK_SKEW</code> (${M.CLOCK_SKEW_MS / 60_000} minutes).</li>
<li>It is plausible: each value present lies within <code>PLAUSIBLE_BAND</code> (±${M.PLAUSIBLE_BAND * 100} %) of the median of the other sellers' values for that side that day — each other seller counted once, by its latest quote that passes rules 1–4. When fewer than ${M.PLAUSIBLE_MIN_PEERS} other sellers quote that side, the official rate of that side in force that day is the yardstick instead; with neither, the value stands.</li>
</ol>
<p>When one seller has several accepted quotes for an asset on one day, the latest <code>observedAt</code> wins; on a tie, the source listed first in the sources configuration. A seller's close for the day is its latest accepted quote of that day.</p>

<h3 id="table">Today's table and the best sellers</h3>
<ul>
<li><code>sellers</code> has one row per licensed seller with an accepted quote on <code>asOf</code>, with its latest values of that day; a seller that did not quote that day is not listed. Rows are sorted best first on the asset's <code>defaultSide</code>, then by seller name.</li>
<li><code>directions.sell.best</code> is the row with the lowest <code>sell</code>; <code>directions.buy.best</code> the row with the highest <code>buy</code>. A tie goes to the seller whose quote is most recent, then by name. <code>best</code> is null when no seller quotes that side today, and always null for a reference asset.</li>
<li>Every value is rounded to the asset's <code>decimals</code>, half away from zero, before anything is compared or published, so equal prices compare equal.</li>
</ul>

<h3 id="markets">Markets</h3>
<ul>
<li><code>competitive</code>: two or more licensed sellers quote the asset.</li>
<li><code>sole</code>: exactly one licensed seller quotes it. The catalog declares it; the build warns when the data disagree.</li>
<li><code>reference</code>: no seller list, a reference price only: the global mid-market value or, failing that, the official mid. Both directions use that price as today's value; <code>best</code> is null, <code>sellers</code> is empty, the <code>official</code> and <code>global</code> signals are null, and the series' low and high carry that price's daily low and high.</li>
</ul>

<h3 id="history">History</h3>
<ul>
<li>A day's series entry is the day's close: <code>buyLo</code>/<code>buyHi</code> the lowest and highest of the sellers' closing <code>buy</code>, <code>sellLo</code>/<code>sellHi</code> the same for <code>sell</code>, and <code>bench</code> the official mid <code>(buy + sell) / 2</code> rounded to <code>decimals</code>, or null when there is none.</li>
<li>The day's <em>best</em> on each side, which the verdict uses, is <code>sellLo</code> for sell and <code>buyHi</code> for buy.</li>
<li>Today's entry is provisional: each build replaces it, and the day's last build leaves the close.</li>
<li>A day without an accepted quote has no entry; no value is invented. <code>series</code> holds the latest <code>SERIES_WINDOW_DAYS</code> (${M.SERIES_WINDOW_DAYS}) entries, oldest first, today last when it exists.</li>
<li>The official and global rates of a day are that day's latest observation; a day without one uses the last earlier one for up to ${M.REFERENCE_MAX_AGE_DAYS} days, so a Friday shows Thursday's official rate.</li>
</ul>

<h3 id="verdict">The verdict, one side at a time</h3>
<p>Let <var>v</var> be today's best value on the side and <var>P</var> the best values of that side on prior days: the latest <code>LOOKBACK_DAYS</code> (${M.LOOKBACK_DAYS}) days that have a value, strictly before <code>asOf</code> and no older than ${M.LOOKBACK_MAX_AGE_DAYS} days. <code>priorDays</code> is the number of them.</p>
<p><strong>Calibrating.</strong> When <var>v</var> is absent or <code>priorDays</code> is below <code>MIN_PRIOR_DAYS</code> (${M.MIN_PRIOR_DAYS}), the verdict is <code>calibrating</code>, <code>favorability</code> is null and the position lean is 0; the other signals are still computed where they can be.</p>
<p><strong>Favorability</strong> is where today sits among the prior days, 1 being the best day of the window for the customer, ties counted half, rounded to ${M.FAVORABILITY_DECIMALS} decimals:</p>
<ul>
<li>sell: (number of prior days with a higher value + ½ × number with the same value) ÷ <code>priorDays</code>;</li>
<li>buy: (number of prior days with a lower value + ½ × number with the same value) ÷ <code>priorDays</code>.</li>
</ul>
<p><strong>Signals</strong> each lean +1 (favorable for the customer), 0 or −1 (unfavorable):</p>
<ul>
<li><code>position</code>: +1 when favorability is at least <code>HIGH_POSITION</code> (${M.HIGH_POSITION}), −1 when at most <code>LOW_POSITION</code> (${M.LOW_POSITION}), else 0.</li>
<li><code>trend</code>: the window is the prior days within the last <code>TREND_DAYS</code> (${M.TREND_DAYS}) calendar days (from <code>asOf</code> − ${M.TREND_DAYS} to <code>asOf</code> − 1) plus today; null when it holds fewer than ${M.TREND_MIN_VALUES} values. With <var>f</var> its earliest value, <code>changePct</code> = (<var>v</var> − <var>f</var>) ÷ <var>f</var> × 100 and <code>days</code> the calendar days from <var>f</var>'s date to <code>asOf</code>; <code>volatilityPct</code> is the population standard deviation of the day-over-day percentage changes inside the window. <code>direction</code> is <code>flat</code> when |<code>changePct</code>| is below <code>FLAT_PCT</code> (${pct(M.FLAT_PCT)}), else <code>up</code> or <code>down</code>. Lean: flat 0; on the sell side down +1 and up −1; on the buy side up +1 and down −1.</li>
<li><code>official</code>: null without an official rate for the side (<code>benchmark.sell</code> for sell, <code>benchmark.buy</code> for buy). <code>diffPct</code> = (<var>v</var> − <var>b</var>) ÷ <var>b</var> × 100. On the sell side below −<code>OFFICIAL_TOL_PCT</code> (${pct(M.OFFICIAL_TOL_PCT)}) leans +1 and above +${pct(M.OFFICIAL_TOL_PCT)} leans −1; on the buy side the signs swap; within the tolerance, 0.</li>
<li><code>global</code>: null without a global reference. <code>diffPct</code> = (<var>v</var> − <var>g</var>) ÷ <var>g</var> × 100, and <code>notable</code> is true when |<code>diffPct</code>| is at least <code>GLOBAL_NOTABLE_PCT</code> (${pct(M.GLOBAL_NOTABLE_PCT)}). It has no lean.</li>
</ul>
<p>Percentages are published with ${M.PCT_DECIMALS} decimals; every comparison uses the unrounded value.</p>
<p><strong>The verdict</strong>, when not calibrating: <code>mixed</code> when the leans of position, trend and official include both a +1 and a −1; otherwise <code>favorable</code> when position leans +1, <code>weak</code> when it leans −1, else <code>ordinary</code>. The verdict describes today against the recorded past. It never forecasts, and nothing here says “buy”, “sell now” or “wait”.</p>

<h3 id="freshness">Freshness</h3>
<p>Each category has trading sessions in Cairo time, and a list of holidays closes a day:</p>
<ul>${sessionRows}</ul>
<p><code>tradingAge</code> is the session time between the asset's newest accepted observation and now (the build instant, or the request instant for <code>${READYZ_PATH}</code>). Hours outside the sessions do not count, so Thursday's close is not old on Saturday, nor at 09:30 on Sunday.</p>
<ul>
<li><code>closed</code>: now is outside a session and <code>tradingAge</code> ≤ <code>FRESH_MAX</code> (${hours(M.FRESH_MAX_MS)});</li>
<li><code>fresh</code>: now is inside a session and <code>tradingAge</code> ≤ ${hours(M.FRESH_MAX_MS)};</li>
<li><code>delayed</code>: ${hours(M.FRESH_MAX_MS)} &lt; <code>tradingAge</code> ≤ <code>DELAYED_MAX</code> (${hours(M.DELAYED_MAX_MS)});</li>
<li><code>stale</code>: <code>tradingAge</code> above ${hours(M.DELAYED_MAX_MS)}, or nothing observed at all.</li>
</ul>
<p><code>freshness.stale</code> is true exactly when the state is <code>stale</code>. <code>${READYZ_PATH}</code> answers 503 when the published build is older than <code>BUILD_MAX_AGE</code> (${hours(M.BUILD_MAX_AGE_MS)} of wall-clock time) or any asset is stale at the request instant, and its body says which; otherwise 200.</p>

<h3 id="confidence">Confidence</h3>
<p><code>checks</code> is the number of distinct sources with at least one accepted quote for the asset on <code>asOf</code>. The level is <code>high</code> with 3 or more, <code>medium</code> with 2, <code>low</code> with 1 and <code>none</code> with 0. When two sources report the same seller on the same day with values more than <code>SOURCE_DISAGREE_PCT</code> (${pct(M.SOURCE_DISAGREE_PCT)}) apart — measured against the lower of the two — the level drops one step, never below <code>low</code> while there is a check, and the build report names the pair.</p>

<h2 id="sellers">Licensed sellers</h2>
<p>Only these sellers' quotes are accepted, each for the categories it is licensed in.</p>
<div class="wrap"><table><thead><tr><th scope="col">Seller</th><th scope="col">Arabic name</th><th scope="col">Kind</th><th scope="col">Licensed by</th><th scope="col">Categories</th></tr></thead>
<tbody>${sellerRows}</tbody></table></div>`;
  return page({ title: "Documentation · Price Feed API", path: DOCS_PATH, description: "How to use the Price Feed API and how every number in it is made.", body, ...simulatedBanner(ds.site) });
}
