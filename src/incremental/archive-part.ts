/**
 * The archive's closed part written as it is made (src/feed/archive/types.ts PartSink): each asset's
 * entries of the compacted days go, a few at a time, to two files headed by the first bytes of its
 * history files, in a fresh folder beside the site (`<site>.archive-cache/new-<pid>/`) that the
 * cache takes once the site is published (src/incremental/archive-days.ts saveCache). A first build
 * of the large dataset makes 67 000 entries of this part: it never holds them (docs/performance.md).
 * Each file is hashed as it is written, and the cache's index keeps the digest: a later build copies
 * the file only while its bytes still match it (src/incremental/digests.ts).
 */
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { HistoryHeads, PartFile, PartSink } from "../feed/archive/types.js";
import type { ClosedRecords } from "../rules/records-part.js";
import { partFile } from "./archive-cache.js";
import type { FileHashes } from "./digests.js";
import { writeFailure, writeFileAtomic } from "../io/atomic-write.js";
import { sha256Hex } from "../io/hash.js";
import { WriteBatch } from "../io/write-batch.js";

/** How many characters of an asset's entries wait before they are appended to its file. */
const FLUSH_CHARS = 16_384;

/** One of an asset's two part files: where it is, its text waiting to be appended, its size and its digest so far. */
class Pending {
  private readonly batch: WriteBatch;
  private headBytes = 0;
  private readonly hash = createHash("sha256");
  constructor(readonly file: string) {
    this.batch = new WriteBatch(FLUSH_CHARS, (text) => {
      this.hash.update(text);
      try {
        appendFileSync(this.file, text);
      } catch (e) {
        throw writeFailure(this.file, e);
      }
    });
  }
  /** Writes the file anew with its head. */
  start(head: string): void {
    writeFileSync(this.file, head);
    this.hash.update(head);
    this.headBytes = Buffer.byteLength(head);
  }
  push(text: string): void {
    this.batch.push(text);
  }
  /** The file as written, and the SHA-256 of its bytes (hex). */
  end(): { file: PartFile; sha256: string } {
    this.batch.flush();
    return { file: { file: this.file, bytes: this.headBytes + this.batch.written }, sha256: this.hash.digest("hex") };
  }
}

export class PartFiles implements PartSink {
  private readonly files = new Map<string, { json: Pending; csv: Pending; entries: number }>();
  /** Each asset's two files' SHA-256, once end() closed them: what the cache's index keeps. */
  readonly sha256 = new Map<string, { json: string; csv: string }>();
  /** The same by file. */
  private readonly byFile = new Map<string, string>();

  /** `dir`: the cache folder; the part is written into `new-<pid>` in it, emptied first. */
  constructor(
    readonly dir: string,
    heads: HistoryHeads,
  ) {
    const folder = path.join(dir, PartFiles.folderName);
    try {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      for (const [asset, head] of heads) {
        const json = new Pending(partFile(dir, PartFiles.folderName, asset, "json"));
        const csv = new Pending(partFile(dir, PartFiles.folderName, asset, "csv"));
        json.start(head.json);
        csv.start(head.csv);
        this.files.set(asset, { json, csv, entries: 0 });
      }
    } catch (e) {
      throw writeFailure(folder, e);
    }
  }

  /** The folder a build of this process writes its part into, inside the cache folder. */
  static readonly folderName = `new-${process.pid}`;

  add(asset: string, json: string, csv: string): void {
    const f = this.files.get(asset);
    if (!f) throw new Error(`${asset}: not an asset of the archive's part`);
    f.json.push(f.entries++ === 0 ? json : `,${json}`);
    f.csv.push(`${csv}\r\n`);
  }

  /** The SHA-256 of the records written beside the part (end()), once it is closed. */
  recordsSha256: string | null = null;

  end(records: ReadonlyMap<string, ClosedRecords>): Map<string, { json: PartFile; csv: PartFile }> {
    this.recordsSha256 = writeRecords(path.join(this.dir, PartFiles.folderName), records);
    const out = new Map<string, { json: PartFile; csv: PartFile }>();
    for (const [asset, f] of this.files) {
      const [json, csv] = [f.json.end(), f.csv.end()];
      out.set(asset, { json: json.file, csv: csv.file });
      this.sha256.set(asset, { json: json.sha256, csv: csv.sha256 });
      this.byFile.set(json.file.file, json.sha256).set(csv.file.file, csv.sha256);
    }
    return out;
  }

  /** The SHA-256 of a part file written here, once closed. */
  digestOf(file: string): string | undefined {
    return this.byFile.get(file);
  }
}

