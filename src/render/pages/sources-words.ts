/**
 * The words of the sources page (sources.ts), English and Arabic, besides those of words.ts
 * SOURCE_WORDS (how a source's reads and format are told): for translators, edit the words here;
 * sources.ts only puts them in place. Entries in html`…` are markup: their text is written as it is.
 */
import { html } from "./html.js";
import { wordTable } from "./word-table.js";

export const SOURCES_WORDS = wordTable({
  en: {
    title: "Sources · Price Feed",
    description:
      "Where the prices come from: what each source gave, when it was last read and failed, and how its format is known.",
    /** The page's heading and introduction; `json` is the link to /api/v1/sources.json. */
    intro: (href: string) =>
      html`<h1>Sources</h1><p>Where the prices come from: each source's kind, whose prices it gave on the date of those prices, when it was last read successfully, when a read last failed and why, whether it has ever been read successfully, and how its format, the layout its prices are read from, is known. When a number looks wrong, start here. The same data is at <a href="${href}"><code>${href}</code></a>.</p>`,
    /** The table of sources. */
    caption: "Times are Cairo time.",
    source: "Source",
    fed: "Gave prices of",
    comma: ", ",
    disabled: " · disabled",
    /** What kind of source it is. */
    kind: {
      seller: html`a seller's own publication`,
      aggregator: "an aggregator relaying sellers",
      official: "the central bank",
      reference: "global reference rate",
    },
    /** Whether its prices count (docs/methodology.md "New sources: probation"). */
    standing: "Counts?",
    counted: "Counts from the start",
    graduated: "Counts: it finished its probation",
    probation: "Being checked: its prices count for nothing yet",
    runs: "successful runs of",
    since: "since",
    /** The registry's table: every seller, who licenses or registers it, and whether the operator checked. */
    registryHead: "Sellers and who licenses or registers them",
    registryIntro:
      "Banks and exchange houses are licensed by the Central Bank of Egypt. Gold dealers are registered with the Assay and Weights Authority (Ministry of Supply decision 149 of 2023); a dealer marked “registration not verified” has not been found on that register by the operator.",
    seller: "Seller",
    by: "Licensed or registered by",
    check: "Checked by the operator",
    notVerified: "registration not verified",
    licenceNotVerified: "licence not verified",
    verifiedAt: "checked at",
    on: "on",
  },
  ar: {
    title: "المصادر · Price Feed",
    description: "حالة المصادر: ما نقلته من أسعار، ومتى قُرئت ومتى أخفقت، وكيف عُرفت صيغتها.",
    intro: (href) =>
      html`<h1>المصادر</h1><p>من أين تأتي الأسعار: لكل مصدر نوعه، وأسعار ما نقله في تاريخ تلك الأسعار، ومتى قُرئ بنجاح آخر مرة، ومتى فشلت آخر قراءة له ولماذا، وهل قُرئ بنجاح من قبل، وكيف عُرفت صيغته، أي الشكل الذي تُقرأ منه أسعاره. حين يبدو رقم غريبًا فابدأ من هنا. البيانات نفسها في <a href="${href}" hreflang="en"><code>${href}</code></a>.</p>`,
    caption: "الأوقات بتوقيت القاهرة.",
    source: "المصدر",
    fed: "نقل أسعار",
    comma: "، ",
    disabled: " · متوقف",
    kind: {
      seller: html`نشرة الجهة نفسها`,
      aggregator: "موقع يجمع أسعار الجهات",
      official: "البنك المركزي",
      reference: "السعر العالمي المرجعي",
    },
    standing: "هل تُحتسب أسعاره؟",
    counted: "تُحتسب من البداية",
    graduated: "تُحتسب: أنهى فترة الاختبار",
    probation: "تحت الاختبار: أسعاره لا تُحتسب بعد",
    runs: "قراءة ناجحة من",
    since: "منذ",
    registryHead: "الجهات ومن يرخّص لها أو يقيّدها في سجله",
    registryIntro:
      "البنوك وشركات الصرافة مرخّصة من البنك المركزي المصري. وتجار الذهب مقيّدون لدى مصلحة الدمغة والموازين (قرار وزير التموين رقم 149 لسنة 2023)؛ والتاجر الموسوم «التسجيل لم يُتحقَّق منه» لم يجده المشغّل في ذلك السجل بعد.",
    seller: "الجهة",
    by: "الترخيص أو التسجيل لدى",
    check: "تحقّق المشغّل",
    notVerified: "التسجيل لم يُتحقَّق منه",
    licenceNotVerified: "الترخيص لم يُتحقَّق منه",
    verifiedAt: "تم التحقق في",
    on: "بتاريخ",
  },
});
