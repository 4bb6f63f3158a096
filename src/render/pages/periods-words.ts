/**
 * The words of an asset page's charts by period (periods.ts), English and Arabic: for translators,
 * edit the words here; periods.ts only puts them in place (the periods' own names are its PERIODS).
 */
import { AR_DAYS, arCount, count } from "./format.js";
import { wordTable } from "./word-table.js";

export const PERIODS_WORDS = wordTable({
  en: {
    title: "Prices over a week, a month, a year",
    noHistory: "No history yet.",
    download: "Download the full history, every day since the data begins:",
    /** A period the data begins within: "Year: only since 2 August 2026 (110 days)"; `date` comes written. */
    since: (name: string, date: string, days: number) =>
      `${name}: only since ${date} (${count(days, "en")} day${days === 1 ? "" : "s"})`,
  },
  ar: {
    title: "الأسعار على مدى أسبوع وشهر وسنة",
    noHistory: "لا يوجد تاريخ بعد.",
    download: "نزّل التاريخ الكامل، كل يوم منذ بداية البيانات:",
    since: (name, date, days) => `${name}: منذ ${date} فقط (${arCount(days, AR_DAYS, "genitive")})`,
  },
});
