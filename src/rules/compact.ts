/**
 * Keeps `data/` bounded: raw quote days older than RAW_RETENTION_DAYS become their daily closes
 * (`history/<date>.ndjson`), computed exactly as a build computes them, so that a build on compacted
 * data is byte-identical to one on the raw quotes.
 */
import { RAW_RETENTION_DAYS } from "../core/methodology.js";
import { addDays, cairoDate } from "../core/cairo.js";
import { dailyRefs, type RefIssue } from "./references.js";
import type { Dataset, DayRecord } from "../core/dataset.js";
import type { DayClose, DaySummary } from "../schema/inputs.js";
import { closeRawDay, mapsOf, sourceOrder } from "./days.js";
import { counting } from "./probation.js";
import { canonical } from "../core/canonical.js";

export interface CompactedDay {
  date: string;
  rawFile: string;
  closes: DayClose[];
  rejected: number;
}

/** The first day whose raw quotes are kept at this instant. */
export function retentionStart(nowMs: number): string {
  return addDays(cairoDate(nowMs), -RAW_RETENTION_DAYS);
}

/**
 * The raw days past retention, each closed as a build closes it: those without a history day
 * (`compacted` false: to compact) or with one (`compacted` true: a compact cut short after writing the
 * history and before removing the raw file, docs/operating.md "What can go wrong").
 */
function closedPastRetention(ds: Dataset, nowMs: number, compacted: boolean) {
  const keepFrom = retentionStart(nowMs);
  const done = new Set(ds.historyDays.map((h) => h.date));
  const maps = mapsOf(ds);
  const official = dailyRefs(ds.official, maps.assets, nowMs, [] as RefIssue[]);
  const global = dailyRefs(ds.global, maps.assets, nowMs, [] as RefIssue[]);
  const order = sourceOrder(ds.sources.sources);
  // The quotes of sources on probation are in no close, so in no history day (docs/methodology.md
  // "New sources: probation"): compact weighs them by the same record as the build.
  const count = counting(ds.sources.sources, ds.probation);
  return ds.quoteDays
    .filter((d) => d.date < keepFrom && done.has(d.date) === compacted)
    .map((d) => ({
      day: d,
      r: closeRawDay({ date: d.date, quotes: d.read().quotes }, nowMs, maps, { official, global }, order, count),
    }));
}

export function compactDays(ds: Dataset, nowMs: number): CompactedDay[] {
  return closedPastRetention(ds, nowMs, false).map(({ day, r }) => ({
    date: day.date,
    rawFile: day.file,
    closes: r.closes,
    rejected: r.rejected.length,
  }));
}

/**
 * Raw days past retention that already have a history day, each with the history text its raw quotes
 * give, for the caller to compare with the history file's bytes: equal, the compaction is finished
 * by removing the raw file; not equal, both stay and the operator decides.
 */
export function interruptedDays(ds: Dataset, nowMs: number): Array<{ date: string; rawFile: string; text: string }> {
  return closedPastRetention(ds, nowMs, true).map(({ day, r }) => ({
    date: day.date,
    rawFile: day.file,
    text: historyText(r.closes),
  }));
}

export function historyText(closes: readonly DayClose[]): string {
  return closes.map((c) => `${canonical(c)}\n`).join("");
}

/**
 * A compacted day's summary (src/schema/inputs.ts DaySummary): each history line's asset and range,
 * in the file's order, and the hash of the file's bytes it stands for (computed by the caller, which
 * holds the bytes).
 */
export function daySummary(date: string, historySha256: string, records: ReadonlyArray<DayRecord>): DaySummary {
  return { date, historySha256, ranges: records.map((r) => ({ asset: r.asset, ...r.range })) };
}

export function summaryText(s: DaySummary): string {
  return `${canonical(s)}\n`;
}
