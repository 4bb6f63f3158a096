/**
 * The compacted days of the archive (src/feed/archive.ts CompactedDays), so that a closed day's
 * by-day file is written once and left alone until its inputs change (docs/methodology.md §5.5):
 *
 * - `data/state/archive/<date>.json` keeps, per compacted day, what the archive needs of it without
 *   its closes (each seller asset's DayFacts) and the ETag of the by-day file made from it, under a
 *   key: the SHA-256 of the running code, the history file's bytes, and everything else the day's
 *   file depends on (the site's header, the catalog, the registry, the day's references). Like the
 *   closed-days cache it is never the record: a build that cannot use an entry reads the day.
 * - A day whose entry stands and whose file the site now published has under that ETag is kept as
 *   it is (linked into the new site); any other is read from history/ and made again.
 * - The history file's hash is taken from `<site>.history-hashes.json`, beside the site, while the
 *   file's size, times and inode are those it was hashed at (as git's index does), else computed.
 *   A clean checkout has none of it: every day is hashed once (about 0.5 s for 220 MB).
 */
import { promises as fs, statSync, type BigIntStats } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { cairoDate } from "../core/cairo.js";
import { dataPaths, dayFile } from "../core/data-layout.js";
import type { CompactedDay, CompactedDays } from "../feed/archive.js";
import { files, MANIFEST_FILE } from "../feed/paths.js";
import type { DayFacts } from "../rules/archive.js";
import { Manifest } from "../schema/documents.js";
import { writeFileAtomic } from "./atomic-write.js";
import { codeFingerprint } from "./closed-days.js";
import { dayFiles, readDayFile } from "./day-files.js";
import { readHistoryDay } from "./day-rows.js";
import { sha256Hex } from "./hash.js";
import { readJsonOr, readJson } from "./json-file.js";
import { insideCheck } from "./links.js";

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const Num = z.number().nullable();

/** One compacted day as data/state/archive/ keeps it. */
export const ArchiveDayEntry = z.strictObject({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  key: Hex64,
  facts: z.array(
    z.strictObject({
      asset: z.string(),
      range: z.strictObject({ buyLo: Num, buyHi: Num, sellLo: Num, sellHi: Num }),
      bestSell: z.string().nullable(),
      bestBuy: z.string().nullable(),
      sellerCount: z.int().min(1),
    }),
  ),
  /** The ETag of the by-day file made under `key`; null when the day has no file. */
  etag: z.string().nullable(),
});
type ArchiveDayEntry = z.infer<typeof ArchiveDayEntry>;

/** What a history file was hashed at: equal stats stand for equal bytes. */
const HashedFile = z.strictObject({
  size: z.string(),
  mtimeNs: z.string(),
  ctimeNs: z.string(),
  ino: z.string(),
  sha256: Hex64,
});
const HistoryHashes = z.strictObject({ recordedAtMs: z.number(), files: z.record(z.string(), HashedFile) });
type HistoryHashes = z.infer<typeof HistoryHashes>;

export function historyHashesPath(outDir: string): string {
  const abs = path.resolve(outDir);
  return path.join(path.dirname(abs), `${path.basename(abs)}.history-hashes.json`);
}

const statKey = (s: BigIntStats) => ({
  size: String(s.size),
  mtimeNs: String(s.mtimeNs),
  ctimeNs: String(s.ctimeNs),
  ino: String(s.ino),
});

/** The compacted days a build's archive takes, and what it learned of them, to save afterwards. */
export class ArchiveDays implements CompactedDays {
  readonly dates: string[];
  /** Days whose file was kept as published (for the build's summary line). */
  kept = 0;
  private readonly fresh = new Map<string, ArchiveDayEntry>();
  private readonly pendingKeys = new Map<string, { key: string; old: ArchiveDayEntry | null }>();
  private readonly hashes: HistoryHashes["files"] = {};
  private readonly code = codeFingerprint();

  private constructor(
    private readonly dataDir: string,
    private readonly outDir: string,
    private readonly files: Map<string, { file: string; within: string | null }>,
    private readonly oldHashes: HistoryHashes,
    private readonly published: Manifest | null,
    private readonly startedMs: number,
  ) {
    this.dates = [...files.keys()];
  }

