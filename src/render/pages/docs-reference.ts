/**
 * The reference part of the docs page: the URL contract, every field, filters, conditional requests,
 * errors, limits, versioning and the changelog. Field tables are generated from the same JSON Schema
 * the OpenAPI description carries, so the page cannot drift from the code.
 */
import type { Dataset } from "../../core/dataset.js";
import * as M from "../../core/methodology.js";
import {
  CACHE_MAX_AGE_SECONDS,
  DAILY_LIMIT,
  MAX_PARAMS,
  MAX_URL_LENGTH,
  WINDOW_LIMIT,
  WINDOW_SECONDS,
} from "../../core/limits.js";
import {
  CHANGELOG_PATH,
  DAYS_PATH,
  DAYS_PREFIX,
  FEED_PATH,
  HISTORY_PREFIX,
  EVENTS_ASSET_PREFIX,
  EVENTS_ATOM_PATH,
  EVENTS_PATH,
  INDEX_PATH,
  OPENAPI_PATH,
  READYZ_PATH,
  TERMS_PATH,
  VARIANT_PATHS,
} from "../../feed/paths.js";
import { PROBLEM_TYPES, type ProblemSlug } from "../../core/http-contract.js";
import { anonymousWindow } from "../../feed/index-doc.js";
import { PUBLIC_SCHEMAS, componentSchemas } from "../openapi/schemas.js";
import type { Changelog } from "../../schema/documents.js";
import { arabic, html, join, type SafeHtml } from "./html.js";
import { SIDE_WORDS } from "./words.js";
import { homesOf } from "../../feed/homes.js";

type Schema = Record<string, unknown>;
/**
 * The schemas whose fields the docs page tables: every public one but the documents that have a
 * section of their own (the index, the changelog, readiness, source health), so that a schema added
 * to the OpenAPI gets its table (and a link to it resolves) without a second list to keep.
 */
const OWN_SECTION = new Set(["Index", "Changelog", "Readiness", "SourceHealth", "SourceStatus"]);
const FIELD_SCHEMAS = PUBLIC_SCHEMAS.filter((n) => !OWN_SECTION.has(n));

const refName = (s: Schema) => (typeof s["$ref"] === "string" ? (s["$ref"] as string).split("/").pop()! : null);

/** A readable type for a JSON Schema: links for named schemas, "or null", enums and arrays. */
function typeOf(s: Schema): SafeHtml {
  const named = refName(s);
  if (named) return html`<a href="#schema-${named}">${named}</a>`;
  if (Array.isArray(s["anyOf"])) return join((s["anyOf"] as Schema[]).map(typeOf), " or ");
  if (s["const"] !== undefined) return html`<code>${JSON.stringify(s["const"])}</code>`;
  if (Array.isArray(s["enum"]))
    return join(
      (s["enum"] as unknown[]).map((v) => html`<code>${JSON.stringify(v)}</code>`),
      " | ",
    );
  if (s["type"] === "array") return html`array of ${typeOf((s["items"] as Schema) ?? {})}`;
  if (s["type"] === "object" && s["properties"]) return html`object (below)`;
  if (s["type"] === "object") return html`object`;
  return html`${String(s["type"] ?? "any")}`;
}

/** Rows for an object's properties; nested anonymous objects are listed as `parent.child`. */
function fieldRows(s: Schema, prefix: string, all: Record<string, Schema>): SafeHtml[] {
  const props = (s["properties"] ?? {}) as Record<string, Schema>;
  const required = new Set((s["required"] ?? []) as string[]);
  return Object.entries(props).flatMap(([name, p]) => {
    const full = `${prefix}${name}`;
    const inner = Array.isArray(p["anyOf"])
      ? ((p["anyOf"] as Schema[]).find((x) => x["type"] === "object" && x["properties"]) ?? p)
      : p;
    const named =
      refName(p) ?? (Array.isArray(p["anyOf"]) ? (p["anyOf"] as Schema[]).map(refName).find(Boolean) : null);
    const desc = (p["description"] ??
      inner["description"] ??
      (named ? all[named]?.["description"] : undefined) ??
      "") as string;
    const optional = required.has(name) ? "" : html` <span class="muted">(optional)</span>`;
    const row = html`<tr><td><code>${full}</code>${optional}</td><td>${typeOf(p)}</td><td>${desc}</td></tr>`;
    return inner !== p || (p["type"] === "object" && p["properties"])
      ? [row, ...fieldRows(inner, `${full}.`, all)]
      : [row];
  });
}

