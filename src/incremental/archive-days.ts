/**
 * The closed days of the archive, so that a closed day's files are written once and left alone until
 * their inputs change (docs/methodology.md §5.5): the archive's part of a build's plan
 * (src/feed/archive/types.ts ArchivePlan). Every day is known by a key: the SHA-256 of the running
 * code, the history file's bytes (a compacted day) or what its closes stand on (a raw day before
 * today, src/incremental/closed-days.ts closedKey), and everything else its file depends on (the
 * site's header, the catalog, the registry, the day's references). Two caches keep what a key stands
 * for; neither is ever the record, and a build that cannot use them reads the days:
 *
 * - beside the site, `<site>.archive-cache/` describes the site it lies beside: each history
 *   file's SHA-256 with the size, times and inode it was hashed at (an unchanged file is not read
 *   again, as git's index does), each day's key, file ETag and number of assets, and the closed
 *   part's files (src/incremental/archive-part.ts). While every closed day's key stands and the site
 *   has each day's file under its ETag, an hourly build keeps those files and that part as they are.
 * - `data/state/archive/<date>.json` keeps, per compacted day made, every asset's entry as written and
 *   the ETag of the day's file, under its key: when only some days changed, the others come from it.
 *   It travels with data/ (the hourly job commits it); the site and its cache beside it do not.
 *
 * A key says what a day was made from, not that the bytes kept of it are still those made: each is
 * checked against the SHA-256 of its bytes taken when it was made (src/incremental/digests.ts) — an
 * entry and the index by their seal, a part file and `digests.txt` by the digest the index keeps, a
 * day's file of the site being replaced by its ETag, the SHA-256 of its bytes. What does not match
 * is made again, as without it, and named in the build report.
 */
import { createHash } from "node:crypto";
import { promises as fs, statSync } from "node:fs";
import path from "node:path";
import {
  archiveCacheDir,
  noCache,
  readCacheIndex,
  readDayEntry,
  partFile,
  statKey,
  type ArchiveCache,
  type ArchiveDayEntry,
} from "./archive-cache.js";
import { cairoDate } from "../core/cairo.js";
import { dataPaths, dayFile } from "../core/data-layout.js";
import type {
  ArchivePlan,
  AssetPart,
  CompactedDay,
  CompactedPart,
  DayInputs,
  EntryRow,
  KeptFile,
  PartFile,
} from "../feed/archive/types.js";
import {
  asWritten,
  digestsFile,
  PartFiles,
  readDigests,
  readRecords,
  recordsFile,
  spillFolder,
  StateSpill,
  writeDigests,
} from "./archive-part.js";
import { files } from "../feed/paths.js";
import type { Manifest } from "../schema/documents.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { cacheKey } from "./fingerprint.js";
import { FileHashes, headSha256, notAsMade, seal, sealDigest } from "./digests.js";
import type { Decisions, MakeReason } from "./decisions.js";
import { dayFiles, readDayFile, type ReadBuffer } from "../io/day-files.js";
import { historyCloses } from "../io/history-lines.js";
import { sha256Hex } from "../io/hash.js";
import { insideCheck, isPlainFile } from "../io/links.js";

export interface ArchiveDaysOptions {
  /** The manifest of the site being replaced (published-pages.ts readPublished); null when there is none. */
  published: Manifest | null;
  /** Where each decision of the plan is recorded, with its reason (decisions.ts). */
  decisions: Decisions;
  /** Whether the build saves data/state/ (else the entries of data/state/archive/ are not kept). */
  saveState: boolean;
  /** The build's read buffer (src/io/day-files.ts), which the history days are read into. */
  into: ReadBuffer;
  /** What a raw day's closes stand on (src/incremental/closed-days.ts closedKey), for its key. */
  rawKey(date: string): string | undefined;
}

