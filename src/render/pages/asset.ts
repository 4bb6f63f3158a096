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
import { arabic, english, html, join, nameIn, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { cairoClock, cairoDay, longDate, price, westernDigits } from "./format.js";
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

type Side = "sell" | "buy";

function sideBox(a: Asset, side: Side, lang: PageLang, pages: ReadonlySet<string>): SafeHtml {
  const d: Direction = a.directions[side];
  const id = `side-${side}`;
  const ar = lang === "ar";
  const who = d.best?.seller
    ? html`<p>${sellerLink(pages, bestSellerId(a, side), nameIn(lang, d.best.seller, d.best.sellerAr), lang)} <span class="muted">— ${sideHint(side, lang)}</span></p>`
    : "";
  const since = (p: NonNullable<Direction["previous"]>) =>
    ar
      ? `منذ إغلاق ${longDate(p.date, "ar")} (${price(p.value, a.decimals, lang)})`
      : `since the close of ${longDate(p.date, "en")} (${price(p.value, a.decimals, lang)})`;
  const moved = d.previous
    ? html`<p class="moved">${changeMark(d.previous.change, a.decimals, lang, { pct: d.previous.changePct, side })} <span class="since">${since(d.previous)}</span></p>`
    : "";
  const signals = signalSentences(d, lang);
  return html`<section class="side" aria-labelledby="${id}">
<h2 id="${id}">${sideLabel(side, lang)}</h2>
<p class="big">${price(d.best?.value, a.decimals, lang)}</p>${moved}${d.best?.value == null ? html`<p class="muted">${ar ? "لا توجد أسعار لهذا الجانب." : "No seller quotes this side."}</p>` : who}
<p class="verdict">${verdictSentence(d, side, lang)}</p>
${signals.length ? html`<ul>${signals.map((x) => html`<li>${x}</li>`)}</ul>` : ""}
</section>`;
}

function referenceBox(a: Asset, lang: PageLang): SafeHtml {
  const d = a.directions[a.defaultSide];
  const ar = lang === "ar";
  const v = a.global?.value ?? a.series.at(-1)?.bench ?? null;
  return html`<section class="side" aria-labelledby="side-ref">
<h2 id="side-ref">${ar ? "السعر المرجعي" : "Reference price"}</h2>
<p class="big">${price(v, a.decimals, lang)}</p>
<p class="verdict">${verdictSentence(d, a.defaultSide, lang)}</p>
</section>`;
}

function references(a: Asset, lang: PageLang, ounce: ReturnType<typeof ounceReference>): SafeHtml {
  const ar = lang === "ar";
  const p = (v: number | null | undefined) => price(v, a.decimals, lang);
  const official = a.benchmark
    ? html`${sideLabel("sell", lang)} <b>${p(a.benchmark.sell)}</b> · ${sideLabel("buy", lang)} <b>${p(a.benchmark.buy)}</b>`
    : ar
      ? "لا يوجد سعر رسمي لهذا الأصل"
      : "none for this asset";
  return html`<section class="side refs" aria-labelledby="refs-h">
<h2 id="refs-h">${ar ? "أسعار مرجعية" : "References"}</h2>
<dl>
<dt>${ar ? "السعر الرسمي للبنك المركزي المصري" : "Central Bank of Egypt official rate"}</dt><dd>${official}</dd>
<dt>${ar ? "السعر العالمي (متوسط السوق)" : "Global mid-market rate"}</dt><dd>${p(a.global?.value)}</dd>
${ounce ? html`<dt>${ounce.term}</dt><dd>${ounce.value}</dd>` : ""}
</dl>
<p class="note">${ar ? "للمقارنة فقط: ليست أسعارًا تتعامل بها لدى الجهات." : "For comparison only: not prices you can deal at with a seller."}</p>
</section>`;
}

/** Why a rule refused a quote, in plain words (docs/methodology.md §2.1); a reason not listed shows its code. */
const REFUSAL_WORDS: Record<string, Record<PageLang, string>> = {
  crossed: { en: "it pays more than it asks", ar: "سعر الشراء فيه أعلى من سعر البيع" },
  "implausible-sell": { en: "its asking price is far from the market's", ar: "سعر البيع بعيد عن أسعار السوق" },
  "implausible-buy": { en: "the price it pays is far from the market's", ar: "سعر الشراء بعيد عن أسعار السوق" },
  "side-doubtful": { en: "probably read on the wrong side", ar: "الأرجح أنه قُرئ في الجانب الخطأ" },
  "unlicensed-seller": { en: "a seller we do not know", ar: "جهة غير معروفة لدينا" },
  "not-licensed-for-category": { en: "not licensed for this", ar: "غير مرخّصة لهذا النوع" },
  "reference-asset": { en: "this price is not sold by sellers here", ar: "هذا السعر مرجعي لا تبيعه الجهات هنا" },
  "observed-in-future": { en: "dated in the future", ar: "مؤرخ في المستقبل" },
};

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
  const ar = lang === "ar";
  const verdict = (r: (typeof rows)[number]) => {
    if (r.passed) return ar ? "اجتاز الفحوص" : "passed our checks";
    const words = r.reason ? REFUSAL_WORDS[r.reason] : undefined;
    return html`${ar ? "رُفض" : "refused"}: ${words ? words[lang] : html`<bdi dir="ltr"><code>${r.reason ?? ""}</code></bdi>`}`;
  };
  const body = rows.map(
    (r) =>
      html`<tr><th scope="row">${sellerLink(sellerPages, r.id, nameIn(lang, r.seller, r.sellerAr ?? undefined), lang)}</th><td data-label="${ar ? "المصدر" : "Source"}">${sourceNames.get(r.source) || r.source}</td><td data-label="${sideLabel("sell", lang)}">${price(r.sell, a.decimals, lang)}</td><td data-label="${sideLabel("buy", lang)}">${price(r.buy, a.decimals, lang)}</td><td data-label="${ar ? "النتيجة" : "Result"}">${verdict(r)}</td></tr>`,
  );
  return html`<section aria-labelledby="probation-h"><h2 id="probation-h">${ar ? "أسعار تحت الاختبار" : "Being checked"}</h2>
<p class="muted">${
    ar
      ? "هذه أسعار من مصادر جديدة لم تثبت سلامتها بعد: نفحصها بكل القواعد، لكنها لا تدخل في أي جدول أو أفضل سعر أو تقييم أعلاه حتى ينهي مصدرها فترة الاختبار."
      : "These prices come from new sources that have not yet proved themselves: every check runs on them, but they count in no table, best price or verdict above until their source finishes its probation."
  }</p>
<table class="sellers probation"><thead><tr><th scope="col">${ar ? "الجهة" : "Seller"}</th><th scope="col">${ar ? "المصدر" : "Source"}</th><th scope="col">${sideLabel("sell", lang)}</th><th scope="col">${sideLabel("buy", lang)}</th><th scope="col">${ar ? "النتيجة" : "Result"}</th></tr></thead>
<tbody>${join(body, "\n")}</tbody></table></section>`;
}

