/**
 * The one planner of a build (docs/performance.md "What a build keeps"): every keep-or-make of a
 * build is asked of it, behind one seam (src/feed/plan.ts), and each answer is recorded with its
 * reason (decisions.ts) for the build report and `price-feed build --explain`. Before anything is
 * made, it says for each thing keep (an earlier build's result stands for its very inputs) or make;
 * record(made) after the site is published keeps what this build made, for the next.
 *
 * What it keeps, and where from:
 * - a history day's ranges, from its summary (data/summaries/, summaries.ts), while the build loads;
 * - a raw day's closes (data/state/closed-days/, closed-days.ts);
 * - the archive's closed part and closed days (data/state/archive/ and `<site>.archive-cache/`,
 *   archive-days.ts), and a history file the site being replaced has with the bytes made now;
 * - a past day's pages, from the site being replaced, checked against the digests recorded beside it
 *   (`<site>.page-digests.json`, published-pages.ts);
 * - the share cards' PNGs (`<site>.card-cache/`, card-cache.ts).
 * None is ever the record: whatever a build cannot keep, it makes, and the bytes are the same.
 * Whatever it keeps is checked against the SHA-256 of its bytes taken when it was made (digests.ts),
 * or, for a page or a picture, known by an ETag that hashes what it is made of.
 */
import path from "node:path";
import { dataPaths } from "../core/data-layout.js";
import type { Made, Plan, PlanInputs, Reuse } from "../feed/plan.js";
import type { SummariesPlanner, SummaryPlan } from "../io/history-summaries.js";
import { withDataLock } from "../io/data-lock.js";
import type { ReadBuffer } from "../io/day-files.js";
import { assertInside } from "../io/links.js";
import { ArchiveDays } from "./archive-days.js";
import { CardCache, cardCacheDir } from "./card-cache.js";
import { ClosedDays } from "./closed-days.js";
import { Decisions } from "./decisions.js";
import { PublishedPages, readPageDigests, readPublished, signedDigests } from "./published-pages.js";
import type { Manifest } from "../schema/documents.js";
import type { PublicKeys } from "../schema/signing.js";
import { historySummaries } from "./summaries.js";

export interface PlannerOptions {
  dataDir: string;
  /** The site being replaced, which the archive's closed days and the past days' pages are kept from, and its caches beside it. */
  outDir: string;
  nowMs: number;
  /** Whether the build saves data/state/ (the hourly job), or only reads it (`--no-state`). */
  saveState: boolean;
  /** The build's read buffer (src/io/day-files.ts): the history days are read into it. */
  into: ReadBuffer;
  /** What a card's PNG depends on besides its SVG (src/jobs/card-images.ts rasterizerId). */
  rasterizer: () => string;
  /** The keys a signed build checks the statement of the site being replaced with (published-pages.ts signedDigests). */
  keys?: PublicKeys;
}

export class Planner implements Reuse, SummariesPlanner {
  /** Every decision of this build, in the order taken, with its reason. */
  readonly decisions: Decisions;
  private readonly pages: PublishedPages;
  private readonly cards: CardCache;

  private constructor(
    private readonly o: PlannerOptions,
    decisions: Decisions,
    private readonly closed: ClosedDays,
    private readonly archive: ArchiveDays,
    published: Manifest | null,
    digests: ReadonlyMap<string, string>,
    recorded: ReturnType<typeof readPageDigests>,
  ) {
    this.decisions = decisions;
    this.pages = new PublishedPages(o.outDir, published, decisions, digests, recorded.digests);
    if (recorded.warning) this.pages.warnings.push(recorded.warning);
    this.cards = new CardCache(cardCacheDir(o.outDir), decisions, o.rasterizer);
  }

  /** What the builds before left, listed (nothing of it is read before a plan asks for it). */
  static async open(o: PlannerOptions): Promise<Planner> {
    const decisions = new Decisions();
    // The site being replaced, read once: its archive's days and its pages are kept from it.
    const published = await readPublished(o.outDir);
    const closed = await ClosedDays.open(o.dataDir, o.nowMs, decisions);
    const archive = await ArchiveDays.open(o.dataDir, o.outDir, o.nowMs, {
      published,
      decisions,
      saveState: o.saveState,
      into: o.into,
      rawKey: (date) => closed.closedKey(date),
    });
    const digests = o.keys ? await signedDigests(o.outDir, o.keys) : new Map<string, string>();
    // The digests the site's pages were made with (published-pages.ts): a kept page is checked against them.
    const recorded = readPageDigests(o.outDir);
    return new Planner(o, decisions, closed, archive, published, digests, recorded);
  }

  summaries(historyFiles: ReadonlyArray<{ date: string; file: string }>, warnings: string[]): Promise<SummaryPlan> {
    return historySummaries(
      this.o.dataDir,
      dataPaths(this.o.dataDir).summaries,
      historyFiles,
      warnings,
      this.decisions,
    );
  }

  plan(inputs: PlanInputs): Plan {
    this.closed.plan(inputs);
    return {
      closes: (day, bytes) => this.closed.take(day, bytes),
      archive: (days) => this.archive.plan(days),
      file: (f, etag) => (f.keepable ? this.pages.published(f.path, etag) : this.archive.unchanged(f, etag)),
      picture: (f) => this.cards.picture(f),
      warnings: this.closed.warnings,
      archiveWarnings: this.archive.warnings,
    };
  }

  /**
   * After publishing: the caches beside the site (they describe what the site was made from), then,
   * when the build saves its state, data/state/closed-days/ and data/state/archive/ under the data
   * folder's lock (src/io/data-lock.ts), never through a folder that leaves data/.
   */
  async record(made: Made): Promise<void> {
    this.cards.prune();
    await this.archive.saveCache(made.part);
    await this.pages.save();
    if (!this.o.saveState) return;
    await withDataLock(this.o.dataDir, { command: "build", nowMs: this.o.nowMs }, async () => {
      const p = dataPaths(this.o.dataDir);
      for (const place of [path.dirname(p.closedDays), p.closedDays, p.archive])
        await assertInside(this.o.dataDir, place, "folder");
      await this.closed.save(made.closes);
      await this.archive.save();
    });
  }

  /** What the pages' plan has to say (a page remade because its bytes were edited), for the report's warnings. */
  get pageWarnings(): readonly string[] {
    return this.pages.warnings;
  }

  /** Raw days whose closes an earlier build's stood for, and closed days kept as published (the build's summary line). */
  get closedDaysUsed(): number {
    return this.closed.used;
  }
  get archiveDaysKept(): number {
    return this.archive.kept;
  }
}