/** What earlier builds left of the archive's closed days, the plan made of it, and what this build made. */
export class ArchiveDays {
  /** Days whose file was kept as published (for the build's summary line). */
  kept = 0;
  /** What was not used because its bytes do not match their digest, for the build report. */
  readonly warnings: string[] = [];
  /** The entries made, for save(): null when the build saves no state. */
  private readonly fresh: StateSpill | null;
  /** Each day being made: its key, and the digest of its entry in data/state/archive/ when that stands (not written again if equal). */
  private readonly pending = new Map<string, { key: string; digest: string | null }>();
  /** The files of the site being replaced whose bytes were checked: kept as they are, or (null) not. */
  private readonly checked = new Map<string, KeptFile | null>();
  /** The part this build makes, when it makes one: its files' digests go into the index. */
  private partFiles: PartFiles | null = null;
  /** The SHA-256 of each part file this build copies, as checked (a kept part) or written (a part made). */
  private readonly partSha = new Map<string, string>();
  private sharedText = "";
  private sharedSha = "";
  /** Each closed day's inputs, as the plan was asked for them. */
  private inputs: ReadonlyMap<string, DayInputs> = new Map();
  /** Each day's key, as computed this build. */
  private readonly keys = new Map<string, string>();
  /** What this build leaves beside the site it publishes. */
  private readonly next: ArchiveCache = noCache();
  private readonly code = cacheKey();
  /** Where the state entries made wait for save(). */
  private readonly spill: string;

  private constructor(
    private readonly dataDir: string,
    private readonly outDir: string,
    private readonly today: string,
    private readonly files: Map<string, { file: string; within: string | null }>,
    private readonly old: ArchiveCache,
    private readonly published: Manifest | null,
    startedMs: number,
    private readonly o: ArchiveDaysOptions,
    warnings: string[],
    private readonly hashes: FileHashes,
  ) {
    this.warnings.push(...warnings);
    this.next.recordedAtMs = startedMs;
    this.spill = spillFolder(archiveCacheDir(outDir));
    this.fresh = o.saveState ? new StateSpill(this.spill) : null;
  }

  private readHistory(file: string, within: string | null): Promise<Buffer> {
    return readDayFile(file, within, { allowEmpty: true, into: this.o.into });
  }

  static async open(dataDir: string, outDir: string, nowMs: number, o: ArchiveDaysOptions): Promise<ArchiveDays> {
    const p = dataPaths(dataDir);
    const upTo = cairoDate(nowMs);
    const listed = await dayFiles(dataDir, p.history);
    const within = await insideCheck(dataDir, p.history);
    const fileMap = new Map(
      listed.filter((d) => d.date <= upTo).map((d) => [d.date, { file: d.file, within: within(d) }]),
    );
    const none = noCache();
    // Both describe the site beside them: unreadable, they cost time, never the build.
    const index = path.join(archiveCacheDir(outDir), "index.json");
    const read = await readCacheIndex(index);
    const old = read === "mismatch" || read === null ? none : read;
    const { published } = o;
    const warnings = read === "mismatch" ? [notAsMade(index)] : [];
    const kept = published ? old : none;
    // What an hourly build keeps, hashed from now on while the build loads and closes the days.
    const dir = archiveCacheDir(outDir);
    const hashes = new FileHashes([
      ...Object.entries(kept.days)
        .filter(([date, d]) => d.count > 0 && published?.files[files.day(date)]?.etag === d.etag)
        .map(([date]) => path.join(outDir, files.day(date))),
      ...Object.keys(kept.part).flatMap((a) => [
        partFile(dir, kept.partKey, a, "json"),
        partFile(dir, kept.partKey, a, "csv"),
      ]),
    ]);
    return new ArchiveDays(dataDir, outDir, upTo, fileMap, kept, published, Date.now(), o, warnings, hashes);
  }

  /**
   * The plan of the closed days, given each one's inputs (every date before the build's, and any
   * compacted day up to it): the whole closed part kept when every day's key stands, else each
   * compacted day kept or made as it comes (day()).
   */
  async plan(inputs: ReadonlyMap<string, DayInputs>): Promise<ArchivePlan> {
    this.inputs = inputs;
    return {
      keep: await this.whole(),
      day: (date) => this.take(date),
      partSink: (heads) => (this.partFiles = new PartFiles(archiveCacheDir(this.outDir), heads)),
      made: (date, rows, etag) => this.made(date, rows, etag),
    };
  }

