/**
 * Loads `data/` into a Dataset, validating every file with its zod schema. A malformed file stops
 * here with file, line and reason (DataError); bad *quotes* are not malformed: acceptance rejects them.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { DataError } from "../core/errors.js";
import type { Dataset } from "../core/dataset.js";
import { Calendar, Catalog, DayClose, GlobalRate, OfficialRate, Quote, Registry, Site, Sources } from "../schema/inputs.js";
import { PublishedState } from "../schema/outputs.js";
import { dayFiles, parseNdjson, readJson, readText } from "./files.js";

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

export async function loadDataset(dir: string): Promise<Dataset> {
  const p = dataPaths(dir);
  const [catalog, registry, calendar, site, sources] = await Promise.all([
    readJson(p.catalog, Catalog),
    readJson(p.registry, Registry),
    readJson(p.calendar, Calendar),
    readJson(p.site, Site),
    readJson(p.sources, Sources),
  ]);
  for (const a of catalog)
    if (!calendar.categories[a.category]) throw new DataError(p.calendar, null, `no trading sessions for category "${a.category}" (asset ${a.id})`);

  const ndjsonDays = async <T>(dir: string, schema: import("zod").ZodType<T>) =>
    Promise.all((await dayFiles(dir)).map(async (d) => ({ ...d, rows: parseNdjson(d.file, await readText(d.file), schema) })));

  const [quoteDays, historyDays, official, global] = await Promise.all([
    ndjsonDays(p.quotes, Quote),
    ndjsonDays(p.history, DayClose),
    ndjsonDays(p.official, OfficialRate),
    ndjsonDays(p.global, GlobalRate),
  ]);
  for (const h of historyDays)
    for (const r of h.rows) if (r.value.date !== h.date) throw new DataError(h.file, r.line, `record dated ${r.value.date} in the file of ${h.date}`);
  return {
    catalog, registry, calendar, site, sources,
    quoteDays: quoteDays.map((d) => ({ date: d.date, file: d.file, quotes: d.rows.map((r) => ({ quote: r.value, file: d.file, line: r.line })) })),
    historyDays: historyDays.map((d) => ({ date: d.date, file: d.file, closes: d.rows.map((r) => r.value) })),
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
  return readJson(file, PublishedState);
}
