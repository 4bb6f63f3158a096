/**
 * What a build may reuse of the builds before it, behind one seam (src/feed/plan.ts): plan(inputs)
 * before anything is made says, for each thing, keep (an earlier build's result stands for its very
 * inputs) or make; record(made) after the site is published keeps what this build made, for the
 * next. Two caches stand behind it: the raw days' closes (data/state/closed-days/, closed-days.ts)
 * and the archive's closed days (data/state/archive/ and `<site>.archive-cache/`, archive-days.ts).
 * Neither is ever the record: whatever a build cannot keep, it makes, and the bytes are the same.
 * Whatever it keeps is checked against the SHA-256 of its bytes taken when it was made (digests.ts).
 */
import path from "node:path";
import { dataPaths } from "../core/data-layout.js";
import type { Made, Plan, PlanInputs, Reuse as ReuseSeam } from "../feed/plan.js";
import { withDataLock } from "../io/data-lock.js";
import type { ReadBuffer } from "../io/day-files.js";
import { assertInside } from "../io/links.js";
import { ArchiveDays } from "./archive-days.js";
import { ClosedDays } from "./closed-days.js";

export interface ReuseOptions {
  dataDir: string;
  /** The site being replaced, which the archive's closed days are kept from, and its cache beside it. */
  outDir: string;
  nowMs: number;
  /** Whether the build saves data/state/ (the hourly job), or only reads it (`--no-state`). */
  saveState: boolean;
  /** The build's read buffer (src/io/day-files.ts): the history days are read into it. */
  into: ReadBuffer;
}

export class Reuse implements ReuseSeam {
  private constructor(
    private readonly o: ReuseOptions,
    private readonly closed: ClosedDays,
    private readonly archive: ArchiveDays,
  ) {}

  /** What the builds before left, listed (nothing of it is read before a plan asks for it). */
  static async open(o: ReuseOptions): Promise<Reuse> {
    const closed = await ClosedDays.open(o.dataDir, o.nowMs);
    const archive = await ArchiveDays.open(o.dataDir, o.outDir, o.nowMs, {
      saveState: o.saveState,
      into: o.into,
      rawKey: (date) => closed.closedKey(date),
    });
    return new Reuse(o, closed, archive);
  }

  plan(inputs: PlanInputs): Plan {
    this.closed.plan(inputs);
    return {
      closes: (day, bytes) => this.closed.take(day, bytes),
      archive: (days) => this.archive.plan(days),
      unchanged: (f, etag) => this.archive.unchanged(f, etag),
      warnings: this.closed.warnings,
      archiveWarnings: this.archive.warnings,
    };
  }

  /**
   * After publishing: the cache beside the site (it describes what the site was made from), then,
   * when the build saves its state, data/state/closed-days/ and data/state/archive/ under the data
   * folder's lock (src/io/data-lock.ts), never through a folder that leaves data/.
   */
  async record(made: Made): Promise<void> {
    await this.archive.saveCache(made.part, made.records);
    if (!this.o.saveState) return;
    await withDataLock(this.o.dataDir, { command: "build", nowMs: this.o.nowMs }, async () => {
      const p = dataPaths(this.o.dataDir);
      for (const place of [path.dirname(p.closedDays), p.closedDays, p.archive])
        await assertInside(this.o.dataDir, place, "folder");
      await this.closed.save(made.closes);
      await this.archive.save();
    });
  }

  /** Raw days whose closes an earlier build's stood for, and closed days kept as published (the build's summary line). */
  get closedDaysUsed(): number {
    return this.closed.used;
  }
  get archiveDaysKept(): number {
    return this.archive.kept;
  }
}
