/** The whole input of a build, as loaded from `data/` (src/io/load-build.ts and src/io/load-full.ts), before any rule runs. */
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
import type { ProbationState } from "../schema/probation.js";

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
 * `out-of-range-price` (test 2): a price too large to be rounded exactly (src/core/round.ts isSafePrice).
 * `side-doubtful` (test 7): a value quoted alone that lies on the wrong side of the other sellers'
 * opposite side (a lone buy above their median sell, a lone sell below their median buy).
 */
export const REJECTION_REASONS = [
  "unknown-asset",
  "unlicensed-seller",
  "not-licensed-for-category",
  "no-price",
  "non-positive-price",
  "out-of-range-price",
  "crossed",
  "invalid-observedAt",
  "observed-in-future",
  "reference-asset",
  "wrong-day-file",
  "conflicting-quote",
  "implausible-sell",
  "implausible-buy",
  "side-doubtful",
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

/** A quote of a source on probation as the feed lists it apart: its values, and whether the rules passed it. */
export interface ProbationQuote {
  asset: string;
  seller: string;
  source: string;
  buy: number | null;
  sell: number | null;
  observedAt: string;
  passed: boolean;
  /** Why the rules refused it; null when it passed. */
  reason: RejectionReason | null;
}

/**
 * A raw day taken through acceptance to its closes (src/rules/days.ts closeRawDay), so that its
 * quotes need not be kept: its closes and rejections, the number of quotes read and accepted, and
 * the latest instant of any of its quotes (null when none has one), which says from what build
 * instant on the result stands (rule 4: src/incremental/closed-days.ts).
 */
export interface ClosedRawDay {
  closes: DayClose[];
  rejected: RejectedQuote[];
  /**
   * The latest quote of each source on probation, seller and asset of the day (docs/methodology.md
   * "New sources: probation"): judged by every rule, in no close. Sorted by asset, seller, source.
   */
  probation: ProbationQuote[];
  accepted: number;
  read: number;
  latestObservedMs: number | null;
}

/**
 * A raw quote day, `quotes/<date>.ndjson`. A build reads its days one at a time, when the rules
 * close them, so `read()` reads the file when it is called (src/io/load-build.ts); the bytes are then
 * valid until the next day is read.
 */
export interface QuoteDay {
  date: string;
  file: string;
  /** The day file's bytes (a torn last line dropped) and its quotes, each parsed and checked as it is reached. */
  read(): { bytes: Uint8Array; quotes: Iterable<LocatedQuote> };
}

/**
 * A compacted day's closes by asset (a Map will do): the archive's days are parsed a line at a time
 * as they are asked for (src/io/history-lines.ts); `done` checks the rest, once the day is made.
 */
export interface DayCloses {
  has(asset: string): boolean;
  get(asset: string): DayClose | undefined;
  done?(): void;
  /** Every asset the day has a close of, catalog or not (the archive refuses one the catalog lacks). */
  assets?(): Iterable<string>;
}

export interface Dataset {
  catalog: Catalog;
  registry: Registry;
  calendar: Calendar;
  site: Site;
  sources: Sources;
  /** Raw quote days, ascending. */
  quoteDays: QuoteDay[];
  /** Compacted days, ascending: `history/<date>.ndjson`. */
  historyDays: Array<{ date: string; file: string; records: DayRecord[] }>;
  /**
   * The dates of every `history/` file, ascending, read or not: a build reads only the days it needs
   * (src/io/load-build.ts), yet a raw day that was compacted must still be recognized. Absent: historyDays' dates.
   */
  historyDates?: readonly string[];
  /** The official and global rates, in file order; a build's are read as they are iterated, once. */
  official: Iterable<Located<OfficialRate>>;
  global: Iterable<Located<GlobalRate>>;
  /**
   * Where each source stands on probation (data/state/probation.json, docs/methodology.md "New
   * sources: probation"); absent: no record, so every subject source is on probation.
   */
  probation?: ProbationState;
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
