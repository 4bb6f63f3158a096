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
import { longDate, price, weekdayDate } from "./format.js";
import { changeMark } from "./change.js";
import { headlineOf, pageOrder } from "./lineup.js";
import { buildDay, sideLabel } from "./words.js";
import { CHANGED_WORDS } from "./changed-words.js";
import { RECENT_DAYS, recentOf, type RecentChanges, type RecentDay, type SideSummary } from "./recent.js";

type Side = "sell" | "buy";

const who = (lang: PageLang, s: ArchiveSeller) => nameIn(lang, s.seller, s.sellerAr);

/** "the best price was 47.75 on Monday 20 October, and 47.87 on Thursday 19 November (▲ +12 piastres)". */
function priceSentence(a: Asset, sum: SideSummary, lang: PageLang, side: Side | undefined): SafeHtml {
  const w = CHANGED_WORDS[lang];
  const p = (v: number) => price(v, a.decimals, lang);
  const what = side ? w.bestPrice : w.referencePrice;
  if (!sum.to) return html`${w.noSeller}`;
  if (!sum.from || sum.from.date === sum.to.date) return w.oneDay(p(sum.to.value), longDate(sum.to.date, lang));
  const mark = sum.move === null ? "" : html` (${changeMark(sum.move, a.decimals, lang, { side })})`;
  return w.moved(
    what,
    p(sum.from.value),
    longDate(sum.from.date, lang),
    p(sum.to.value),
    longDate(sum.to.date, lang),
    mark,
  );
}

/** "The best changed hands 8 times, among 2 sellers; it is now at Cairo Union Bank." */
function sellerSentence(r: RecentChanges, side: Side, lang: PageLang): SafeHtml | "" {
  const w = CHANGED_WORDS[lang];
  const sum = r[side];
  const now = r.days.at(-1)?.[side].seller ?? null;
  if (r.days.length < 2 || sum.sellers.length === 0) return "";
  if (sum.sellerChanges === 0 && now) return w.sameSeller(who(lang, now));
  return w.changedHands(sum.sellerChanges, sum.sellers.length, now ? w.atNow(who(lang, now)) : "");
}

/** The official rate's mid then and now, when the days have one. */
function officialSentence(a: Asset, r: RecentChanges, lang: PageLang): SafeHtml | "" {
  const o = r.official;
  if (!o.to || !o.from || o.from.date === o.to.date || o.move === null) return "";
  const p = (v: number) => price(v, a.decimals, lang);
  const mark = changeMark(o.move, a.decimals, lang);
  return CHANGED_WORDS[lang].official(
    p(o.from.value),
    longDate(o.from.date, lang),
    p(o.to.value),
    longDate(o.to.date, lang),
    mark,
  );
}

/** One side's cell of a day: its best, its move, who gave it (marked when the best changed hands). */
function dayCell(a: Asset, d: RecentDay, side: Side, lang: PageLang): SafeHtml {
  const s = d[side];
  const reference = a.market === "reference";
  const mark = s.move === null ? "" : changeMark(s.move, a.decimals, lang, reference ? {} : { side });
  const seller = s.seller
    ? s.changed
      ? html`<span class="who"><b>${CHANGED_WORDS[lang].newSeller}</b> ${who(lang, s.seller)}</span>`
      : html`<span class="who">${who(lang, s.seller)}</span>`
    : "";
  // One column for a reference price (its head spans no second one: a column no cell begins in is
  // invalid HTML, the table model of HTML §4.9.12).
  return html`<td class="n"><span class="v">${price(s.value, a.decimals, lang)}</span>${mark}${seller}</td>`;
}

function dayRow(a: Asset, d: RecentDay, today: string, lang: PageLang): SafeHtml {
  const soFar = d.date === today ? html`<span class="sub">${CHANGED_WORDS[lang].soFar}</span>` : "";
  const cells =
    a.market === "reference" ? dayCell(a, d, "sell", lang) : [dayCell(a, d, "sell", lang), dayCell(a, d, "buy", lang)];
  // A past day links to its page; the build's own day is not over, and has none yet.
  const day = weekdayDate(`${d.date}T12:00:00Z`, lang);
  const date = d.date < today ? html`<a href="${localized(dayPagePath(d.date), lang)}#${a.slug}">${day}</a>` : day;
  return html`<tr><th scope="row">${date}${soFar}</th>${cells}</tr>`;
}

