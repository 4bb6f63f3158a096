/**
 * The rows of the day logs, as both loaders read them (src/io/load-build.ts, src/io/load-full.ts):
 * a folder's rows a day at a time, a day's quotes, a history day's records.
 */
import type { z } from "zod";
import { DataError } from "../core/errors.js";
import { recordOf, type DayRecord, type Located, type LocatedQuote } from "../core/dataset.js";
import { DayClose, Quote } from "../schema/inputs.js";
import { isDayClose, isQuote } from "../schema/fast-inputs.js";
import { dayFiles, readDayFileSync } from "./day-files.js";
import { insideCheck } from "./links.js";
import { ndjsonRows } from "./ndjson.js";

/**
 * The rows of a folder's day files, each day read when its first row is asked for: a day's text and
 * its parse are garbage before the next day is read. `torn`: where a torn last line of a day is
 * reported (src/io/day-files.ts DayFileRead), as the logs that ingest appends to are read.
 */
export async function folderRows<T>(
  dataDir: string,
  folder: string,
  schema: z.ZodType<T>,
  fast: (v: unknown) => boolean,
  torn: string[],
): Promise<Iterable<Located<T>>> {
  const days = await dayFiles(dataDir, folder);
  const within = await insideCheck(dataDir, folder);
  return (function* (): Generator<Located<T>> {
    for (const d of days)
      for (const r of ndjsonRows(d.file, readDayFileSync(d.file, within(d), { torn }), schema, { fast }))
        yield { value: r.value, file: d.file, line: r.line };
  })();
}

/** A day's quotes, each parsed and checked as it is reached. */
export function* quotesOf(file: string, text: Buffer): Generator<LocatedQuote> {
  for (const r of ndjsonRows(file, text, Quote, { fast: isQuote })) yield { quote: r.value, file, line: r.line };
}

/** A history day's records, each dated as its file is named. */
export function readHistoryDay(d: { date: string; file: string }, bytes: Buffer) {
  const records: DayRecord[] = [];
  for (const r of ndjsonRows(d.file, bytes, DayClose, { fast: isDayClose })) {
    if (r.value.date !== d.date)
      throw new DataError(d.file, `record dated ${r.value.date} in the file of ${d.date}`, { line: r.line });
    records.push(recordOf(r.value));
  }
  return { date: d.date, file: d.file, records };
}
