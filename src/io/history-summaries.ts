/**
 * The summaries of compacted days (data/summaries/, src/schema/inputs.ts DaySummary): what a build
 * reads of a history day instead of the day itself, while the day's file is the one it was made from.
 */
import type { DayRecord } from "../core/dataset.js";
import { messageOf } from "../core/errors.js";
import { DaySummary } from "../schema/inputs.js";
import { dayFiles } from "./day-files.js";
import { sha256Hex } from "./hash.js";
import { readJson } from "./json-file.js";
import { insideCheck } from "./links.js";

/**
 * The summaries of compacted days (src/schema/inputs.ts DaySummary) as a build may use them: a day's
 * summary stands for its history file only while the file's bytes hash to the summary's
 * `historySha256`. A missing, stale or unreadable summary is never an error (it is a cache: the day is
 * read in full, as without it); the report says which, and `price-feed compact` rewrites them.
 */
export async function historySummaries(
  folder: string,
  historyFiles: ReadonlyArray<{ date: string; file: string }>,
  warnings: string[],
  dataDir: string,
) {
  const listed = new Map((await dayFiles(dataDir, folder, "json")).map((d) => [d.date, d]));
  const within = await insideCheck(dataDir, folder);
  const historyDates = new Set(historyFiles.map((d) => d.date));
  for (const [date, { file }] of listed)
    if (!historyDates.has(date))
      warnings.push(`${file}: summary of a day with no history file; ignored (\`price-feed compact\` removes it)`);
  const missing: string[] = [];
  return {
    /** The day's records as its summary gives them: ranges only, no closes; null when it cannot stand for the day. */
    async usable(d: { date: string; file: string }, bytes: Buffer): Promise<DayRecord[] | null> {
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
      return summary.ranges.map(({ asset, buyLo, buyHi, sellLo, sellHi }) => ({
        date: d.date,
        asset,
        range: { buyLo, buyHi, sellLo, sellHi },
        close: null,
      }));
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