  /** The history file's SHA-256: from the hashes beside the site while the file is as it was hashed, else computed. */
  private async historySha(
    date: string,
    file: string,
    within: string | null,
  ): Promise<{ sha: string; bytes: Buffer | null }> {
    const s = statSync(file, { bigint: true });
    const now = statKey(s);
    const old = this.old.history[date];
    // A file changed within a second of being hashed might keep its times (git's "racily clean"): not trusted.
    const settled = Number(s.mtimeNs / 1_000_000n) < this.old.recordedAtMs - 1000;
    if (
      old &&
      settled &&
      old.size === now.size &&
      old.mtimeNs === now.mtimeNs &&
      old.ctimeNs === now.ctimeNs &&
      old.ino === now.ino
    ) {
      this.next.history[date] = old;
      return { sha: old.sha256, bytes: null };
    }
    const bytes = await this.readHistory(file, within);
    const sha = sha256Hex(bytes);
    this.next.history[date] = { ...now, sha256: sha };
    return { sha, bytes };
  }

  /**
   * A day's key: its history file's hash (none for a raw day or a day with references only), what a
   * raw day's closes stand on, and its other inputs.
   */
  private async keyOf(date: string, inputs: DayInputs): Promise<{ key: string; bytes: Buffer | null }> {
    const known = this.keys.get(date);
    if (known !== undefined) return { key: known, bytes: null };
    if (inputs.shared !== this.sharedText) {
      this.sharedText = inputs.shared;
      this.sharedSha = sha256Hex(inputs.shared);
    }
    const f = this.files.get(date);
    const { sha, bytes } = f ? await this.historySha(date, f.file, f.within) : { sha: "no history", bytes: null };
    const raw = f ? undefined : this.o.rawKey(date);
    const key = createHash("sha256")
      .update(`${this.code}\0${sha}\0${this.sharedSha}\0`)
      .update(inputs.refs)
      .update(`\0${raw === undefined ? "" : `closed ${raw}`}`)
      .digest("hex");
    this.keys.set(date, key);
    return { key, bytes };
  }

  /**
   * The closed part of the site being replaced, when every day before the build's has the key it had
   * then and every file kept of it has the bytes it was made with.
   */
  private async whole(): Promise<CompactedPart | null> {
    const made = (reason: MakeReason) => {
      this.o.decisions.make("archive-part", "closed days", reason);
      return null;
    };
    let all = true;
    const h = createHash("sha256");
    const part = [...this.inputs].filter(([date]) => date < this.today);
    for (const [date, i] of part) {
      const { key } = await this.keyOf(date, i);
      h.update(`${date}\0${key}\0`);
      if (this.old.days[date]?.key !== key) all = false;
    }
    const partKey = h.digest("hex");
    this.next.partKey = partKey;
    // A day changed, or a file kept of the part not as it was made: the days are taken one by one
    // (take()), and the part is made again.
    if (!all || partKey !== this.old.partKey) return made(this.old.partKey ? "day-changed" : "none");
    const days = new Map<string, { kept: KeptFile; count: number }>();
    for (const [date] of part) {
      const cached = this.old.days[date]!;
      if (cached.count === 0) continue;
      // The day's file, kept while the site being replaced has it under the same ETag, with its bytes.
      const kept = await this.keep(files.day(date), cached.etag);
      if (!kept) return made("part-missing");
      days.set(date, { kept, count: cached.count });
    }
    // The part's files, as the build that made it wrote them: copied into the history files, never
    // read into the build, but hashed first.
    const dir = archiveCacheDir(this.outDir);
    const digests = readDigests(path.join(dir, partKey), this.old.digestsSha256);
    if (digests === "mismatch") this.warnings.push(notAsMade(digestsFile(path.join(dir, partKey))));
    if (digests === "mismatch" || digests === null) return made(digests ? "edited" : "part-missing");
    // The seller records of the closed days, made with the part (docs/methodology.md §13).
    const records = readRecords(path.join(dir, partKey), this.old.recordsSha256);
    if (records === "mismatch") this.warnings.push(notAsMade(recordsFile(path.join(dir, partKey))));
    if (records === "mismatch" || records === null) return made(records ? "edited" : "part-missing");
    const assets = new Map<string, AssetPart>();
    for (const [asset, c] of Object.entries(this.old.part)) {
      const json = { file: partFile(dir, partKey, asset, "json"), bytes: c.jsonBytes };
      const csv = { file: partFile(dir, partKey, asset, "csv"), bytes: c.csvBytes };
      const d = digests.get(asset);
      if (d === undefined) return made("part-missing");
      for (const [f, sha] of [
        [json, c.jsonSha256],
        [csv, c.csvSha256],
      ] as const) {
        const state = await asWritten(f, sha, this.hashes);
        if (state === "differs") this.warnings.push(notAsMade(f.file));
        if (state !== "same") return made(state === "differs" ? "edited" : "part-missing");
        this.partSha.set(f.file, sha);
      }
      assets.set(asset, { json, csv, digests: d, first: c.first, last: c.last });
    }
    for (const [date] of part) this.next.days[date] = this.old.days[date]!;
    this.next.part = this.old.part;
    this.next.digestsSha256 = this.old.digestsSha256;
    this.next.recordsSha256 = this.old.recordsSha256;
    this.kept += [...days.keys()].filter((date) => this.files.has(date)).length;
    this.o.decisions.keep("archive-part", "closed days");
    return { assets, days, records };
  }

