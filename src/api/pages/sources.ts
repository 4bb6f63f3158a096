/**
 * The sources page (/sources/ and /ar/sources/): source health from /api/v1/sources.json, the first
 * thing to look at when a number seems wrong — each source's kind, the assets it fed on their
 * business dates, when it last succeeded and why it last failed (times in Cairo).
 */
import type { RenderContext } from "../../feed/site.js";
import { SOURCES_PAGE_PATH, SOURCES_PATH, type PageLang } from "../../feed/paths.js";
import type { SourceHealth } from "../../schema/documents.js";
import { esc, nameIn, page } from "./html.js";
import { dayAndTime, westernDigits } from "./format.js";
import { simulatedBanner } from "./words.js";

const KIND: Record<SourceHealth["sources"][number]["kind"], { en: string; ar: string }> = {
  seller: { en: "a seller's own publication", ar: "نشرة الجهة نفسها" },
  aggregator: { en: "an aggregator relaying sellers", ar: "موقع يجمع أسعار الجهات" },
  official: { en: "the central bank", ar: "البنك المركزي" },
  reference: { en: "global reference rate", ar: "السعر العالمي المرجعي" },
};

/**
 * An instant with its day. A source with no run on record (lastRunAt null: the build was given no
 * ingest record, as `npm run build` of a copied data folder) is not the same as one that ran and
 * never succeeded: the page says which.
 */
function when(iso: string | null, lang: PageLang, ran = true): string {
  if (iso === null)
    return ran
      ? lang === "ar"
        ? "لم ينجح أبدًا"
        : "never succeeded"
      : lang === "ar"
        ? "غير مسجّل في هذا البناء"
        : "not recorded in this build";
  return `<time datetime="${esc(iso)}">${esc(dayAndTime(iso, lang))}</time>`;
}

export function sourcesTable(
  health: SourceHealth,
  names: ReadonlyMap<string, string>,
  lang: PageLang,
  arabicNames: ReadonlyMap<string, string | undefined> = new Map(),
): string {
  const ar = lang === "ar";
  const head = ar
    ? { source: "المصدر", fed: "نقل أسعار", ok: "آخر نجاح", failed: "آخر إخفاق" }
    : { source: "Source", fed: "Gave prices of", ok: "Last success", failed: "Last failure" };
  const rows = health.sources
    .map((s) => {
      const fed = s.assets.length ? s.assets.map((id) => esc(names.get(id) ?? id)).join(ar ? "، " : ", ") : "—";
      const failure = s.lastFailure
        ? `${when(s.lastFailure.at, lang)}: <span lang="en" dir="ltr">${esc(s.lastFailure.reason)}</span>`
        : "—";
      return (
        `<tr id="source-${esc(s.id)}"><th scope="row">${nameIn(lang, s.name, arabicNames.get(s.id))}<span class="sub">${KIND[s.kind][lang]}${s.enabled ? "" : ar ? " · متوقف" : " · disabled"}</span></th>` +
        `<td data-label="${head.fed}">${fed}</td><td data-label="${head.ok}">${when(s.lastSuccessAt, lang, s.lastRunAt !== null)}</td><td data-label="${head.failed}">${failure}</td></tr>`
      );
    })
    .join("\n");
  return `<table class="sources-health"><caption>${ar ? "الأوقات بتوقيت القاهرة." : "Times are Cairo time."}</caption>
<thead><tr><th scope="col">${head.source}</th><th scope="col">${head.fed}</th><th scope="col">${head.ok}</th><th scope="col">${head.failed}</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

export function renderSources(ctx: RenderContext, health: SourceHealth, lang: PageLang): string {
  const ar = lang === "ar";
  const site = ctx.input.dataset.site;
  // One kind of digit per page, as on the other Arabic pages.
  const names = new Map(ctx.feed.assets.map((a) => [a.id, ar ? westernDigits(a.nameAr) : a.name]));
  const intro = ar
    ? `<h1>المصادر</h1><p>من أين تأتي الأسعار: لكل مصدر نوعه، وأسعار ما نقله في تاريخ تلك الأسعار، ومتى نجح آخر مرة، ولماذا أخفق آخر مرة. حين يبدو رقم غريبًا فابدأ من هنا. البيانات نفسها في <a href="${SOURCES_PATH}" hreflang="en"><code>${SOURCES_PATH}</code></a>.</p>`
    : `<h1>Sources</h1><p>Where the prices come from: each source's kind, whose prices it gave on the date of those prices, when it last succeeded and why it last failed. When a number looks wrong, start here. The same data is at <a href="${SOURCES_PATH}"><code>${SOURCES_PATH}</code></a>.</p>`;
  return page({
    lang,
    path: SOURCES_PAGE_PATH,
    title: ar ? "المصادر · Price Feed" : "Sources · Price Feed",
    description: ar
      ? "حالة المصادر: ما نقلته من أسعار ومتى نجحت وأخفقت."
      : "Where the prices come from: what each source gave, when it last succeeded and failed.",
    body: `${intro}\n${sourcesTable(health, names, lang, new Map(ctx.input.dataset.sources.sources.map((s) => [s.id, s.nameAr])))}`,
    baseUrl: site.baseUrl,
    ...simulatedBanner(site, lang),
  });
}
