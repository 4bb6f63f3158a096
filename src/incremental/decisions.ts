/**
 * What a build's plan decided of each thing it could keep, and why, as data (docs/performance.md
 * "What a build keeps"): every ask of the planner (planner.ts) records one decision, keep or make,
 * with the reason; the build report counts them and `price-feed build --explain` lists them, so
 * that "why was this page made again?" has an answer.
 */

/** The things a build may keep of the builds before it. */
export const OUTPUTS = {
  /** A raw quote day's closes (data/state/closed-days/, closed-days.ts). */
  closes: "a raw day's closes",
  /** A compacted day's ranges, from its summary (data/summaries/, summaries.ts). */
  summary: "a history day's summary",
  /** The archive's closed part: every closed day's files and the history files' part (archive-days.ts). */
  "archive-part": "the archive's closed part",
  /** One closed day of the archive: its entries and its file (archive-days.ts). */
  "archive-day": "an archive day",
  /** A history file of the archive the site being replaced has with the very bytes made now. */
  "history-file": "an archive history file",
  /** A page whose ETag hashes what it is made of: a past day's pages (published-pages.ts). */
  page: "a past day's page",
  /** An asset's share card, drawn as PNG (card-cache.ts). */
  card: "a share card",
} as const;
export type Output = keyof typeof OUTPUTS;

/**
 * Why: one sentence each, the same for every kind of thing, so that the report can count them.
 * `kept` is the only reason to keep; every other is a reason to make.
 */
export const REASONS = {
  kept: "what it is made of is unchanged, and what was kept is as it was made",
  none: "no earlier build left one",
  open: "its day is not over: its file still grows",
  bytes: "the file it is made from changed",
  inputs: "what it depends on besides its file changed (catalog, sellers, sources, references, probation)",
  program: "the program changed",
  "made-of": "what it is made of changed (its file, its inputs or the program)",
  future: "an earlier build saw a quote later than this build's instant",
  edited: "what was kept is not as it was made (its digest does not match): made again, and named in the warnings",
  unreadable: "what was kept cannot be read: made again, and named in the warnings",
  "not-published": "the site being replaced does not have it under this ETag at its size",
  unrecorded:
    "no digest of its bytes was recorded when it was made, so what the site being replaced has cannot be checked",
  "day-changed": "a closed day of it was made again",
  "part-missing": "the files kept of it are missing or not as they were made",
} as const;
export type Reason = keyof typeof REASONS;
/** A reason to make a thing again: any but `kept`. */
export type MakeReason = Exclude<Reason, "kept">;

export interface Decision {
  output: Output;
  /** What it is: a date (closes, summary, archive-day), a site path (page, card, history-file). */
  subject: string;
  keep: boolean;
  reason: Reason;
}

/** The decisions of one build, in the order they were taken. */
export class Decisions {
  readonly list: Decision[] = [];

  keep(output: Output, subject: string): void {
    this.list.push({ output, subject, keep: true, reason: "kept" });
  }

  make(output: Output, subject: string, reason: MakeReason): void {
    this.list.push({ output, subject, keep: false, reason });
  }

  /** Per kind of thing: how many were kept and made, and the reasons counted (the build report's `plan`). */
  counts(): Record<string, { keep: number; make: number; reasons: Record<string, number> }> {
    const out: Record<string, { keep: number; make: number; reasons: Record<string, number> }> = {};
    for (const d of this.list) {
      const c = (out[d.output] ??= { keep: 0, make: 0, reasons: {} });
      if (d.keep) c.keep++;
      else c.make++;
      c.reasons[d.reason] = (c.reasons[d.reason] ?? 0) + 1;
    }
    return out;
  }
}

/** One decision as `build --explain` prints it: keep or make, what, and why. */
export function explainLine(d: Decision): string {
  return `${d.keep ? "keep" : "make"}  ${d.output.padEnd(12)}  ${d.subject}  (${REASONS[d.reason]})`;
}
