/**
 * The sources page (/sources/ and /ar/sources/): source health from /api/v1/sources.json, the first
 * thing to look at when a number seems wrong — each source's kind, the assets it fed on their
 * business dates, when it was last read successfully (or that it never has been), when and why a
 * read last failed (times in Cairo), and how its format is known. The words are SOURCE_WORDS.
 */
import type { RenderContext } from "../../feed/site.js";
import { SOURCES_PAGE_PATH, SOURCES_PATH, type PageLang } from "../../feed/paths.js";
import type { SourceHealth } from "../../schema/documents.js";
import { english, html, join, nameIn, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { cairoDay, dayAndTime, fullDate, westernDigits } from "./format.js";
import { simulatedBanner, SOURCE_WORDS, sourceWord } from "./words.js";

const KIND: Record<SourceHealth["sources"][number]["kind"], { en: SafeHtml | string; ar: string }> = {
  seller: { en: html`a seller's own publication`, ar: "نشرة الجهة نفسها" },
  aggregator: { en: "an aggregator relaying sellers", ar: "موقع يجمع أسعار الجهات" },
  official: { en: "the central bank", ar: "البنك المركزي" },
  reference: { en: "global reference rate", ar: "السعر العالمي المرجعي" },
};

type Status = SourceHealth["sources"][number];

const at = (iso: string, lang: PageLang) => html`<time datetime="${iso}">${dayAndTime(iso, lang)}</time>`;

/**
 * When the source was last read successfully, or why no time can be given. ingest keeps a source's
 * last success for good, so one that ran (lastRunAt) without one has never been read successfully;
 * one with no run on record (a data folder copied without ingest's record, or a source not run yet)
 * is not read yet, unless prices of it are here, and then only the time is unknown.
 */
function lastSuccess(s: Status, lang: PageLang): SafeHtml | string {
  if (s.lastSuccessAt !== null) return at(s.lastSuccessAt, lang);
  if (s.lastRunAt !== null) return sourceWord(SOURCE_WORDS.neverSucceeded, lang);
  return sourceWord(s.assets.length ? SOURCE_WORDS.readWhenUnknown : SOURCE_WORDS.notReadYet, lang);
}

/** When a read last failed and the reason as ingest gave it (English, isolated, escaped), or that none has. */
function lastFailure(s: Status, lang: PageLang): SafeHtml | string {
  if (s.lastFailure) return html`${at(s.lastFailure.at, lang)}: ${english(s.lastFailure.reason)}`;
  return sourceWord(s.lastRunAt !== null ? SOURCE_WORDS.noFailure : SOURCE_WORDS.failureUnknown, lang);
}

/** How the format is known, when the copy was saved, and each citation on a line of its own, left to right. */
function evidence(s: Status, lang: PageLang): SafeHtml | string {
  const e = s.evidence;
  if (!e) return sourceWord(SOURCE_WORDS.evidenceNone, lang);
  const day = e.recordedAt === undefined ? null : e.recordedAt.length === 10 ? e.recordedAt : cairoDay(e.recordedAt);
  const saved = day ? ` (${sourceWord(SOURCE_WORDS.savedOn, lang)} ${fullDate(day, lang)})` : "";
  const where = e.where.map((w) => html`<span class="sub"><bdi dir="ltr">${w}</bdi></span>`);
  return html`${sourceWord(SOURCE_WORDS.evidence[e.kind], lang)}${saved}${where}`;
}

/** The words of the probation column and the registry table, English and Arabic (docs/methodology.md "New sources: probation"). */
const STANDING_WORDS = {
  head: { en: "Counts?", ar: "هل تُحتسب أسعاره؟" },
  counted: { en: "Counts from the start", ar: "تُحتسب من البداية" },
  graduated: { en: "Counts: it finished its probation", ar: "تُحتسب: أنهى فترة الاختبار" },
  probation: { en: "Being checked: its prices count for nothing yet", ar: "تحت الاختبار: أسعاره لا تُحتسب بعد" },
  runs: { en: "successful runs of", ar: "قراءة ناجحة من" },
  since: { en: "since", ar: "منذ" },
  registryHead: { en: "Sellers and who licenses or registers them", ar: "الجهات ومن يرخّص لها أو يقيّدها في سجله" },
  seller: { en: "Seller", ar: "الجهة" },
  by: { en: "Licensed or registered by", ar: "الترخيص أو التسجيل لدى" },
  check: { en: "Checked by the operator", ar: "تحقّق المشغّل" },
  notVerified: { en: "registration not verified", ar: "التسجيل لم يُتحقَّق منه" },
  licenceNotVerified: { en: "licence not verified", ar: "الترخيص لم يُتحقَّق منه" },
  verifiedAt: { en: "checked at", ar: "تم التحقق في" },
  on: { en: "on", ar: "بتاريخ" },
  registryIntro: {
    en: "Banks and exchange houses are licensed by the Central Bank of Egypt. Gold dealers are registered with the Assay and Weights Authority (Ministry of Supply decision 149 of 2023); a dealer marked “registration not verified” has not been found on that register by the operator.",
    ar: "البنوك وشركات الصرافة مرخّصة من البنك المركزي المصري. وتجار الذهب مقيّدون لدى مصلحة الدمغة والموازين (قرار وزير التموين رقم 149 لسنة 2023)؛ والتاجر الموسوم «التسجيل لم يُتحقَّق منه» لم يجده المشغّل في ذلك السجل بعد.",
  },
} as const;
const w = (k: keyof typeof STANDING_WORDS, lang: PageLang) => {
  const v = STANDING_WORDS[k];
  return "en" in v ? v[lang] : "";
};

/** Where the source stands on probation, in plain words: counted, or being checked with its runs so far. */
function standing(s: Status, lang: PageLang): SafeHtml | string {
  const p = s.probation;
  if (p.standing === "counted") return w("counted", lang);
  if (p.standing === "graduated")
    return html`${w("graduated", lang)}${p.since ? html`<span class="sub">${w("since", lang)} ${at(p.since, lang)}</span>` : ""}`;
  const since = p.since ? html` ${w("since", lang)} ${at(p.since, lang)}` : "";
  return html`${w("probation", lang)}<span class="sub">${p.runs ?? 0} ${w("runs", lang)} ${p.runsNeeded ?? ""}${since}</span>`;
}

/** Every seller of the registry, who licenses or registers it, and whether the operator checked it. */
export function registryTable(health: SourceHealth, lang: PageLang): SafeHtml {
  const rows = health.sellers.map((r) => {
    const check = r.verified
      ? html`${w("verifiedAt", lang)} <bdi dir="ltr">${r.verified.where}</bdi> ${w("on", lang)} ${fullDate(r.verified.at, lang)}`
      : w(r.kind === "gold-dealer" ? "notVerified" : "licenceNotVerified", lang);
    return html`<tr id="seller-${r.id}"><th scope="row">${nameIn(lang, r.name, r.nameAr ?? undefined)}</th><td data-label="${w("by", lang)}">${english(r.licensedBy)}</td><td data-label="${w("check", lang)}">${check}</td></tr>`;
  });
  return html`<h2>${w("registryHead", lang)}</h2><p>${w("registryIntro", lang)}</p>
<table class="sources-health"><thead><tr><th scope="col">${w("seller", lang)}</th><th scope="col">${w("by", lang)}</th><th scope="col">${w("check", lang)}</th></tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>`;
}

export function sourcesTable(
  health: SourceHealth,
  names: ReadonlyMap<string, string>,
  lang: PageLang,
  arabicNames: ReadonlyMap<string, string | undefined> = new Map(),
): SafeHtml {
  const ar = lang === "ar";
  const head = {
    source: ar ? "المصدر" : "Source",
    fed: ar ? "نقل أسعار" : "Gave prices of",
    ok: sourceWord(SOURCE_WORDS.head.success, lang),
    failed: sourceWord(SOURCE_WORDS.head.failure, lang),
    evidence: sourceWord(SOURCE_WORDS.head.evidence, lang),
    standing: w("head", lang),
  };
  const rows = health.sources.map((s) => {
    const fed = s.assets.length ? s.assets.map((id) => names.get(id) ?? id).join(ar ? "، " : ", ") : "—";
    return html`<tr id="source-${s.id}"><th scope="row">${nameIn(lang, s.name, arabicNames.get(s.id))}<span class="sub">${KIND[s.kind][lang]}${s.enabled ? "" : ar ? " · متوقف" : " · disabled"}</span></th><td data-label="${head.fed}">${fed}</td><td data-label="${head.ok}">${lastSuccess(s, lang)}</td><td data-label="${head.failed}">${lastFailure(s, lang)}</td><td data-label="${head.evidence}">${evidence(s, lang)}</td><td data-label="${head.standing}">${standing(s, lang)}</td></tr>`;
  });
  return html`<table class="sources-health"><caption>${ar ? "الأوقات بتوقيت القاهرة." : "Times are Cairo time."}</caption>
<thead><tr><th scope="col">${head.source}</th><th scope="col">${head.fed}</th><th scope="col">${head.ok}</th><th scope="col">${head.failed}</th><th scope="col">${head.evidence}</th><th scope="col">${head.standing}</th></tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>`;
}

export function renderSources(ctx: RenderContext, lang: PageLang): string {
  const ar = lang === "ar";
  const site = ctx.input.dataset.site;
  // One kind of digit per page, as on the other Arabic pages.
  const names = new Map(ctx.feed.assets.map((a) => [a.id, ar ? westernDigits(a.nameAr) : a.name]));
  const intro = ar
    ? html`<h1>المصادر</h1><p>من أين تأتي الأسعار: لكل مصدر نوعه، وأسعار ما نقله في تاريخ تلك الأسعار، ومتى قُرئ بنجاح آخر مرة، ومتى فشلت آخر قراءة له ولماذا، وهل قُرئ بنجاح من قبل، وكيف عُرفت صيغته، أي الشكل الذي تُقرأ منه أسعاره. حين يبدو رقم غريبًا فابدأ من هنا. البيانات نفسها في <a href="${SOURCES_PATH}" hreflang="en"><code>${SOURCES_PATH}</code></a>.</p>`
    : html`<h1>Sources</h1><p>Where the prices come from: each source's kind, whose prices it gave on the date of those prices, when it was last read successfully, when a read last failed and why, whether it has ever been read successfully, and how its format, the layout its prices are read from, is known. When a number looks wrong, start here. The same data is at <a href="${SOURCES_PATH}"><code>${SOURCES_PATH}</code></a>.</p>`;
  return page({
    lang,
    path: SOURCES_PAGE_PATH,
    title: ar ? "المصادر · Price Feed" : "Sources · Price Feed",
    description: ar
      ? "حالة المصادر: ما نقلته من أسعار، ومتى قُرئت ومتى أخفقت، وكيف عُرفت صيغتها."
      : "Where the prices come from: what each source gave, when it was last read and failed, and how its format is known.",
    body: html`${intro}\n${sourcesTable(ctx.sources, names, lang, new Map(ctx.input.dataset.sources.sources.map((s) => [s.id, s.nameAr])))}\n${registryTable(ctx.sources, lang)}`,
    baseUrl: site.baseUrl,
    ...simulatedBanner(site, lang),
  });
}
