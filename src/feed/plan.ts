/**
 * The seam between composing a site and what earlier builds left (src/incremental/planner.ts keeps
 * it), in astro's shape: before a thing is made, the plan says whether an earlier build's result
 * stands for its very inputs (keep) or the build makes it (make), and records why (the build report's
 * `plan`, `build --explain`); what the build made is handed back in the Site, and recorded once the
 * site is published (src/jobs/build.ts). Every reuse is checked against a digest of the bytes it
 * stands for, and the bytes it keeps against a digest of theirs taken when they were made. The rules
 * never see the plan: they close what it does not keep. Every keep-or-make of a build is asked here,
 * and nowhere else.
 */
import type { ClosedRawDay } from "../core/dataset.js";
import type { DayRef } from "../rules/references.js";
import type { Counting } from "../rules/probation.js";
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

/**
 * What earlier builds left, as a build asks it: a plan, once the references are computed. (Before,
 * while the build loads, the same planner says which history days' summaries stand:
 * src/io/history-summaries.ts SummaryPlan.)
 */
export interface Reuse {
  plan(inputs: PlanInputs): Plan;
}

/** Where a picture the plan did not keep is drawn: its cache file, named by its ETag (src/incremental/card-cache.ts). */
export interface PictureTarget {
  at: string;
  etag: string;
}

/** A build's plan: for each thing it would make, keep (an earlier build's) or make. */
export interface Plan extends ArchivePlanner {
  /**
   * A raw day: its closes as an earlier build made them from these very bytes and inputs (keep), or
   * null (make: the rules close it, src/rules/days.ts closeRawDay).
   */
  closes(day: { date: string; file: string }, bytes: Uint8Array): ClosedRawDay | null;
  /**
   * A file just made, before it is written: the one the site being replaced has, kept as it is (a
   * hard link), or null: written as made. Kept are a page whose ETag hashes what it is made of
   * (`keepable`: a past day's pages) while that site has it under the ETag, and a history file that
   * site has under this ETag with the very bytes made now (its part, as checked against its digest,
   * then `body`). Any other file is made.
   */
  file(
    file: { path: string; body: string; prefix?: PartFile | undefined; keepable?: boolean | undefined },
    etag: string,
  ): KeptFile | null;
  /** A picture: the PNG drawn before of the very SVG (keep), or where to draw it (make). */
  picture(f: { path: string; svg: string; width: number; height: number }): KeptFile | PictureTarget;
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
}