/**
 * The entries a build makes for data/state/archive/ (src/incremental/archive-days.ts), each written
 * out as it is made into `<site>.archive-cache/state-<pid>/` and moved into data/ by save(), under
 * the data folder's lock: a first build makes one per compacted day, which it would otherwise hold to
 * the end.
 */
export class StateSpill {
  private readonly dates: string[] = [];
  private made = false;
  constructor(readonly folder: string) {}

  put(date: string, text: string): void {
    const file = path.join(this.folder, `${date}.json`);
    try {
      if (!this.made) {
        rmSync(this.folder, { recursive: true, force: true });
        mkdirSync(this.folder, { recursive: true });
        this.made = true;
      }
      writeFileSync(file, text);
    } catch (e) {
      throw writeFailure(file, e);
    }
    this.dates.push(date);
  }

  /** Moves each entry to its file in data/ (under the data folder's lock), then removes the folder: how many. */
  async moveTo(fileOf: (date: string) => string): Promise<number> {
    for (const d of this.dates) {
      const [from, to] = [path.join(this.folder, `${d}.json`), fileOf(d)];
      try {
        renameSync(from, to);
      } catch {
        // Another file system (the site's folder is not data/'s), or no folder yet: copied atomically.
        await writeFileAtomic(to, readFileSync(from, "utf8"));
      }
    }
    rmSync(this.folder, { recursive: true, force: true });
    return this.dates.length;
  }
}

/** The folder a build of this process spills its state entries into, inside the cache folder. */
export const spillFolder = (cacheDir: string) => path.join(cacheDir, `state-${process.pid}`);

/** Whether a part file has the bytes it was written with (its size, and the SHA-256 taken then); "missing" when it cannot be read. */
export async function asWritten(
  f: PartFile,
  sha256: string,
  hashes: FileHashes,
): Promise<"same" | "differs" | "missing"> {
  const now = await hashes.of(f.file);
  if (now === null) return "missing";
  return now.bytes === f.bytes && now.sha256 === sha256 ? "same" : "differs";
}

/** The part's entry digests (src/feed/archive/types.ts AssetPart `digests`): a line per asset, `<asset> <digests>`. */
const DIGESTS = "digests.txt";

/** Writes the part's digests; returns the SHA-256 of the file's bytes, for the cache's index. */
export function writeDigests(folder: string, assets: ReadonlyMap<string, { digests: string }>): string {
  const file = path.join(folder, DIGESTS);
  const text = [...assets].map(([a, p]) => `${encodeURIComponent(a)} ${p.digests}\n`).join("");
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw writeFailure(file, e);
  }
  return sha256Hex(text);
}

export const digestsFile = (folder: string) => path.join(folder, DIGESTS);

/**
 * Each asset's digests; "mismatch" when its bytes are not those the index recorded (`sha256`), null
 * when it cannot be read: either way the part is not used.
 */
export function readDigests(folder: string, sha256: string): Map<string, string> | "mismatch" | null {
  let text: string;
  try {
    const bytes = readFileSync(path.join(folder, DIGESTS));
    if (sha256Hex(bytes) !== sha256) return "mismatch";
    text = bytes.toString("latin1");
  } catch {
    return null;
  }
  const out = new Map<string, string>();
  try {
    for (const line of text.split("\n")) {
      const at = line.indexOf(" ");
      if (at > 0) out.set(decodeURIComponent(line.slice(0, at)), line.slice(at + 1));
    }
  } catch {
    return null; // a name that is not what encodeURIComponent wrote: a damaged cache
  }
  return out;
}

/** The seller records of the part's closed days (src/rules/records-part.ts ClosedRecords), by asset. */
const RECORDS = "records.json";

/** Writes the part's records; returns the SHA-256 of the file's bytes, for the cache's index. */
export function writeRecords(folder: string, records: ReadonlyMap<string, ClosedRecords>): string {
  const file = path.join(folder, RECORDS);
  const text = JSON.stringify(Object.fromEntries(records));
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw writeFailure(file, e);
  }
  return sha256Hex(text);
}

export const recordsFile = (folder: string) => path.join(folder, RECORDS);

/**
 * The part's records; "mismatch" when its bytes are not those the index recorded (`sha256`), null
 * when it cannot be read: either way the part is not used (its closed days are taken one by one).
 * Its bytes are the ones this code wrote (the part's key holds the code's fingerprint), so their
 * digest is their check.
 */
export function readRecords(folder: string, sha256: string): Map<string, ClosedRecords> | "mismatch" | null {
  try {
    const bytes = readFileSync(path.join(folder, RECORDS));
    if (sha256Hex(bytes) !== sha256) return "mismatch";
    return new Map(Object.entries(JSON.parse(bytes.toString("utf8")) as Record<string, ClosedRecords>));
  } catch {
    return null;
  }
}