  /** A compacted day, kept (its entries and its file as published under its key) or to be made from its closes. */
  private async take(date: string): Promise<CompactedDay> {
    const { file, within } = this.files.get(date)!;
    const { key, bytes } = await this.keyOf(date, this.inputs.get(date)!);
    const entryFile = dayFile(dataPaths(this.dataDir).archive, date, "json");
    const old = await readDayEntry(entryFile, date);
    let entry = old?.entry.key === key ? old.entry : null;
    let reason: MakeReason = old ? "made-of" : "none";
    // Its key stands, but its rows are used only as they were written.
    if (entry && old?.digest === null) {
      this.warnings.push(notAsMade(entryFile));
      entry = null;
      reason = "edited";
    }
    const kept = entry && (await this.keep(files.day(date), entry.etag));
    if (entry && kept) {
      this.kept++;
      this.o.decisions.keep("archive-day", date);
      return { rows: entry.rows, kept };
    }
    this.o.decisions.make("archive-day", date, entry ? "not-published" : reason);
    this.pending.set(date, { key, digest: entry ? old!.digest : null });
    return {
      closes: historyCloses({ date, file }, bytes ?? (await this.readHistory(file, within))),
    };
  }

  private made(date: string, rows: readonly EntryRow[], etag: string): void {
    const key = this.keys.get(date);
    if (key !== undefined) this.next.days[date] = { key, etag, count: rows.length };
    const pending = this.pending.get(date);
    this.pending.delete(date); // its old entry, read whole, is not kept to the end of the build
    if (!pending || !this.fresh) return;
    const entry: ArchiveDayEntry = { date, key: pending.key, etag, rows: rows.map(([a, j, c, r]) => [a, j, c, r]) };
    const text = seal(entry);
    // An entry the same as the one kept is not written again (data/state/ is committed by the hourly job).
    if (pending.digest !== null && sealDigest(text) === pending.digest) return;
    this.fresh.put(date, text);
  }

  /**
   * A day's file of the site being replaced, kept as it is (a hard link) while the manifest has it
   * under this ETag and its bytes still hash to it: the ETag of a day's file is the SHA-256 of its
   * bytes (src/feed/site-items.ts), taken when it was made. Each file is read once a build.
   */
  private async keep(p: string, etag: string): Promise<KeptFile | null> {
    const had = this.published?.files[p];
    if (!had || had.etag !== etag) return null;
    const known = this.checked.get(p);
    if (known !== undefined) return known;
    const from = path.join(this.outDir, p);
    let kept: KeptFile | null = null;
    const now = isPlainFile(from) ? await this.hashes.of(from) : null;
    if (now && now.bytes === had.bytes && `"${Buffer.from(now.sha256, "hex").toString("base64url")}"` === etag)
      kept = { path: p, from, etag, contentType: had.contentType, bytes: had.bytes, sha256: now.sha256 };
    else if (now) this.warnings.push(notAsMade(from));
    this.checked.set(p, kept);
    return kept;
  }

