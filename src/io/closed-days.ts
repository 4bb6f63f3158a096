/**
 * What the hourly build keeps of raw quote days that are over (`data/state/closed-days/<date>.json`),
 * so that the next hour does not take the same 80 k quotes of each through acceptance again: a raw
 * day is kept 7 days (RAW_RETENTION_DAYS) before `compact` folds it into history/, and only today's
 * file still changes. Like the history summaries, it is a cache, never the record: the quotes file
 * stays the record, and a build that cannot use an entry closes the day from its quotes, as without.
 *
 * An entry is used only when everything the day's result depends on is what it was made from
 * (src/rules/days.ts closeRawDay, docs/methodology.md §2):
 * - the day file's bytes (`quotesSha256`): a late quote appended to the day changes them;
 * - the inputs of acceptance and closes (`inputsSha256`): the catalog, the registry, the sources in
 *   their order of trust and kind, and each asset's official rate in force that day;
 * - the code (`codeSha256`): every file of the running program and the lockfile of its packages, the
 *   Node that runs it and its time-zone data (Cairo dates come from it); any change of code is a miss;
 * - the build instant, through rule 4 only (a quote later than the build instant is rejected as
 *   observed-in-future): the result is the same at every instant once no quote of the day is later
 *   than it, so an entry records its day's latest instant and is used only by a build at or after it
 *   (less the allowed clock skew).
 * Entries are written only when the build saves its state (the hourly job; not `--no-state`), only
 * for days before the build's Cairo date, and one is removed once its day is no longer a raw day.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { canonical } from "../core/canonical.js";
import { CLOCK_SKEW_MS } from "../core/methodology.js";
import { REJECTION_REASONS, type ClosedRawDay, type RejectedQuote } from "../core/dataset.js";
import type { Catalog, DayClose, Registry, Sources } from "../schema/inputs.js";
import { isDayClose } from "../schema/fast-inputs.js";
import { sourceKind } from "../schema/sources.js";
import { refInForce, type DayRef } from "../rules/references.js";
import { precomputed } from "../render/precomputed.js";
import { dataPaths } from "../core/data-layout.js";
import { dayFiles } from "./day-files.js";
import { insideCheck } from "./links.js";
import { messageOf } from "../core/errors.js";
import { writeFileAtomic } from "./atomic-write.js";
import { sha256Hex } from "./hash.js";
import { readJson } from "./json-file.js";

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/** One closed raw day as kept in data/state/closed-days/. Rejections leave out the file: it is the day's. */
export const ClosedDayEntry = z.strictObject({
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
});
export type ClosedDayEntry = z.infer<typeof ClosedDayEntry>;

/**
 * The running program's fingerprint, for `codeSha256`. The bundle carries it computed at compile
 * time from the sources it was made of (precomputed.ts); unbundled, it is computed here once a
 * process from the code root this module runs from (dist/ after tsc, src/ under tsx or vitest). The
 * packages' lockfile stands for their code; Node's version and its time-zone data are added at run
 * time, since the same code on another Node may date an instant differently.
 */
export function codeFingerprint(): string {
  if (fingerprint === undefined) {
    const code = precomputed?.codeSha256 ?? sourceFingerprint(fileURLToPath(new URL("..", import.meta.url)));
    fingerprint = sha256Hex(
      `${code}\0${process.version}\0${process.versions["tz"] ?? ""}\0${process.versions["icu"] ?? ""}`,
    );
  }
  return fingerprint;
}
let fingerprint: string | undefined;

/**
 * The fingerprint of a code root (src/ or dist/) and the lockfile beside it, what the bundle step
 * stores: every program file below it (`relative path\0content\0`, in name order; not source maps),
 * then the lockfile.
 */
export function sourceFingerprint(codeRoot: string): string {
  const h = createHash("sha256");
  const files = readdirSync(codeRoot, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js|cjs|mjs|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const f of files)
    h.update(`${path.relative(codeRoot, f)}\0`)
      .update(readFileSync(f))
      .update("\0");
  let lock: Buffer | string = "no lockfile";
  try {
    lock = readFileSync(path.join(codeRoot, "..", "package-lock.json"));
  } catch {
    // Installed without its lockfile: the program's own files still key the cache.
  }
  return h.update("\0package-lock.json\0").update(lock).digest("hex");
}

/**
 * What acceptance and closes read besides the day's quotes, for one date: `inputsSha256`. The
 * catalog, the registry and the sources are the same for every raw day of a build, so they are
 * serialized and hashed once; each date adds the official rates in force on it.
 */
