/**
 * Today's market, the site's home page: every asset with its best seller on each side, the verdict
 * in words, the official and global references, freshness and confidence, and the 30-day chart.
 * It shows the same numbers as /api/v1/feed.json of the same build, nothing computed anew.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Direction } from "../../schema/outputs.js";
import { FEED_PATH } from "../../feed/paths.js";
import { arabic, esc, num, page } from "./html.js";
import { seriesChart } from "./chart.js";
import { CONFIDENCE_LABELS, FRESHNESS_LABELS, VERDICT_LABELS, cairoTime, categoryTitle, simulatedBanner } from "./words.js";

function verdictTag(d: Direction): string {
  const fav = d.favorability === null ? "" : ` <span class="muted">(favorability ${d.favorability.toFixed(3)} over ${d.priorDays} days)</span>`;
  return `<span class="tag v-${d.verdict}">${esc(VERDICT_LABELS[d.verdict])}</span>${fav}`;
}

function best(d: Direction, decimals: number): string {
  if (!d.best || d.best.value === null) return `<span class="muted">no seller quotes this side</span>`;
  const who = [d.best.seller ? esc(d.best.seller) : "", arabic(d.best.sellerAr)].filter(Boolean).join(" · ");
  return `<strong>${num(d.best.value, decimals)}</strong> ${who}`;
}

function card(a: Asset): string {
  const d = a.decimals;
  const titleId = `chart-${a.slug}`;
  const reference = a.market === "reference";
  const rows = reference
    ? `<dt>Reference price</dt><dd><strong>${num(a.global?.value ?? a.series.at(-1)?.bench ?? null, d)}</strong> <span class="muted">(no licensed sellers: reference only)</span></dd>
<dt>Verdict</dt><dd>${verdictTag(a.directions[a.defaultSide])}</dd>`
    : `<dt>Best sell</dt><dd>${best(a.directions.sell, d)}<br>${verdictTag(a.directions.sell)}</dd>
<dt>Best buy</dt><dd>${best(a.directions.buy, d)}<br>${verdictTag(a.directions.buy)}</dd>`;
  return `<article class="card" id="${esc(a.slug)}" aria-labelledby="${esc(a.slug)}-h">
<h3 id="${esc(a.slug)}-h">${esc(a.name)} ${arabic(a.nameAr)}</h3>
<p class="muted">${esc(a.unit)} · ${esc(a.market)} market · as of ${esc(a.asOf)}</p>
<dl>
${rows}
<dt>Official (CBE)</dt><dd>${a.benchmark ? `buy ${num(a.benchmark.buy, d)} · sell ${num(a.benchmark.sell, d)}` : "—"}</dd>
<dt>Global mid</dt><dd>${num(a.global?.value, d)}</dd>
<dt>Freshness</dt><dd>${esc(FRESHNESS_LABELS[a.freshness.state])}${a.observedAt ? ` · last seen ${esc(cairoTime(a.observedAt))}` : ""}</dd>
<dt>Confidence</dt><dd>${esc(CONFIDENCE_LABELS[a.confidence.level])} · ${a.confidence.checks} source${a.confidence.checks === 1 ? "" : "s"}</dd>
</dl>
<h4 id="${titleId}">${esc(a.name)}: the last ${a.series.length} days</h4>
${seriesChart(a, titleId)}
<p class="legend"><span class="key sell"></span>sell range <span class="key buy"></span>buy range <span class="key bench"></span>official mid</p>
</article>`;
}

function summaryRow(a: Asset): string {
  const d = a.decimals;
  const side = (x: Direction) =>
    `<td class="n">${a.market === "reference" ? "—" : num(x.best?.value, d)}</td><td>${esc(VERDICT_LABELS[x.verdict])}</td>`;
  return `<tr><th scope="row"><a href="#${esc(a.slug)}">${esc(a.name)}</a> ${arabic(a.nameAr)}</th>${side(a.directions.sell)}${side(a.directions.buy)}<td class="n">${num(a.benchmark?.sell, d)}</td><td class="n">${num(a.global?.value, d)}</td><td>${esc(FRESHNESS_LABELS[a.freshness.state])}</td></tr>`;
}

export function renderHome({ feed, input }: RenderContext): string {
  const categories = [...new Set(feed.assets.map((a) => a.category))];
  const sections = categories
    .map((c) => {
      const assets = feed.assets.filter((a) => a.category === c);
      return `<section aria-labelledby="cat-${esc(c)}">
<h2 id="cat-${esc(c)}">${esc(categoryTitle(c))}</h2>
<div class="wrap"><table>
<caption class="muted">Best rates today, EGP per unit. Sell: what a customer pays (lower is better). Buy: what a customer receives (higher is better).</caption>
<thead><tr><th scope="col">Asset</th><th scope="col">Best sell</th><th scope="col">Sell verdict</th><th scope="col">Best buy</th><th scope="col">Buy verdict</th><th scope="col">Official sell</th><th scope="col">Global mid</th><th scope="col">Freshness</th></tr></thead>
<tbody>${assets.map(summaryRow).join("\n")}</tbody>
</table></div>
<div class="cards">${assets.map(card).join("\n")}</div>
</section>`;
    })
    .join("\n");
  const body = `<h1>Today's market</h1>
<p>${esc(feed._about)}</p>
<p>The verdict says how today's best rate compares with the recent past for the customer on that side; it never forecasts. The same data as JSON: <a href="${FEED_PATH}"><code>${FEED_PATH}</code></a>.</p>
${sections}`;
  return page({ title: "Today's market · Price Feed", path: "/", description: "Best licensed rates for currencies and gold in Egypt today, with the verdict and 30 days of history.", body, ...simulatedBanner(input.dataset.site) });
}
