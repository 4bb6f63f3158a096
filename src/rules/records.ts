/**
 * docs/methodology.md §13, seller records: per seller and asset, over the last RECORD_SHORT_DAYS and
 * RECORD_LONG_DAYS archive days of the asset up to its asOf, how often it quoted, how often it was
 * the day's best on each side, how far from the best it usually was, its usual spread and when it
 * last quoted. Pure: the same archive days give the same records.
 *
 * The figures are read from the archive as published (§5.5): each day's sellLo, buyHi, bestSell and
 * bestBuy, and each seller's close of the day, every value already rounded to the asset's decimals.
 */
import { PCT_DECIMALS, RECORD_LONG_DAYS, RECORD_SHORT_DAYS } from "../core/methodology.js";
import { roundHalfAway } from "../core/round.js";

/** One seller's close on an archive day, as the day's table publishes it. */
export interface RecordQuote {
  seller: string;
  sell: number | null;
  buy: number | null;
}

/** One archive day of a seller asset, as the records read it. */
export interface RecordDay {
  date: string;
  sellLo: number | null;
  buyHi: number | null;
  /** The seller ids the archive names as the day's best on each side (ties settled there, §5.5). */
  bestSell: string | null;
  bestBuy: string | null;
  quotes: readonly RecordQuote[];
}

/** One seller's figures over one window (§13), as published. */
export interface RecordWindow {
  /** The archive days of the asset the window holds (fewer than its length while the data is younger). */
  days: number;
  /** The first and last of them; null when the window is empty. */
  from: string | null;
  to: string | null;
  daysQuoted: number;
  daysBest: { sell: number; buy: number };
  medianGapPct: { sell: number | null; buy: number | null };
  medianSpreadPct: number | null;
  lastQuoted: string | null;
}

/** A seller's record of one asset: both windows. */
export interface SellerRecord {
  short: RecordWindow;
  long: RecordWindow;
}

export const RECORD_WINDOWS = { short: RECORD_SHORT_DAYS, long: RECORD_LONG_DAYS } as const;

/** What one day says of one seller (§13): its three percentages (NaN where the day has none) and whether it was best. */
export interface SellerDay {
  gapSell: number;
  gapBuy: number;
  spread: number;
  bestSell: boolean;
  bestBuy: boolean;
}

/**
 * One seller's close of a day against the day's best: the sell gap over the days it quoted a sell
 * (`(sell − sellLo) / sellLo × 100`), the buy gap over the days it quoted a buy
 * (`(buyHi − buy) / buyHi × 100`), the spread over the days it quoted both
 * (`(sell − buy) / ((sell + buy) / 2) × 100`), unrounded: only the medians are rounded.
 */
export function sellerDay(day: RecordDay, q: RecordQuote): SellerDay {
  const { sell, buy } = q;
  return {
    gapSell: sell !== null && day.sellLo !== null ? ((sell - day.sellLo) / day.sellLo) * 100 : NaN,
    gapBuy: buy !== null && day.buyHi !== null ? ((day.buyHi - buy) / day.buyHi) * 100 : NaN,
    spread: sell !== null && buy !== null ? ((sell - buy) / ((sell + buy) / 2)) * 100 : NaN,
    bestSell: day.bestSell === q.seller,
    bestBuy: day.bestBuy === q.seller,
  };
}

/** The median of the values (of an even count, the mean of the two middle ones); null for none. */
export function medianOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = Float64Array.from(values).sort();
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A median as published: rounded to PCT_DECIMALS, half away from zero (§3.1). */
export const pct = (m: number | null): number | null => (m === null ? null : roundHalfAway(m, PCT_DECIMALS));

/** The last `n` days of `days` (ascending) dated up to and including `asOf`: a window of §13. */
export function windowDays<T extends { date: string }>(days: readonly T[], asOf: string, n: number): readonly T[] {
  let end = days.length;
  while (end > 0 && days[end - 1]!.date > asOf) end--;
  return days.slice(Math.max(0, end - n), end);
}

/** One seller's figures over a window's days, computed from them directly. */
export function recordWindow(days: readonly RecordDay[], seller: string): RecordWindow {
  const gapSell: number[] = [];
  const gapBuy: number[] = [];
  const spread: number[] = [];
  let quoted = 0;
  let bestSell = 0;
  let bestBuy = 0;
  let last: string | null = null;
  for (const day of days) {
    const q = day.quotes.find((x) => x.seller === seller);
    if (!q) continue;
    const d = sellerDay(day, q);
    quoted++;
    last = day.date;
    if (d.bestSell) bestSell++;
    if (d.bestBuy) bestBuy++;
    if (!Number.isNaN(d.gapSell)) gapSell.push(d.gapSell);
    if (!Number.isNaN(d.gapBuy)) gapBuy.push(d.gapBuy);
    if (!Number.isNaN(d.spread)) spread.push(d.spread);
  }
  return {
    days: days.length,
    from: days[0]?.date ?? null,
    to: days.at(-1)?.date ?? null,
    daysQuoted: quoted,
    daysBest: { sell: bestSell, buy: bestBuy },
    medianGapPct: { sell: pct(medianOf(gapSell)), buy: pct(medianOf(gapBuy)) },
    medianSpreadPct: pct(medianOf(spread)),
    lastQuoted: last,
  };
}

/**
 * Every seller's record of one asset, from all its archive days (ascending) and its asOf: the
 * sellers with a close on some day up to asOf, in id order. A reference asset has no archive day
 * with a close, so no record.
 */
export function assetRecords(days: readonly RecordDay[], asOf: string): Map<string, SellerRecord> {
  const upTo = windowDays(days, asOf, Infinity);
  const sellers = [...new Set(upTo.flatMap((d) => d.quotes.map((q) => q.seller)))].sort();
  const short = windowDays(upTo, asOf, RECORD_WINDOWS.short);
  const long = windowDays(upTo, asOf, RECORD_WINDOWS.long);
  return new Map(sellers.map((s) => [s, { short: recordWindow(short, s), long: recordWindow(long, s) }]));
}
