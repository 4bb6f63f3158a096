/**
 * The words of the docs pages' glossary (glossary.ts), English and Arabic: for translators, edit
 * the meanings and headings here. The labels themselves are the pages' own words (words.ts), so a
 * label cannot change on the pages and not in the glossary.
 */
import { wordTable } from "./word-table.js";

export const GLOSSARY_WORDS = wordTable({
  en: {
    onPages: "On the pages",
    inApi: "In the API",
    meaning: "Meaning",
    sell: "What a seller asks when you buy from it; lower is better for you. Banks head this column “selling price”.",
    buy: "What a seller pays when you sell to it; higher is better for you. Banks head this column “buying price”.",
    move: "▲▼ the move",
    moveMeaning: "The difference from the previous close, in piastres under a pound, in pounds above.",
    /** A verdict's full words, and the home page's few words for it: "Cheaper to buy than usual (home page: cheaper than usual)". */
    homePage: "home page",
    verdict: "Today against the days before; never a forecast.",
    official: "Official rate",
    officialMeaning: "The Central Bank of Egypt's rate.",
    global: "Global mid-market rate",
    globalMeaning: "The world market's mid rate, for comparison only.",
  },
  ar: {
    onPages: "على الصفحات",
    inApi: "في الواجهة البرمجية",
    meaning: "المعنى",
    sell: "ما تطلبه الجهة حين تشتري منها؛ الأقل أفضل لك. البنوك تسميه «سعر البيع».",
    buy: "ما تدفعه لك الجهة حين تبيع لها؛ الأعلى أفضل لك. البنوك تسميه «سعر الشراء».",
    move: "▲▼ التغير",
    moveMeaning: "الفرق عن الإغلاق السابق، بالقروش تحت الجنيه وبالجنيه فوقه.",
    homePage: "في الرئيسية",
    verdict: "وصف لليوم مقارنةً بالأيام السابقة، وليس توقعًا.",
    official: "السعر الرسمي",
    officialMeaning: "سعر البنك المركزي المصري.",
    global: "السعر العالمي",
    globalMeaning: "سعر السوق العالمي، للمقارنة فقط.",
  },
});
