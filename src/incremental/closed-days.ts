/**
 * What the hourly build keeps of raw quote days that are over (`data/state/closed-days/<date>.json`),
 * so that the next hour does not take the same 80 k quotes of each through acceptance again: a raw
 * day is kept 7 days (RAW_RETENTION_DAYS) before `compact` folds it into history/, and only today's
 * file still changes. Like the history summaries, it is a cache, never the record: the quotes file
 * stays the record, and a day whose entry does not stand is closed from its quotes, as without it.
 *
 * An entry stands for its day only when everything the day's result depends on is what it was made
 * from (src/rules/days.ts closeRawDay, docs/methodology.md §2):
 * - the day file's bytes (`quotesSha256`): a late quote appended to the day changes them;
 * - the inputs of acceptance and closes (`inputsSha256`): the catalog, the registry, the sources in
 *   their order of trust and kind, each asset's official and global rates in force that day, and
 *   which sources were on probation when (docs/methodology.md "New sources: probation");
 * - the code (`codeSha256`, src/incremental/fingerprint.ts): any change of code is a miss;
 * - the build instant, through rule 4 only (a quote later than the build instant is rejected as
 *   observed-in-future): the result is the same at every instant once no quote of the day is later
 *   than it, so an entry records its day's latest instant and is used only by a build at or after it
 *   (less the allowed clock skew).
 * Entries are written only when the build saves its state (the hourly job; not `--no-state`), only
 * for days before the build's Cairo date, and one is removed once its day is no longer a raw day.
 * Each is sealed with the SHA-256 of its bytes (src/incremental/digests.ts): one whose keys stand but
 * whose bytes were edited since (a price, a count) is not used, and the report says so.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { canonical } from "../core/canonical.js";
import { CLOCK_SKEW_MS } from "../core/methodology.js";
import { cairoDate } from "../core/cairo.js";
import { REJECTION_REASONS, type ClosedRawDay, type RejectedQuote } from "../core/dataset.js";
import type { Catalog, DayClose, Registry, Sources } from "../schema/inputs.js";
import { isDayClose } from "../schema/fast-inputs.js";
import { sourceKind } from "../schema/sources.js";
import { refInForce, type DayRef } from "../rules/references.js";
import type { Counting } from "../rules/probation.js";
import type { PlanInputs } from "../feed/plan.js";
import { dataPaths } from "../core/data-layout.js";
import { dayFiles } from "../io/day-files.js";
import { assertInsideSync, insideCheck } from "../io/links.js";
import { messageOf } from "../core/errors.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { sha256Hex } from "../io/hash.js";
import { parseJsonText } from "../io/json-file.js";
import { cacheKey } from "./fingerprint.js";
import { notAsMade, seal, sealOf } from "./digests.js";
import type { Decisions, MakeReason } from "./decisions.js";

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/** One closed raw day as kept in data/state/closed-days/. Rejections leave out the file: it is the day's. */
export const ClosedDayEntry = z.strictObject({
  /** The SHA-256 of the entry's bytes after it, as it was written (seal): what the rest is checked against. */
  sha256: Hex64.optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  quotesSha256: Hex64,
  inputsSha256: Hex64,
  codeSha256: Hex64,
  /** The latest instant of any quote of the day, in ms; null when none has one. */
  latestObservedMs: z.number().int().nullable(),
  read: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  /** Checked line by line with the history lines' exact check (isDayClose) below, not here. */
  closes: z.array(z.unknown()),
  rejected: z.array(
    z.strictObject({
      line: z.number().int().positive(),
      source: z.string(),
      seller: z.string(),
      asset: z.string(),
      reason: z.enum(REJECTION_REASONS),
    }),
  ),
  /** The quotes of sources on probation set apart (docs/methodology.md "New sources: probation"). */
  probation: z
    .array(
      z.strictObject({
        asset: z.string(),
        seller: z.string(),
        source: z.string(),
        buy: z.number().nullable(),
        sell: z.number().nullable(),
        observedAt: z.string(),
        passed: z.boolean(),
        reason: z.enum(REJECTION_REASONS).nullable(),
      }),
    )
    .default([]),
});
export type ClosedDayEntry = z.infer<typeof ClosedDayEntry>;

