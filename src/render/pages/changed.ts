/**
 * The day-by-day part of "What changed" (events.ts eventsSection), in words and tables from the
 * archive's closes (recent.ts): on an asset's page a sentence per side (its best price then and now,
 * how often the best changed hands and where it is now) and the table of every trading day of the
 * window; on the home page a row per asset with each side's move over the window and how often its
 * best changed hands. What the closes show, and nothing they do not: a single day is "nothing to
 * compare yet", a side no seller quoted says so.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset } from "../../schema/outputs.js";
import type { ArchiveSeller } from "../../schema/archive.js";
import { assetPagePath, dayPagePath, localized, type PageLang } from "../../feed/paths.js";
import { otherDays } from "./day.js";
import { html, join, nameIn, type SafeHtml } from "./html.js";
import {
  AR_DAYS,
  AR_SELLERS,
  AR_TIMES,
  AR_TRADING_DAYS,
  arCount,
  count,
  longDate,
  price,
  weekdayDate,
} from "./format.js";
import { changeMark } from "./change.js";
import { headlineOf, pageOrder } from "./lineup.js";
import { buildDay, sideLabel } from "./words.js";
import { RECENT_DAYS, recentOf, type RecentChanges, type RecentDay, type SideSummary } from "./recent.js";

type Side = "sell" | "buy";

const who = (lang: PageLang, s: ArchiveSeller) => nameIn(lang, s.seller, s.sellerAr);

/** "the best price was 47.75 on Monday 20 October, and 47.87 on Thursday 19 November (▲ +12 piastres)". */
function priceSentence(a: Asset, sum: SideSummary, lang: PageLang, side: Side | undefined): SafeHtml {
  const ar = lang === "ar";
  const p = (v: number) => price(v, a.decimals, lang);
  const what = side ? (ar ? "أفضل سعر" : "the best price") : ar ? "السعر المرجعي" : "the reference price";
  if (!sum.to) return html`${ar ? "لم تسعّره أي جهة في هذه الأيام." : "no seller quoted it in these days."}`;
  if (!sum.from || sum.from.date === sum.to.date)
    return ar
      ? html`يوم واحد من الأسعار حتى الآن (${p(sum.to.value)} يوم ${longDate(sum.to.date, "ar")})، فلا شيء يُقارن به بعد.`
      : html`one day of prices so far (${p(sum.to.value)} on ${longDate(sum.to.date, "en")}): nothing to compare it with yet.`;
  const mark = sum.move === null ? "" : html` (${changeMark(sum.move, a.decimals, lang, { side })})`;
  return ar
    ? html`كان ${what} ${p(sum.from.value)} يوم ${longDate(sum.from.date, "ar")}، وهو ${p(sum.to.value)} يوم ${longDate(sum.to.date, "ar")}${mark}.`
    : html`${what} was ${p(sum.from.value)} on ${longDate(sum.from.date, "en")}, and is ${p(sum.to.value)} on ${longDate(sum.to.date, "en")}${mark}.`;
}

/** "The best changed hands 8 times, among 2 sellers; it is now at Cairo Union Bank." */
function sellerSentence(r: RecentChanges, side: Side, lang: PageLang): SafeHtml | "" {
  const ar = lang === "ar";
  const sum = r[side];
  const now = r.days.at(-1)?.[side].seller ?? null;
  if (r.days.length < 2 || sum.sellers.length === 0) return "";
  if (sum.sellerChanges === 0 && now)
    return ar
      ? html` وكان أفضل سعر لدى ${who(lang, now)} كل يوم.`
      : html` The best was at ${who(lang, now)} every day.`;
  const n = sum.sellerChanges;
  const among = sum.sellers.length;
  const atNow = now ? (ar ? html`، وهو الآن لدى ${who(lang, now)}` : html`; it is now at ${who(lang, now)}`) : "";
  return ar
    ? html` وانتقل أفضل سعر من جهة إلى أخرى ${arCount(n, AR_TIMES, "genitive")} بين ${arCount(among, AR_SELLERS, "genitive")}${atNow}.`
    : html` The best changed hands ${n === 1 ? "once" : n === 2 ? "twice" : `${count(n, "en")} times`}, among ${count(among, "en")} seller${among === 1 ? "" : "s"}${atNow}.`;
}

