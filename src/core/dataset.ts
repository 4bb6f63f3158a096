/** The whole input of a build, as loaded from `data/` (see src/io/data.ts), before any rule runs. */
import type { Calendar, Catalog, DayClose, GlobalRate, OfficialRate, Registry, Site, Sources } from "../schema/inputs.js";
import type { LocatedQuote } from "../ingest/acceptance.js";

export interface Located<T> {
  value: T;
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
  historyDays: Array<{ date: string; file: string; closes: DayClose[] }>;
  official: Array<Located<OfficialRate>>;
  global: Array<Located<GlobalRate>>;
}
