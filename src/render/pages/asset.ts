/**
 * One asset's page (/assets/<slug>/ and /ar/assets/<slug>/): the best price on each side with its
 * move since the previous close and its verdict in plain words, every licensed seller's prices, the
 * official and global references beside them, what common amounts come to, and the charts by
 * period. The numbers are those of the feed and the archive of the same build, nothing anew.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Direction } from "../../schema/outputs.js";
import { assetPagePath, files, localized, urlOf, type PageLang } from "../../feed/paths.js";
import type { SourceConfig } from "../../schema/sources.js";
import { html, join, nameIn, nameText, otherName, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { cairoClock, cairoDay, longDate, price } from "./format.js";
import { CARD, cardAlt, cardPath } from "./card-image.js";
import { sellerTable } from "./sellers.js";
import { changeMark } from "./change.js";
import { converter } from "./converter.js";
import { amountScriptTag } from "./amount-script.js";
import { periodCharts } from "./periods.js";
import { goldNote, ounceReference } from "./gold.js";
import { eventsSection } from "./events.js";
import { bestSellerId, sellerIndex, sellerLink } from "./seller-links.js";
import { usuallyBestSection } from "./usually-best.js";
import {
  confidenceWords,
  freshnessWords,
  lastUpdated,
  marketNote,
  pricesOf,
  sideHint,
  sideLabel,
  signalSentences,
  simulatedBanner,
  unitWords,
  verdictSentence,
} from "./words.js";
import { ASSET_WORDS } from "./asset-words.js";

type Side = "sell" | "buy";

function sideBox(a: Asset, side: Side, lang: PageLang, pages: ReadonlySet<string>): SafeHtml {
  const d: Direction = a.directions[side];
  const id = `side-${side}`;
  const w = ASSET_WORDS[lang];
  const who = d.best?.seller
    ? html`<p>${sellerLink(pages, bestSellerId(a, side), nameIn(lang, d.best.seller, d.best.sellerAr), lang)} <span class="muted">— ${sideHint(side, lang)}</span></p>`
    : "";
  const since = (p: NonNullable<Direction["previous"]>) =>
    w.since(longDate(p.date, lang), price(p.value, a.decimals, lang));
  const moved = d.previous
    ? html`<p class="moved">${changeMark(d.previous.change, a.decimals, lang, { pct: d.previous.changePct, side })} <span class="since">${since(d.previous)}</span></p>`
    : "";
  const signals = signalSentences(d, lang);
  return html`<section class="side" aria-labelledby="${id}">
<h2 id="${id}">${sideLabel(side, lang)}</h2>
<p class="big">${price(d.best?.value, a.decimals, lang)}</p>${moved}${d.best?.value == null ? html`<p class="muted">${w.noQuotes}</p>` : who}
<p class="verdict">${verdictSentence(d, side, lang)}</p>
${signals.length ? html`<ul>${signals.map((x) => html`<li>${x}</li>`)}</ul>` : ""}
</section>`;
}

function referenceBox(a: Asset, lang: PageLang): SafeHtml {
  const d = a.directions[a.defaultSide];
  const v = a.global?.value ?? a.series.at(-1)?.bench ?? null;
  return html`<section class="side" aria-labelledby="side-ref">
<h2 id="side-ref">${ASSET_WORDS[lang].reference}</h2>
<p class="big">${price(v, a.decimals, lang)}</p>
<p class="verdict">${verdictSentence(d, a.defaultSide, lang)}</p>
</section>`;
}

function references(a: Asset, lang: PageLang, ounce: ReturnType<typeof ounceReference>): SafeHtml {
  const w = ASSET_WORDS[lang];
  const p = (v: number | null | undefined) => price(v, a.decimals, lang);
  const official = a.benchmark
    ? html`${sideLabel("sell", lang)} <b>${p(a.benchmark.sell)}</b> · ${sideLabel("buy", lang)} <b>${p(a.benchmark.buy)}</b>`
    : w.noOfficial;
  return html`<section class="side refs" aria-labelledby="refs-h">
<h2 id="refs-h">${w.references}</h2>
<dl>
<dt>${w.official}</dt><dd>${official}</dd>
<dt>${w.global}</dt><dd>${p(a.global?.value)}</dd>
${ounce ? html`<dt>${ounce.term}</dt><dd>${ounce.value}</dd>` : ""}
</dl>
<p class="note">${w.referencesNote}</p>
</section>`;
}

/**
 * The quotes of sources still on probation (docs/methodology.md "New sources: probation"), apart and
 * in plain words: what each said, and whether our checks passed it. They are in nothing above.
 */
function probationSection(
  a: Asset,
  lang: PageLang,
  sourceNames: ReadonlyMap<string, SafeHtml | "">,
  sellerPages: ReadonlySet<string>,
): SafeHtml | "" {
  const rows = a.probation ?? [];
  if (!rows.length) return "";
  const w = ASSET_WORDS[lang];
  const refusals: Readonly<Record<string, string>> = w.refusal;
  const verdict = (r: (typeof rows)[number]) => {
    if (r.passed) return w.passed;
    const words = r.reason && Object.hasOwn(refusals, r.reason) ? refusals[r.reason] : undefined;
    return html`${w.refused}: ${words ?? html`<bdi dir="ltr"><code>${r.reason ?? ""}</code></bdi>`}`;
  };
  const body = rows.map(
    (r) =>
      html`<tr><th scope="row">${sellerLink(sellerPages, r.id, nameIn(lang, r.seller, r.sellerAr ?? undefined), lang)}</th><td data-label="${w.source}">${sourceNames.get(r.source) || r.source}</td><td data-label="${sideLabel("sell", lang)}">${price(r.sell, a.decimals, lang)}</td><td data-label="${sideLabel("buy", lang)}">${price(r.buy, a.decimals, lang)}</td><td data-label="${w.result}">${verdict(r)}</td></tr>`,
  );
  return html`<section aria-labelledby="probation-h"><h2 id="probation-h">${w.probation}</h2>
<p class="muted">${w.probationLead}</p>
<table class="sellers probation"><thead><tr><th scope="col">${w.seller}</th><th scope="col">${w.source}</th><th scope="col">${sideLabel("sell", lang)}</th><th scope="col">${sideLabel("buy", lang)}</th><th scope="col">${w.result}</th></tr></thead>
<tbody>${join(body, "\n")}</tbody></table></section>`;
}