/** The official rate's mid then and now, when the days have one. */
function officialSentence(a: Asset, r: RecentChanges, lang: PageLang): SafeHtml | "" {
  const o = r.official;
  if (!o.to || !o.from || o.from.date === o.to.date || o.move === null) return "";
  const p = (v: number) => price(v, a.decimals, lang);
  const mark = changeMark(o.move, a.decimals, lang);
  return lang === "ar"
    ? html`<p><b>السعر الرسمي للبنك المركزي المصري (المتوسط)</b>: كان ${p(o.from.value)} يوم ${longDate(o.from.date, "ar")}، وهو ${p(o.to.value)} يوم ${longDate(o.to.date, "ar")} (${mark}).</p>`
    : html`<p><b>The Central Bank of Egypt's official rate (mid)</b>: ${p(o.from.value)} on ${longDate(o.from.date, "en")}, and ${p(o.to.value)} on ${longDate(o.to.date, "en")} (${mark}).</p>`;
}

/** One side's cell of a day: its best, its move, who gave it (marked when the best changed hands). */
function dayCell(a: Asset, d: RecentDay, side: Side, lang: PageLang): SafeHtml {
  const ar = lang === "ar";
  const s = d[side];
  const reference = a.market === "reference";
  const mark = s.move === null ? "" : changeMark(s.move, a.decimals, lang, reference ? {} : { side });
  const seller = s.seller
    ? s.changed
      ? html`<span class="who"><b>${ar ? "جهة جديدة:" : "New:"}</b> ${who(lang, s.seller)}</span>`
      : html`<span class="who">${who(lang, s.seller)}</span>`
    : "";
  return html`<td class="n"${reference ? html` colspan="2"` : ""}><span class="v">${price(s.value, a.decimals, lang)}</span>${mark}${seller}</td>`;
}

function dayRow(a: Asset, d: RecentDay, today: string, lang: PageLang): SafeHtml {
  const ar = lang === "ar";
  const soFar = d.date === today ? html`<span class="sub">${ar ? "حتى الآن" : "so far"}</span>` : "";
  const cells =
    a.market === "reference" ? dayCell(a, d, "sell", lang) : [dayCell(a, d, "sell", lang), dayCell(a, d, "buy", lang)];
  // A past day links to its page; the build's own day is not over, and has none yet.
  const day = weekdayDate(`${d.date}T12:00:00Z`, lang);
  const date = d.date < today ? html`<a href="${localized(dayPagePath(d.date), lang)}#${a.slug}">${day}</a>` : day;
  return html`<tr><th scope="row">${date}${soFar}</th>${cells}</tr>`;
}

/** An asset page's day-by-day changes: a sentence per side, then every trading day of the window, newest first. */
export function assetChanges(ctx: RenderContext, a: Asset, lang: PageLang): SafeHtml {
  const ar = lang === "ar";
  const r = recentOf(ctx, a);
  if (r.days.length === 0)
    return html`<p class="muted">${ar ? `لا توجد أسعار في هذه الأيام: آخرها يوم ${longDate(a.asOf, "ar")}.` : `No prices in these days: the latest are of ${longDate(a.asOf, "en")}.`}</p>`;
  const sentences =
    a.market === "reference"
      ? [html`<p>${priceSentence(a, r.sell, lang, undefined)}</p>`]
      : (["sell", "buy"] as const).map(
          (side) =>
            html`<p><b>${sideLabel(side, lang)}</b>${ar ? ": " : ": "}${priceSentence(a, r[side], lang, side)}${sellerSentence(r, side, lang)}</p>`,
        );
  const head =
    a.market === "reference"
      ? html`<th scope="col" class="n" colspan="2">${ar ? "السعر المرجعي" : "Reference price"}</th>`
      : html`<th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th>`;
  const rows = [...r.days].reverse().map((d) => dayRow(a, d, r.to, lang));
  const summary = ar
    ? `يومًا بيوم: ${arCount(r.days.length, AR_TRADING_DAYS, "nominative", false)}`
    : `Day by day: ${count(r.days.length, "en")} trading day${r.days.length === 1 ? "" : "s"}`;
  const caption = ar
    ? "إغلاق كل يوم تداول: أفضل سعر في كل جانب، وتغيره عن يوم التداول السابق، ولدى أي جهة كان («جهة جديدة» حين انتقل إليها)."
    : "Each trading day's close: the best price on each side, its move since the trading day before, and who offered it (“New” when the best changed hands).";
  return html`${sentences}
${officialSentence(a, r, lang)}
<details class="changes"><summary>${summary}</summary>
<table class="changes"><caption>${caption}</caption>
<thead><tr><th scope="col">${ar ? "التاريخ" : "Date"}</th>${head}</tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>
</details>`;
}

