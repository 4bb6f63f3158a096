/**
 * The words of a move since the previous close (change.ts), English and Arabic: for translators,
 * edit the words here; change.ts only puts them in place. The key under the tables is markup
 * (html`…`): its text is written as it is.
 */
import { AR_PIASTRES, AR_POUNDS, arForm, type ArNoun } from "./format.js";
import { html } from "./html.js";
import { wordTable } from "./word-table.js";

/**
 * An Arabic noun after a number written in digits: 3–10 take the plural, 11 and up the accusative
 * singular (a round hundred the genitive), and 1, 2 or a fraction the bare singular ("1 جنيه",
 * "1.25 جنيه"), as price tickers write it.
 */
function arNoun(n: number, noun: ArNoun): string {
  return Number.isInteger(n) && n >= 3 ? arForm(n, noun) : noun.bare;
}

export const CHANGE_WORDS = wordTable({
  en: {
    /** The unit after a move's figure: "33 piastres" under a pound, "1.25 EGP" above (`n` as written, rounded). */
    piastres: (n: number) => `piastre${n === 1 ? "" : "s"}`,
    pounds: (_n: number) => "EGP",
    /**
     * A move that is nothing once rounded to its unit, or none at all. A soft hyphen (U+00AD) lets
     * it break as "un-changed" in a narrow column (the asset page's seller table at 360 px), where
     * the whole word would push the page sideways; a reader sees and hears "unchanged".
     */
    noChange: "un\u00ADchanged",
    /** The key under the tables that show moves. */
    key: html`<p class="note chg-key">▲▼ The move since the previous close: <span class="chg good">green when it is better for you</span> (cheaper to buy, or more when you sell), <span class="chg bad">red when it is worse</span>.</p>`,
  },
  ar: {
    piastres: (n) => arNoun(n, AR_PIASTRES),
    pounds: (n) => arNoun(n, AR_POUNDS),
    noChange: "دون تغيير",
    key: html`<p class="note chg-key">▲▼ التغير منذ الإغلاق السابق: <span class="chg good">بالأخضر إذا كان أفضل لك</span> (شراء أرخص، أو بيع بسعر أعلى)، و<span class="chg bad">بالأحمر إذا كان أسوأ</span>.</p>`,
  },
});
