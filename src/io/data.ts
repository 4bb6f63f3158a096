/**
 * Loads `data/` into a Dataset, validating every file with its zod schema. A malformed file stops
 * here with file, line and reason (DataError); bad *quotes* are not malformed: acceptance rejects them.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { DataError } from "../core/errors.js";
import { recordOf, type Dataset, type DayRecord } from "../core/dataset.js";
import {
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
import { isDayClose, isGlobalRate, isOfficialRate, isQuote } from "../schema/fast-inputs.js";
import { PublishedState } from "../schema/documents.js";
import { dayFiles } from "./day-files.js";
import { assertInside, parseNdjson, readDayText, readJson } from "./files.js";
import { LOOKBACK_DAYS, LOOKBACK_MAX_AGE_DAYS, SERIES_WINDOW_DAYS } from "../core/methodology.js";
import { daysBetween } from "../core/cairo.js";

export const dataPaths = (dir: string) => ({
  catalog: path.join(dir, "assets.json"),
  registry: path.join(dir, "sellers.json"),
  calendar: path.join(dir, "calendar.json"),
  site: path.join(dir, "site.json"),
  sources: path.join(dir, "sources.json"),
  state: path.join(dir, "state", "published.json"),
  quotes: path.join(dir, "quotes"),
  official: path.join(dir, "official"),
  global: path.join(dir, "global"),
  history: path.join(dir, "history"),
});

export interface LoadOptions {
  /** The build's Cairo date: full closes are kept for the latest compacted day up to it. */
  upTo?: string;
  /**
   * With `upTo` (the build): read history newest-first only until every seller asset has what a build
   * uses (historyNeeds), instead of every compacted day. `compact` and `init` load everything.
   */
  bounded?: boolean;
}

/**
 * What a build reads of one seller asset's compacted days, newest first (src/rules/series.ts,
 * src/rules/verdict.ts): the SERIES_WINDOW_DAYS most recent records (the series), and per side the
 * LOOKBACK_DAYS most recent valued records before the asset's date, not older than
 * LOOKBACK_MAX_AGE_DAYS (the verdict's prior days; trend's 7 days are among them). Counted on history
 * alone, with the newest history record standing for the asset's date: raw days (always read) only
 * add newer records, which can only make fewer old records needed, so the bound is safe.
 */
class HistoryNeeds {
  private readonly pending = new Map<
    string,
    { newest: string | null; oldest: string; n: number; sell: number; buy: number }
  >();

  constructor(assets: readonly string[]) {
    for (const a of assets) this.pending.set(a, { newest: null, oldest: "", n: 0, sell: 0, buy: 0 });
  }

  /** One record read (files newest-first). */
  add(rec: DayRecord): void {
    const s = this.pending.get(rec.asset);
    if (!s) return;
    s.newest ??= rec.date;
    s.oldest = rec.date;
    s.n++;
    if (rec.date < s.newest) {
      if (rec.range.sellLo !== null) s.sell++;
      if (rec.range.buyHi !== null) s.buy++;
    }
  }

  /** After a whole day file: drops the assets that have all they need; true when none is left. */
  settled(): boolean {
    for (const [asset, s] of this.pending) {
      if (s.newest === null || s.n < SERIES_WINDOW_DAYS) continue;
      const aged = daysBetween(s.oldest, s.newest) > LOOKBACK_MAX_AGE_DAYS;
      if ((aged || s.sell >= LOOKBACK_DAYS) && (aged || s.buy >= LOOKBACK_DAYS)) this.pending.delete(asset);
    }
    return this.pending.size === 0;
  }
}

