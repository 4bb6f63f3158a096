/** The terms page (`_terms`): what the data is and is not, its licence, attribution and contact. */
import type { RenderContext } from "../../feed/site.js";
import { DOCS_PATH, FEED_PATH, TERMS_PATH } from "../../feed/paths.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { esc, page } from "./html.js";
import { simulatedBanner } from "./words.js";

export function renderTerms({ feed, input }: RenderContext): string {
  const site = input.dataset.site;
  const sources = input.dataset.sources.sources.filter((s) => s.enabled !== false);
  const body = `<h1>Terms of use</h1>
<h2 id="information-only">Information only</h2>
<p>${esc(feed._disclaimer)}</p>
<p>Everything here is information only, not financial advice. The rates are indicative: they are what licensed banks, exchange houses and gold dealers published or were seen to quote, collected at most about once an hour. A seller may deal at a different rate, and a rate may have changed since it was observed. Check with the seller before you deal. The verdict compares today's best rate with the recent past; it is a description, not a forecast and not a recommendation to buy, sell or wait.</p>
<p>The service is provided as is, without warranty of any kind, and may change or stop. Only licensed sellers are listed; being listed is not an endorsement.</p>
<h2 id="licence">Licence of the data</h2>
<p>${esc(feed._license)}</p>
<p>You may copy, redistribute and build on the data, commercially or not, provided you credit “Price Feed” with a link to this site and keep the attributions below.</p>
<h2 id="attribution">Attribution</h2>
<p>Official exchange rates are those of the <strong>Central Bank of Egypt</strong>, which asks to be cited as the source wherever its rates are redistributed: “Source: Central Bank of Egypt”. They appear in the feed as <code>benchmark</code> and in each series as <code>bench</code>.${site.simulated ? " In this simulated sample they are generated and only stand in for the bank's rates." : ""}</p>
<p>The sources this deployment reads:</p>
<ul>${sources.map((s) => `<li>${esc(s.name)} <span class="muted">(<code>${esc(s.id)}</code>)</span>${s.attribution ? ` — ${esc(s.attribution)}` : ""}</li>`).join("")}</ul>
<h2 id="fair-use">Fair use and limits</h2>
<p>No key and no sign-up. Each address may make ${WINDOW_LIMIT} requests per ${WINDOW_SECONDS} seconds and about ${DAILY_LIMIT} per day (the day ends at midnight Cairo time). The data changes at most about once an hour: poll <code>${FEED_PATH}</code> about every five minutes with <code>If-None-Match</code>, as the <a href="${DOCS_PATH}#conditional-requests">documentation</a> shows.</p>
<h2 id="contact">Contact</h2>
<p>If you use the feed in production or at volume, identify yourself: send an <code>X-Contact</code> request header with a URL or an e-mail address where we can reach you (or put it in your <code>User-Agent</code>). It is optional, it lets us warn you before a change, and anonymous heavy traffic is limited first.</p>
<h2 id="privacy">Privacy</h2>
<p>To enforce the limits, the service counts requests per client address for the current minute and the current Cairo day; the counters expire by themselves. No other personal data is kept, and there are no cookies.</p>`;
  return page({ title: "Terms of use · Price Feed", path: TERMS_PATH, description: "Information only, not financial advice; licence, attribution and contact.", body, ...simulatedBanner(site) });
}