  static async open(dataDir: string, outDir: string, nowMs: number): Promise<ArchiveDays> {
    const p = dataPaths(dataDir);
    const upTo = cairoDate(nowMs);
    const listed = await dayFiles(dataDir, p.history);
    const within = await insideCheck(dataDir, p.history);
    const fileMap = new Map(
      listed.filter((d) => d.date <= upTo).map((d) => [d.date, { file: d.file, within: within(d) }]),
    );
    const none: HistoryHashes = { recordedAtMs: 0, files: {} };
    // Both are caches of the site beside them: unreadable, they cost time, never the build.
    const oldHashes = await readJsonOr(historyHashesPath(outDir), HistoryHashes, none).catch(() => none);
    const published = await readJson(path.join(outDir, MANIFEST_FILE), Manifest).catch(() => null);
    return new ArchiveDays(dataDir, outDir, fileMap, oldHashes, published, Date.now());
  }

  private async entryOf(date: string): Promise<ArchiveDayEntry | null> {
    const file = dayFile(dataPaths(this.dataDir).archive, date, "json");
    try {
      return await readJson(file, ArchiveDayEntry);
    } catch {
      return null; // missing or unreadable: the day is read and the entry written anew
    }
  }

  /** The history file's SHA-256: from the hashes beside the site while the file is as it was hashed, else computed. */
  private async historySha(
    date: string,
    file: string,
    within: string | null,
  ): Promise<{ sha: string; bytes: Buffer | null }> {
    const s = statSync(file, { bigint: true });
    const now = statKey(s);
    const old = this.oldHashes.files[date];
    // A file changed within a second of being hashed might keep its times (git's "racily clean"): not trusted.
    const settled = Number(s.mtimeNs / 1_000_000n) < this.oldHashes.recordedAtMs - 1000;
    if (
      old &&
      settled &&
      old.size === now.size &&
      old.mtimeNs === now.mtimeNs &&
      old.ctimeNs === now.ctimeNs &&
      old.ino === now.ino
    ) {
      this.hashes[date] = old;
      return { sha: old.sha256, bytes: null };
    }
    const bytes = await readDayFile(file, within, { allowEmpty: true });
    const sha = sha256Hex(bytes);
    this.hashes[date] = { ...now, sha256: sha };
    return { sha, bytes };
  }

  async take(date: string, inputs: string): Promise<CompactedDay> {
    const { file, within } = this.files.get(date)!;
    const { sha, bytes } = await this.historySha(date, file, within);
    const key = sha256Hex(`${this.code}\0${sha}\0${inputs}`);
    const old = await this.entryOf(date);
    const entry = old?.key === key && old.date === date ? old : null;
    const path_ = files.day(date);
    const had = this.published?.files[path_];
    if (entry && entry.etag !== null && had?.etag === entry.etag) {
      const from = path.join(this.outDir, path_);
      const exists = await fs.stat(from).then(
        (st) => st.isFile() && st.size === had.bytes,
        () => false,
      );
      if (exists) {
        this.kept++;
        return {
          facts: entry.facts as DayFacts[],
          kept: { path: path_, from, etag: had.etag, contentType: had.contentType, bytes: had.bytes },
        };
      }
    }
    this.pendingKeys.set(date, { key, old: entry });
    const day = readHistoryDay({ date, file }, bytes ?? (await readDayFile(file, within, { allowEmpty: true })));
    return { closes: day.records.map((r) => r.close!) };
  }

  made(date: string, _inputs: string, facts: readonly DayFacts[], file: { path: string; etag: string } | null): void {
    const pending = this.pendingKeys.get(date);
    if (!pending) return;
    const entry: ArchiveDayEntry = { date, key: pending.key, facts: [...facts], etag: file?.etag ?? null };
    // An entry the same as the one kept is not written again (data/state/ is committed by the hourly job).
    if (pending.old && JSON.stringify(pending.old) === JSON.stringify(entry)) return;
    this.fresh.set(date, entry);
  }

  /** Writes the entries made, removes those of days no longer compacted (under the data lock). */
  async save(): Promise<{ written: number; removed: number }> {
    const folder = dataPaths(this.dataDir).archive;
    let written = 0;
    for (const [date, entry] of this.fresh) {
      await writeFileAtomic(dayFile(folder, date, "json"), `${JSON.stringify(entry)}\n`);
      written++;
    }
    let removed = 0;
    const listed = await dayFiles(this.dataDir, folder, "json").catch(() => []);
    const last = this.dates.at(-1);
    // An entry of a day after the build's last compacted one may be a later build's: left alone.
    for (const d of listed)
      if (last !== undefined && d.date <= last && !this.files.has(d.date)) {
        await fs.rm(d.file, { force: true });
        removed++;
      }
    return { written, removed };
  }

  /** Writes the history files' hashes beside the site (after it is published: they describe what it was made from). */
  async saveHashes(): Promise<void> {
    const text = `${JSON.stringify({ recordedAtMs: this.startedMs, files: this.hashes })}\n`;
    await writeFileAtomic(historyHashesPath(this.outDir), text);
  }
}
