/**
 * The words of the sellers' pages and of the asset page's "Who is usually best", in English and
 * Arabic, from the customer's side as everywhere (words.ts SIDE_WORDS): on the side you buy at, the
 * record's `sell`, a seller is best when it asks least and "dearer" than the best when it asks more;
 * on the side you sell at, its `buy`, best when it pays most and "less" than the best when it pays
 * less. Counts are digits against digits («12 من 30 يومًا»), as the verdict's are.
 */
import type { PageLang } from "../../feed/paths.js";
import { AR_DAYS, AR_PRICES, AR_TRADING_DAYS, arCount, count, percent } from "./format.js";

type Side = "sell" | "buy";
export type SellerKind = "bank" | "exchange-house" | "gold-dealer";
const pick = <T>(lang: PageLang, en: T, ar: T) => (lang === "ar" ? ar : en);

export const SELLER_WORDS = {
  index: {
    title: ["Every seller", "كل الجهات"],
    lead: [
      "Every bank, exchange house and gold dealer whose prices are here, and how often it had the best price over the last 30 trading days. Tap a seller for its record.",
      "كل بنك وشركة صرافة وتاجر ذهب أسعاره هنا، وكم مرة قدّم أفضل سعر في آخر 30 يوم تداول. اضغط على اسم الجهة لترى سجلها.",
    ],
    description: [
      "Every licensed bank and exchange house and every registered gold dealer in Egypt whose prices are here, and how often each had the best price.",
      "كل البنوك وشركات الصرافة المرخصة وتجار الذهب المقيّدين في مصر ممن أسعارهم هنا، وكم مرة قدّمت كل جهة أفضل سعر.",
    ],
    seller: ["Seller", "الجهة"],
    summary: ["At a glance", "باختصار"],
    none: ["No seller has quoted yet.", "لم تسعّر أي جهة بعد."],
  },
  kind: {
    bank: ["Bank", "بنك"],
    "exchange-house": ["Exchange house", "شركة صرافة"],
    "gold-dealer": ["Gold dealer", "تاجر ذهب"],
  },
  licence: {
    licensed: ["Licensed by", "مرخّصة من"],
    registered: ["Registered with", "مقيّدة لدى"],
    checked: ["checked at", "تم التحقق في"],
    on: ["on", "بتاريخ"],
    licenceNotVerified: ["licence not verified", "الترخيص لم يُتحقَّق منه"],
    registrationNotVerified: ["registration not verified", "التسجيل لم يُتحقَّق منه"],
  },
  page: {
    crumb: ["Sellers", "الجهات"],
    lead: [
      "How often this seller had the best price, how far from the best it usually was, and the usual gap between its two prices, from each trading day's closing prices.",
      "كم مرة قدّمت هذه الجهة أفضل سعر، وكم كانت تبعد عادةً عن أفضل سعر، والفرق المعتاد بين سعريها، من أسعار الإغلاق في كل يوم تداول.",
    ],
    note: [
      "“Usually” is the middle value of the days it quoted: on half of them it was closer to the best, on half further. A trading day is a day with prices. This describes past prices; it is not a forecast.",
      "«عادةً» هي القيمة الوسطى لأيام تسعيرها: في نصفها كانت أقرب إلى أفضل سعر وفي نصفها أبعد. يوم التداول يوم فيه أسعار. هذا وصف لأسعار مضت، وليس توقعًا.",
    ],
    today: ["Latest prices", "آخر الأسعار"],
    noToday: ["No price on", "لا سعر لها يوم"],
    measure: ["Its record", "سجلها"],
    quoted: ["Days with its prices", "أيام فيها أسعارها"],
    spread: ["Usual gap between its two prices", "الفرق المعتاد بين سعريها"],
    lastQuoted: ["Last price", "آخر سعر"],
    never: ["none", "لا يوجد"],
    asset: ["Its page with every seller", "صفحته بكل الجهات"],
    json: ["The same data as JSON:", "البيانات نفسها بصيغة JSON:"],
    prices: ["Prices", "الأسعار"],
    best: ["★ Best", "★ الأفضل"],
    title: [
      (name: string) => `${name}: how often it has the best price · Price Feed`,
      (name: string) => `${name}: كم مرة قدّمت أفضل سعر · Price Feed`,
    ],
    description: [
      (name: string) =>
        `${name}: how often it had the best price for each currency or gold price over the last 30 and 365 trading days, and how far from the best it usually is.`,
      (name: string) =>
        `${name}: كم مرة قدّمت أفضل سعر لكل عملة أو ذهب في آخر 30 و365 يوم تداول، وكم تبعد عادةً عن أفضل سعر.`,
    ],
  },
  /** Between the parts of a sentence: "Quotes 6 prices; US Dollar: best price to buy from …". */
  punctuation: {
    comma: [", ", "، "],
    semicolon: ["; ", "؛ "],
  },
  usually: {
    title: ["Who is usually best", "من يقدّم أفضل سعر عادةً"],
    none: ["No seller had the best price on this side.", "لم تقدّم أي جهة أفضل سعر في هذا الجانب."],
    every: ["Every seller's record", "سجل كل الجهات"],
  },
} as const;

