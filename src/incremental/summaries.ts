/**
 * Whether a compacted day's summary (data/summaries/, src/schema/inputs.ts DaySummary) stands for its
 * history file, as the build's load asks (src/io/load-build.ts): only while the file's bytes hash to
 * the summary's `historySha256`. Then the day's ranges come from the summary (keep); else the day is
 * read in full (make). A missing, stale or unreadable summary is never an error (it is a cache, made
 * by `price-feed compact`): the report says which, and `compact` rewrites them.
 */
import type { DayRecord } from "../core/dataset.js";
import { messageOf } from "../core/errors.js";
import type { DaySummary } from "../schema/inputs.js";
import { sha256Hex } from "../io/hash.js";
import { summaryFiles, type SummaryPlan } from "../io/history-summaries.js";
import type { Decisions } from "./decisions.js";

export async function historySummaries(
  dataDir: string,
  folder: string,
  historyFiles: ReadonlyArray<{ date: string; file: string }>,
  warnings: string[],
  decisions: Decisions,
): Promise<SummaryPlan> {
  const summaries = await summaryFiles(dataDir, folder);
  const historyDates = new Set(historyFiles.map((d) => d.date));
  for (const [date, { file }] of summaries.listed)
    if (!historyDates.has(date))
      warnings.push(`${file}: summary of a day with no history file; ignored (\`price-feed compact\` removes it)`);
  const missing: string[] = [];
  return {
    async ranges(d: { date: string; file: string }, bytes: Uint8Array): Promise<DayRecord[] | null> {
      const entry = summaries.listed.get(d.date);
      if (entry === undefined) {
        missing.push(d.date);
        decisions.make("summary", d.date, "none");
        return null;
      }
      let summary: DaySummary;
      try {
        summary = await summaries.read(entry);
      } catch (e) {
        warnings.push(`${messageOf(e)}; the day was read in full (\`price-feed compact\` rewrites the summary)`);
        decisions.make("summary", d.date, "unreadable");
        return null;
      }
      if (summary.date !== d.date || summary.historySha256 !== sha256Hex(bytes)) {
        warnings.push(
          `${entry.file}: made from other bytes than ${d.file} (was the history file edited?); the day was read in full (\`price-feed compact\` rewrites the summary)`,
        );
        decisions.make("summary", d.date, "bytes");
        return null;
      }
      decisions.keep("summary", d.date);
      return summary.ranges.map(({ asset, buyLo, buyHi, sellLo, sellHi }) => ({
        date: d.date,
        asset,
        range: { buyLo, buyHi, sellLo, sellHi },
        close: null,
      }));
    },
    done() {
      if (!missing.length) return;
      const [first, last] = [missing.at(-1)!, missing[0]!]; // read newest first
      warnings.push(
        `${folder}: no summary of ${missing.length} history day(s) read (${first}${first === last ? "" : ` … ${last}`}); they were read in full (\`price-feed compact\` writes the summaries)`,
      );
    },
  };
}
