/**
 * A history day's closes by asset, each line parsed when its asset is asked for (the archive's days,
 * src/incremental/archive-days.ts): a whole day parsed at once lived as long as the day's file was
 * being made, long enough to reach V8's old generation; one line at a time, each dies young.
 *
 * `compact` writes each line in canonical form, so that it starts `{"asset":"<id>",`: the lines are
 * indexed by that. A day whose lines are not all so (a blank or edited line, one asset twice) is
 * read whole, as readHistoryDay reads it; so is one with any line that is not valid, so that the
 * error names the first such line of the file, as it does when the day is read whole.
 */
import type { DayCloses } from "../core/dataset.js";
import type { DayClose } from "../schema/inputs.js";
import { DayClose as DayCloseSchema } from "../schema/inputs.js";
import { isDayClose } from "../schema/fast-inputs.js";
import { readHistoryDay } from "./day-rows.js";

const PREFIX = Buffer.from('{"asset":"');

/** The day's closes as readHistoryDay gives them, by asset (the last line of an asset stands, as in a Map). */
function wholeDay(d: { date: string; file: string }, bytes: Buffer): DayCloses {
  const m = new Map(readHistoryDay(d, bytes).records.map((r) => [r.asset, r.close!]));
  return { has: (a) => m.has(a), get: (a) => m.get(a), done: () => undefined, assets: () => m.keys() };
}

export function historyCloses(d: { date: string; file: string }, bytes: Buffer): DayCloses {
  const lines = new Map<string, { start: number; end: number }>();
  for (let at = 0; at < bytes.length;) {
    let end = bytes.indexOf(10, at);
    if (end < 0) end = bytes.length;
    const quote = bytes.indexOf(34, at + PREFIX.length); // the id's closing '"'
    const asset = quote > 0 && quote < end ? bytes.toString("utf8", at + PREFIX.length, quote) : "";
    if (!bytes.subarray(at, at + PREFIX.length).equals(PREFIX) || !/^[\w.-]+$/.test(asset) || lines.has(asset))
      return wholeDay(d, bytes);
    lines.set(asset, { start: at, end });
    at = end + 1;
  }
  let whole: DayCloses | null = null;
  const parse = (asset: string): DayClose | undefined => {
    if (whole) return whole.get(asset);
    const at = lines.get(asset);
    if (!at) return undefined;
    let v: unknown;
    try {
      v = JSON.parse(bytes.toString("utf8", at.start, at.end));
    } catch {
      v = undefined;
    }
    // A line the checks refuse, or of another date: the whole day, for the first such line's error.
    if (!(isDayClose(v) || DayCloseSchema.safeParse(v).success) || (v as DayClose).date !== d.date) {
      whole = wholeDay(d, bytes);
      return whole.get(asset);
    }
    return v as DayClose;
  };
  const asked = new Set<string>();
  return {
    has: (a) => (whole ? whole.has(a) : lines.has(a)),
    assets: () => (whole ? (whole.assets?.() ?? []) : lines.keys()),
    get: (a) => {
      asked.add(a);
      return parse(a);
    },
    // The lines no asset of the catalog asked for are checked too: bad input stops the build.
    done: () => {
      for (const a of lines.keys()) if (!asked.has(a)) parse(a);
    },
  };
}
