/**
 * An asset's full seller table, in the feed's order (best first on the asset's default side,
 * docs/methodology.md §3.2): seller, the name in the other language, the price you buy at (the
 * feed's `sell`) and the price you sell at (`buy`), each with its move since the seller's previous
 * close, the day and time of its quote and the sources that reported it when the feed carries them.
 * The columns are named from the customer's side, as the cards are (words.ts SIDE_WORDS). The best
 * price of each side is marked by a word and bold type as well as by its background.
 *
 * On a phone the table keeps four columns (seller, you buy at, you sell at, time) and fits 360 px:
 * the other-language name and how many sources saw the seller move to lines under its name.
 *
 * A seller's name links to its page (seller-page.ts) when it has one (`sellerPages`).
 */
import type { Asset, SellerRow } from "../../schema/outputs.js";
import type { PageLang } from "../../feed/paths.js";
import { html, join, nameIn, otherName, type SafeHtml } from "./html.js";
import { cairoClock, price, weekdayDate } from "./format.js";
import { changeMark, sellerChange } from "./change.js";
import { sideLabel } from "./words.js";
import { sellerLink } from "./seller-links.js";
import { SELLER_TABLE_WORDS } from "./seller-table-words.js";

/** The members a row carries since seller rows name their quote's time and sources; read defensively. */
type Row = Partial<Pick<SellerRow, "id" | "observedAt" | "source" | "sources" | "previous">> &
  Pick<SellerRow, "seller" | "sellerAr" | "buy" | "sell">;

export interface SellerTableOptions {
  lang: PageLang;
  /** Source id → its name as HTML in the page's language, in the order of the sources configuration. */
  sourceNames: ReadonlyMap<string, SafeHtml | "">;
  /** The ids of the sellers with a page of their own: their names link there. */
  sellerPages?: ReadonlySet<string>;
}

/** A source's rank in the configuration (unknown ones last), so the numbers follow the operator's order. */
const order = (ranks: readonly string[], id: string) => {
  const i = ranks.indexOf(id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
};

function isBest(asset: Asset, side: "sell" | "buy", r: Row): boolean {
  const b = asset.directions[side].best;
  return !!b && b.value !== null && b.seller === r.seller && b.value === r[side];
}

export function sellerTable(asset: Asset, o: SellerTableOptions): SafeHtml {
  const { lang } = o;
  const w = SELLER_TABLE_WORDS[lang];
  const rows = asset.sellers as Row[];
  const withTime = rows.some((r) => (r.observedAt ?? null) !== null);
  const ranks = [...o.sourceNames.keys()];
  const withSources = rows.some((r) => r.source || r.sources?.length);
  // The source whose quote is shown first, in bold; the others also reported the seller that day.
  const sourcesOf = (r: Row) => {
    const chosen = r.source ?? null;
    const others = (r.sources ?? []).filter((x) => x !== chosen).sort((a, b) => order(ranks, a) - order(ranks, b));
    const name = (id: string) => o.sourceNames.get(id) ?? id;
    return {
      html: join([...(chosen ? [html`<b>${name(chosen)}</b>`] : []), ...others.map(name)], w.comma),
      n: others.length + (chosen ? 1 : 0),
    };
  };
  const cell = (r: Row, side: "sell" | "buy") => {
    const moved = sellerChange(r[side], r.previous?.[side], asset.decimals);
    const chg = moved === null ? "" : changeMark(moved, asset.decimals, lang, { side });
    return isBest(asset, side, r)
      ? html`<td class="n best">${price(r[side], asset.decimals, lang)}${chg}<span class="best-mark">${w.best}</span></td>`
      : html`<td class="n">${price(r[side], asset.decimals, lang)}${chg}</td>`;
  };
  // The day beside every time: a quote of the evening before reads as such.
  const time = (r: Row) => {
    const at = r.observedAt ?? null;
    if (at === null) return html`<td class="n">—</td>`;
    return html`<td class="n"><time datetime="${at}">${cairoClock(at, lang)}<span class="since">${weekdayDate(at, lang)}</span></time></td>`;
  };
  const body = rows.map((r) => {
    const other = otherName(lang, r.seller, r.sellerAr);
    const sources = withSources ? sourcesOf(r) : { html: "", n: 0 };
    const seenBy = sources.n ? html`<span class="sub">${w.seenByCount(sources.n)}</span>` : "";
    const id = r.id ? html` id="seller-${r.id}"` : "";
    return html`<tr${id}><th scope="row">${sellerLink(o.sellerPages ?? new Set(), r.id, nameIn(lang, r.seller, r.sellerAr), lang)}${other ? html`<span class="sub">${other}</span>` : ""}${seenBy}</th><td class="col-wide">${other || "—"}</td>${cell(r, "sell")}${cell(r, "buy")}${withTime ? time(r) : ""}${withSources ? html`<td class="col-wide">${sources.html || "—"}</td>` : ""}</tr>`;
  });
  const head = [
    html`<th scope="col">${w.seller}</th>`,
    html`<th scope="col" class="col-wide">${w.otherName}</th>`,
    html`<th scope="col" class="n">${sideLabel("sell", lang)}</th>`,
    html`<th scope="col" class="n">${sideLabel("buy", lang)}</th>`,
    withTime ? html`<th scope="col" class="n">${w.quotedAt}</th>` : "",
    withSources ? html`<th scope="col" class="col-wide">${w.seenBy}</th>` : "",
  ];
  const caption = w.caption(withTime ? w.cairoTimes : "");
  const note = withSources ? w.sourcesNote : "";
  return html`<table class="sellers"><caption>${caption}</caption>
<thead><tr>${head}</tr></thead>
<tbody>${join(body, "\n")}</tbody></table>
${note}`;
}
