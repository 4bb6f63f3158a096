/**
 * The whole of a data folder, every file read and checked: what `compact` (which rewrites history
 * and summaries from it) and `init` (which proves its template loads) need. A malformed file stops
 * here with file, line and reason (DataError); bad *quotes* are not malformed: acceptance rejects
 * them. The build reads less, and differently: src/io/load-build.ts.
 */
import type { Dataset, DayRecord } from "../core/dataset.js";
import { GlobalRate, OfficialRate } from "../schema/inputs.js";
import { isGlobalRate, isOfficialRate } from "../schema/fast-inputs.js";
import { loadConfig } from "./config-files.js";
import { dataPaths } from "../core/data-layout.js";
import { dayFiles, readDayFile } from "./day-files.js";
import { folderRows, quotesOf, readHistoryDay } from "./day-rows.js";
import { insideCheck } from "./links.js";

/**
 * Every quote, rate and history record of a data folder. Each asset's two latest history records
 * keep their closes (the rules' table of the day, and the previous close of docs/methodology.md
 * §5.4); the others keep their ranges only.
 */
export type FullDataset = Dataset;

export async function loadFull(dir: string): Promise<FullDataset> {
  const p = dataPaths(dir);
  const config = await loadConfig(dir);
  // A torn last line of a log is dropped and said (src/io/day-files.ts DayFileRead); history is strict.
  const warnings: string[] = [];
  const quoteFiles = await dayFiles(dir, p.quotes);
  const quoteIn = await insideCheck(dir, p.quotes);
  const quoteDays: Dataset["quoteDays"] = [];
  for (const d of quoteFiles) {
    const { date, file } = d;
    // Every line checked now; the day's quotes are parsed again from its bytes when they are used.
    const bytes = await readDayFile(file, quoteIn(d), { torn: warnings });
    for (const _ of quotesOf(file, bytes));
    quoteDays.push({ date, file, read: () => ({ bytes, quotes: quotesOf(file, bytes) }) });
  }
  const official = [...(await folderRows(dir, p.official, OfficialRate, isOfficialRate, warnings))];
  const global = [...(await folderRows(dir, p.global, GlobalRate, isGlobalRate, warnings))];

  // History is read one day at a time and reduced at once, so it never sits in memory whole.
  const historyFiles = await dayFiles(dir, p.history);
  const historyIn = await insideCheck(dir, p.history);
  const historyDays: Dataset["historyDays"] = [];
  const latest = new Map<string, [DayRecord | null, DayRecord]>();
  for (const d of historyFiles) {
    const day = readHistoryDay(d, await readDayFile(d.file, historyIn(d), { allowEmpty: true }));
    for (const rec of day.records) {
      const [older, prev] = latest.get(rec.asset) ?? [null, null];
      if (older) older.close = null;
      latest.set(rec.asset, [prev, rec]);
    }
    historyDays.push(day);
  }
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
