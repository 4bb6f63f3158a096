/**
 * The words of an asset's page (asset.ts), English and Arabic: for translators, edit the words
 * here; asset.ts only puts them in place. Names, prices and dates come in already written in the
 * page's language (format.ts).
 */
import { wordTable } from "./word-table.js";

export const ASSET_WORDS = wordTable({
  en: {
    title: (name: string) => `${name}: every licensed seller's price · Price Feed`,
    description: (name: string) =>
      `${name} in Egypt: what every licensed seller buys and sells at, the official rate, and charts over a week, a month and a year.`,
    feedTitle: (name: string) => `What changed, ${name} (Atom)`,
    prices: "Prices",
    /** One side's box: the best price's move since a close, "since the close of Wednesday 18 November (47.90)". */
    since: (date: string, price: string) => `since the close of ${date} (${price})`,
    noQuotes: "No seller quotes this side.",
    reference: "Reference price",
    /** The references beside the sides. */
    references: "References",
    official: "Central Bank of Egypt official rate",
    noOfficial: "none for this asset",
    global: "Global mid-market rate",
    referencesNote: "For comparison only: not prices you can deal at with a seller.",
    /** Every seller's table. */
    everySeller: (n: number) => `Every licensed seller (${n})`,
    noSeller: "No seller quoted it on this day.",
    seller: "Seller",
    /** The quotes of sources on probation (docs/methodology.md "New sources: probation"). */
    probation: "Being checked",
    probationLead:
      "These prices come from new sources that have not yet proved themselves: every check runs on them, but they count in no table, best price or verdict above until their source finishes its probation.",
    source: "Source",
    result: "Result",
    passed: "passed our checks",
    refused: "refused",
    /** Why a rule refused a quote (docs/methodology.md §2.1), by its reason code; a code not here shows as it is. */
    refusal: {
      crossed: "it pays more than it asks",
      "implausible-sell": "its asking price is far from the market's",
      "implausible-buy": "the price it pays is far from the market's",
      "side-doubtful": "probably read on the wrong side",
      "unlicensed-seller": "a seller we do not know",
      "not-licensed-for-category": "not licensed for this",
      "reference-asset": "this price is not sold by sellers here",
      "observed-in-future": "dated in the future",
      "out-of-range-price": "a number no price can be",
    },
    pastNote:
      "The comparison with earlier days describes past prices; it is not a forecast. A day with the same price counts as half.",
    json: "The same data as JSON:",
    /** The WhatsApp share link's text: "US Dollar: You buy at 47.95 EGP, You sell at 47.85 EGP (…, 14:05 Cairo time)." */
    share: "Share the price on WhatsApp",
    egp: "EGP",
    referencePrice: "reference price",
    comma: ", ",
    cairoTime: "Cairo time",
  },
  ar: {
    title: (name) => `${name}: أسعار كل الجهات المرخصة · Price Feed`,
    description: (name) =>
      `أسعار ${name} لدى كل الجهات المرخصة في مصر: بكم تشتري وبكم تبيع، والسعر الرسمي، والرسم البياني لأسبوع وشهر وسنة.`,
    feedTitle: (name) => `ما الذي تغيّر في ${name} (Atom)`,
    prices: "الأسعار",
    since: (date, price) => `منذ إغلاق ${date} (${price})`,
    noQuotes: "لا توجد أسعار لهذا الجانب.",
    reference: "السعر المرجعي",
    references: "أسعار مرجعية",
    official: "السعر الرسمي للبنك المركزي المصري",
    noOfficial: "لا يوجد سعر رسمي لهذا الأصل",
    global: "السعر العالمي (متوسط السوق)",
    referencesNote: "للمقارنة فقط: ليست أسعارًا تتعامل بها لدى الجهات.",
    everySeller: (n) => `كل الجهات المرخصة (${n})`,
    noSeller: "لم تسعّره أي جهة في هذا اليوم.",
    seller: "الجهة",
    probation: "أسعار تحت الاختبار",
    probationLead:
      "هذه أسعار من مصادر جديدة لم تثبت سلامتها بعد: نفحصها بكل القواعد، لكنها لا تدخل في أي جدول أو أفضل سعر أو تقييم أعلاه حتى ينهي مصدرها فترة الاختبار.",
    source: "المصدر",
    result: "النتيجة",
    passed: "اجتاز الفحوص",
    refused: "رُفض",
    refusal: {
      crossed: "سعر الشراء فيه أعلى من سعر البيع",
      "implausible-sell": "سعر البيع بعيد عن أسعار السوق",
      "implausible-buy": "سعر الشراء بعيد عن أسعار السوق",
      "side-doubtful": "الأرجح أنه قُرئ في الجانب الخطأ",
      "unlicensed-seller": "جهة غير معروفة لدينا",
      "not-licensed-for-category": "غير مرخّصة لهذا النوع",
      "reference-asset": "هذا السعر مرجعي لا تبيعه الجهات هنا",
      "observed-in-future": "مؤرخ في المستقبل",
      "out-of-range-price": "رقم لا يمكن أن يكون سعرًا",
    },
    pastNote:
      "المقارنة بالأيام السابقة تصف أسعار الأيام الماضية، وليست توقعًا لما سيحدث. وكل يوم كان سعره مساويًا يُحسب نصف يوم.",
    json: "البيانات نفسها بصيغة JSON:",
    share: "شارك السعر على واتساب",
    egp: "جنيه",
    referencePrice: "سعر مرجعي",
    comma: "، ",
    cairoTime: "بتوقيت القاهرة",
  },
});
