/**
 * docs/methodology.md §5: a day's series entry, the published window, and the day's best per side
 * that the verdict compares with.
 */
import { LOOKBACK_DAYS, LOOKBACK_MAX_AGE_DAYS, SERIES_WINDOW_DAYS } from "../core/methodology.js";
import { daysBetween } from "../core/cairo.js";
import type { SeriesEntry } from "../schema/outputs.js";
import type { Side } from "./acceptance.js";

/** The day's best on a side: `sellLo` for sell, `buyHi` for buy. */
export function dayBest(e: SeriesEntry, side: Side): number | null {
  return side === "sell" ? e.sellLo : e.buyHi;
}

/** The most recent SERIES_WINDOW_DAYS entries up to `asOf`, ascending (input ascending). */
export function seriesWindow(entries: readonly SeriesEntry[], asOf: string): SeriesEntry[] {
  const upTo = entries.filter((e) => e.date <= asOf);
  return upTo.slice(Math.max(0, upTo.length - SERIES_WINDOW_DAYS));
}

export interface DatedValue {
  date: string;
  value: number;
}

/**
 * P: the best values of the side on the most recent LOOKBACK_DAYS days that have one, strictly
 * before `asOf` and not older than LOOKBACK_MAX_AGE_DAYS. Ascending by date.
 */
export function priorBests(entries: readonly SeriesEntry[], asOf: string, side: Side): DatedValue[] {
  const out: DatedValue[] = [];
  for (const e of entries) {
    const v = dayBest(e, side);
    if (v === null || e.date >= asOf || daysBetween(e.date, asOf) > LOOKBACK_MAX_AGE_DAYS) continue;
    out.push({ date: e.date, value: v });
  }
  return out.slice(Math.max(0, out.length - LOOKBACK_DAYS));
}
