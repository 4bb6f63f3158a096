/** The whole input of a build, as loaded from `data/` (see src/io/load-build.ts and src/io/load-full.ts), before any rule runs. */
import type {
  Calendar,
  Catalog,
  DayClose,
  GlobalRate,
  OfficialRate,
  Quote,
  Registry,
  Site,
  Sources,
} from "../schema/inputs.js";
import { loHi } from "./stats.js";

export interface Located<T> {
  value: T;
  file: string;
  line: number;
}

/** A raw quote and where it was read: rejections and errors name the file and line. */
export interface LocatedQuote {
  quote: Quote;
  file: string;
  line: number;
}

/**
 * Why a quote is not used, one code per rule of docs/methodology.md §2 (the build report counts them).
 * `unknown-asset` and `wrong-day-file` guard the data itself: a quote of an asset the catalog does
 * not have, or filed under another Cairo date than its own. `conflicting-quote` (§11): one source
 * gives one seller and asset different prices at one instant, each passing the six tests, so none
 * is used (src/rules/acceptance.ts acceptDay). `reference-asset` (test 5): a seller's quote for an
 * asset the catalog marks `reference`, which has no seller list: said, never dropped silently.
 */
export const REJECTION_REASONS = [
  "unknown-asset",
  "unlicensed-seller",
  "not-licensed-for-category",
  "no-price",
  "non-positive-price",
  "crossed",
  "invalid-observedAt",
  "observed-in-future",
  "reference-asset",
  "wrong-day-file",
  "conflicting-quote",
  "implausible-sell",
  "implausible-buy",
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/**
 * A quote not used, as the build report names it: where it was read, whose it was, and why. The
 * quote's prices are not kept (a day's rejections can number thousands, and nothing reads them).
 */
export interface RejectedQuote {
  file: string;
  line: number;
  source: string;
  seller: string;
  asset: string;
  reason: RejectionReason;
}

/**
 * A raw day already taken through acceptance to its closes as it was read (a build streams its raw
 * days, src/io/load-build.ts), so that its quotes need not be kept: src/rules/days.ts closeRawDay's result
 * and the number of quotes read.
 */
export interface ClosedRawDay {
  /** The build instant it was closed at: the rules use it only at that instant. */
  atMs: number;
  closes: DayClose[];
  rejected: RejectedQuote[];
  accepted: number;
  read: number;
  /**
   * What the closes stand on when they are the same at every instant from the day's latest quote on
   * (src/io/closed-days.ts): its quotes file's bytes, the inputs of acceptance and the code, hashed.
   * The archive keys a raw day's file by it. Absent when a quote was later than the build instant.
   */
  closedKey?: string;
}

export interface Dataset {
  catalog: Catalog;
  registry: Registry;
  calendar: Calendar;
  site: Site;
  sources: Sources;
  /**
   * Raw quote days, ascending: `quotes/<date>.ndjson`. With `closed`, the day was closed at the
   * build instant as it was read, and `quotes` is empty: the rules use `closed` instead.
   */
  quoteDays: Array<{ date: string; file: string; quotes: LocatedQuote[]; closed?: ClosedRawDay }>;
  /** Compacted days, ascending: `history/<date>.ndjson`. */
  historyDays: Array<{ date: string; file: string; records: DayRecord[] }>;
  /**
   * The dates of every `history/` file, ascending, read or not: a build reads only the days it needs
   * (src/io/load-build.ts), yet a raw day that was compacted must still be recognized. Absent: historyDays' dates.
   */
  historyDates?: readonly string[];
  official: Array<Located<OfficialRate>>;
  global: Array<Located<GlobalRate>>;
  /** What the loader noticed without stopping (a history summary it could not use), for the build report. */
  warnings?: string[];
}

/** The day's low and high across sellers, per side: all that a past day's series entry needs. */
export interface DayRange {
  buyLo: number | null;
  buyHi: number | null;
  sellLo: number | null;
  sellHi: number | null;
}

/**
 * One asset's day. `close` (every seller's close) is kept only where a build may need the table:
 * raw days, and the latest compacted day of each asset up to the build date. That keeps a 400-day,
 * 200-asset history to a few tens of megabytes in memory.
 */
export interface DayRecord {
  date: string;
  asset: string;
  range: DayRange;
  close: DayClose | null;
}

export function dayRange(c: DayClose): DayRange {
  const [buyLo, buyHi] = loHi(c.closes.map((x) => x.buy));
  const [sellLo, sellHi] = loHi(c.closes.map((x) => x.sell));
  return { buyLo, buyHi, sellLo, sellHi };
}

export function recordOf(c: DayClose): DayRecord {
  return { date: c.date, asset: c.asset, range: dayRange(c), close: c };
}