  /**
   * A history file of the site being replaced, kept as it is when the manifest has it under this ETag
   * and its bytes are those made now: its part's, which hash to the digest the part was checked
   * against (or written with), then `body`. Checking them reads the file, as copying the part would,
   * but writes nothing, which costs the hourly build more than the reading. Any other file the
   * archive makes is written as made.
   */
  unchanged(f: { path: string; body: string; prefix?: PartFile | undefined }, etag: string): KeptFile | null {
    if (!f.prefix) return null;
    const made = (reason: MakeReason) => {
      this.o.decisions.make("history-file", f.path, reason);
      return null;
    };
    const sha = this.partSha.get(f.prefix.file) ?? this.partFiles?.digestOf(f.prefix.file);
    const had = this.published?.files[f.path];
    const body = Buffer.from(f.body);
    if (sha === undefined || !had) return made("none");
    if (had.etag !== etag || had.bytes !== f.prefix.bytes + body.length) return made("made-of");
    const from = path.join(this.outDir, f.path);
    if (!isPlainFile(from)) return made("not-published");
    const now = headSha256(from, f.prefix.bytes);
    if (now && now.sha256 === sha && now.rest.equals(body)) {
      this.o.decisions.keep("history-file", f.path);
      return { path: f.path, from, etag, contentType: had.contentType, bytes: had.bytes, sha256: now.whole };
    }
    if (now) this.warnings.push(notAsMade(from));
    return made(now ? "edited" : "not-published");
  }

  /** Writes the entries made, removes those of days no longer compacted (under the data lock). */
  async save(): Promise<{ written: number; removed: number }> {
    const folder = dataPaths(this.dataDir).archive;
    const written = (await this.fresh?.moveTo((date) => dayFile(folder, date, "json"))) ?? 0;
    let removed = 0;
    const listed = await dayFiles(this.dataDir, folder, "json").catch(() => []);
    const last = [...this.files.keys()].at(-1);
    // An entry of a day after the build's last compacted one may be a later build's: left alone.
    for (const d of listed)
      if (last !== undefined && d.date <= last && !this.files.has(d.date)) {
        await fs.rm(d.file, { force: true });
        removed++;
      }
    return { written, removed };
  }

  /**
   * Writes the cache beside the site (after it is published: it describes what the site was made
   * from): the part this build made (`part`: in PartFiles' folder) under its own partKey folder
   * first, then the index that names it, then the folders of other parts are removed. A crash in
   * between leaves an index and its part.
   */
  async saveCache(part: ReadonlyMap<string, AssetPart> | null): Promise<void> {
    const dir = archiveCacheDir(this.outDir);
    if (part) {
      this.next.digestsSha256 = writeDigests(path.join(dir, PartFiles.folderName), part);
      const records = this.partFiles!.recordsSha256;
      if (records === null) throw new Error("the archive's closed part was made without its seller records");
      this.next.recordsSha256 = records;
      const sha256 = this.partFiles!.sha256;
      this.next.part = Object.fromEntries(
        [...part].map(([a, { first, last, json, csv }]) => [
          a,
          {
            first,
            last,
            jsonBytes: json.bytes,
            csvBytes: csv.bytes,
            jsonSha256: sha256.get(a)!.json,
            csvSha256: sha256.get(a)!.csv,
          },
        ]),
      );
      // The part made by PartFiles, under its key: renamed, not written again.
      const key = this.next.partKey;
      await fs.rm(path.join(dir, key), { recursive: true, force: true });
      await fs.rename(path.join(dir, PartFiles.folderName), path.join(dir, key));
    }
    await writeFileAtomic(path.join(dir, "index.json"), seal(this.next));
    for (const e of await fs.readdir(dir, { withFileTypes: true }))
      // (The state entries this build spilled wait for save(), under the data folder's lock.)
      if (e.isDirectory() && e.name !== this.next.partKey && e.name !== path.basename(this.spill))
        await fs.rm(path.join(dir, e.name), { recursive: true, force: true });
  }
}
