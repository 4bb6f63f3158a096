/**
 * data/state/probation.json: where each new source stands (docs/methodology.md "New sources:
 * probation"). Written by `ingest` after each run, read by the build and by `compact`. It is the
 * record, not a cache: it lives in data/, is committed by the hourly job, and so survives a lost
 * site, a lost cache and compaction. No node:* imports: the schema is shared.
 */
import { z } from "zod";
import { IsoInstant } from "./outputs.js";

export const Standing = z.enum(["probation", "graduated"]);
export type Standing = z.infer<typeof Standing>;

/** One successful run of a source on probation: when, and how many of its quotes rules 3, 5, 6 or 7 refused. */
export const ProbationRun = z.strictObject({
  at: IsoInstant,
  refused: z.int().nonnegative(),
});
export type ProbationRun = z.infer<typeof ProbationRun>;

/** A graduation or a return: the instant, the standing it led to, and why. */
export const StandingChange = z.strictObject({
  at: IsoInstant,
  standing: Standing,
  reason: z.string().min(1),
  /**
   * A graduation: the instant from which the source's quotes count, the earliest `observedAt` of the
   * graduating run's quotes when earlier than `at` (they passed every rule in that run: a page stamped
   * 10:00 and read at 10:30 counts from 10:00, not from the next time the page changes). Absent: `at`.
   */
  countsFrom: IsoInstant.optional(),
});
export type StandingChange = z.infer<typeof StandingChange>;

export const SourceProbation = z.strictObject({
  standing: Standing,
  /** When the current standing began: the first run on record, a graduation or a return. */
  since: IsoInstant,
  /** While on probation: the latest successful runs (at most PROBATION_RUNS), oldest first. */
  runs: z.array(ProbationRun),
  /** Every graduation and return, oldest first: the periods in which the source's quotes counted. */
  changes: z.array(StandingChange),
});
export type SourceProbation = z.infer<typeof SourceProbation>;

/** The most runs a source on probation keeps: src/core/methodology.ts PROBATION_RUNS (schema/ imports no core; a test holds them equal). */
export const MAX_RUNS = 24;

/**
 * A record that contradicts itself is not believed (docs/methodology.md §2.4, "The record"): its
 * standing is its last change's (probation when it has none), a graduated source keeps no runs,
 * changes alternate from a graduation and, like runs, each is later than the one before. Any such
 * contradiction refuses the reader in one line naming the file and the member, before anything is
 * used or written: believed, a standing "probation" after a graduation let the quotes count while
 * the source health said on probation (issue 50).
 */
export function probationContradiction(p: SourceProbation): { path: (string | number)[]; message: string } | null {
  const last = p.changes.at(-1);
  const expected = last?.standing ?? "probation";
  if (p.standing !== expected)
    return {
      path: ["standing"],
      message: last
        ? `standing "${p.standing}" contradicts its last change, a ${last.standing === "graduated" ? "graduation" : "return"} at ${last.at}`
        : `standing "${p.standing}" with no graduation on record`,
    };
  for (const [i, c] of p.changes.entries()) {
    const want = i % 2 === 0 ? "graduated" : "probation";
    if (c.standing !== want)
      return {
        path: ["changes", i, "standing"],
        message: `a ${c.standing === "graduated" ? "graduation" : "return"} where a ${want === "graduated" ? "graduation" : "return"} must come`,
      };
    if (i > 0 && Date.parse(c.at) <= Date.parse(p.changes[i - 1]!.at))
      return {
        path: ["changes", i, "at"],
        message: `${c.at} is not after the change before it (${p.changes[i - 1]!.at})`,
      };
  }
  if (last && p.since !== last.at)
    return { path: ["since"], message: `${p.since} is not the instant of its last change (${last.at})` };
  if (p.standing === "graduated" && p.runs.length)
    return { path: ["runs"], message: "a graduated source keeps no runs towards graduating" };
  if (p.runs.length > MAX_RUNS)
    return { path: ["runs"], message: `${p.runs.length} runs, more than the ${MAX_RUNS} a source on probation keeps` };
  for (const [i, r] of p.runs.entries())
    if (i > 0 && Date.parse(r.at) <= Date.parse(p.runs[i - 1]!.at))
      return { path: ["runs", i, "at"], message: `${r.at} is not after the run before it (${p.runs[i - 1]!.at})` };
  return null;
}

export const ProbationState = z
  .strictObject({ sources: z.record(z.string(), SourceProbation) })
  .superRefine((state, ctx) => {
    for (const [id, p] of Object.entries(state.sources)) {
      const c = probationContradiction(p);
      if (c)
        ctx.addIssue({
          code: "custom",
          path: ["sources", id, ...c.path],
          message: `the record contradicts itself: ${c.message}`,
        });
    }
  });
export type ProbationState = z.infer<typeof ProbationState>;