export async function loadDataset(dir: string, opts: LoadOptions = {}): Promise<Dataset> {
  const p = dataPaths(dir);
  const [catalog, registry, calendar, site, sources] = await Promise.all([
    readJson(p.catalog, Catalog, dir),
    readJson(p.registry, Registry, dir),
    readJson(p.calendar, Calendar, dir),
    readJson(p.site, Site, dir),
    readJson(p.sources, Sources, dir),
  ]);
  for (const a of catalog)
    if (!calendar.categories[a.category])
      throw new DataError(p.calendar, null, `no trading sessions for category "${a.category}" (asset ${a.id})`);

  // One day at a time: a day's text and its parse are garbage before the next day is read.
  const ndjsonDays = async <T>(folder: string, schema: import("zod").ZodType<T>, fast: (v: unknown) => boolean) => {
    const out: Array<{ date: string; file: string; rows: Array<{ value: T; line: number }> }> = [];
    for (const d of await dayFiles(folder))
      out.push({ ...d, rows: parseNdjson(d.file, await readDayText(d.file, dir), schema, fast) });
    return out;
  };

  const quoteDays = await ndjsonDays(p.quotes, Quote, isQuote);
  const official = await ndjsonDays(p.official, OfficialRate, isOfficialRate);
  const global = await ndjsonDays(p.global, GlobalRate, isGlobalRate);
  // History is read one day at a time and reduced at once, so it never sits in memory whole.
  const historyFiles = await dayFiles(p.history);
  const readHistoryDay = async (d: { date: string; file: string }) => {
    const records: DayRecord[] = [];
    for (const r of parseNdjson(d.file, await readDayText(d.file, dir, true), DayClose, isDayClose)) {
      if (r.value.date !== d.date)
        throw new DataError(d.file, r.line, `record dated ${r.value.date} in the file of ${d.date}`);
      records.push(recordOf(r.value));
    }
    return { date: d.date, file: d.file, records };
  };
  const historyDays: Dataset["historyDays"] = [];
  if (opts.bounded && opts.upTo !== undefined) {
    const upTo = opts.upTo;
    // Days after the build date count for nothing in it (a build at an earlier --now), but are still
    // validated, as before; then the days up to it newest first, until every seller asset is settled.
    // The days left unread keep the checks that need no read: their names (dayFiles) and that none
    // is a symbolic link out of the data folder; their content is checked by `compact` and later builds'
    // reads no more (README "Performance").
    const needs = new HistoryNeeds(catalog.filter((a) => a.market !== "reference").map((a) => a.id));
    const seen = new Set<string>();
    let settled = false;
    for (let i = historyFiles.length - 1; i >= 0; i--) {
      const d = historyFiles[i]!;
      if (settled) {
        await assertInside(dir, d.file);
        continue;
      }
      const day = await readHistoryDay(d);
      if (d.date > upTo) for (const rec of day.records) rec.close = null;
      else {
        // The latest record of each asset up to the build date keeps its close: the last line of the newest day.
        for (let j = day.records.length - 1; j >= 0; j--) {
          const rec = day.records[j]!;
          if (seen.has(rec.asset)) rec.close = null;
          else seen.add(rec.asset);
        }
        for (const rec of day.records) needs.add(rec);
        settled = needs.settled();
      }
      historyDays.push(day);
    }
    historyDays.reverse();
  } else {
    const latest = new Map<string, DayRecord>();
    for (const d of historyFiles) {
      const day = await readHistoryDay(d);
      for (const rec of day.records) {
        if (opts.upTo !== undefined && d.date > opts.upTo) rec.close = null;
        else {
          const prev = latest.get(rec.asset);
          if (prev) prev.close = null;
          latest.set(rec.asset, rec);
        }
      }
      historyDays.push(day);
    }
  }
  return {
    catalog,
    registry,
    calendar,
    site,
    sources,
    quoteDays: quoteDays.map((d) => ({
      date: d.date,
      file: d.file,
      quotes: d.rows.map((r) => ({ quote: r.value, file: d.file, line: r.line })),
    })),
    historyDays,
    historyDates: historyFiles.map((d) => d.date),
    official: official.flatMap((d) => d.rows.map((r) => ({ value: r.value, file: d.file, line: r.line }))),
    global: global.flatMap((d) => d.rows.map((r) => ({ value: r.value, file: d.file, line: r.line }))),
  };
}

/** What was last published; a first build starts from nothing. */
export async function loadState(dir: string): Promise<PublishedState> {
  const file = dataPaths(dir).state;
  try {
    await fs.access(file);
  } catch {
    return { files: {} };
  }
  return readJson(file, PublishedState, dir);
}