export function inputsKeys(
  inputs: { catalog: Catalog; registry: Registry; sources: Sources },
  official: ReadonlyMap<string, DayRef[]>,
): (date: string) => string {
  const shared = sha256Hex(
    canonical({
      catalog: inputs.catalog,
      registry: inputs.registry,
      sources: inputs.sources.sources.map((s) => ({ id: s.id, kind: sourceKind(s) })),
    }),
  );
  return (date) =>
    sha256Hex(
      `${shared}\0${canonical(inputs.catalog.map((a) => [a.id, refInForce(official.get(a.id), date) ?? null]))}`,
    );
}

/** The closed days a build may take from data/state/closed-days/, and those it closed itself. */
export class ClosedDays {
  /** Each entry's file, and where it must be shown to lie inside the data folder (insideCheck). */
  private readonly listed = new Map<string, { file: string; within: string | null }>();
  private readonly fresh = new Map<string, string>();
  private readonly code = codeFingerprint();
  /** An entry that could not be read, for the build report (a stale one is no news: it is a miss). */
  readonly warnings: string[] = [];
  /** Days whose entry was used (for the build's summary line). */
  used = 0;

  private constructor(private readonly folder: string) {}

  static async open(dataDir: string): Promise<ClosedDays> {
    const c = new ClosedDays(dataPaths(dataDir).closedDays);
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

  /** The day's result at the build instant `atMs`, when its entry may stand for it; else null. */
  async take(date: string, file: string, bytes: Buffer, inputs: string, atMs: number): Promise<ClosedRawDay | null> {
    const listed = this.listed.get(date);
    if (listed === undefined) return null;
    const entryFile = listed.file;
    let entry: ClosedDayEntry;
    try {
      entry = await readJson(entryFile, ClosedDayEntry, listed.within ?? undefined);
      if (entry.date !== date) throw new Error(`the entry of ${entry.date}, not ${date}`);
      // The exact check of a history line (src/schema/fast-inputs.ts, property-tested against DayClose).
      const bad = entry.closes.findIndex((c) => !isDayClose(c));
      if (bad >= 0) throw new Error(`closes[${bad}] is not a day's close`);
    } catch (e) {
      this.warnings.push(`${entryFile}: not usable (${messageOf(e)}); the day was closed from its quotes`);
      return null;
    }
    if (
      entry.codeSha256 !== this.code ||
      entry.inputsSha256 !== inputs ||
      (entry.latestObservedMs !== null && entry.latestObservedMs > atMs + CLOCK_SKEW_MS) ||
      entry.quotesSha256 !== sha256Hex(bytes)
    )
      return null;
    this.used++;
    return {
      atMs,
      closedKey: this.closedKey(entry.quotesSha256, inputs),
      closes: entry.closes as DayClose[],
      rejected: entry.rejected.map((r): RejectedQuote => ({ file, ...r })),
      accepted: entry.accepted,
      read: entry.read,
    };
  }

  /**
   * Keeps a day the build closed from its quotes, to be written by save() — only when no quote of it
   * was later than the build instant: then rule 4 rejected none, and the result is the same at every
   * instant from the day's latest quote on, which is when take() uses it. A day with a quote still
   * in the future (a clock far ahead) is closed afresh by every build. The day's `closedKey` when kept.
   */
  put(
    date: string,
    bytes: Buffer,
    inputs: string,
    day: ClosedRawDay,
    latestObservedMs: number | null,
  ): string | undefined {
    if (latestObservedMs !== null && latestObservedMs > day.atMs + CLOCK_SKEW_MS) return undefined;
    const quotesSha256 = sha256Hex(bytes);
    const entry: ClosedDayEntry = {
      date,
      quotesSha256,
      inputsSha256: inputs,
      codeSha256: this.code,
      latestObservedMs,
      read: day.read,
      accepted: day.accepted,
      closes: day.closes,
      rejected: day.rejected.map(({ line, source, seller, asset, reason }) => ({
        line,
        source,
        seller,
        asset,
        reason,
      })),
    };
    this.fresh.set(date, `${JSON.stringify(entry)}\n`);
    return this.closedKey(quotesSha256, inputs);
  }

  /** ClosedRawDay `closedKey`: what a day's closes stand on once no quote of it is later than the build. */
  private closedKey(quotesSha256: string, inputs: string): string {
    return sha256Hex(`${quotesSha256}\0${inputs}\0${this.code}`);
  }

  /** Writes the days put, and removes the entries of days that are no longer raw days. */
  async save(rawDates: ReadonlySet<string>): Promise<{ written: number; removed: number }> {
    let written = 0;
    let removed = 0;
    for (const [date, text] of this.fresh) {
      await writeFileAtomic(path.join(this.folder, `${date}.json`), text);
      written++;
    }
    for (const [date, { file }] of this.listed)
      if (!rawDates.has(date) && !this.fresh.has(date)) {
        rmSync(file, { force: true });
        removed++;
      }
    return { written, removed };
  }
}
