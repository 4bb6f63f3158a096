/**
 * Any past day (`/days/<date>/` and `/ar/days/<date>/`), and the list of every past day (`/days/`):
 * the market as it closed that day, from that day's archive document alone
 * (`/api/v1/days/<date>.json`, docs/methodology.md §5.5): each asset's best price on each side and
 * who offered it, the official and global rates, and every seller's close; the day before and the
 * day after. Static pages, no script. Every day of the archive before the build's Cairo date: today
 * is the home page's and the asset pages', and is a past day once it is over.
 *
 * A day's page is a function of its document, its neighbours' dates, the site and the program: what
 * its ETag hashes (dayPageKey) when the build knows the program (SiteInput.programKey). While those
 * stand, the page is the one the site being replaced has, kept as it is and never made again
 * (src/feed/site.ts SiteFile.keepable), as the day's JSON is: an hourly build makes none, the first
 * after midnight the day just over and the one before it (its day after is new).
 */
import type { RenderContext, SiteFile } from "../../feed/site.js";
import { HTML_TYPE } from "../../feed/site.js";
import type { Day } from "../../schema/archive.js";
import {
  DAYS_PAGE_PATH,
  assetPagePath,
  dayPagePath,
  files,
  localized,
  urlOf,
  type PageLang,
} from "../../feed/paths.js";
import { flat } from "../../core/flat.js";
import { html, join, nameIn, otherName, raw, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { cairoClock, cairoDay, count, longDate, longDateYear, monthOf, price, weekdayDate } from "./format.js";
import { pageOrder } from "./lineup.js";
import { buildDay, categoryTitle, sideLabel, simulatedBanner } from "./words.js";
import { sellerIndex, sellerLink } from "./seller-links.js";
import { DAY_WORDS } from "./day-words.js";

type DayAsset = Day["assets"][number];
type Side = "sell" | "buy";
const LANGS: readonly PageLang[] = ["en", "ar"];

/** "Prices on Thursday 19 November 2026". */
const dayTitle = (date: string, lang: PageLang) => DAY_WORDS[lang].title(longDateYear(date, lang));

/** The best of a side that day, and who offered it, linked to its page. */
function bestCell(a: DayAsset, side: Side, lang: PageLang, pages: ReadonlySet<string>): SafeHtml {
  const e = a.entry;
  const value = side === "sell" ? e.sellLo : e.buyHi;
  const by = side === "sell" ? e.bestSell : e.bestBuy;
  const who = by
    ? html`<span class="who">${sellerLink(pages, by.id, nameIn(lang, by.seller, by.sellerAr), lang)}</span>`
    : "";
  return html`<td class="n"><span class="v">${price(value, a.decimals, lang)}</span>${who}</td>`;
}

/** "Official: you buy at 47.97, you sell at 47.87 · Global: 47.89", what the entry has of them. */
function references(a: DayAsset, lang: PageLang): string {
  const w = DAY_WORDS[lang];
  const p = (v: number | null) => price(v, a.decimals, lang);
  // Lower case inside the sentence (Arabic has none: toLowerCase leaves it as it is).
  const side = (s: Side) => sideLabel(s, lang).toLowerCase();
  const parts: string[] = [];
  const o = a.entry.official;
  if (o) parts.push(`${w.official}: ${side("sell")} ${p(o.sell)}${w.comma}${side("buy")} ${p(o.buy)}`);
  if (a.entry.global !== null) parts.push(`${w.global}: ${p(a.entry.global)}`);
  return parts.join(" · ");
}

function marketRow(a: DayAsset, lang: PageLang, pages: ReadonlySet<string>): SafeHtml {
  const w = DAY_WORDS[lang];
  const other = otherName(lang, a.name, a.nameAr);
  const refs = references(a, lang);
  const cells =
    a.market === "reference"
      ? html`<td class="n" colspan="2"><span class="v">${price(a.entry.global ?? a.entry.sellLo, a.decimals, lang)}</span><span class="who">${w.reference}</span></td>`
      : html`${bestCell(a, "sell", lang, pages)}${bestCell(a, "buy", lang, pages)}`;
  const sellers = a.sellers.length
    ? html`<span class="sub"><a href="#sellers-${a.slug}">${w.everySeller(count(a.sellers.length, lang))}</a></span>`
    : "";
  return html`<tr id="${a.slug}"><th scope="row"><a href="${localized(assetPagePath(a.slug), lang)}">${nameIn(lang, a.name, a.nameAr)}</a>${other ? html`<span class="sub">${other}</span>` : ""}${refs ? html`<span class="sub">${refs}</span>` : ""}${sellers}</th>${cells}</tr>`;
}

/**
 * Every seller's close of an asset that day, best first as the document has them; the best of each
 * side marked. A row is the seller's name in the page's language, its two prices and the time of
 * its last quote (the asset's page has the rest), its cells aligned by the table's style rather
 * than a class each: a large market's day is thousands of rows. A name links to the seller's page
 * (`names`: each seller's name, linked or not, made once per page).
 */
function sellerCloses(
  day: Day,
  a: DayAsset,
  lang: PageLang,
  dayOfQuote: (iso: string) => string,
  names: (s: DayAsset["sellers"][number]) => SafeHtml | "",
): string {
  const w = DAY_WORDS[lang];
  const e = a.entry;
  const mark = html`<span class="best-mark">${w.best}</span>`;
  const cell = (v: number | null, best: boolean) =>
    best
      ? html`<td class="best">${price(v, a.decimals, lang)}${mark}</td>`
      : html`<td>${price(v, a.decimals, lang)}</td>`;
  const rows = a.sellers.map((s) => {
    // A close quoted on another day (before midnight in Cairo) says which.
    const at =
      dayOfQuote(s.observedAt) === day.date ? "" : html`<span class="since">${weekdayDate(s.observedAt, lang)}</span>`;
    return html`<tr><th scope="row">${names(s)}</th>${cell(s.sell, e.bestSell?.id === s.id && s.sell === e.sellLo)}${cell(s.buy, e.bestBuy?.id === s.id && s.buy === e.buyHi)}<td>${cairoClock(s.observedAt, lang)}${at}</td></tr>`
      .text;
  });
  const name = nameIn(lang, a.name, a.nameAr);
  return html`<details id="sellers-${a.slug}"><summary>${name}${w.closesOf(count(a.sellers.length, lang))}</summary>
<table class="sellers day-closes"><caption>${name}</caption>
<thead><tr><th scope="col">${w.seller}</th><th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th><th scope="col" class="n">${w.quotedAt}</th></tr></thead>
<tbody>${raw(rows.join("\n"))}</tbody></table></details>`.text;
}

/**
 * The neighbours' links: the day before and the day after that the archive has, and every day. The
 * latest past day's day after is today, whose prices are the home page's: its link goes there and
 * names the date, "(today)" after it, so that nobody reads yesterday's page as the latest.
 */
function dayLinks(around: DayAround, lang: PageLang): SafeHtml {
  const w = DAY_WORDS[lang];
  const link = (href: string, rel: string, words: string, date: string, note = "") =>
    html`<a href="${href}" rel="${rel}">${words}: ${longDate(date, lang)}${note}</a>`;
  const { prev, next, today } = around;
  const items = [
    ...(prev ? [link(localized(dayPagePath(prev), lang), "prev", w.before, prev)] : []),
    html`<a href="${localized(DAYS_PAGE_PATH, lang)}">${w.everyDay}</a>`,
    ...(next ? [link(localized(dayPagePath(next), lang), "next", w.after, next)] : []),
    ...(!next && today ? [link(localized("/", lang), "next", w.after, today, ` (${w.today})`)] : []),
  ];
  return html`<nav class="days-nav" aria-label="${w.aroundLabel}"><ul>${items.map((i) => html`<li>${i}</li>`)}</ul></nav>`;
}

/** A past day's page from its archive document, with the dates of the past days before and after it. */
export function renderDayPage(ctx: RenderContext, day: Day, around: DayAround, lang: PageLang): string {
  const w = DAY_WORDS[lang];
  const pages = sellerIndex(ctx).pages;
  const assets = pageOrder(day.assets);
  const categories = [...new Set(assets.map((a) => a.category))];
  const market = categories.map((c) => {
    const id = `cat-${c}`;
    return html`<section class="market" aria-labelledby="${id}">
<h2 id="${id}">${categoryTitle(c, lang)}</h2>
<table class="market"><thead><tr><th scope="col">${categoryTitle(c, lang)}</th><th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th></tr></thead>
<tbody>${join(
      assets.filter((a) => a.category === c).map((a) => marketRow(a, lang, pages)),
      "\n",
    )}</tbody></table>
</section>`;
  });
  const withSellers = assets.filter((a) => a.sellers.length > 0);
  const quoteDays = new Map<string, string>();
  const dayOfQuote = (iso: string) => {
    let d = quoteDays.get(iso);
    if (d === undefined) quoteDays.set(iso, (d = cairoDay(iso)));
    return d;
  };
  const title = dayTitle(day.date, lang);
  const body = html`<p class="crumbs"><a href="${localized("/", lang)}">${w.prices}</a> › <a href="${localized(DAYS_PAGE_PATH, lang)}">${w.everyDay}</a> › ${longDate(day.date, lang)}</p>
<h1>${title}</h1>
<p class="lead">${w.lead}</p>
${dayLinks(around, lang)}
${join(market, "\n")}
${
  withSellers.length
    ? html`<section aria-labelledby="sellers-h"><h2 id="sellers-h">${w.closes}</h2>
<p class="note">${w.closesNote}</p>
${CLOSES}
</section>`
    : ""
}
<p class="note">${w.json} <a href="${urlOf(files.day(day.date))}" dir="ltr"><code>${urlOf(files.day(day.date))}</code></a></p>`;
  const framed = page({
    lang,
    path: dayPagePath(day.date),
    title: `${title} · Price Feed`,
    description: w.description(longDateYear(day.date, lang)),
    body,
    baseUrl: ctx.input.dataset.site.baseUrl,
    ...simulatedBanner(ctx.input.dataset.site, lang),
  });
  // The seller tables go in after the frame has made the page's links relative (page.ts
  // relativeLinks): they have none, and they are most of a large market's page.
  const [before, after] = framed.split(CLOSES.text);
  if (after === undefined) return framed;
  // The seller tables' links are made relative to the page here (sellerLink's `from`); a seller's
  // name is the same in every table of the day, so each is made once.
  const from = localized(dayPagePath(day.date), lang);
  const named = new Map<string, SafeHtml | "">();
  const names = (s: DayAsset["sellers"][number]) => {
    let n = named.get(s.id);
    if (n === undefined) named.set(s.id, (n = sellerLink(pages, s.id, nameIn(lang, s.seller, s.sellerAr), lang, from)));
    return n;
  };
  // Joined by the array, into one flat string: a rope of thousands of rows costs many times its text.
  return `${before}${withSellers.map((a) => sellerCloses(day, a, lang, dayOfQuote, names)).join("\n")}${after}`;
}
/** Where the seller tables go in a day's page (renderDayPage). */
const CLOSES = html`<!--closes-->`;

/** The list of every day of the archive, newest first, by month. */
export function renderDaysIndex(ctx: RenderContext, lang: PageLang): string {
  const w = DAY_WORDS[lang];
  const dates = pastDays(ctx).reverse();
  const byMonth = new Map<string, string[]>();
  for (const d of dates) {
    const m = d.slice(0, 7);
    byMonth.set(m, [...(byMonth.get(m) ?? []), d]);
  }
  const months = [...byMonth].map(([m, ds]) => {
    const id = `month-${m}`;
    return html`<section aria-labelledby="${id}"><h2 id="${id}">${monthOf(`${m}-01`, lang)}</h2>
<ul class="days">${ds.map((d) => html`<li><a href="${localized(dayPagePath(d), lang)}">${weekdayDate(`${d}T12:00:00Z`, lang)}</a></li>`)}</ul></section>`;
  });
  const title = w.indexTitle;
  const body = html`<p class="crumbs"><a href="${localized("/", lang)}">${w.prices}</a> › ${w.everyDay}</p>
<h1>${title}</h1>
<p class="lead">${w.indexLead}</p>
${months.length ? join(months, "\n") : html`<p class="muted">${w.noDays}</p>`}`;
  return page({
    lang,
    path: DAYS_PAGE_PATH,
    title: `${title} · Price Feed`,
    description: w.indexDescription,
    body,
    baseUrl: ctx.input.dataset.site.baseUrl,
    ...simulatedBanner(ctx.input.dataset.site, lang),
  });
}

/**
 * Links to the past days' pages: the latest `n` days before `before` (an asset's at its row, with
 * `slug`), and the list of every day. "Prices on another day: Wed 18 Nov · Tue 17 Nov · every day".
 */
export function otherDays(dates: readonly string[], before: string, lang: PageLang, slug?: string, n = 3): SafeHtml {
  const w = DAY_WORDS[lang];
  const recent = dates
    .filter((d) => d < before)
    .slice(-n)
    .reverse();
  const links = [
    ...recent.map(
      (d) =>
        html`<a href="${localized(dayPagePath(d), lang)}${slug ? `#${slug}` : ""}">${weekdayDate(`${d}T12:00:00Z`, lang)}</a>`,
    ),
    html`<a href="${localized(DAYS_PAGE_PATH, lang)}">${w.everyDayLink}</a>`,
  ];
  return html`<p class="note">${w.anotherDay} ${join(links, " · ")}</p>`;
}

/**
 * What a day's page is made of besides the code: its document's ETag, its neighbours, whether it is
 * over, the site's settings and which assets and sellers have pages (the rows link to them).
 */
function dayPageKey(ctx: RenderContext, frame: string, date: string, around: DayAround, lang: PageLang): string {
  return `day-page-v1\0${ctx.input.programKey}\0${frame}\0${lang}\0${date}\0${ctx.etag(files.day(date))}\0${around.prev ?? ""}\0${around.next ?? ""}\0${around.today ?? ""}`;
}

/**
 * The days around a past day that its page links: the past days before and after it, and, for the
 * latest (no past day after it), the build's Cairo date, today, the home page's.
 */
export interface DayAround {
  prev: string | null;
  next: string | null;
  today: string | null;
}

/** The dates of the archive's past days: every date before the build's Cairo date. */
export const pastDays = (ctx: RenderContext): string[] => {
  const today = buildDay(ctx.feed);
  return ctx.archive.days.days.map((d) => d.date).filter((d) => d < today);
};

/**
 * Every past day's two pages, then the list of days. A page is made only when composeSite asks for
 * its body, that is when the site being replaced does not stand for it; the day's document is then
 * read once for both languages, and let go before the next day's.
 */
export function* dayPages(ctx: RenderContext): Generator<SiteFile> {
  const days = pastDays(ctx);
  const today = buildDay(ctx.feed);
  const keyed = ctx.input.programKey !== undefined;
  const frame = JSON.stringify([
    ctx.input.dataset.site,
    ctx.feed.assets.map((a) => a.slug),
    [...sellerIndex(ctx).pages],
  ]);
  let read: { date: string; day: Day } | null = null;
  const dayOf = (date: string) => {
    if (read?.date !== date) read = { date, day: ctx.archive.day(date) };
    return read.day;
  };
  for (let i = 0; i < days.length; i++) {
    const date = days[i]!;
    const next = days[i + 1] ?? null;
    const around: DayAround = { prev: days[i - 1] ?? null, next, today: next === null ? today : null };
    for (const lang of LANGS) {
      const path = files.page(localized(dayPagePath(date), lang));
      if (!keyed) {
        const body = flat(renderDayPage(ctx, dayOf(date), around, lang));
        yield { path, body, contentType: HTML_TYPE, etagInput: () => body };
        continue;
      }
      // Made when composeSite reads the body, once, and never held by the file: a page held until
      // the next was made lived through the collections of making it (docs/performance.md "Memory").
      const key = dayPageKey(ctx, frame, date, around, lang);
      yield {
        path,
        get body() {
          return flat(renderDayPage(ctx, dayOf(date), around, lang));
        },
        contentType: HTML_TYPE,
        etagInput: () => key,
        keepable: true,
      };
    }
  }
  read = null;
  for (const lang of LANGS) {
    const body = flat(renderDaysIndex(ctx, lang));
    yield { path: files.page(localized(DAYS_PAGE_PATH, lang)), body, contentType: HTML_TYPE, etagInput: () => body };
  }
}
