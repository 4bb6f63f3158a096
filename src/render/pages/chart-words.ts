/**
 * The words of an asset's charts (chart.ts): the legend, the description a screen reader reads and
 * the table of the chart's numbers, English and Arabic. For translators, edit the words here;
 * chart.ts only puts them in place. Prices and dates come in already written in the page's language.
 */
import { html } from "./html.js";
import { AR_TRADING_DAYS, AR_WEEKS, arCount } from "./format.js";
import { wordTable } from "./word-table.js";

export const CHART_WORDS = wordTable({
  en: {
    /** The legend, a line for each layer drawn. */
    legend: {
      sell: "You buy at: from the lowest price asked (line) to the highest",
      buy: "You sell at: from the lowest price paid to the highest (line)",
      ref: "Reference price (global mid-market): the day's low to high",
      bench: "Central bank's official rate (mid)",
    },
    /** The description: "88 trading days from … to …, EGP per USD. Latest day: …". */
    tradingDays: (n: number) => `${n} trading day${n === 1 ? "" : "s"}`,
    weeks: (n: number) => `${n} week${n === 1 ? "" : "s"} (each week's close: its last trading day)`,
    bench: (official: string) => `, official rate ${official}`,
    reference: (span: string, from: string, to: string, unit: string, low: string, high: string, bench: string) =>
      `${span} from ${from} to ${to}, ${unit}. Latest day: reference price ${low} to ${high}${bench}.`,
    sides: (span: string, from: string, to: string, unit: string, sell: string, buy: string, bench: string) =>
      `${span} from ${from} to ${to}, ${unit}. Latest day: you buy at ${sell} at best, you sell at ${buy} at best${bench}.`,
    /** The table of the chart's numbers. */
    table: html`The chart's numbers as a table`,
    weeklyTable: html`The chart's numbers as a table, a row a week (the week's close: its last trading day)`,
    date: "Date",
    referenceLow: "Reference low",
    referenceHigh: "Reference high",
    referenceOfficial: "Official (mid)",
    sellBest: "You buy at (best)",
    buyBest: "You sell at (best)",
    official: "Official (mid)",
  },
  ar: {
    legend: {
      sell: "تشتري بـ: من أقل سعر (الخط) إلى أعلى سعر",
      buy: "تبيع بـ: من أقل سعر إلى أعلى سعر (الخط)",
      ref: "السعر المرجعي (السعر العالمي): من أدنى إلى أعلى سعر في كل يوم",
      bench: "السعر الرسمي للبنك المركزي (المتوسط)",
    },
    tradingDays: (n) => arCount(n, AR_TRADING_DAYS, "nominative", false),
    weeks: (n) => `${arCount(n, AR_WEEKS, "nominative", false)} (إغلاق كل أسبوع: آخر يوم تداول فيه)`,
    bench: (official) => `، والسعر الرسمي ${official}`,
    reference: (span, from, to, unit, low, high, bench) =>
      `${span} من ${from} إلى ${to}، ${unit}. آخر يوم: السعر المرجعي من ${low} إلى ${high}${bench}.`,
    sides: (span, from, to, unit, sell, buy, bench) =>
      `${span} من ${from} إلى ${to}، ${unit}. آخر يوم: تشتري بـ ${sell} على الأقل، وتبيع بـ ${buy} على الأكثر${bench}.`,
    table: html`أرقام الرسم البياني في جدول`,
    weeklyTable: html`أرقام الرسم البياني في جدول، صف لكل أسبوع (إغلاقه: آخر يوم تداول فيه)`,
    date: "التاريخ",
    referenceLow: "أدنى سعر مرجعي",
    referenceHigh: "أعلى سعر مرجعي",
    referenceOfficial: "السعر الرسمي",
    sellBest: "تشتري بـ (أفضل سعر)",
    buyBest: "تبيع بـ (أفضل سعر)",
    official: "السعر الرسمي (المتوسط)",
  },
});
