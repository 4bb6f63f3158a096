/**
 * What a build reads of a data folder (`price-feed build`), as data: no rule runs here (the rules
 * close the raw days and compute the references, once: src/feed/assets.ts).
 *  - each raw quote day up to the build date is read when the rules close it (QuoteDay `read`), into
 *    the build's one read buffer, so that one day's bytes are held at a time; later days are read and
 *    checked now, as every line of data/ is;
 *  - the official and global rows are read as they are iterated, and are not kept;
 *  - history is read newest first only until every seller asset has what a build uses
 *    (HistoryNeeds), from each day's summary where the build's plan says it stands for the day
 *    (src/io/history-summaries.ts SummaryPlan; src/incremental/summaries.ts); without one, every day in full.
 * A malformed file stops the build with file, line and reason (DataError), as in src/io/load-full.ts.
 */
import type { Dataset } from "../core/dataset.js";
import { cairoDate, daysBetween } from "../core/cairo.js";
import type { DayRecord } from "../core/dataset.js";
import { LOOKBACK_DAYS, LOOKBACK_MAX_AGE_DAYS, SERIES_WINDOW_DAYS } from "../core/methodology.js";
import { GlobalRate, OfficialRate } from "../schema/inputs.js";
import { isGlobalRate, isOfficialRate } from "../schema/fast-inputs.js";
import { loadConfig } from "./config-files.js";
import { dataPaths } from "../core/data-layout.js";
import { dayFiles, readBufferFor, readDayFile, readDayFileSync, type ReadBuffer } from "./day-files.js";
import { folderRows, quotesOf, readHistoryDay } from "./day-rows.js";
import type { SummariesPlanner } from "./history-summaries.js";
import { assertInside, insideCheck } from "./links.js";
import { catalogOn } from "../core/retired.js";

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

/** Each asset's latest records whose sellers' closes a build uses: today's table and the previous close. */
const CLOSES_KEPT = 2;

/**
 * The data folder as the build at `nowMs` reads it. `into`: the build's read buffer (src/io/day-files.ts
 * readBuffer), which every day file is read into, raw days included, as the rules ask for them.
 * `reuse`: what the builds before left (src/incremental/planner.ts), asked which summaries stand.
 */
export async function loadForBuild(
  dir: string,
  nowMs: number,
  into: ReadBuffer,
  reuse?: SummariesPlanner,
): Promise<Dataset> {
  const p = dataPaths(dir);
  const upTo = cairoDate(nowMs);
  const config = await loadConfig(dir);
  // The build report's warnings; a torn last line of a log is one (src/io/day-files.ts DayFileRead).
  const warnings: string[] = [];
  const quoteFiles = await dayFiles(dir, p.quotes);
  const quoteIn = await insideCheck(dir, p.quotes);
  // Made at once for the largest raw day: growing it day by day would free each smaller buffer.
  readBufferFor(into, quoteFiles);
  const quoteDays: Dataset["quoteDays"] = [];
  for (const d of quoteFiles) {
    const { date, file } = d;
    const read = () => {
      const bytes = readDayFileSync(file, quoteIn(d), { torn: warnings, into });
      return { bytes, quotes: quotesOf(file, bytes) };
    };
    // A day after the build date counts for nothing in it (a build at an earlier --now), but is checked.
    if (date > upTo) for (const _ of read().quotes);
    quoteDays.push({ date, file, read });
  }
  const official = await folderRows(dir, p.official, OfficialRate, isOfficialRate, warnings);
  const global = await folderRows(dir, p.global, GlobalRate, isGlobalRate, warnings);

  const historyFiles = await dayFiles(dir, p.history);
  const historyIn = await insideCheck(dir, p.history);
  const summaries = await reuse?.summaries(historyFiles, warnings);
  // Days after the build date count for nothing in it (a build at an earlier --now), but are still
  // validated; then the days up to it newest first, until every seller asset is settled. The days
  // left unread keep the checks that need no read: their names (dayFiles) and that none is a symbolic
  // link out of the data folder; their content is checked by `compact` and earlier builds' reads.
  // A retired asset needs no series or verdict (it is in no feed): its days are the archive's, which
  // reads history itself (src/feed/archive/compose.ts), so an asset retired long ago never makes the
  // hourly build read back to its last day.
  const quoted = catalogOn(config.catalog, upTo).filter((a) => a.market !== "reference");
  const needs = new HistoryNeeds(quoted.map((a) => a.id));
  // How many of each asset's records up to the build date keep their closes: the latest (today's
  // table) and the one before it (the sellers' previous close, docs/methodology.md §5.4).
  const seen = new Map<string, number>();
  const historyDays: Dataset["historyDays"] = [];
  let settled = false;
  for (let i = historyFiles.length - 1; i >= 0; i--) {
    const d = historyFiles[i]!;
    if (settled) {
      if (historyIn(d) !== null) await assertInside(dir, d.file);
      continue;
    }
    const bytes = await readDayFile(d.file, historyIn(d), { allowEmpty: true, into });
    // A day's ranges come from its summary while the file is the one it was made from; the closes
    // themselves are parsed only for a day that holds some asset's latest record up to the build date.
    const records = (await summaries?.ranges(d, bytes)) ?? null;
    let day = records && { date: d.date, file: d.file, records };
    if (!day || (d.date <= upTo && day.records.some((r) => (seen.get(r.asset) ?? 0) < CLOSES_KEPT)))
      day = readHistoryDay(d, bytes);
    if (d.date > upTo) for (const rec of day.records) rec.close = null;
    else {
      // The latest CLOSES_KEPT records of each asset up to the build date keep their closes (the last lines first).
      for (let j = day.records.length - 1; j >= 0; j--) {
        const rec = day.records[j]!;
        const n = seen.get(rec.asset) ?? 0;
        if (n >= CLOSES_KEPT) rec.close = null;
        seen.set(rec.asset, n + 1);
      }
      for (const rec of day.records) needs.add(rec);
      settled = needs.settled();
    }
    historyDays.push(day);
  }
  historyDays.reverse();
  summaries?.done();
  return {
    ...config,
    quoteDays,
    historyDays,
    historyDates: historyFiles.map((d) => d.date),
    official,
    global,
    warnings,
  };
}
