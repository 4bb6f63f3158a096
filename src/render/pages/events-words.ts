/**
 * The words of "What changed" hour by hour (events.ts), one sentence per event on the pages and in
 * the Atom feeds, English and Arabic: for translators, edit the words here; events.ts only puts
 * them in place. Names, prices and dates come in already written in the page's language.
 */
import { AR_DAYS, arCount } from "./format.js";
import { wordTable } from "./word-table.js";

export const EVENTS_WORDS = wordTable({
  en: {
    /** The section's heading, over the last `days` days. */
    title: (days: number) => `What changed in the last ${days} days`,
    follow: "Follow every change:",
    hourByHour: "Hour by hour",
    everyHourly: (n: string) => `Every hourly change (${n})`,
    /** A source's events. */
    failing: (name: string, reason: string) => `${name} started failing: ${reason}`,
    worksAgain: (name: string, reason: string) => `${name} works again (it had failed: ${reason})`,
    graduated: (name: string, reason: string) =>
      `${name} finished its probation: its prices count from now on (${reason})`,
    rechecked: (name: string, reason: string) =>
      `${name} is being checked again: its prices do not count until it proves itself (${reason})`,
    /** An asset's events: "US Dollar, you buy at: …". */
    comma: ", ",
    bestSeller: (subject: string, now: string, was: string) =>
      `${subject}: the best price is now at ${now}, was at ${was}`,
    /** The best moved to another seller at the same price: who offers it changed, the price did not. */
    bestSellerAlso: (subject: string, value: string, now: string, was: string) =>
      `${subject}: the best price, ${value}, is now also at ${now} (it was at ${was})`,
    noSeller: "no seller",
    verdict: (subject: string, now: string, was: string) => `${subject}: now “${now}”, was “${was}”`,
    official: (subject: string, now: string, was: string) =>
      `${subject}: the Central Bank of Egypt's official rate is now: ${now}; was: ${was}`,
    noOfficial: "none in force",
    freshness: (subject: string, now: string, was: string) => `${subject}: prices are now ${now}, were ${was}`,
    confidence: (subject: string, now: string, was: string) => `${subject}: confidence is now ${now}, was ${was}`,
    /** The market's states and the confidence's levels, as the sentences above name them. */
    states: {
      fresh: "up to date",
      closed: "the latest before the market closed",
      delayed: "delayed",
      stale: "out of date",
    },
    levels: { high: "high", medium: "medium", low: "low", none: "none" },
  },
  ar: {
    title: (days) => `ما الذي تغيّر في آخر ${arCount(days, AR_DAYS, "genitive")}`,
    follow: "تابع كل التغييرات:",
    hourByHour: "ساعة بساعة",
    everyHourly: (n) => `كل التغييرات ساعة بساعة (${n})`,
    failing: (name, reason) => `المصدر ${name} بدأ يتعثر: ${reason}`,
    worksAgain: (name, reason) => `المصدر ${name} يعمل من جديد (كان قد تعثر: ${reason})`,
    graduated: (name, reason) => `المصدر ${name} أنهى فترة الاختبار: أسعاره تُحتسب من الآن (${reason})`,
    rechecked: (name, reason) => `المصدر ${name} تحت الاختبار من جديد: أسعاره لا تُحتسب حتى يثبت سلامتها (${reason})`,
    comma: "، ",
    bestSeller: (subject, now, was) => `${subject}: أفضل سعر الآن لدى ${now}، وكان لدى ${was}`,
    bestSellerAlso: (subject, value, now, was) =>
      `${subject}: أفضل سعر، ${value}، أصبح أيضًا لدى ${now} (وكان لدى ${was})`,
    noSeller: "لا توجد جهة",
    verdict: (subject, now, was) => `${subject}: الآن «${now}»، وكان «${was}»`,
    official: (subject, now, was) => `${subject}: السعر الرسمي للبنك المركزي المصري الآن: ${now}؛ وكان: ${was}`,
    noOfficial: "لا يوجد سعر سارٍ",
    freshness: (subject, now, was) => `${subject}: الأسعار الآن ${now}، وكانت ${was}`,
    confidence: (subject, now, was) => `${subject}: درجة الثقة الآن ${now}، وكانت ${was}`,
    states: {
      fresh: "محدّثة",
      closed: "آخر أسعار قبل إغلاق السوق",
      delayed: "متأخرة",
      stale: "قديمة",
    },
    levels: { high: "عالية", medium: "متوسطة", low: "منخفضة", none: "منعدمة" },
  },
});
