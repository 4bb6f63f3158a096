/** `price-feed compact`: raw quote days past retention become daily closes and their summaries. */
import { promises as fs } from "node:fs";
import { recordOf } from "../core/dataset.js";
import { compactDays, daySummary, historyText, interruptedDays, summaryText } from "../rules/compact.js";
import { writeFailure, writeFileAtomic } from "../io/atomic-write.js";
import { dataPaths, dayFile } from "../core/data-layout.js";
import { withDataLock } from "../io/data-lock.js";
import { dayFiles } from "../io/day-files.js";
import { sha256Hex } from "../io/hash.js";
import { assertInside } from "../io/links.js";
import { loadFull } from "../io/load-full.js";
import { loadProbation } from "../io/probation-state.js";

/** Removes a file of the data folder; a disk or permission fault names it (src/io/atomic-write.ts). */
const remove = (file: string) =>
  fs.rm(file).catch((e: unknown) => {
    throw writeFailure(file, e);
  });

/**
 * Compacts raw quote days past retention: history first, then its summary, then the raw file goes (an
 * interruption leaves at worst a day without summary, which a build reads in full, or a raw file
 * beside its history: the next compact writes the one and removes the other, interruptedDays). Then every history day's summary is made true again: written where missing or
 * stale, removed where its history day is gone (src/schema/inputs.ts DaySummary).
 *
 * All of it under the data folder's lock (src/io/data-lock.ts): an ingest appending to a raw day
 * while compact folds it into history and removes it would lose that append. `warn` gets what the
 * read said (a torn last line dropped, src/io/day-files.ts).
 */
export async function runCompact(
  dataDir: string,
  nowMs: number,
  warn: (warning: string) => void = (w) => console.error(`price-feed: warning: ${w}`),
) {
  return withDataLock(dataDir, { command: "compact", nowMs }, () => compactUnlocked(dataDir, nowMs, warn));
}

async function compactUnlocked(dataDir: string, nowMs: number, warn: (warning: string) => void) {
  const p = dataPaths(dataDir);
  // Nothing is written through a folder that leaves the data folder (docs/operating.md "What can go wrong").
  for (const folder of [p.history, p.summaries]) await assertInside(dataDir, folder, "folder");
  const ds = await loadFull(dataDir);
  ds.probation = await loadProbation(dataDir);
  for (const w of ds.warnings ?? []) warn(w);
  const days = compactDays(ds, nowMs);
  const summaryFile = (date: string) => dayFile(p.summaries, date, "json");
  // A compact killed between writing history/D and removing quotes/D left both: finished here when
  // the history is what the raw quotes give, else both stay and the warning says what to do.
  const finished: string[] = [];
  for (const d of interruptedDays(ds, nowMs)) {
    const history = dayFile(p.history, d.date);
    if ((await fs.readFile(history, "utf8")) === d.text) {
      await remove(d.rawFile);
      finished.push(d.date);
    } else
      warn(
        `${d.rawFile}: a raw day whose history (${history}) is not what its quotes give: both kept, the history stands in every build. Compare them: if the history is right, remove the raw file; if the raw quotes are, remove the history and its summary and run compact again`,
      );
  }
  for (const d of days) {
    const text = historyText(d.closes);
    await writeFileAtomic(dayFile(p.history, d.date), text, { durable: true });
    await writeFileAtomic(
      summaryFile(d.date),
      summaryText(daySummary(d.date, sha256Hex(text), d.closes.map(recordOf))),
    );
    await remove(d.rawFile);
  }
  const summaries = { written: 0, removed: 0 };
  // The history days there are now: those read, and those just compacted (their summaries are written).
  const historyDates = new Set([...ds.historyDays, ...days].map((h) => h.date));
  for (const h of ds.historyDays) {
    const want = summaryText(daySummary(h.date, sha256Hex(await fs.readFile(h.file)), h.records));
    const have = await fs.readFile(summaryFile(h.date), "utf8").catch(() => null);
    if (have === want) continue;
    await writeFileAtomic(summaryFile(h.date), want);
    summaries.written++;
  }
  for (const s of await dayFiles(dataDir, p.summaries, "json"))
    if (!historyDates.has(s.date)) {
      await remove(s.file);
      summaries.removed++;
    }
  return { days, summaries, finished };
}
