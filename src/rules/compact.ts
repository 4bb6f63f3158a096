/**
 * Keeps `data/` bounded: raw quote days older than RAW_RETENTION_DAYS become their daily closes
 * (`history/<date>.ndjson`), computed exactly as a build computes them, so that a build on compacted
 * data is byte-identical to one on the raw quotes.
 */
import { RAW_RETENTION_DAYS } from "../core/methodology.js";
import { addDays, cairoDate } from "../core/cairo.js";
import { dailyRefs, type RefIssue } from "./references.js";
import type { Dataset } from "../core/dataset.js";
import type { DayClose } from "../schema/inputs.js";
import { closeRawDay, mapsOf, sourceOrder } from "./days.js";
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

export function compactDays(ds: Dataset, nowMs: number): CompactedDay[] {
  const keepFrom = retentionStart(nowMs);
  const done = new Set(ds.historyDays.map((h) => h.date));
  const maps = mapsOf(ds);
  const official = dailyRefs(ds.official, maps.assets, nowMs, [] as RefIssue[]);
  const order = sourceOrder(ds.sources.sources);
  return ds.quoteDays
    .filter((d) => d.date < keepFrom && !done.has(d.date))
    .map((d) => {
      const r = closeRawDay(d, nowMs, maps, official, order);
      return { date: d.date, rawFile: d.file, closes: r.closes, rejected: r.rejected.length };
    });
}

export function historyText(closes: readonly DayClose[]): string {
  return closes.map((c) => `${canonical(c)}\n`).join("");
}
