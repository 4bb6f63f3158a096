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

export const ProbationState = z.strictObject({ sources: z.record(z.string(), SourceProbation) });
export type ProbationState = z.infer<typeof ProbationState>;