/**
 * What acceptance and closes read besides the day's quotes, for one date: `inputsSha256`. The
 * catalog, the registry and the sources are the same for every raw day of a build, so they are
 * serialized and hashed once; each date adds the official rates in force on it.
 */
export function inputsKeys(
  inputs: { catalog: Catalog; registry: Registry; sources: Sources; counting?: Counting },
  official: ReadonlyMap<string, DayRef[]>,
  global?: ReadonlyMap<string, DayRef[]>,
): (date: string) => string {
  const shared = sha256Hex(
    canonical({
      catalog: inputs.catalog,
      registry: inputs.registry,
      sources: inputs.sources.sources.map((s) => ({ id: s.id, kind: sourceKind(s) })),
      ...(inputs.counting?.key ? { probation: inputs.counting.key } : {}),
    }),
  );
  // The global rate in force enters the key only where it can matter: an asset with no official rate
  // that day (rule 6 falls back to it), so a dataset whose every asset has an official rate keeps its keys.
  const globalOf = (id: string, date: string, off: DayRef | null) =>
    off === null && global ? (refInForce(global.get(id), date)?.value ?? null) : null;
  return (date) =>
    sha256Hex(
      `${shared}\0${canonical(
        inputs.catalog.map((a) => {
          const off = refInForce(official.get(a.id), date) ?? null;
          const g = globalOf(a.id, date, off);
          return g === null ? [a.id, off] : [a.id, off, g];
        }),
      )}`,
    );
}

/** The raw days a build may take from data/state/closed-days/, and those it closed itself. */
export class ClosedDays {
  /** Each entry's file, and where it must be shown to lie inside the data folder (insideCheck). */
  private readonly listed = new Map<string, { file: string; within: string | null }>();
  /** Each raw day before the build's as take() saw it: its bytes' hash and the inputs of its date. */
  private readonly seen = new Map<string, { quotesSha256: string; inputs: string }>();
  /**
   * Each raw day's inputs key (inputsKeys), made by plan(): the references are not held after it.
   * Its dates are the raw days there are: the entry of any other day is removed by save().
   */
  private inputs: ReadonlyMap<string, string> | null = null;
  private readonly code = cacheKey();
  private readonly today: string;
  /** An entry that could not be read or whose bytes were edited, for the build report (a stale one is no news: it is a miss). */
  readonly warnings: string[] = [];
  /** Days whose entry was used (for the build's summary line). */
  used = 0;

  private constructor(
    private readonly folder: string,
    private readonly atMs: number,
    private readonly decisions: Decisions,
  ) {
    this.today = cairoDate(atMs);
  }

  /** The entries of `dataDir`, for a build at `atMs`. */
  static async open(dataDir: string, atMs: number, decisions: Decisions): Promise<ClosedDays> {
    const c = new ClosedDays(dataPaths(dataDir).closedDays, atMs, decisions);
    try {
      const days = await dayFiles(dataDir, c.folder, "json");
      const within = await insideCheck(dataDir, c.folder);
      for (const d of days) c.listed.set(d.date, { file: d.file, within: within(d) });
    } catch (e) {
      // A cache that cannot be listed (a stray file, a permission) costs time, never the build.
      c.warnings.push(`${messageOf(e)}; no raw day was taken from ${c.folder}`);
    }
    return c;
  }

  /** What acceptance reads besides the quotes (the references computed at the build instant): the rest of each key. */
  plan(inputs: PlanInputs): void {
    const keyOf = inputsKeys(inputs, inputs.official, inputs.global);
    this.inputs = new Map(inputs.rawDates.map((d) => [d, keyOf(d)]));
  }

