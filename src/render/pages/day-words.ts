/**
 * The words of a past day's page and of the list of days (day.ts), English and Arabic: for
 * translators, edit the words here; day.ts only puts them in place. Counts and dates come in
 * already written in the page's language (format.ts).
 */
import { wordTable } from "./word-table.js";

export const DAY_WORDS = wordTable({
  en: {
    /** "Prices on Thursday 19 November 2026". */
    title: (date: string) => `Prices on ${date}`,
    description: (date: string) =>
      `Currency and gold prices of Egypt's licensed sellers on ${date}: the best price and every seller's.`,
    lead: "How each price closed that day: the best on each side and who offered it, the official and global rates, and each seller's last price.",
    prices: "Prices",
    everyDay: "Every day",
    official: "Official",
    global: "Global",
    comma: ", ",
    reference: "Reference price: no licensed seller quotes it",
    everySeller: (n: string) => `Every seller (${n})`,
    best: "★ Best",
    closesOf: (n: string) => `: every seller's close (${n})`,
    seller: "Seller",
    quotedAt: "Quoted at",
    closes: "Every seller's close",
    closesNote: "Each seller's last price that day, times in Cairo time. ★ marks the best price on each side.",
    json: "The same data as JSON:",
    /** The links to the days around a day. */
    before: "The day before",
    after: "The day after",
    today: "today",
    aroundLabel: "Other days",
    /** The list of every day. */
    indexTitle: "Prices on every past day",
    indexLead:
      "Every day since the data begins, up to yesterday: how each price closed that day, at every seller. Today's prices are on the home page.",
    noDays: "No days yet.",
    indexDescription: "Currency and gold prices of Egypt's licensed sellers on any past day.",
    /** An asset's links to the days before today. */
    anotherDay: "Prices on another day:",
    everyDayLink: "every day",
  },
  ar: {
    title: (date) => `الأسعار يوم ${date}`,
    description: (date) => `أسعار العملات والذهب لدى الجهات المرخصة في مصر يوم ${date}: أفضل سعر وكل جهة.`,
    lead: "إغلاق كل سعر في ذلك اليوم: أفضل سعر في كل جانب ولدى أي جهة، والسعر الرسمي والعالمي، وآخر سعر لكل جهة.",
    prices: "الأسعار",
    everyDay: "كل الأيام",
    official: "الرسمي",
    global: "العالمي",
    comma: "، ",
    reference: "سعر مرجعي: لا تسعّره جهة مرخصة",
    everySeller: (n) => `كل الجهات (${n})`,
    best: "★ الأفضل",
    closesOf: (n) => `: إغلاق كل جهة (${n})`,
    seller: "الجهة",
    quotedAt: "وقت السعر",
    closes: "إغلاق كل جهة",
    closesNote: "آخر سعر لكل جهة في ذلك اليوم، والأوقات بتوقيت القاهرة. ★ تميّز أفضل سعر في كل جانب.",
    json: "البيانات نفسها بصيغة JSON:",
    before: "اليوم السابق",
    after: "اليوم التالي",
    today: "اليوم",
    aroundLabel: "أيام أخرى",
    indexTitle: "الأسعار في كل يوم مضى",
    indexLead:
      "كل يوم منذ بداية البيانات حتى أمس: إغلاق كل سعر في ذلك اليوم ولدى كل جهة. أسعار اليوم في الصفحة الرئيسية.",
    noDays: "لا توجد أيام بعد.",
    indexDescription: "أسعار العملات والذهب لدى الجهات المرخصة في مصر في أي يوم مضى.",
    anotherDay: "الأسعار في يوم آخر:",
    everyDayLink: "كل الأيام",
  },
});
