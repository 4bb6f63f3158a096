/**
 * Loads `data/` into a Dataset, validating every file with its zod schema. A malformed file stops
 * here with file, line and reason (DataError); bad *quotes* are not malformed: acceptance rejects them.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { DataError, messageOf } from "../core/errors.js";
import { recordOf, type Dataset, type DayRecord, type Located, type LocatedQuote } from "../core/dataset.js";
import {
  Calendar,
  Catalog,
  DayClose,
  DaySummary,
  GlobalRate,
  OfficialRate,
  Quote,
  Registry,
  Site,
  Sources,
} from "../schema/inputs.js";
import { isDayClose, isGlobalRate, isOfficialRate, isQuote } from "../schema/fast-inputs.js";
import { PublishedState } from "../schema/documents.js";
import { dayFiles, insideCheck } from "./day-files.js";
import { assertInside, ndjsonRows, readDayFile, readDayFileSync, readJson, sha256Hex } from "./files.js";
import { LOOKBACK_DAYS, LOOKBACK_MAX_AGE_DAYS, SERIES_WINDOW_DAYS } from "../core/methodology.js";
import { daysBetween, parseInstant } from "../core/cairo.js";
import { inputsKeys, type ClosedDays } from "./closed-days.js";
import { closeRawDay, mapsOf, sourceOrder, type LoadedDataset } from "../rules/days.js";
import { summaryRecords } from "../rules/compact.js";
import { dailyRefs, type DailyRefsAt, type RefIssue } from "../rules/references.js";

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
  summaries: path.join(dir, "summaries"),
});

export interface LoadOptions {
  /** The build's Cairo date: full closes are kept for the latest compacted day up to it. */
  upTo?: string;
  /**
   * With `upTo` (the build): read history newest-first only until every seller asset has what a build
   * uses (historyNeeds), instead of every compacted day. `compact` and `init` load everything.
   */
  bounded?: boolean;
  /**
   * The build instant, with `upTo` its Cairo date: each raw quote day up to `upTo` is taken through
   * acceptance to its closes as it is read (src/rules/days.ts closeRawDay) and its quotes are not kept
   * (Dataset quoteDays' `closed`); the rules then use those closes at this instant only.
   */
  closeAt?: number;
  /**
   * With `closeAt`: raw days already closed by an earlier build (data/state/closed-days/,
   * src/io/closed-days.ts), taken when their entry still stands for them; the days closed here are
   * put into it, for the build to save.
   */
  closedDays?: ClosedDays;
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