/** One of SELLER_WORDS' pairs in the page's language. */
export const sellerWord = <T>(pair: readonly [T, T], lang: PageLang): T => pair[lang === "ar" ? 1 : 0];

/** "Best price to buy from" / "Best price to sell to": a side's best, from the customer's side. */
export const bestOn = (side: Side, lang: PageLang) =>
  side === "sell"
    ? pick(lang, "Best price to buy from", "أفضل سعر للشراء منها")
    : pick(lang, "Best price to sell to", "أفضل سعر للبيع لها");

/** "When you buy" / "When you sell": the side of a gap. */
export const whenYou = (side: Side, lang: PageLang) =>
  side === "sell" ? pick(lang, "When you buy", "حين تشتري") : pick(lang, "When you sell", "حين تبيع");

/** «فيه», «فيهما», «فيها»: the pronoun that refers back to a count of days. */
const arIn = (n: number) => (n === 1 ? "فيه" : n === 2 ? "فيهما" : "فيها");

/** "on 12 of the 30 days it quoted" / «في 12 من 30 يومًا سعّرت فيها». */
export function bestDays(best: number, quoted: number, lang: PageLang): string {
  if (lang === "ar")
    return `في ${count(best, "ar")} من ${arCount(quoted, AR_DAYS, "genitive", false)} سعّرت ${arIn(quoted)}`;
  return `on ${count(best, "en")} of the ${count(quoted, "en")} day${quoted === 1 ? "" : "s"} it quoted`;
}

/** "30 of 30" trading days: the days it quoted of the window's. */
export const quotedOf = (quoted: number, days: number, lang: PageLang) =>
  pick(
    lang,
    `${count(quoted, "en")} of ${count(days, "en")}`,
    `${count(quoted, "ar")} من ${arCount(days, AR_TRADING_DAYS, "genitive", false)}`,
  );

/**
 * "usually 0.30% dearer than the best" on the side you buy at, "usually 0.20% less than the best"
 * on the side you sell at; 0 is "usually the best price itself".
 */
export function usualGap(side: Side, pct: number | null, lang: PageLang): string {
  if (pct === null) return pick(lang, "no price on this side", "لا سعر في هذا الجانب");
  if (pct === 0) return pick(lang, "usually the best price itself", "عادةً هو أفضل سعر");
  const p = percent(pct, lang);
  if (side === "sell") return pick(lang, `usually ${p} dearer than the best`, `عادةً أغلى من أفضل سعر بنسبة ${p}`);
  return pick(lang, `usually ${p} less than the best`, `عادةً أقل من أفضل سعر بنسبة ${p}`);
}

/** The window's name: "Last 30 trading days", or, while the data is younger, all of them so far. */
export function windowName(days: number, windowDays: number, lang: PageLang): string {
  if (days >= windowDays)
    return pick(lang, `Last ${count(days, "en")} trading days`, `آخر ${arCount(days, AR_TRADING_DAYS, "genitive")}`);
  return pick(
    lang,
    `All ${count(days, "en")} trading days so far`,
    `كل الأيام حتى الآن: ${arCount(days, AR_TRADING_DAYS, "nominative")}`,
  );
}

/** "best on 9 of 22 trading days" / «الأفضل في 9 من 22 يوم تداول». */
export const bestOfDays = (best: number, days: number, lang: PageLang) =>
  pick(
    lang,
    `best on ${count(best, "en")} of ${count(days, "en")} trading day${days === 1 ? "" : "s"}`,
    `الأفضل في ${count(best, "ar")} من ${arCount(days, AR_TRADING_DAYS, "genitive", false)}`,
  );

/** "Quotes 6 prices" / «تسعّر ستة أسعار». */
export const quotesPrices = (n: number, lang: PageLang) =>
  pick(lang, `Quotes ${count(n, "en")} price${n === 1 ? "" : "s"}`, `تسعّر ${arCount(n, AR_PRICES, "genitive")}`);

/** "not the best on any side of any of them" in the last window. */
export const neverBest = (lang: PageLang) =>
  pick(lang, "never the best price in these days", "لم تقدّم أفضل سعر في هذه الأيام");
