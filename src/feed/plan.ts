/**
 * The seam between composing a site and what earlier builds left (src/incremental/ keeps it), in
 * astro's shape: before a thing is made, the plan says whether an earlier build's result stands for
 * its very inputs (keep) or the build makes it (make); what the build made is handed back in the
 * Site, and recorded once the site is published (src/jobs/build.ts). Every reuse is checked against
 * a digest of the bytes it stands for, and the bytes it keeps against a digest of theirs taken when
 * they were made. The rules never see the plan: they close what it does not keep.
 */
import type { ClosedRawDay } from "../core/dataset.js";
import type { DayRef } from "../rules/references.js";
import type { Counting } from "../rules/probation.js";
import type { ClosedRecords } from "../rules/records-part.js";
import type { Catalog, Registry, Sources } from "../schema/inputs.js";
import type { ArchivePlanner, AssetPart, KeptFile, PartFile } from "./archive/types.js";

/** What a build's plan is made from besides each day's own bytes: what the rules read of the dataset. */
export interface PlanInputs {
  catalog: Catalog;
  registry: Registry;
  sources: Sources;
  /** The official references at the build instant (src/rules/references.ts): acceptance compares with them. */
  official: ReadonlyMap<string, DayRef[]>;
  /** The global references at the build instant: rule 6 falls back to them where no official rate is in force. */
  global: ReadonlyMap<string, DayRef[]>;
  /** Which quotes count (docs/methodology.md "New sources: probation"). */
  counting: Counting;
  /** The dates of the raw quote days there are (what was kept of a day no longer raw is dropped). */
  rawDates: readonly string[];
}

/** What earlier builds left, as a build asks it: a plan, once the references are computed. */
export interface Reuse {
  plan(inputs: PlanInputs): Plan;
}

/** A build's plan: for each thing it would make, keep (an earlier build's) or make. */
export interface Plan extends ArchivePlanner {
  /**
   * A raw day: its closes as an earlier build made them from these very bytes and inputs (keep), or
   * null (make: the rules close it, src/rules/days.ts closeRawDay).
   */
  closes(day: { date: string; file: string }, bytes: Uint8Array): ClosedRawDay | null;
  /**
   * A file the site being replaced has under this ETag and with the very bytes made now — a history
   * file's part (as checked against its digest) then `body` — kept as it is, not written again; null:
   * the file is written as made.
   */
  unchanged(file: { path: string; body: string; prefix?: PartFile | undefined }, etag: string): KeptFile | null;
  /**
   * What the plan could not use of the raw days' closes (an unreadable entry, or one whose bytes do
   * not match the digest recorded when it was made), for the build report: it cost time, not the build.
   */
  readonly warnings: readonly string[];
  /** The same of the archive's closed days, complete once the archive is composed. */
  readonly archiveWarnings: readonly string[];
}

/** What the build made that the plan did not keep, to be recorded once the site is published. */
export interface Made {
  /** The raw days the rules closed, by date. */
  closes: ReadonlyMap<string, ClosedRawDay>;
  /** The archive's closed part, when the build made it (the days themselves were handed to the plan as made). */
  part: ReadonlyMap<string, AssetPart> | null;
  /** The seller records of the closed part's days, made with it (docs/methodology.md §13); null when it was kept. */
  records: ReadonlyMap<string, ClosedRecords> | null;
}
