/** The whole input of a build, as loaded from `data/` (see src/io/data.ts), before any rule runs. */
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

export interface Dataset {
  catalog: Catalog;
  registry: Registry;
  calendar: Calendar;
  site: Site;
  sources: Sources;
  /** Raw quote days, ascending: `quotes/<date>.ndjson`. */
  quoteDays: Array<{ date: string; file: string; quotes: LocatedQuote[] }>;
  /** Compacted days, ascending: `history/<date>.ndjson`. */
  historyDays: Array<{ date: string; file: string; records: DayRecord[] }>;
  /**
   * The dates of every `history/` file, ascending, read or not: a build reads only the days it needs
   * (src/io/data.ts), yet a raw day that was compacted must still be recognized. Absent: historyDays' dates.
   */
  historyDates?: readonly string[];
  official: Array<Located<OfficialRate>>;
  global: Array<Located<GlobalRate>>;
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