function fieldTables(): SafeHtml {
  const all = componentSchemas();
  const table = (name: string) => {
    const s = all[name]!;
    return html`<h3 id="schema-${name}">${name}</h3>
<p>${(s["description"] as string) ?? ""}</p>
<div class="wrap"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>${join(fieldRows(s, "", all), "\n")}</tbody></table></div>`;
  };
  return join(FIELD_SCHEMAS.map(table), "\n");
}

function changelogHtml(c: Changelog): SafeHtml {
  const version = (v: Changelog["versions"][number]) => {
    const kinds = Object.entries(v.changes).map(
      ([kind, items]) =>
        html`<h4>${kind.charAt(0).toUpperCase() + kind.slice(1)}</h4><ul>${(items ?? []).map((i) => html`<li>${i}</li>`)}</ul>`,
    );
    return html`<h3 id="v${v.version}">${v.version} <span class="muted">(${v.date})</span></h3><p>${v.summary}</p>${kinds}`;
  };
  return join(c.versions.map(version), "\n");
}

/** The homes site.json names (src/feed/homes.ts), said on the docs page; nothing when there is no mirror. */
function mirrorLine(ds: Dataset): SafeHtml | "" {
  const { primary, mirror } = homesOf(ds.site);
  return mirror
    ? html` This API's homes: ${primary ? html`the primary <code>${primary}</code> and ` : ""}the mirror <code>${mirror}</code>.`
    : "";
}

