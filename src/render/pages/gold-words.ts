/**
 * The words of gold's notes and of the global price of an ounce (gold.ts), English and Arabic:
 * for translators, edit the words here; gold.ts only puts them in place. Entries in html`…` are
 * markup: their text is written as it is, the values in ${…} escaped; the Arabic words in the
 * English note are marked as Arabic (html.ts arabic).
 */
import { arabic, html } from "./html.js";
import { wordTable } from "./word-table.js";

export const GOLD_WORDS = wordTable({
  en: {
    /** Under the gold prices: the gram is the metal alone. */
    gram: html`Gold is priced per gram of metal: the shop's workmanship (${arabic("مصنعية")}) and the stamp come on top.`,
    /** On a gold asset's page: what selling gets back. */
    selling: html`When you sell, the workmanship (${arabic("المصنعية")}) is not refunded: a shop pays for the gold by its weight alone.`,
    coin: "A gold pound is a coin of 8 grams of 21 karat gold.",
    /** The global price of an ounce, in dollars; `amount` and `day` come written in the page's language. */
    ounceUsd: "Global price of a gold ounce",
    ounceUsdValue: (amount: string, day: string) =>
      html`<b>US$ ${amount}</b> a troy ounce (31.1 g of fine gold), worked out from the global 24 karat gram price and the global dollar rate of ${day}`,
    /** Or in pounds, on a day without the dollar's global rate. */
    ounceEgp: "Global price of a gold ounce, in pounds",
    ounceEgpValue: (amount: string, day: string) =>
      html`<b>${amount} EGP</b> a troy ounce (31.1 g of fine gold): the global 24 karat gram price of ${day}; there is no global dollar rate of the same day to give it in dollars`,
  },
  ar: {
    gram: html`سعر الجرام للذهب وحده: المصنعية والدمغة تُضافان عليه عند الشراء من المحل.`,
    selling: html`وعند البيع لا تُسترد المصنعية: يدفع المحل ثمن الذهب بوزنه فقط.`,
    coin: "الجنيه الذهب عملة وزنها 8 جرامات من عيار 21.",
    ounceUsd: "سعر أوقية الذهب عالميًا",
    ounceUsdValue: (amount, day) =>
      html`<b>${amount} دولار أمريكي</b> للأوقية (31.1 جرام من الذهب الخالص)، محسوبًا من سعر الجرام عيار 24 العالمي وسعر الدولار العالمي ليوم ${day}`,
    ounceEgp: "سعر أوقية الذهب عالميًا بالجنيه",
    ounceEgpValue: (amount, day) =>
      html`<b>${amount} جنيه</b> للأوقية (31.1 جرام من الذهب الخالص): سعر الجرام عيار 24 العالمي ليوم ${day}؛ لا يوجد سعر دولار عالمي لليوم نفسه لحسابها بالدولار`,
  },
});
