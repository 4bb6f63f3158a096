/**
 * A seller's page (`/sellers/<id>/`, `/ar/sellers/<id>/`) and the list of every seller
 * (`/sellers/`): the seller's record as /api/v1/sellers/<id>.json publishes it (docs/methodology.md
 * §13), in plain words. Per asset it quotes: how often it had the best price on each side, how far
 * from the best it usually was, the usual gap between its two prices and its last price, over the
 * last 30 and 365 trading days; and its latest prices. Who licenses or registers it, and whether
 * the operator checked, come from the source health document, as on the sources page. The numbers
 * are the record's as published, nothing computed anew.
 */
import type { RenderContext } from "../../feed/site.js";
import type { SellerRecord } from "../../schema/sellers.js";
import type { Asset } from "../../schema/outputs.js";
import {
  SELLERS_PAGE_PATH,
  assetPagePath,
  files,
  localized,
  sellerPagePath,
  urlOf,
  type PageLang,
} from "../../feed/paths.js";
import { html, join, nameIn, nameText, otherName, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { fullDate, longDate, percent, price } from "./format.js";
import { sideLabel, simulatedBanner } from "./words.js";
import {
  SELLER_WORDS as W,
  bestDays,
  bestOn,
  neverBest,
  quotedOf,
  quotesPrices,
  sellerWord,
  usualGap,
  whenYou,
  windowName,
} from "./seller-words.js";

type Side = "sell" | "buy";
type AssetRecord = SellerRecord["assets"][number];
type Window = AssetRecord["short"];
type Identity = SellerRecord["seller"];
const SIDES: readonly Side[] = ["sell", "buy"];

/** "Bank · Licensed by Central Bank of Egypt · licence not verified": who answers for it, and whether that was checked. */
function licence(ctx: RenderContext, s: Identity, lang: PageLang): SafeHtml {
  const entry = ctx.sources.sellers.find((e) => e.id === s.id);
  const dealer = s.kind === "gold-dealer";
  const by = sellerWord(dealer ? W.licence.registered : W.licence.licensed, lang);
  const v = entry?.verified ?? null;
  const check = v
    ? html`${sellerWord(W.licence.checked, lang)} <bdi dir="ltr">${v.where}</bdi> ${sellerWord(W.licence.on, lang)} ${fullDate(v.at, lang)}`
    : sellerWord(dealer ? W.licence.registrationNotVerified : W.licence.licenceNotVerified, lang);
  // The body's Arabic name where the registry gives it (licensedByAr), else its English one, marked so.
  const body = ctx.input.dataset.registry.find((r) => r.id === s.id)?.licensedByAr;
  return html`${sellerWord(W.kind[s.kind], lang)} · ${by} ${nameIn(lang, s.licensedBy, body)} · ${check}`;
}

/** "You buy at: best price to buy from on 12 of the 30 days it quoted, usually 0.30% dearer than the best." */
function glance(r: AssetRecord, side: Side, lang: PageLang): string {
  const w = r.short;
  const sep = sellerWord(W.punctuation.comma, lang);
  const best = `${bestOn(side, lang)} ${bestDays(w.daysBest[side], w.daysQuoted, lang)}`;
  return `${sideLabel(side, lang)}: ${lowerFirst(best)}${sep}${usualGap(side, w.medianGapPct[side], lang)}.`;
}

/** The words after a colon start in lower case (Arabic has no case: toLowerCase leaves it as it is). */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The measures of the windows, a row each; one column per window (one when both hold the same days). */
function recordTable(r: AssetRecord, lang: PageLang): SafeHtml {
  const windows = r.long.days > r.short.days ? [r.short, r.long] : [r.short];
  const row = (label: string, cell: (w: Window) => string) =>
    html`<tr><th scope="row">${label}</th>${windows.map((w) => html`<td>${cell(w)}</td>`)}</tr>`;
  const date = (d: string | null) => (d ? longDate(d, lang) : sellerWord(W.page.never, lang));
  const spread = (w: Window) => (w.medianSpreadPct === null ? "—" : percent(w.medianSpreadPct, lang));
  const rows = [
    row(sellerWord(W.page.quoted, lang), (w) => quotedOf(w.daysQuoted, w.days, lang)),
    ...SIDES.map((s) => row(bestOn(s, lang), (w) => bestDays(w.daysBest[s], w.daysQuoted, lang))),
    ...SIDES.map((s) => row(whenYou(s, lang), (w) => usualGap(s, w.medianGapPct[s], lang))),
    row(sellerWord(W.page.spread, lang), spread),
    row(sellerWord(W.page.lastQuoted, lang), (w) => date(w.lastQuoted)),
  ];
  return html`<table class="record"><thead><tr><th scope="col">${sellerWord(W.page.measure, lang)}</th>${windows.map((w) => html`<th scope="col">${windowName(w.days, w.windowDays, lang)}</th>`)}</tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>`;
}

/** Its latest prices of the asset, each side's best marked, or that it has none on the asset's date. */
function latest(r: AssetRecord, asset: Asset | undefined, lang: PageLang): SafeHtml {
  const t = r.today;
  const day = longDate(r.asOf, lang);
  if (!t) return html`<p>${sellerWord(W.page.noToday, lang)} ${day}.</p>`;
  const best = (side: Side) => {
    const b = asset?.directions[side].best;
    return !!b && b.value !== null && b.seller === t.seller && b.value === t[side];
  };
  const mark = sellerWord(W.page.best, lang);
  const one = (side: Side) =>
    html`${sideLabel(side, lang)} <b>${price(t[side], r.decimals, lang)}</b>${best(side) ? html` <span class="tag">${mark}</span>` : ""}`;
  return html`<p>${sellerWord(W.page.today, lang)} (${day}): ${join(SIDES.map(one), " · ")}</p>`;
}

function assetSection(r: AssetRecord, asset: Asset | undefined, lang: PageLang): SafeHtml {
  const id = `asset-${r.slug}`;
  const other = otherName(lang, r.name, r.nameAr);
  const glanced =
    r.short.daysQuoted === 0
      ? html`<p>${windowName(r.short.days, r.short.windowDays, lang)}: ${sellerWord(W.page.never, lang)}.</p>`
      : html`<ul>${SIDES.map((s) => html`<li>${glance(r, s, lang)}</li>`)}</ul>`;
  return html`<section class="record" aria-labelledby="${id}"><h2 id="${id}"><a href="${localized(assetPagePath(r.slug), lang)}">${nameIn(lang, r.name, r.nameAr)}</a> ${other}</h2>
${latest(r, asset, lang)}
${glanced}
${recordTable(r, lang)}</section>`;
}

export function renderSellerPage(ctx: RenderContext, doc: SellerRecord, lang: PageLang): string {
  const s = doc.seller;
  const name = nameText(lang, s.name, s.nameAr);
  const other = otherName(lang, s.name, s.nameAr);
  const assets = new Map(ctx.feed.assets.map((a) => [a.id, a]));
  const json = urlOf(files.seller(s.id));
  const body = html`<p class="crumbs"><a href="${localized("/", lang)}">${sellerWord(W.page.prices, lang)}</a> › <a href="${localized(SELLERS_PAGE_PATH, lang)}">${sellerWord(W.page.crumb, lang)}</a> › ${name}</p>
<h1>${name} ${other}</h1>
<p class="status">${licence(ctx, s, lang)}</p>
<p class="lead">${sellerWord(W.page.lead, lang)}</p>
${join(
  doc.assets.map((r) => assetSection(r, assets.get(r.id), lang)),
  "\n",
)}
<p class="note">${sellerWord(W.page.note, lang)}</p>
<p class="note">${sellerWord(W.page.json, lang)} <a href="${json}" dir="ltr"><code>${json}</code></a></p>`;
  return page({
    lang,
    path: sellerPagePath(s.id),
    title: sellerWord(W.page.title, lang)(name),
    description: sellerWord(W.page.description, lang)(name),
    body,
    baseUrl: ctx.input.dataset.site.baseUrl,
    ...simulatedBanner(ctx.input.dataset.site, lang),
  });
}

/**
 * One line of a seller in the list: how many prices it quotes and, of the last 30 trading days, its
 * best showing: the asset and side it was best on most often (ties: the larger share of the days it
 * quoted, then the catalog's order), or that it never was.
 */
export function sellerSummary(doc: SellerRecord, lang: PageLang): string {
  let top: { r: AssetRecord; side: Side; n: number; share: number } | null = null;
  for (const r of doc.assets)
    for (const side of SIDES) {
      const n = r.short.daysBest[side];
      const share = n / Math.max(1, r.short.daysQuoted);
      if (n > 0 && (!top || n > top.n || (n === top.n && share > top.share))) top = { r, side, n, share };
    }
  const sep = sellerWord(W.punctuation.semicolon, lang);
  const head = quotesPrices(doc.assets.length, lang);
  if (!top) return `${head}${sep}${neverBest(lang)}.`;
  const name = nameText(lang, top.r.name, top.r.nameAr);
  const best = `${bestOn(top.side, lang)} ${bestDays(top.n, top.r.short.daysQuoted, lang)}`;
  return `${head}${sep}${name}: ${lowerFirst(best)}.`;
}

export function renderSellersIndex(ctx: RenderContext, lang: PageLang): string {
  const rows = [...ctx.sellers.records.values()].map((doc) => {
    const s = doc.seller;
    const other = otherName(lang, s.name, s.nameAr);
    return html`<tr id="seller-${s.id}"><th scope="row"><a href="${localized(sellerPagePath(s.id), lang)}">${nameIn(lang, s.name, s.nameAr)}</a>${other ? html`<span class="sub">${other}</span>` : ""}<span class="sub kind">${sellerWord(W.kind[s.kind], lang)}</span></th><td>${sellerSummary(doc, lang)}</td></tr>`;
  });
  const title = sellerWord(W.index.title, lang);
  const table = rows.length
    ? html`<table class="sellers-list"><thead><tr><th scope="col">${sellerWord(W.index.seller, lang)}</th><th scope="col">${sellerWord(W.index.summary, lang)}</th></tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>`
    : html`<p class="muted">${sellerWord(W.index.none, lang)}</p>`;
  const body = html`<p class="crumbs"><a href="${localized("/", lang)}">${sellerWord(W.page.prices, lang)}</a> › ${title}</p>
<h1>${title}</h1>
<p class="lead">${sellerWord(W.index.lead, lang)}</p>
${table}
<p class="note">${sellerWord(W.page.json, lang)} <a href="${urlOf(files.sellers)}" dir="ltr"><code>${urlOf(files.sellers)}</code></a></p>`;
  return page({
    lang,
    path: SELLERS_PAGE_PATH,
    title: `${title} · Price Feed`,
    description: sellerWord(W.index.description, lang),
    body,
    baseUrl: ctx.input.dataset.site.baseUrl,
    ...simulatedBanner(ctx.input.dataset.site, lang),
  });
}