/** Everything after the one-minute start: `base` is the deployment's base URL, for the shell examples. */
export function referenceSections(ds: Dataset, changelog: Changelog, base: string): SafeHtml {
  const categories = [...new Set(ds.catalog.map((a) => a.category))];
  const problemRows = (Object.keys(PROBLEM_TYPES) as ProblemSlug[]).map((slug) => {
    const p = PROBLEM_TYPES[slug];
    return html`<tr id="problem-${slug}"><td>${p.status}</td><td><code>/docs/#problem-${slug}</code></td><td>${p.title}</td><td>${p.when}</td><td>${p.fix}</td></tr>`;
  });
  const assetRows = ds.catalog.map(
    (a) =>
      html`<tr><td><code>${a.slug}</code></td><td><code>${a.id}</code></td><td>${a.name} ${arabic(a.nameAr)}</td><td>${a.category}</td><td>${a.market}</td><td>${a.unit}</td></tr>`,
  );
  const categoryCodes = join(
    categories.map((c) => html`<code>${c}</code>`),
    ", ",
  );
  const categoryStrings = join(
    categories.map((c) => html`"${c}"`),
    ",",
  );
  // The index and /readyz are named, not linked: only the edge function answers them at those
  // paths, and the same page is also served from a static mirror, under a prefix (docs/pages.md).
  return html`<h2 id="endpoints">The URL contract</h2>
<p>All paths answer <code>GET</code> (and <code>HEAD</code>, and <code>OPTIONS</code> as a CORS preflight) and need no authentication.</p>
<div class="wrap"><table><thead><tr><th scope="col">Path</th><th scope="col">What it returns</th></tr></thead><tbody>
<tr><td><a href="${FEED_PATH}"><code>${FEED_PATH}</code></a></td><td>The feed: every asset, or the subset chosen by <code>?category=</code> and <code>?asset=</code>.</td></tr>
<tr><td><code>${INDEX_PATH}</code></td><td>The index: endpoints, the values the filters accept, the limits, links.</td></tr>
<tr><td><a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a></td><td>The OpenAPI 3.1 description of every path, field, header and response, usable to generate a client.</td></tr>
<tr><td><a href="${CHANGELOG_PATH}"><code>${CHANGELOG_PATH}</code></a></td><td>The changelog, one entry per release.</td></tr>
<tr><td><code>${READYZ_PATH}</code></td><td>200 when the data is fresh, 503 when it is not, with the reasons. For monitors.</td></tr>
</tbody></table></div>
<p>Every feed carries links: <code>_self</code> (the exact request), <code>_docs</code> (this page), <code>_spec</code>, <code>_changelog</code> and <code>_terms</code> (<a href="${TERMS_PATH}">the terms</a>).</p>

<h2 id="fields">Fields</h2>
<p>The feed is one <a href="#schema-Feed">Feed</a> object. Keys are in sorted order; numbers are already rounded to the asset's <code>decimals</code>. Rates are EGP per unit of the asset (per gram for gold). <strong>Sell</strong> is what a customer pays the seller: lower is better (the pages say “${SIDE_WORDS.sell[0]}”). <strong>Buy</strong> is what a customer receives from the seller: higher is better (“${SIDE_WORDS.buy[0]}”). Clients must ignore fields they do not know: new ones are added without notice. Verdicts are codes for the client to put in its own words; this site says each as what it means for the reader's side (the <a href="#glossary">glossary</a> lists them).</p>
${fieldTables()}

<h2 id="filters">Filters</h2>
<p><code>?category=</code> takes category slugs, <code>?asset=</code> asset slugs or ids; both take several values separated by commas, in any letter case. With both, an asset must match both (the intersection). Assets come back in catalog order whatever the order asked. An unknown value answers 400 with the accepted values in <code>validCategories</code> or <code>validAssets</code>.</p>
<pre class="cmd"><code>curl -s '${base}${FEED_PATH}?asset=${[ds.catalog[0]!.slug, ds.catalog[1]?.id].filter(Boolean).join(",")}'
curl -s '${base}${FEED_PATH}?category=${categories.at(-1)!}'</code></pre>
<p id="mirror">On the mirror (the index's <code>homes</code>: the same files on a static host), the query string is not read: one value is its pre-filtered file, named in every feed's <code>_variants</code>. The examples above are there <code>${VARIANT_PATHS.asset.replace("{slug}", ds.catalog[0]!.slug)}</code> and <code>${VARIANT_PATHS.asset.replace("{slug}", ds.catalog[1]?.slug ?? ds.catalog[0]!.slug)}</code> (or the whole feed, filtered by you), and <code>${VARIANT_PATHS.category.replace("{slug}", categories.at(-1)!)}</code>. The documents' links (<code>_self</code>, <code>_spec</code>) are root-relative: on a host that serves the site under a prefix, put its base URL, prefix included, before them.${mirrorLine(ds)}</p>
<p>Categories: ${categoryCodes}.</p>
<div class="wrap"><table><thead><tr><th scope="col">Slug</th><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Category</th><th scope="col">Market</th><th scope="col">Unit</th></tr></thead>
<tbody>${join(assetRows, "\n")}</tbody></table></div>

<h2 id="archive">The archive</h2>
<p>Every day the feed has seen stays readable (the rulebook's §5.5). By asset: <code>${HISTORY_PREFIX}{asset}.json</code> has one entry per day since the data begins, each the day's series entry plus who gave the best of each side (<code>bestSell</code>, <code>bestBuy</code>), that day's <code>official</code> and <code>global</code> references and <code>sellerCount</code>; its last ${M.SERIES_WINDOW_DAYS} entries are the feed's <code>series</code>. <code>{asset}</code> is a slug or an id in any letter case, as for <code>?asset=</code>. The same rows come as CSV (RFC 4180, one header line, empty cells for null). <code>?from=</code> and <code>?to=</code> (inclusive Cairo dates, <code>YYYY-MM-DD</code>, either may be left out) narrow both; a narrowed answer has its own ETag. A bad date or <code>from</code> after <code>to</code> answers 400 <a href="#problem-invalid-date"><code>invalid-date</code></a> naming the <code>parameter</code>; an unknown asset 404 <a href="#problem-unknown-asset-path"><code>unknown-asset-path</code></a> with <code>validAssets</code>.</p>
<pre class="cmd"><code>curl -s '${base}${HISTORY_PREFIX}${ds.catalog[0]!.slug}.json'
curl -s '${base}${HISTORY_PREFIX}${ds.catalog[0]!.id}.json?from=2026-11-01&amp;to=2026-11-19'
curl -s '${base}${HISTORY_PREFIX}${ds.catalog[0]!.slug}.csv?from=2026-11-01'</code></pre>
<p>By day: <code>${DAYS_PREFIX}{date}.json</code> is the whole market as it closed on that Cairo date, each asset's archive entry and every seller's close, sorted as the feed's <code>sellers</code>; <code>${DAYS_PATH}</code> lists the dates there are, with their day of the week. A date without data answers 404 <a href="#problem-no-such-day"><code>no-such-day</code></a> naming the nearest <code>earlier</code> and <code>later</code> dates. A day before today is written once and changes only when its inputs do; today's entries are provisional until the day ends.</p>
<pre class="cmd"><code>curl -s '${base}${DAYS_PATH}'
curl -s '${base}${DAYS_PREFIX}2026-11-19.json'</code></pre>

<h2 id="what-changed">What changed</h2>
<p>Each hourly build compares what it publishes with the build before and keeps what changed as events (the rulebook's §12): another seller giving a side's best, a side's verdict, the official rate, an asset turning stale or back, its confidence level, a source starting to fail or recovering. <code>${EVENTS_PATH}</code> lists the last ${M.EVENTS_RETENTION_DAYS} days' events, newest first, each with a stable <code>id</code>, the build's Cairo <code>date</code> and UTC <code>at</code>, the <code>asset</code> or <code>source</code>, the <code>kind</code> and the values <code>before</code> and <code>after</code>; <code>${EVENTS_ATOM_PATH}</code> is the same as an Atom feed for feed readers, and <code>${EVENTS_ASSET_PREFIX}{slug}.json</code> and <code>.atom</code> hold one asset's. Poll them with <code>If-None-Match</code>: an hour without a change keeps the ETag.</p>
<pre class="cmd"><code>curl -s '${base}${EVENTS_PATH}'
curl -s '${base}${EVENTS_ASSET_PREFIX}${ds.catalog[0]!.slug}.atom'</code></pre>

<h2 id="conditional-requests">Conditional requests</h2>
<p>Every answer carries a strong <code>ETag</code> and a <code>Last-Modified</code>. The ETag hashes the body without <code>generatedAt</code>, so an hourly rebuild of unchanged data keeps it. Send it back as <code>If-None-Match</code> and an unchanged feed answers <code>304 Not Modified</code> with no body (a 304 costs a request of your allowance, but no bandwidth). <code>If-None-Match</code> takes precedence over <code>If-Modified-Since</code> (RFC 9110 §13.2.2). Answers may be cached for ${CACHE_MAX_AGE_SECONDS} seconds (<code>Cache-Control: public, max-age=${CACHE_MAX_AGE_SECONDS}</code>); errors are <code>no-store</code>.</p>
<pre class="cmd"><code>curl -si '${base}${FEED_PATH}' | grep -i etag
# etag: "…"
curl -si '${base}${FEED_PATH}' -H 'If-None-Match: "…"'
# 304 Not Modified, no body</code></pre>
<pre><code>let etag = null, feed = null;
async function poll() {
  const res = await fetch("${base}${FEED_PATH}", { headers: etag ? { "If-None-Match": etag } : {} });
  if (res.status === 304) return feed;            // unchanged: keep the copy you have
  if (!res.ok) throw new Error((await res.json()).detail);
  etag = res.headers.get("ETag");
  return (feed = await res.json());
}
setInterval(poll, 5 * 60 * 1000);                 // about every five minutes is enough</code></pre>
<p>In a browser, <code>fetch(url, { cache: "no-cache" })</code> does the same: the browser revalidates its cached copy with <code>If-None-Match</code> and reuses it on a 304.</p>
<p>The other two preconditions of RFC 9110 are honoured as well, in the order of §13.2.2: <code>If-Match</code> first (strong comparison, §13.1.1: a weak tag <code>W/"…"</code> never matches; <code>*</code> matches the current representation), then, only without it, <code>If-Unmodified-Since</code> (§13.1.4: an invalid date is ignored); then <code>If-None-Match</code>, then <code>If-Modified-Since</code>. A false <code>If-Match</code> or <code>If-Unmodified-Since</code> answers <code>412 Precondition Failed</code>, a <a href="#problem-precondition-failed"><code>precondition-failed</code></a> problem carrying the <code>ETag</code> and <code>Last-Modified</code> of the current representation: use it to make sure the copy you have is still the one served.</p>
<pre class="cmd"><code>curl -si '${base}${FEED_PATH}' -H 'If-Match: "…"'
# 200 while the feed is still that version; 412 Precondition Failed once it has changed</code></pre>

<h2 id="errors">Errors</h2>
<p>Errors are <code>application/problem+json</code> documents (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, a short <code>error</code> and the fields that fix the call. A successful answer never carries an error, and no answer carries a stack trace.</p>
<pre><code>{"type":"/docs/#problem-unknown-category","title":"Unknown category","status":400,
 "detail":"The category filter has unknown category \\"crypto\\". Use one of: ${categories.join(", ")}.",
 "error":"unknown category \\"crypto\\"","instance":"${FEED_PATH}","validCategories":[${categoryStrings}]}</code></pre>
<div class="wrap"><table><thead><tr><th scope="col">Status</th><th scope="col"><code>type</code></th><th scope="col">Title</th><th scope="col">When</th><th scope="col">What to do</th></tr></thead>
<tbody>${join(problemRows, "\n")}</tbody></table></div>
<p><code>${READYZ_PATH}</code> answers 503 with its own body (not a problem document) when the data is not fresh; retry later.</p>

<h2 id="limits">Limits</h2>
<ul>
<li><strong>Burst</strong>: ${WINDOW_LIMIT} requests per ${WINDOW_SECONDS}-second window per address; beyond it, 429 <a href="#problem-rate-limited"><code>rate-limited</code></a> with <code>Retry-After</code>.</li>
<li><strong>Daily allowance</strong>: ${DAILY_LIMIT} requests per address per day, reset at midnight Africa/Cairo; beyond it, 429 <a href="#problem-daily-limit"><code>daily-limit</code></a> with <code>Retry-After</code> until midnight.</li>
<li><strong>Requests</strong>: targets up to ${MAX_URL_LENGTH} characters, at most ${MAX_PARAMS} query parameters.</li>
<li><strong>History</strong>: ${M.SERIES_WINDOW_DAYS} days per asset (<code>seriesWindowDays</code>); the verdict looks back up to ${M.LOOKBACK_DAYS} days.</li>
<li><strong>Change rate</strong>: the data changes at most about once an hour; polling about every five minutes is enough.</li>
</ul>
<p>Every answer says where you stand: <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code>, <code>RateLimit-Reset</code> (seconds), <code>RateLimit-Policy</code> (<code>${WINDOW_LIMIT};w=${WINDOW_SECONDS}</code>), <code>Daily-Limit</code>, <code>Daily-Used</code> and <code>Daily-Reset</code> (seconds to Cairo midnight). Browsers can read them all (<code>Access-Control-Expose-Headers</code>). The health check (<code>${READYZ_PATH}</code>) and CORS preflights (<code>OPTIONS</code>) are answered without spending your allowance, and a refused request (429) does not count as used.</p>
<h3 id="anonymous-when-busy">Heavy anonymous traffic is limited first</h3>
<p>While total traffic is ordinary, every caller gets the limits above. When the total rate across all addresses passes the threshold the operator sets, anonymous callers are limited first, to ${anonymousWindow(WINDOW_LIMIT)} requests per ${WINDOW_SECONDS} s (a quarter of the burst): their <code>RateLimit-Limit</code> and <code>RateLimit-Policy</code> (<code>${anonymousWindow(WINDOW_LIMIT)};w=${WINDOW_SECONDS};comment="…"</code>) say so, and their 429 <a href="#problem-rate-limited"><code>rate-limited</code></a> problem says how to identify themselves. A caller that identifies itself keeps the full ${WINDOW_LIMIT} per ${WINDOW_SECONDS} s: put a URL or an e-mail address in an <code>X-Contact</code> header, or in <code>User-Agent</code>. If you run the feed in production, do.</p>
<pre class="cmd"><code>curl -s '${base}${FEED_PATH}' -H 'X-Contact: you@your-app.example'
curl -s '${base}${FEED_PATH}' -A 'your-app/1.0 (+https://your-app.example/contact)'</code></pre>

<h2 id="versioning">Versioning and changelog</h2>
<p>The version is in the path: <code>/api/v1</code> is stable. Fields and filters are added backwards-compatibly. A breaking change ships as <code>/api/v2</code> beside v1, announced in the changelog; v1 then answers with <code>Deprecation</code> and <code>Sunset</code> headers and stays available for a migration period. The body's <code>schemaVersion</code> is 1 and the OpenAPI description's version is 1.0.</p>
${changelogHtml(changelog)}`;
}
