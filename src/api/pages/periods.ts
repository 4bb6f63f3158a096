/**
 * The asset page's charts by period — a week, a month, three months, a year — drawn from the
 * archive's history of the asset (`/api/v1/history/{slug}.json`, docs/methodology.md §5.5) as the
 * build wrote it. No script: each period is a <details> (the month open), with its two drawings
 * (phone and wide, chart.ts), its legend and its numbers as a table for screen readers.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Feed } from "../../schema/outputs.js";
import type { History } from "../../schema/archive.js";
import { files, urlOf, type PageLang } from "../../feed/paths.js";
import { addDays } from "../../core/cairo.js";
import { chartLegend, chartTable, seriesChart } from "./chart.js";

interface Period {
  id: string;
  days: number;
  en: string;
  ar: string;
}
/** Calendar days back from the asset's business date, the day itself included. */
export const PERIODS: readonly Period[] = [
  { id: "week", days: 7, en: "Week", ar: "أسبوع" },
  { id: "month", days: 30, en: "Month", ar: "شهر" },
  { id: "3-months", days: 91, en: "3 months", ar: "3 شهور" },
  { id: "year", days: 365, en: "Year", ar: "سنة" },
];
const OPEN = "month";

/**
 * Each period's view of the asset: its series replaced by the history's days in the period. Made
 * once per build and asset and shared by both languages, so that chart.ts draws each layer once.
 */
const views = new WeakMap<Feed, Map<string, Array<{ period: Period; asset: Asset }>>>();
export function periodViews(ctx: RenderContext, a: Asset): Array<{ period: Period; asset: Asset }> {
  let byAsset = views.get(ctx.feed);
  if (!byAsset) views.set(ctx.feed, (byAsset = new Map()));
  let made = byAsset.get(a.slug);
  if (made) return made;
  const entries = (JSON.parse(ctx.text(files.history(a.slug))) as History).entries;
  made = [];
  let shown = -1;
  for (const period of PERIODS) {
    const from = addDays(a.asOf, -(period.days - 1));
    const series = entries.filter((e) => e.date >= from && e.date <= a.asOf);
    // A longer period with no more days than the one before (a young archive) is left out.
    if (series.length === 0 || series.length === shown) continue;
    shown = series.length;
    made.push({ period, asset: { ...a, series } });
  }
  byAsset.set(a.slug, made);
  return made;
}

export function periodCharts(ctx: RenderContext, a: Asset, lang: PageLang): string {
  const ar = lang === "ar";
  const views = periodViews(ctx, a);
  const open = views.some((v) => v.period.id === OPEN) ? OPEN : views.at(-1)?.period.id;
  const charts = views
    .map(({ period, asset }) => {
      const id = `chart-${period.id}`;
      return `<details id="${id}"${period.id === open ? " open" : ""}><summary id="${id}-h">${ar ? period.ar : period.en}</summary>
${seriesChart(asset, `${id}-h`, "wide", lang)}${seriesChart(asset, `${id}-h`, "narrow", lang)}${chartLegend(asset, lang)}${chartTable(asset, lang)}
</details>`;
    })
    .join("\n");
  const csv = urlOf(files.historyCsv(a.slug));
  return `<section aria-labelledby="chart-h">
<h2 id="chart-h">${ar ? "الأسعار على مدى أسبوع وشهر وسنة" : "Prices over a week, a month, a year"}</h2>
${charts ? `<div class="periods">${charts}</div>` : `<p class="muted">${ar ? "لا يوجد تاريخ بعد." : "No history yet."}</p>`}
<p class="note">${ar ? "نزّل التاريخ الكامل، كل يوم منذ بداية البيانات:" : "Download the full history, every day since the data begins:"} <a href="${csv}" type="text/csv" download="${a.slug}.csv" dir="ltr">CSV</a> · <a href="${urlOf(files.history(a.slug))}" type="application/json" dir="ltr">JSON</a></p>
</section>`;
}