export async function loadDataset(dir: string, opts: LoadOptions = {}): Promise<LoadedDataset> {
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

  /** Where a day file of this folder must be shown to lie inside the data folder (day-files.ts insideCheck). */
  const checkIn = (folder: string) => insideCheck(dir, folder);
  // One day at a time: a day's text and its parse are garbage before the next day is read.
  const ndjsonDays = async <T>(folder: string, schema: import("zod").ZodType<T>, fast: (v: unknown) => boolean) => [
    ...(await ndjsonDayRows(folder, schema, fast, true)),
  ];
  /**
   * The rows of a folder's day files, each day read when its first row is asked for. `kept`: the
   * caller keeps the rows, so their strings are interned (files.ts ndjsonRows).
   */
  async function ndjsonDayRows<T>(
    folder: string,
    schema: import("zod").ZodType<T>,
    fast: (v: unknown) => boolean,
    kept: boolean,
  ) {
    const days = await dayFiles(folder);
    const within = await checkIn(folder);
    return (function* (): Generator<Located<T>> {
      for (const d of days)
        for (const r of ndjsonRows(d.file, readDayFileSync(d.file, within(d)), schema, { fast, intern: kept }))
          yield { value: r.value, file: d.file, line: r.line };
    })();
  }
  /**
   * A day's quotes; with `latest`, also the latest instant of any of them (src/io/closed-days.ts).
   * `kept` as for ndjsonDayRows: a day closed as it is read keeps none of its rows.
   */
  function* quotesOf(
    file: string,
    text: Buffer,
    kept: boolean,
    latest?: { ms: number | null },
  ): Generator<LocatedQuote> {
    for (const r of ndjsonRows(file, text, Quote, { fast: isQuote, intern: kept })) {
      if (latest) {
        const ms = parseInstant(r.value.observedAt);
        if (ms !== null && (latest.ms === null || ms > latest.ms)) latest.ms = ms;
      }
      yield { quote: r.value, file, line: r.line };
    }
  }
  const quoteFiles = await dayFiles(p.quotes);
  const quoteIn = await checkIn(p.quotes);
  let official: Dataset["official"] = [];
  let global: Dataset["global"] = [];
  let officialDaily: DailyRefsAt | undefined;
  let globalDaily: DailyRefsAt | undefined;
  const quoteDays: Dataset["quoteDays"] = [];
  if (opts.closeAt !== undefined && opts.upTo !== undefined) {
    // The build: each raw day up to the build date goes through acceptance as soon as it is read,
    // and only its closes and rejections stay (the quotes of one day at a time are in memory). That
    // needs the official rates first; a fault in them is still reported after the quotes' own, as
    // when the folders are read in order. The official and global rows become daily references as
    // they are read, and are not kept (the Dataset's rows stay empty; the rules take officialDaily
    // and globalDaily).
    const at = opts.closeAt;
    const maps = mapsOf({ catalog, registry });
    let refsFault: { error: unknown } | null = null;
    try {
      const refsOf = (rows: Iterable<Located<OfficialRate | GlobalRate>>) => {
        const issues: RefIssue[] = [];
        return { atMs: at, refs: dailyRefs(rows, maps.assets, at, issues), issues };
      };
      const officialRefs = refsOf(await ndjsonDayRows(p.official, OfficialRate, isOfficialRate, false));
      globalDaily = refsOf(await ndjsonDayRows(p.global, GlobalRate, isGlobalRate, false));
      officialDaily = officialRefs;
    } catch (error) {
      refsFault = { error };
    }
    const order = sourceOrder(sources.sources);
    const kept = opts.closedDays;
    const inputsOf = kept && officialDaily ? inputsKeys({ catalog, registry, sources }, officialDaily.refs) : null;
    for (const d of quoteFiles) {
      const { date, file } = d;
      const bytes = await readDayFile(file, quoteIn(d));
      if (officialDaily && date <= opts.upTo) {
        const inputs = inputsOf ? inputsOf(date) : "";
        let closed = kept ? await kept.take(date, file, bytes, inputs, at) : null;
        if (!closed) {
          const latest = { ms: null as number | null };
          closed = closeRawDay(
            { date, quotes: quotesOf(file, bytes, false, latest) },
            at,
            maps,
            officialDaily.refs,
            order,
          );
          // Only a day before the build's: today's file still grows every hour.
          if (kept && date < opts.upTo) kept.put(date, bytes, inputs, closed, latest.ms);
        }
        quoteDays.push({ date, file, quotes: [], closed });
      } else quoteDays.push({ date, file, quotes: [...quotesOf(file, bytes, true)] });
    }
    if (refsFault) throw refsFault.error;
  } else {
    for (const d of quoteFiles)
      quoteDays.push({
        date: d.date,
        file: d.file,
        quotes: [...quotesOf(d.file, await readDayFile(d.file, quoteIn(d)), true)],
      });
    official = await ndjsonDays(p.official, OfficialRate, isOfficialRate);
    global = await ndjsonDays(p.global, GlobalRate, isGlobalRate);
  }
  // History is read one day at a time and reduced at once, so it never sits in memory whole.
  const historyFiles = await dayFiles(p.history);
  const historyIn = await checkIn(p.history);
  const readHistoryDay = (d: { date: string; file: string }, bytes: Buffer) => {
    const records: DayRecord[] = [];
    for (const r of ndjsonRows(d.file, bytes, DayClose, { fast: isDayClose })) {
      if (r.value.date !== d.date)
        throw new DataError(d.file, r.line, `record dated ${r.value.date} in the file of ${d.date}`);
      records.push(recordOf(r.value));
    }
    return { date: d.date, file: d.file, records };
  };
  const historyDays: Dataset["historyDays"] = [];
  const warnings: string[] = [];
  if (opts.bounded && opts.upTo !== undefined) {
    const upTo = opts.upTo;
    const summaries = await historySummaries(p.summaries, historyFiles, warnings, dir);
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
        if (historyIn(d) !== null) await assertInside(dir, d.file);
        continue;
      }
      const bytes = await readDayFile(d.file, historyIn(d), true);
      // A day's ranges come from its summary while the file is the one it was made from; the closes
      // themselves are parsed only for a day that holds some asset's latest record up to the build date.
      const summary = await summaries.usable(d, bytes);
      let day = summary && { date: d.date, file: d.file, records: summaryRecords(summary) };
      if (!day || (d.date <= upTo && day.records.some((r) => !seen.has(r.asset)))) day = readHistoryDay(d, bytes);
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
    summaries.report();
  } else {
    const latest = new Map<string, DayRecord>();
    for (let i = 0; i < historyFiles.length; i++) {
      const d = historyFiles[i]!;
      const day = readHistoryDay(d, await readDayFile(d.file, historyIn(d), true));
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
  if (opts.closedDays) warnings.push(...opts.closedDays.warnings);
  return {
    catalog,
    registry,
    calendar,
    site,
    sources,
    quoteDays,
    historyDays,
    historyDates: historyFiles.map((d) => d.date),
    official,
    global,
    ...(officialDaily ? { officialDaily } : {}),
    ...(globalDaily ? { globalDaily } : {}),
    warnings,
  };
}

/**
 * The summaries of compacted days (src/schema/inputs.ts DaySummary) as a build may use them: a day's
 * summary stands for its history file only while the file's bytes hash to the summary's
 * `historySha256`. A missing, stale or unreadable summary is never an error (it is a cache: the day is
 * read in full, as without it); the report says which, and `price-feed compact` rewrites them.
 */
async function historySummaries(
  folder: string,
  historyFiles: ReadonlyArray<{ date: string; file: string }>,
  warnings: string[],
  dataDir: string,
) {
  const listed = new Map((await dayFiles(folder, "json")).map((d) => [d.date, d]));
  const within = await insideCheck(dataDir, folder);
  const historyDates = new Set(historyFiles.map((d) => d.date));
  for (const [date, { file }] of listed)
    if (!historyDates.has(date))
      warnings.push(`${file}: summary of a day with no history file; ignored (\`price-feed compact\` removes it)`);
  const missing: string[] = [];
  return {
    async usable(d: { date: string; file: string }, bytes: Buffer): Promise<DaySummary | null> {
      const entry = listed.get(d.date);
      if (entry === undefined) {
        missing.push(d.date);
        return null;
      }
      const { file } = entry;
      let summary: DaySummary;
      try {
        summary = await readJson(file, DaySummary, within(entry) ?? undefined);
      } catch (e) {
        warnings.push(`${messageOf(e)}; the day was read in full (\`price-feed compact\` rewrites the summary)`);
        return null;
      }
      if (summary.date !== d.date || summary.historySha256 !== sha256Hex(bytes)) {
        warnings.push(
          `${file}: made from other bytes than ${d.file} (was the history file edited?); the day was read in full (\`price-feed compact\` rewrites the summary)`,
        );
        return null;
      }
      return summary;
    },
    report() {
      if (!missing.length) return;
      const [first, last] = [missing.at(-1)!, missing[0]!]; // read newest first
      warnings.push(
        `${folder}: no summary of ${missing.length} history day(s) read (${first}${first === last ? "" : ` … ${last}`}); they were read in full (\`price-feed compact\` writes the summaries)`,
      );
    },
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