/** An asset page's day-by-day changes: a sentence per side, then every trading day of the window, newest first. */
export function assetChanges(ctx: RenderContext, a: Asset, lang: PageLang): SafeHtml {
  const w = CHANGED_WORDS[lang];
  const r = recentOf(ctx, a);
  if (r.days.length === 0) return html`<p class="muted">${w.noPrices(longDate(a.asOf, lang))}</p>`;
  const sentences =
    a.market === "reference"
      ? [html`<p>${priceSentence(a, r.sell, lang, undefined)}</p>`]
      : (["sell", "buy"] as const).map(
          (side) =>
            html`<p><b>${sideLabel(side, lang)}</b>: ${priceSentence(a, r[side], lang, side)}${sellerSentence(r, side, lang)}</p>`,
        );
  const head =
    a.market === "reference"
      ? html`<th scope="col" class="n">${w.reference}</th>`
      : html`<th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th>`;
  const rows = [...r.days].reverse().map((d) => dayRow(a, d, r.to, lang));
  return html`${sentences}
${officialSentence(a, r, lang)}
<details class="changes"><summary>${w.summary(r.days.length)}</summary>
<table class="changes"><caption>${w.caption}</caption>
<thead><tr><th scope="col">${w.date}</th>${head}</tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>
</details>`;
}

/** One asset's row on the home page: each side's move over the window and how often its best changed hands. */
function marketRow(ctx: RenderContext, a: Asset, lang: PageLang): SafeHtml {
  const w = CHANGED_WORDS[lang];
  const r = recentOf(ctx, a);
  const p = (v: number) => price(v, a.decimals, lang);
  const cell = (side: Side) => {
    const sum = r[side];
    const colspan = a.market === "reference" ? html` colspan="2"` : "";
    if (!sum.to) return html`<td class="n"${colspan}>—</td>`;
    if (!sum.from || sum.from.date === sum.to.date)
      return html`<td class="n"${colspan}><span class="v">${p(sum.to.value)}</span><span class="who">${w.oneDayShort}</span></td>`;
    const mark =
      sum.move === null ? "" : changeMark(sum.move, a.decimals, lang, a.market === "reference" ? {} : { side });
    const hands =
      a.market === "reference" || sum.sellers.length === 0
        ? ""
        : sum.sellerChanges === 0
          ? html`<span class="who">${w.sameBest}</span>`
          : html`<span class="who">${w.handsChanged(sum.sellerChanges)}</span>`;
    return html`<td class="n"${colspan}>${mark}<span class="who">${w.fromTo(p(sum.from.value), p(sum.to.value))}</span>${hands}</td>`;
  };
  const cells = a.market === "reference" ? cell("sell") : [cell("sell"), cell("buy")];
  return html`<tr><th scope="row"><a href="${localized(assetPagePath(a.slug), lang)}#changed-h">${nameIn(lang, a.name, a.nameAr)}</a></th>${cells}</tr>`;
}

function marketTable(ctx: RenderContext, assets: readonly Asset[], lang: PageLang, caption: string): SafeHtml {
  return html`<table class="changes"><caption>${caption}</caption>
<thead><tr><th scope="col">${CHANGED_WORDS[lang].asset}</th><th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th></tr></thead>
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
  const w = CHANGED_WORDS[lang];
  const ordered = pageOrder(ctx.feed.assets);
  const isHeadline = headlineOf(ordered);
  const rest = ordered.filter((a) => !isHeadline(a));
  const today = buildDay(ctx.feed);
  const caption = w.marketCaption(RECENT_DAYS, longDate(today, lang));
  const more = rest.length
    ? html`<details class="more-changes"><summary>${w.otherPrices}</summary>
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
