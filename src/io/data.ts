/**
 * Loads `data/` into a Dataset, validating every file with its zod schema. A malformed file stops
 * here with file, line and reason (DataError); bad *quotes* are not malformed: acceptance rejects them.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { DataError } from "../core/errors.js";
import { recordOf, type Dataset, type DayRecord } from "../core/dataset.js";
import { Calendar, Catalog, DayClose, GlobalRate, OfficialRate, Quote, Registry, Site, Sources } from "../schema/inputs.js";
import { PublishedState } from "../schema/documents.js";
import { dayFiles, parseNdjson, readDayText, readJson } from "./files.js";

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
    if (!calendar.categories[a.category]) throw new DataError(p.calendar, null, `no trading sessions for category "${a.category}" (asset ${a.id})`);

  // One day at a time: a day's text and its parse are garbage before the next day is read.
  const ndjsonDays = async <T>(folder: string, schema: import("zod").ZodType<T>) => {
    const out: Array<{ date: string; file: string; rows: Array<{ value: T; line: number }> }> = [];
    for (const d of await dayFiles(folder)) out.push({ ...d, rows: parseNdjson(d.file, await readDayText(d.file, dir), schema) });
    return out;
  };

  const quoteDays = await ndjsonDays(p.quotes, Quote);
  const official = await ndjsonDays(p.official, OfficialRate);
  const global = await ndjsonDays(p.global, GlobalRate);
  // History is read one day at a time and reduced at once, so it never sits in memory whole.
  const historyDays: Dataset["historyDays"] = [];
  const latest = new Map<string, DayRecord>();
  for (const d of await dayFiles(p.history)) {
    const records: DayRecord[] = [];
    for (const r of parseNdjson(d.file, await readDayText(d.file, dir, true), DayClose)) {
      if (r.value.date !== d.date) throw new DataError(d.file, r.line, `record dated ${r.value.date} in the file of ${d.date}`);
      const rec = recordOf(r.value);
      if (opts.upTo !== undefined && d.date > opts.upTo) rec.close = null;
      else {
        const prev = latest.get(rec.asset);
        if (prev) prev.close = null;
        latest.set(rec.asset, rec);
      }
      records.push(rec);
    }
    historyDays.push({ date: d.date, file: d.file, records });
  }
  return {
    catalog, registry, calendar, site, sources,
    quoteDays: quoteDays.map((d) => ({ date: d.date, file: d.file, quotes: d.rows.map((r) => ({ quote: r.value, file: d.file, line: r.line })) })),
    historyDays,
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
