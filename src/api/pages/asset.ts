/**
 * One asset's page (/assets/<slug>/ and /ar/assets/<slug>/): the best price on each side with its
 * verdict in plain words, every licensed seller's prices, the official and global references beside
 * them, and the 30-day chart. The numbers are those of the feed of the same build, nothing anew.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Direction } from "../../schema/outputs.js";
import { assetPagePath, files, localized, urlOf, type PageLang } from "../../feed/paths.js";
import { arabic, english, esc, nameIn, page } from "./html.js";
import { price, westernDigits } from "./format.js";
import { chartLegend, chartTable, seriesChart } from "./chart.js";
import { sellerTable } from "./sellers.js";
import { eventsSection } from "./events.js";
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

type Side = "sell" | "buy";

function sideBox(a: Asset, side: Side, lang: PageLang): string {
  const d: Direction = a.directions[side];
  const id = `side-${side}`;
  const ar = lang === "ar";
  const who = d.best?.seller
    ? `<p>${nameIn(lang, d.best.seller, d.best.sellerAr)} <span class="muted">— ${esc(sideHint(side, lang))}</span></p>`
    : "";
  const signals = signalSentences(d, lang);
  return `<section class="side" aria-labelledby="${id}">
<h2 id="${id}">${esc(sideLabel(side, lang))}</h2>
<p class="big">${price(d.best?.value, a.decimals, lang)}</p>${d.best?.value == null ? `<p class="muted">${ar ? "لا توجد أسعار لهذا الجانب." : "No seller quotes this side."}</p>` : who}
<p class="verdict">${esc(verdictSentence(d, side, lang))}</p>
${signals.length ? `<ul>${signals.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>` : ""}
</section>`;
}

function referenceBox(a: Asset, lang: PageLang): string {
  const d = a.directions[a.defaultSide];
  const ar = lang === "ar";
  const v = a.global?.value ?? a.series.at(-1)?.bench ?? null;
  return `<section class="side" aria-labelledby="side-ref">
<h2 id="side-ref">${ar ? "السعر المرجعي" : "Reference price"}</h2>
<p class="big">${price(v, a.decimals, lang)}</p>
<p class="verdict">${esc(verdictSentence(d, a.defaultSide, lang))}</p>
</section>`;
}

function references(a: Asset, lang: PageLang): string {
  const ar = lang === "ar";
  const p = (v: number | null | undefined) => price(v, a.decimals, lang);
  const official = a.benchmark
    ? `${ar ? "شراء" : "buy"} <b>${p(a.benchmark.buy)}</b> · ${ar ? "بيع" : "sell"} <b>${p(a.benchmark.sell)}</b>`
    : ar
      ? "لا يوجد سعر رسمي لهذا الأصل"
      : "none for this asset";
  return `<section class="side refs" aria-labelledby="refs-h">
<h2 id="refs-h">${ar ? "أسعار مرجعية" : "References"}</h2>
<dl>
<dt>${ar ? "السعر الرسمي للبنك المركزي المصري" : "Central Bank of Egypt official rate"}</dt><dd>${official}</dd>
<dt>${ar ? "السعر العالمي (متوسط السوق)" : "Global mid-market rate"}</dt><dd>${p(a.global?.value)}</dd>
</dl>
<p class="note">${ar ? "للمقارنة فقط: ليست أسعارًا تتعامل بها لدى الجهات." : "For comparison only: not prices you can deal at with a seller."}</p>
</section>`;
}

export function renderAssetPage(ctx: RenderContext, a: Asset, lang: PageLang): string {
  const { feed, input } = ctx;
  const ar = lang === "ar";
  const sourceNames = new Map(input.dataset.sources.sources.map((s) => [s.id, s.name]));
  const nameAr = westernDigits(a.nameAr);
  const title = ar ? nameAr : a.name;
  const twinName = ar ? english(a.name) : arabic(a.nameAr);
  const note = marketNote(a, lang);
  const chartId = "chart-h";
  const sellers =
    a.market === "reference"
      ? ""
      : `<section aria-labelledby="sellers-h"><h2 id="sellers-h">${ar ? `كل الجهات المرخصة (${a.sellers.length})` : `Every licensed seller (${a.sellers.length})`}</h2>
${a.sellers.length ? sellerTable(a, { lang, sourceNames }) : `<p class="muted">${ar ? "لم تسعّره أي جهة في هذا اليوم." : "No seller quoted it on this day."}</p>`}</section>`;
  const body = `<p class="crumbs"><a href="${localized("/", lang)}">${ar ? "الأسعار" : "Prices"}</a> › ${esc(title)}</p>
<h1>${esc(title)} ${twinName}</h1>
<p class="lead">${esc(pricesOf(a, feed, lang))} · ${esc(unitWords(a, lang))}${note ? ` · ${esc(note)}` : ""}</p>
<p class="status"><strong>${esc(freshnessWords(a, lang))}</strong> · ${esc(lastUpdated(a, feed, lang))} · ${esc(confidenceWords(a, lang))}</p>
<div class="sides">${a.market === "reference" ? referenceBox(a, lang) : `${sideBox(a, "sell", lang)}${sideBox(a, "buy", lang)}`}${references(a, lang)}</div>
${sellers}
${eventsSection(ctx, lang, a.slug)}
<section aria-labelledby="${chartId}">
<h2 id="${chartId}">${ar ? `آخر ${a.series.length} يوم تداول` : `The last ${a.series.length} trading days`}</h2>
${a.series.length ? `${seriesChart(a, chartId, "wide", lang)}${seriesChart(a, chartId, "narrow", lang)}${chartLegend(a, lang)}${chartTable(a, lang)}` : `<p class="muted">${ar ? "لا يوجد تاريخ بعد." : "No history yet."}</p>`}
<p class="note">${ar ? "نزّل التاريخ الكامل، كل يوم منذ بداية البيانات:" : "Download the full history, every day since the data begins:"} <a href="${urlOf(files.history(a.slug))}" type="application/json" dir="ltr">JSON</a> · <a href="${urlOf(files.historyCsv(a.slug))}" type="text/csv" download="${a.slug}.csv" dir="ltr">CSV</a></p>
</section>
<p class="note">${
    ar
      ? "المقارنة بالأيام السابقة تصف ما سُجّل في الماضي، وليست توقعًا لما سيحدث. وكل يوم كان سعره مساويًا يُحسب نصف يوم."
      : "The comparison with earlier days describes the recorded past; it is not a forecast. A day with the same price counts as half."
  }</p>
<p class="note">${ar ? "البيانات نفسها بصيغة JSON:" : "The same data as JSON:"} <a href="${urlOf(files.asset(a.slug))}" dir="ltr"><code>${urlOf(files.asset(a.slug))}</code></a></p>`;
  return page({
    lang,
    path: assetPagePath(a.slug),
    title: ar
      ? `${nameAr}: أسعار كل الجهات المرخصة · Price Feed`
      : `${a.name}: every licensed seller's price · Price Feed`,
    description: ar
      ? `أسعار ${nameAr} لدى كل الجهات المرخصة في مصر، مع السعر الرسمي وآخر ${a.series.length} يوم تداول.`
      : `${a.name} in Egypt: every licensed seller's buy and sell price, the official rate and the last ${a.series.length} trading days.`,
    body,
    baseUrl: input.dataset.site.baseUrl,
    ...simulatedBanner(input.dataset.site, lang),
  });
}