export function renderAssetPage(ctx: RenderContext, a: Asset, lang: PageLang): string {
  const { feed, input } = ctx;
  const ar = lang === "ar";
  const sourceNames = sourceNamesIn(input.dataset.sources.sources, lang);
  const records = sellerIndex(ctx);
  const nameAr = westernDigits(a.nameAr);
  const title = ar ? nameAr : a.name;
  const twinName = ar ? english(a.name) : arabic(a.nameAr);
  const note = marketNote(a, lang);
  const sellers =
    a.market === "reference"
      ? ""
      : html`<section aria-labelledby="sellers-h"><h2 id="sellers-h">${ar ? `كل الجهات المرخصة (${a.sellers.length})` : `Every licensed seller (${a.sellers.length})`}</h2>
${a.sellers.length ? sellerTable(a, { lang, sourceNames, sellerPages: records.pages }) : html`<p class="muted">${ar ? "لم تسعّره أي جهة في هذا اليوم." : "No seller quoted it on this day."}</p>`}</section>`;
  const body = html`<p class="crumbs"><a href="${localized("/", lang)}">${ar ? "الأسعار" : "Prices"}</a> › ${title}</p>
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
<p class="note">${
    ar
      ? "المقارنة بالأيام السابقة تصف أسعار الأيام الماضية، وليست توقعًا لما سيحدث. وكل يوم كان سعره مساويًا يُحسب نصف يوم."
      : "The comparison with earlier days describes past prices; it is not a forecast. A day with the same price counts as half."
  }</p>
<p class="note">${ar ? "البيانات نفسها بصيغة JSON:" : "The same data as JSON:"} <a href="${urlOf(files.asset(a.slug))}" dir="ltr"><code>${urlOf(files.asset(a.slug))}</code></a></p>`;
  return page({
    lang,
    path: assetPagePath(a.slug),
    title: ar
      ? `${nameAr}: أسعار كل الجهات المرخصة · Price Feed`
      : `${a.name}: every licensed seller's price · Price Feed`,
    description: ar
      ? `أسعار ${nameAr} لدى كل الجهات المرخصة في مصر: بكم تشتري وبكم تبيع، والسعر الرسمي، والرسم البياني لأسبوع وشهر وسنة.`
      : `${a.name} in Egypt: what every licensed seller buys and sells at, the official rate, and charts over a week, a month and a year.`,
    body,
    baseUrl: input.dataset.site.baseUrl,
    head: amountScriptTag(),
    feed: {
      path: urlOf(files.assetEventsAtom(a.slug)),
      title: ar ? `ما الذي تغيّر في ${nameAr} (Atom)` : `What changed, ${a.name} (Atom)`,
    },
    image: { path: cardPath(a.slug), alt: cardAlt(a, lang), ...CARD },
    ...simulatedBanner(input.dataset.site, lang),
  });
}