export function renderAssetPage(ctx: RenderContext, a: Asset, lang: PageLang): string {
  const { feed, input } = ctx;
  const w = ASSET_WORDS[lang];
  const sourceNames = sourceNamesIn(input.dataset.sources.sources, lang);
  const records = sellerIndex(ctx);
  const title = nameText(lang, a.name, a.nameAr);
  const twinName = otherName(lang, a.name, a.nameAr);
  const note = marketNote(a, lang);
  const sellers =
    a.market === "reference"
      ? ""
      : html`<section aria-labelledby="sellers-h"><h2 id="sellers-h">${w.everySeller(a.sellers.length)}</h2>
${a.sellers.length ? sellerTable(a, { lang, sourceNames, sellerPages: records.pages }) : html`<p class="muted">${w.noSeller}</p>`}</section>`;
  const body = html`<p class="crumbs"><a href="${localized("/", lang)}">${w.prices}</a> › ${title}</p>
<h1>${title} ${twinName}</h1>
<p class="lead">${pricesOf(a, feed, lang)} · ${unitWords(a, lang)}${note ? ` · ${note}` : ""}</p>
<p class="status"><strong>${freshnessWords(a, lang)}</strong> · ${lastUpdated(a, feed, lang)} · ${confidenceWords(a, lang)}</p>
${shareLink(a, lang, input.dataset.site.baseUrl)}
<div class="sides">${a.market === "reference" ? referenceBox(a, lang) : [sideBox(a, "sell", lang, records.pages), sideBox(a, "buy", lang, records.pages)]}${references(a, lang, a.kind === "metal" ? ounceReference(feed, input.dataset.sources.sources, lang) : null)}</div>
${goldNote([a], lang, { selling: true })}
${sellers}
${probationSection(a, lang, sourceNames, records.pages)}
${usuallyBestSection(a, records, lang)}
${converter(a, lang)}
${eventsSection(ctx, lang, a.slug)}
${periodCharts(ctx, a, lang)}
<p class="note">${w.pastNote}</p>
<p class="note">${w.json} <a href="${urlOf(files.asset(a.slug))}" dir="ltr"><code>${urlOf(files.asset(a.slug))}</code></a></p>`;
  return page({
    lang,
    path: assetPagePath(a.slug),
    title: w.title(title),
    description: w.description(title),
    body,
    baseUrl: input.dataset.site.baseUrl,
    head: amountScriptTag(),
    feed: {
      path: urlOf(files.assetEventsAtom(a.slug)),
      title: w.feedTitle(title),
    },
    image: { path: cardPath(a.slug), alt: cardAlt(a, lang), ...CARD },
    // A saved copy's banner counts the age of this asset's price (app.ts).
    pricesAt: a.observedAt,
    ...simulatedBanner(input.dataset.site, lang),
  });
}

/**
 * A WhatsApp share link (wa.me, its "click to chat" link with a text and no number: the reader picks
 * the chat): the best price on each side, the day and time, and the page's address, percent-encoded.
 * The address needs the site's base URL; without one the text goes without it.
 */
export function shareText(a: Asset, lang: PageLang, baseUrl: string | undefined): string {
  const w = ASSET_WORDS[lang];
  const name = nameText(lang, a.name, a.nameAr);
  const side = (s: Side) => `${sideLabel(s, lang)} ${price(a.directions[s].best?.value, a.decimals, lang)} ${w.egp}`;
  const prices =
    a.market === "reference"
      ? `${w.referencePrice} ${price(a.global?.value, a.decimals, lang)} ${w.egp}`
      : `${side("sell")}${w.comma}${side("buy")}`;
  const when = a.observedAt
    ? ` (${longDate(cairoDay(a.observedAt), lang)}${w.comma}${cairoClock(a.observedAt, lang)} ${w.cairoTime})`
    : "";
  const url = baseUrl ? ` ${baseUrl.replace(/\/+$/, "")}${localized(assetPagePath(a.slug), lang)}` : "";
  return `${name}: ${prices}${when}.${url}`;
}

function shareLink(a: Asset, lang: PageLang, baseUrl: string | undefined): SafeHtml {
  const href = `https://wa.me/?text=${encodeURIComponent(shareText(a, lang, baseUrl))}`;
  return html`<p class="share"><a href="${href}">${ASSET_WORDS[lang].share}</a></p>`;
}

/** Each source's name as HTML in the page's language: its Arabic name where it has one, else the English marked as such. */
function sourceNamesIn(sources: readonly SourceConfig[], lang: PageLang): Map<string, SafeHtml | ""> {
  return new Map(sources.map((s) => [s.id, nameIn(lang, s.name, s.nameAr)]));
}
