/**
 * The words of an asset's table of every seller (sellers.ts), English and Arabic: for translators,
 * edit the words here; sellers.ts only puts them in place. Entries in html`…` are markup: their
 * text is written as it is.
 */
import { html } from "./html.js";
import { AR_REPORTING_SOURCES, arCount, count } from "./format.js";
import { wordTable } from "./word-table.js";

export const SELLER_TABLE_WORDS = wordTable({
  en: {
    seller: "Seller",
    otherName: "Arabic name",
    quotedAt: "Quoted at",
    seenBy: "Seen by",
    /** Under a seller's name: how many sources reported it that day. */
    seenByCount: (n: number) => `Seen by ${count(n, "en")} source${n === 1 ? "" : "s"}`,
    comma: ", ",
    best: "★ Best",
    /** The table's caption; `times` is cairoTimes when the rows have a time. */
    caption: (times: string) =>
      `You buy at: what the seller asks when you buy from it (lower is better for you). You sell at: what it pays when you sell to it (higher is better for you). ▲▼ the move since its previous close: green when it is better for you, red when it is worse.${times} ★ marks the best price on each side.`,
    cairoTimes: " Times are Cairo time.",
    sourcesNote: html`<p class="note">“Seen by”: the sources that reported the seller's price on this date; the price shown is from the one in bold.</p>`,
  },
  ar: {
    seller: "الجهة",
    otherName: "الاسم بالإنجليزية",
    quotedAt: "وقت السعر",
    seenBy: "رصدها",
    seenByCount: (n) => `رصدها ${arCount(n, AR_REPORTING_SOURCES, "nominative")}`,
    comma: "، ",
    best: "★ الأفضل",
    caption: (times) =>
      `تشتري بـ: ما تطلبه الجهة حين تشتري منها (الأقل أفضل لك). تبيع بـ: ما تدفعه لك حين تبيع لها (الأعلى أفضل لك). ▲▼ التغير منذ إغلاقها السابق: بالأخضر إذا كان أفضل لك، وبالأحمر إذا كان أسوأ.${times} ★ تميّز أفضل سعر في كل جانب.`,
    cairoTimes: " الأوقات بتوقيت القاهرة.",
    sourcesNote: html`<p class="note">«رصدها»: المصادر التي نقلت سعر الجهة في هذا التاريخ؛ السعر المعروض من المصدر المكتوب بخط عريض.</p>`,
  },
});