/**
 * A WhatsApp share link (wa.me, its "click to chat" link with a text and no number: the reader picks
 * the chat): the best price on each side, the day and time, and the page's address, percent-encoded.
 * The address needs the site's base URL; without one the text goes without it.
 */
export function shareText(a: Asset, lang: PageLang, baseUrl: string | undefined): string {
  const ar = lang === "ar";
  const egp = ar ? "جنيه" : "EGP";
  const name = ar ? westernDigits(a.nameAr) : a.name;
  const side = (s: Side) => `${sideLabel(s, lang)} ${price(a.directions[s].best?.value, a.decimals, lang)} ${egp}`;
  const prices =
    a.market === "reference"
      ? `${ar ? "سعر مرجعي" : "reference price"} ${price(a.global?.value, a.decimals, lang)} ${egp}`
      : `${side("sell")}${ar ? "، " : ", "}${side("buy")}`;
  const when = a.observedAt
    ? ` (${longDate(cairoDay(a.observedAt), lang)}${ar ? "، " : ", "}${cairoClock(a.observedAt, lang)} ${ar ? "بتوقيت القاهرة" : "Cairo time"})`
    : "";
  const url = baseUrl ? ` ${baseUrl.replace(/\/+$/, "")}${localized(assetPagePath(a.slug), lang)}` : "";
  return `${name}: ${prices}${when}.${url}`;
}

function shareLink(a: Asset, lang: PageLang, baseUrl: string | undefined): SafeHtml {
  const href = `https://wa.me/?text=${encodeURIComponent(shareText(a, lang, baseUrl))}`;
  return html`<p class="share"><a href="${href}">${lang === "ar" ? "شارك السعر على واتساب" : "Share the price on WhatsApp"}</a></p>`;
}

/** Each source's name as HTML in the page's language: its Arabic name where it has one, else the English marked as such. */
function sourceNamesIn(sources: readonly SourceConfig[], lang: PageLang): Map<string, SafeHtml | ""> {
  return new Map(sources.map((s) => [s.id, nameIn(lang, s.name, s.nameAr)]));
}
