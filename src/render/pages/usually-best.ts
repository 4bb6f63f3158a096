/**
 * An asset page's "Who is usually best": over the last 30 trading days (the sellers' records' short
 * window, docs/methodology.md §13), on each side, the sellers the archive named best most often, the
 * top three, each with its count and a link to its page. Whether a seller best today often is, or
 * was lucky: the question the best of the hour cannot answer.
 */
import type { Asset } from "../../schema/outputs.js";
import type { PageLang } from "../../feed/paths.js";
import { html, nameIn, type SafeHtml } from "./html.js";
import { longDate } from "./format.js";
import { sideLabel } from "./words.js";
import { SELLERS_PAGE_PATH, localized } from "../../feed/paths.js";
import { sellerLink, type SellerIndex } from "./seller-links.js";
import { SELLER_WORDS as W, bestOfDays, sellerWord, windowName } from "./seller-words.js";

type Side = "sell" | "buy";
type Entry = NonNullable<ReturnType<SellerIndex["byAsset"]["get"]>>[number];

/** How many sellers each side lists. */
export const USUALLY_BEST_TOP = 3;

/**
 * The sellers most often best on a side over the short window, most first; of two with the same
 * count, the one usually nearer the best (the smaller median gap), then the registry's order.
 */
export function usuallyBest(entries: readonly Entry[], side: Side, top = USUALLY_BEST_TOP): Entry[] {
  const gap = (e: Entry) => e.record.short.medianGapPct[side] ?? Number.POSITIVE_INFINITY;
  return entries
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.record.short.daysBest[side] > 0)
    .sort(
      (a, b) => b.e.record.short.daysBest[side] - a.e.record.short.daysBest[side] || gap(a.e) - gap(b.e) || a.i - b.i,
    )
    .slice(0, top)
    .map(({ e }) => e);
}

export function usuallyBestSection(a: Asset, index: SellerIndex, lang: PageLang): SafeHtml | "" {
  const entries = index.byAsset.get(a.id) ?? [];
  if (a.market === "reference" || entries.length === 0) return "";
  const w = entries[0]!.record.short;
  if (w.days === 0) return "";
  const side = (s: Side) => {
    const list = usuallyBest(entries, s);
    const items = list.map(
      (e) =>
        html`<li>${sellerLink(index.pages, e.seller.id, nameIn(lang, e.seller.name, e.seller.nameAr), lang)}: ${bestOfDays(e.record.short.daysBest[s], w.days, lang)}</li>`,
    );
    return html`<h3>${sideLabel(s, lang)}</h3>${list.length ? html`<ol>${items}</ol>` : html`<p class="muted">${sellerWord(W.usually.none, lang)}</p>`}`;
  };
  const span = w.from && w.to ? ` (${longDate(w.from, lang)} – ${longDate(w.to, lang)})` : "";
  return html`<section class="usually" aria-labelledby="usually-h"><h2 id="usually-h">${sellerWord(W.usually.title, lang)}</h2>
<p>${windowName(w.days, w.windowDays, lang)}${span}</p>
${side("sell")}${side("buy")}
<p class="note"><a href="${localized(SELLERS_PAGE_PATH, lang)}">${sellerWord(W.usually.every, lang)}</a></p></section>`;
}
