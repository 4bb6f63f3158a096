/**
 * The summaries of compacted days (data/summaries/, src/schema/inputs.ts DaySummary) as files: which
 * there are, and one read and checked against its schema. Whether a summary may stand for its day is
 * the build's plan's to say (src/incremental/summaries.ts).
 */
import type { DayRecord } from "../core/dataset.js";
import { DaySummary } from "../schema/inputs.js";
import { dayFiles } from "./day-files.js";
import { readJson } from "./json-file.js";
import { insideCheck, type ListedFile } from "./links.js";

/**
 * Whether a history day's summary stands for it, as the build's load asks (src/io/load-build.ts); the
 * build's planner answers (src/incremental/summaries.ts).
 */
export interface SummaryPlan {
  /** The day's records as its summary gives them, ranges only, no closes (keep); null: the day is read in full (make). */
  ranges(day: { date: string; file: string }, bytes: Uint8Array): Promise<DayRecord[] | null>;
  /** Once the load is over: what it has to say of the summaries it lacked, into the warnings. */
  done(): void;
}

/** What the load asks of the builds before: a plan of the summaries of these history days. */
export interface SummariesPlanner {
  summaries(historyFiles: ReadonlyArray<{ date: string; file: string }>, warnings: string[]): Promise<SummaryPlan>;
}

export interface SummaryFiles {
  /** Each summary's file, by the date it summarizes. */
  listed: ReadonlyMap<string, ListedFile>;
  /** One summary, read and checked (throws a DataError naming the file when it is not one). */
  read(entry: ListedFile): Promise<DaySummary>;
}

/** The summaries in `folder` of `dataDir`, none of them read yet. */
export async function summaryFiles(dataDir: string, folder: string): Promise<SummaryFiles> {
  const listed = new Map((await dayFiles(dataDir, folder, "json")).map((d) => [d.date, d]));
  const within = await insideCheck(dataDir, folder);
  return { listed, read: (entry) => readJson(entry.file, DaySummary, within(entry) ?? undefined) };
}
