/**
 * The words of the home page (home.ts), English and Arabic: for translators, edit the words here;
 * home.ts only puts them in place. The verdicts' and the market's words are words.ts's, shared
 * with the asset pages.
 */
import { AR_PRICES, arCount, count } from "./format.js";
import { wordTable } from "./word-table.js";

/** "ثمانية أسعار أخرى", "سعران آخران", "12 سعرًا آخر": the count, and the adjective agreeing with its noun. */
function arOthers(n: number): string {
  if (n === 1) return "سعر آخر";
  if (n === 2) return "سعران آخران";
  const r = n % 100;
  return `${arCount(n, AR_PRICES, "nominative")} ${r >= 3 && r <= 10 ? "أخرى" : "آخر"}`;
}

export const HOME_WORDS = wordTable({
  en: {
    heading: "Currency and gold prices in Egypt",
    lead: "The best licensed price in EGP (per gram for gold), and ▲▼ the move since the previous close. Parallel-market rates are not included.",
    description:
      "Best licensed prices for currencies and gold in Egypt, with every bank's, exchange house's and dealer's price.",
    reference: "Reference price: no licensed seller quotes it",
    /** The fold of the prices after the headline ones: "Every price: 6 more". */
    more: (n: number) => `Every price: ${count(n, "en")} more`,
  },
  ar: {
    heading: "أسعار العملات والذهب في مصر",
    lead: "أفضل سعر لدى الجهات المرخصة بالجنيه (للجرام في الذهب)، و▲▼ التغير منذ الإغلاق السابق. لا تشمل أسعار السوق الموازية.",
    description: "أفضل أسعار العملات والذهب لدى الجهات المرخصة في مصر، مع سعر كل بنك وصرافة وتاجر.",
    reference: "سعر مرجعي: لا تسعّره جهة مرخصة",
    more: (n) => `كل الأسعار: ${arOthers(n)}`,
  },
});