  /**
   * A raw day before the build's: its result as an earlier build made it from these very bytes,
   * inputs and code, at an instant from which it stands (keep); null when there is none (make).
   * Today's day is never kept: its file still grows.
   */
  take(day: { date: string; file: string }, bytes: Uint8Array): ClosedRawDay | null {
    const { date, file } = day;
    const make = (reason: MakeReason) => {
      this.decisions.make("closes", date, reason);
      return null;
    };
    if (date >= this.today) return make("open");
    const quotesSha256 = sha256Hex(bytes);
    if (this.inputs === null) throw new Error("closed days asked for before the plan's inputs were given");
    const inputs = this.inputs.get(date);
    if (inputs === undefined) throw new Error(`${date} is not a raw day of the plan`);
    this.seen.set(date, { quotesSha256, inputs });
    const listed = this.listed.get(date);
    if (listed === undefined) return make("none");
    let entry: ClosedDayEntry;
    let written: Buffer;
    try {
      if (listed.within !== null) assertInsideSync(listed.within, listed.file);
      written = readFileSync(listed.file);
      entry = parseJsonText(listed.file, written.toString("utf8"), ClosedDayEntry);
      if (entry.date !== date) throw new Error(`the entry of ${entry.date}, not ${date}`);
      // The exact check of a history line (src/schema/fast-inputs.ts, property-tested against DayClose).
      const bad = entry.closes.findIndex((c) => !isDayClose(c));
      if (bad >= 0) throw new Error(`closes[${bad}] is not a day's close`);
    } catch (e) {
      this.warnings.push(`${listed.file}: not usable (${messageOf(e)}); the day was closed from its quotes`);
      return make("unreadable");
    }
    if (entry.codeSha256 !== this.code) return make("program");
    if (entry.inputsSha256 !== inputs) return make("inputs");
    if (entry.latestObservedMs !== null && entry.latestObservedMs > this.atMs + CLOCK_SKEW_MS) return make("future");
    if (entry.quotesSha256 !== quotesSha256) return make("bytes");
    // Its keys stand: its closes, rejections and counts are used only as they were written.
    if (sealOf(written) !== "sealed") {
      this.warnings.push(notAsMade(listed.file));
      return make("edited");
    }
    this.decisions.keep("closes", date);
    this.used++;
    return {
      closes: entry.closes as DayClose[],
      rejected: entry.rejected.map((r): RejectedQuote => ({ file, ...r })),
      accepted: entry.accepted,
      read: entry.read,
      latestObservedMs: entry.latestObservedMs,
      probation: entry.probation,
    };
  }

  /**
   * What a raw day's closes stand on: its bytes, acceptance's inputs and the code, hashed; the archive
   * keys the day's file by it. A day before the build's has the same closes at every build instant
   * from its end on, whatever its latest quote: a quote later than the instant is rejected either as
   * observed-in-future or, once the instant has passed it, as filed under another day.
   */
  closedKey(date: string): string | undefined {
    const seen = this.seen.get(date);
    return seen && sha256Hex(`${seen.quotesSha256}\0${seen.inputs}\0${this.code}`);
  }

  /**
   * Writes the days the build closed, each only when no quote of it was later than the build
   * instant: then rule 4 rejected none, and the result is the same at every instant from the day's
   * latest quote on, which is when take() uses it (a day with a quote still in the future is closed
   * afresh by every build). Removes the entries of days that are no longer raw days.
   */
  async save(made: ReadonlyMap<string, ClosedRawDay>) {
    let written = 0;
    let removed = 0;
    for (const [date, day] of made) {
      const seen = this.seen.get(date);
      if (!seen || (day.latestObservedMs !== null && day.latestObservedMs > this.atMs + CLOCK_SKEW_MS)) continue;
      const entry: Omit<z.input<typeof ClosedDayEntry>, "sha256"> = {
        date,
        quotesSha256: seen.quotesSha256,
        inputsSha256: seen.inputs,
        codeSha256: this.code,
        latestObservedMs: day.latestObservedMs,
        read: day.read,
        accepted: day.accepted,
        closes: day.closes,
        ...(day.probation.length ? { probation: day.probation } : {}),
        rejected: day.rejected.map(({ line, source, seller, asset, reason }) => ({
          line,
          source,
          seller,
          asset,
          reason,
        })),
      };
      await writeFileAtomic(path.join(this.folder, `${date}.json`), seal(entry));
      written++;
    }
    for (const [date, { file }] of this.listed)
      if (!this.inputs?.has(date) && !made.has(date)) {
        rmSync(file, { force: true });
        removed++;
      }
    return { written, removed };
  }
}