/** One asset's row on the home page: each side's move over the window and how often its best changed hands. */
function marketRow(ctx: RenderContext, a: Asset, lang: PageLang): SafeHtml {
  const ar = lang === "ar";
  const r = recentOf(ctx, a);
  const p = (v: number) => price(v, a.decimals, lang);
  const cell = (side: Side) => {
    const sum = r[side];
    const colspan = a.market === "reference" ? html` colspan="2"` : "";
    if (!sum.to) return html`<td class="n"${colspan}>—</td>`;
    if (!sum.from || sum.from.date === sum.to.date)
      return html`<td class="n"${colspan}><span class="v">${p(sum.to.value)}</span><span class="who">${ar ? "يوم واحد من الأسعار" : "one day of prices"}</span></td>`;
    const mark =
      sum.move === null ? "" : changeMark(sum.move, a.decimals, lang, a.market === "reference" ? {} : { side });
    const hands =
      a.market === "reference" || sum.sellers.length === 0
        ? ""
        : sum.sellerChanges === 0
          ? html`<span class="who">${ar ? "الجهة الأفضل نفسها كل يوم" : "the same best seller every day"}</span>`
          : html`<span class="who">${ar ? `انتقل أفضل سعر ${arCount(sum.sellerChanges, AR_TIMES, "genitive")}` : `best changed hands ${sum.sellerChanges === 1 ? "once" : sum.sellerChanges === 2 ? "twice" : `${count(sum.sellerChanges, "en")} times`}`}</span>`;
    return html`<td class="n"${colspan}>${mark}<span class="who">${ar ? `من ${p(sum.from.value)} إلى ${p(sum.to.value)}` : `from ${p(sum.from.value)} to ${p(sum.to.value)}`}</span>${hands}</td>`;
  };
  const cells = a.market === "reference" ? cell("sell") : [cell("sell"), cell("buy")];
  return html`<tr><th scope="row"><a href="${localized(assetPagePath(a.slug), lang)}#changed-h">${nameIn(lang, a.name, a.nameAr)}</a></th>${cells}</tr>`;
}

function marketTable(ctx: RenderContext, assets: readonly Asset[], lang: PageLang, caption: string): SafeHtml {
  const ar = lang === "ar";
  return html`<table class="changes"><caption>${caption}</caption>
<thead><tr><th scope="col">${ar ? "الأصل" : "Asset"}</th><th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th></tr></thead>
<tbody>${join(
    assets.map((a) => marketRow(ctx, a, lang)),
    "\n",
  )}</tbody></table>`;
}

/**
 * The home page's day-by-day changes: the headline assets' rows, the others folded, as the market
 * tables above them are.
 */
export function marketChanges(ctx: RenderContext, lang: PageLang): SafeHtml {
  const ar = lang === "ar";
  const ordered = pageOrder(ctx.feed.assets);
  const isHeadline = headlineOf(ordered);
  const rest = ordered.filter((a) => !isHeadline(a));
  const today = buildDay(ctx.feed);
  const caption = ar
    ? `خلال ${arCount(RECENT_DAYS, AR_DAYS, "genitive")} حتى ${longDate(today, "ar")}، من إغلاق كل يوم تداول: تغيّر أفضل سعر في كل جانب، وكم مرة انتقل من جهة إلى أخرى. صفحة كل سعر تعرضها يومًا بيوم.`
    : `Over the ${RECENT_DAYS} days to ${longDate(today, "en")}, from each trading day's close: how each side's best price moved, and how often it changed hands. Each asset's page has them day by day.`;
  const more = rest.length
    ? html`<details class="more-changes"><summary>${ar ? "تغيّر بقية الأسعار" : "How the other prices changed"}</summary>
${marketTable(ctx, rest, lang, caption)}
</details>`
    : "";
  return html`${marketTable(ctx, ordered.filter(isHeadline), lang, caption)}
${more}
${otherDays(
  ctx.archive.days.days.map((d) => d.date),
  today,
  lang,
)}`;
}
