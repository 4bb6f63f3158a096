/**
 * The asset page's charts by period — a week, a month, three months, a year — drawn from the
 * archive's history of the asset (`/api/v1/history/{slug}.json`, docs/methodology.md §5.5) as the
 * build wrote it. No script: each period is a <details> (the month open), with its two drawings
 * (phone and wide, chart.ts), its legend and its numbers as a table for screen readers. A period
 * the data does not cover yet says the span it shows ("Year: since 2 August, 110 days").
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Feed } from "../../schema/outputs.js";
import { files, urlOf, type PageLang } from "../../feed/paths.js";
import { addDays, daysBetween } from "../../core/cairo.js";
import { chartLegend, chartTable, seriesChart } from "./chart.js";
import { html, join, type SafeHtml } from "./html.js";
import { assetEntries } from "./recent.js";
import { otherDays } from "./day.js";
import { fullDate } from "./format.js";
import { PERIODS_WORDS } from "./periods-words.js";

interface View {
  period: Period;
  asset: Asset;
  /** The asset with weekly closes for the table's rows; null when the table lists every day. */
  table: Asset | null;
  /** The first day of the period's series, when the data begins after the period does (else null). */
  since: string | null;
}
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
/** Longer periods than this list one row a week in their table: a year of days is 260 rows a page. */
const DAILY_TABLE_DAYS = 31;

/** Longer periods than this are drawn from weekly closes: a year of days is 260 points a drawing. */
const DAILY_CHART_DAYS = 100;

type Entry = Asset["series"][number];

/**
 * Each week's close: the entry of its last trading day, weeks ending on Thursday as Egypt's working
 * week does (Friday and Saturday are the weekend; 2026-01-01 was a Thursday). One day's prices, so
 * each side's best stays on its side: the lowest asked of a day is never below the highest paid
 * that day, where a week's extremes (its lowest asked, its highest paid, on different days) cross.
 */
export function weeklyCloses(series: readonly Entry[]): Entry[] {
  const week = (date: string) => Math.ceil(daysBetween("2026-01-01", date) / 7);
  return series.filter((e, i) => i === series.length - 1 || week(series[i + 1]!.date) !== week(e.date));
}

/**
 * Each period's view of the asset: its series replaced by the history's days in the period. Made
 * once per build and asset and shared by both languages, so that chart.ts draws each layer once.
 * Only the latest asset's views are kept: the pages of an asset are rendered one language after the
 * other (pages/index.ts pageRenderer), and holding every asset's year of entries until the
 * last page was what the large build's heap peaked on (docs/performance.md "Memory").
 */
let latest: { feed: Feed; slug: string; views: Array<View> } | null = null;
export function periodViews(ctx: RenderContext, a: Asset): Array<View> {
  if (latest?.feed === ctx.feed && latest.slug === a.slug) return latest.views;
  latest = null; // the previous asset's entries can go before this one's are read
  const entries = assetEntries(ctx, a.slug);
  const made: Array<View> = [];
  // Each view carries its table's rows too, made here once for both languages.
  let shown = -1;
  for (const period of PERIODS) {
    const from = addDays(a.asOf, -(period.days - 1));
    const series = entries.filter((e) => e.date >= from && e.date <= a.asOf);
    // A longer period with no more days than the one before (a young archive) is left out.
    if (series.length === 0 || series.length === shown) continue;
    shown = series.length;
    const weeks = period.days > DAILY_TABLE_DAYS ? { ...a, series: weeklyCloses(series) } : null;
    // The data begins after the period would: its span is said, not the period's name alone.
    const since = entries[0]!.date > from ? series[0]!.date : null;
    made.push({ period, asset: period.days > DAILY_CHART_DAYS ? weeks! : { ...a, series }, table: weeks, since });
  }
  latest = { feed: ctx.feed, slug: a.slug, views: made };
  return made;
}

/**
 * A period's name, and its real span when the data begins within it: "Year: only since
 * 2 August 2026 (110 days)", «سنة: منذ 2 أغسطس 2026 فقط (110 أيام)».
 */
export function periodName(period: Period, since: string | null, asOf: string, lang: PageLang): string {
  const name = period[lang];
  if (since === null) return name;
  return PERIODS_WORDS[lang].since(name, fullDate(since, lang), daysBetween(since, asOf) + 1);
}

export function periodCharts(ctx: RenderContext, a: Asset, lang: PageLang): SafeHtml {
  const w = PERIODS_WORDS[lang];
  const views = periodViews(ctx, a);
  const open = views.some((v) => v.period.id === OPEN) ? OPEN : views.at(-1)?.period.id;
  const charts = views.map(({ period, asset, table, since }) => {
    const id = `chart-${period.id}`;
    return html`<details id="${id}"${period.id === open ? html` open` : ""}><summary id="${id}-h">${periodName(period, since, a.asOf, lang)}</summary>
${seriesChart(asset, `${id}-h`, "wide", lang, asset === table)}${seriesChart(asset, `${id}-h`, "narrow", lang, asset === table)}${chartLegend(asset, lang)}${chartTable(table ?? asset, lang, table !== null)}
</details>`;
  });
  const csv = urlOf(files.historyCsv(a.slug));
  return html`<section aria-labelledby="chart-h">
<h2 id="chart-h">${w.title}</h2>
${charts.length ? html`<div class="periods">${join(charts, "\n")}</div>` : html`<p class="muted">${w.noHistory}</p>`}
${otherDays(
  assetEntries(ctx, a.slug).map((e) => e.date),
  a.asOf,
  lang,
  a.slug,
)}
<p class="note">${w.download} <a href="${csv}" type="text/csv" download="${a.slug}.csv" dir="ltr">CSV</a> · <a href="${urlOf(files.history(a.slug))}" type="application/json" dir="ltr">JSON</a></p>
</section>`;
}
