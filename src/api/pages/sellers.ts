/**
 * An asset's full seller table, in the feed's order (best first on the asset's default side,
 * docs/methodology.md §3.2): seller, the name in the other language, the price the seller buys at
 * and sells at, the time of its quote and the sources that reported it when the feed carries them.
 * The best price of each side is marked by a word and bold type as well as by its background.
 *
 * On a phone the table keeps four columns (seller, buys at, sells at, time) and fits 360 px: the
 * other-language name and the sources' numbers move to lines under the seller's name.
 */
import type { Asset, SellerRow } from "../../schema/outputs.js";
import type { PageLang } from "../../feed/paths.js";
import { english, esc, nameIn, otherName } from "./html.js";
import { cairoClock, cairoDay, count, price, shortDate } from "./format.js";

/** The members a row carries since seller rows name their quote's time and sources; read defensively. */
type Row = Partial<Pick<SellerRow, "id" | "observedAt" | "source" | "sources">> &
  Pick<SellerRow, "seller" | "sellerAr" | "buy" | "sell">;

export interface SellerTableOptions {
  lang: PageLang;
  /** Source id → its name, in the order of the sources configuration. */
  sourceNames: ReadonlyMap<string, string>;
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

export function sellerTable(asset: Asset, o: SellerTableOptions): string {
  const { lang } = o;
  const ar = lang === "ar";
  const rows = asset.sellers as Row[];
  const withTime = rows.some((r) => (r.observedAt ?? null) !== null);
  // Sources are long names: the table shows their numbers, the list under it the names. The source
  // whose quote is shown comes first, in bold; the others also reported the seller that day.
  const ranks = [...o.sourceNames.keys()];
  const used = [...new Set(rows.flatMap((r) => [...(r.source ? [r.source] : []), ...(r.sources ?? [])]))].sort(
    (a, b) => order(ranks, a) - order(ranks, b),
  );
  const withSources = used.length > 0;
  const numberOf = (id: string) => count(used.indexOf(id) + 1, lang);
  const sourcesOf = (r: Row) => {
    const chosen = r.source ?? null;
    const others = (r.sources ?? []).filter((x) => x !== chosen);
    return [...(chosen ? [`<b>${numberOf(chosen)}</b>`] : []), ...others.map(numberOf)].join(" · ");
  };
  const mark = ar ? "★ الأفضل" : "★ Best";
  const cell = (r: Row, side: "sell" | "buy") =>
    isBest(asset, side, r)
      ? `<td class="n best">${price(r[side], asset.decimals, lang)}<span class="best-mark">${mark}</span></td>`
      : `<td class="n">${price(r[side], asset.decimals, lang)}</td>`;
  const time = (r: Row) => {
    const at = r.observedAt ?? null;
    if (at === null) return `<td class="n">—</td>`;
    const day = cairoDay(at);
    return `<td class="n"><time datetime="${esc(at)}">${day === asset.asOf ? "" : `${esc(shortDate(day, lang))} `}${esc(cairoClock(at, lang))}</time></td>`;
  };
  const body = rows
    .map((r) => {
      const other = otherName(lang, r.seller, r.sellerAr);
      const sources = withSources ? sourcesOf(r) : "";
      const via = sources ? `<span class="sub">${ar ? "المصادر: " : "Sources: "}${sources}</span>` : "";
      const id = r.id ? ` id="seller-${esc(r.id)}"` : "";
      return (
        `<tr${id}><th scope="row">${nameIn(lang, r.seller, r.sellerAr)}${other ? `<span class="sub">${other}</span>` : ""}${via}</th>` +
        `<td class="col-wide">${other || "—"}</td>${cell(r, "buy")}${cell(r, "sell")}${withTime ? time(r) : ""}` +
        `${withSources ? `<td class="col-wide n">${sources || "—"}</td>` : ""}</tr>`
      );
    })
    .join("\n");
  const head = [
    `<th scope="col">${ar ? "الجهة" : "Seller"}</th>`,
    `<th scope="col" class="col-wide">${ar ? "الاسم بالإنجليزية" : "Arabic name"}</th>`,
    `<th scope="col" class="n">${ar ? "سعر الشراء" : "Buys at"}</th>`,
    `<th scope="col" class="n">${ar ? "سعر البيع" : "Sells at"}</th>`,
    withTime ? `<th scope="col" class="n">${ar ? "وقت السعر" : "Quoted at"}</th>` : "",
    withSources ? `<th scope="col" class="col-wide n">${ar ? "المصادر" : "Sources"}</th>` : "",
  ].join("");
  const caption = ar
    ? `سعر الشراء: ما تدفعه لك الجهة حين تبيع لها (الأعلى أفضل لك). سعر البيع: ما تدفعه أنت حين تشتري (الأقل أفضل لك).${withTime ? " الوقت بتوقيت القاهرة." : ""} ★ تميّز أفضل سعر في كل جانب.`
    : `Buys at: what the seller pays you when you sell (higher is better for you). Sells at: what you pay when you buy (lower is better for you).${withTime ? " Times are Cairo time." : ""} ★ marks the best price on each side.`;
  const list = withSources
    ? `<p class="note">${ar ? "المصادر (الرقم الغامق هو مصدر السعر المعروض، والباقي رصدوا الجهة أيضًا في التاريخ نفسه):" : "Sources (the number in bold gave the price shown; the others also reported the seller that day):"}</p>
<ol class="sources">${used.map((id) => `<li>${ar ? english(o.sourceNames.get(id) ?? id) : esc(o.sourceNames.get(id) ?? id)}</li>`).join("")}</ol>`
    : "";
  return `<table class="sellers"><caption>${caption}</caption>
<thead><tr>${head}</tr></thead>
<tbody>${body}</tbody></table>
${list}`;
}
