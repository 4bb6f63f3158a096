/**
 * The words of an asset page's "What it comes to" (converter.ts), the table of common amounts and
 * the field for any amount, English and Arabic: for translators, edit the words here; converter.ts
 * only puts them in place. A currency's amounts are counted in its code on English pages and in its
 * Arabic name on Arabic ones (html.ts nameText).
 */
import { wordTable } from "./word-table.js";

export const CONVERTER_WORDS = wordTable({
  en: {
    title: "What it comes to",
    amount: "Amount",
    atReference: "At the reference price",
    official: "Official rate",
    /** The table's caption: with the official mid's column, and for gold. */
    caption: (official: boolean, gold: boolean) =>
      `In Egyptian pounds, at the best price on each side shown above${official ? " and at the official mid rate" : ""}. Fees and commissions${gold ? " and workmanship" : ""} are not included.`,
    /** An amount's unit in the table's rows: "10 g", "1 coin", "2 coins". */
    amountUnits: { g: "g", coin: "coin", coins: "coins" },
    /** The field for any amount: "Any amount (grams)", each total in EGP. */
    anyAmount: (unit: string) => `Any amount (${unit})`,
    fieldUnits: { g: "grams", coin: "coins" },
    egp: "EGP",
  },
  ar: {
    title: "كم يساوي؟",
    amount: "الكمية",
    atReference: "بالسعر المرجعي",
    official: "السعر الرسمي",
    caption: (official, gold) =>
      `بالجنيه المصري، بأفضل سعر في كل جانب كما يظهر أعلاه${official ? "، وبمتوسط السعر الرسمي" : ""}. الرسوم والعمولات${gold ? " والمصنعية" : ""} غير محسوبة.`,
    amountUnits: { g: "جرام", coin: "قطعة", coins: "قطعة" },
    anyAmount: (unit) => `أي كمية (${unit})`,
    fieldUnits: { g: "جرام", coin: "قطعة" },
    egp: "جنيه",
  },
});
