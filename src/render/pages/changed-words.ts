/**
 * The words of "What changed" day by day (changed.ts), on an asset's page and on the home page,
 * English and Arabic: for translators, edit the words here; changed.ts only puts them in place.
 * Prices and dates come in already written in the page's language (format.ts); a count comes as a
 * number, and each language says it with its own plural (format.ts arCount for Arabic). Entries in
 * html`…` are markup: their text is written as it is, the values in ${…} escaped.
 */
import { html, type SafeHtml } from "./html.js";
import { AR_DAYS, AR_SELLERS, AR_TIMES, AR_TRADING_DAYS, arCount, count } from "./format.js";
import { wordTable } from "./word-table.js";

/** A seller's name, or the mark of a move: markup made by the page. */
type Part = SafeHtml | "";

/** "once", "twice", "3 times". */
const times = (n: number) => (n === 1 ? "once" : n === 2 ? "twice" : `${count(n, "en")} times`);

export const CHANGED_WORDS = wordTable({
  en: {
    /** An asset's sentence per side: "the best price was 47.75 on Monday 20 October, and is 47.87 on …". */
    bestPrice: "the best price",
    referencePrice: "the reference price",
    noSeller: "no seller quoted it in these days.",
    oneDay: (price: string, date: string) =>
      html`one day of prices so far (${price} on ${date}): nothing to compare it with yet.`,
    moved: (what: string, from: string, fromDate: string, to: string, toDate: string, mark: Part) =>
      html`${what} was ${from} on ${fromDate}, and is ${to} on ${toDate}${mark}.`,
    sameSeller: (name: Part) => html` The best was at ${name} every day.`,
    atNow: (name: Part) => html`; it is now at ${name}`,
    changedHands: (n: number, among: number, atNow: Part) =>
      html` The best changed hands ${times(n)}, among ${count(among, "en")} seller${among === 1 ? "" : "s"}${atNow}.`,
    official: (from: string, fromDate: string, to: string, toDate: string, mark: Part) =>
      html`<p><b>The Central Bank of Egypt's official rate (mid)</b>: ${from} on ${fromDate}, and ${to} on ${toDate} (${mark}).</p>`,
    /** An asset's table of every trading day. */
    noPrices: (date: string) => `No prices in these days: the latest are of ${date}.`,
    summary: (days: number) => `Day by day: ${count(days, "en")} trading day${days === 1 ? "" : "s"}`,
    caption:
      "Each trading day's close: the best price on each side, its move since the trading day before, and who offered it (“New” when the best changed hands).",
    date: "Date",
    reference: "Reference price",
    newSeller: "New:",
    soFar: "so far",
    /** The home page's rows, an asset each. */
    asset: "Asset",
    marketCaption: (days: number, date: string) =>
      `Over the ${days} days to ${date}, from each trading day's close: how each side's best price moved, and how often it changed hands. Each asset's page has them day by day.`,
    otherPrices: "How the other prices changed",
    oneDayShort: "one day of prices",
    sameBest: "the same best seller every day",
    handsChanged: (n: number) => `best changed hands ${times(n)}`,
    fromTo: (from: string, to: string) => `from ${from} to ${to}`,
  },
  ar: {
    bestPrice: "أفضل سعر",
    referencePrice: "السعر المرجعي",
    noSeller: "لم تسعّره أي جهة في هذه الأيام.",
    oneDay: (price, date) => html`يوم واحد من الأسعار حتى الآن (${price} يوم ${date})، فلا شيء يُقارن به بعد.`,
    moved: (what, from, fromDate, to, toDate, mark) =>
      html`كان ${what} ${from} يوم ${fromDate}، وهو ${to} يوم ${toDate}${mark}.`,
    sameSeller: (name) => html` وكان أفضل سعر لدى ${name} كل يوم.`,
    atNow: (name) => html`، وهو الآن لدى ${name}`,
    changedHands: (n, among, atNow) =>
      html` وانتقل أفضل سعر من جهة إلى أخرى ${arCount(n, AR_TIMES, "genitive")} بين ${arCount(among, AR_SELLERS, "genitive")}${atNow}.`,
    official: (from, fromDate, to, toDate, mark) =>
      html`<p><b>السعر الرسمي للبنك المركزي المصري (المتوسط)</b>: كان ${from} يوم ${fromDate}، وهو ${to} يوم ${toDate} (${mark}).</p>`,
    noPrices: (date) => `لا توجد أسعار في هذه الأيام: آخرها يوم ${date}.`,
    summary: (days) => `يومًا بيوم: ${arCount(days, AR_TRADING_DAYS, "nominative", false)}`,
    caption:
      "إغلاق كل يوم تداول: أفضل سعر في كل جانب، وتغيره عن يوم التداول السابق، ولدى أي جهة كان («جهة جديدة» حين انتقل إليها).",
    date: "التاريخ",
    reference: "السعر المرجعي",
    newSeller: "جهة جديدة:",
    soFar: "حتى الآن",
    asset: "الأصل",
    marketCaption: (days, date) =>
      `خلال ${arCount(days, AR_DAYS, "genitive")} حتى ${date}، من إغلاق كل يوم تداول: تغيّر أفضل سعر في كل جانب، وكم مرة انتقل من جهة إلى أخرى. صفحة كل سعر تعرضها يومًا بيوم.`,
    otherPrices: "تغيّر بقية الأسعار",
    oneDayShort: "يوم واحد من الأسعار",
    sameBest: "الجهة الأفضل نفسها كل يوم",
    handsChanged: (n) => `انتقل أفضل سعر ${arCount(n, AR_TIMES, "genitive")}`,
    fromTo: (from, to) => `من ${from} إلى ${to}`,
  },
});
