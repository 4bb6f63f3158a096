/**
 * The archive's closed part written as it is made (src/feed/archive/types.ts PartSink): each asset's
 * entries of the compacted days go, a few at a time, to two files headed by the first bytes of its
 * history files, in a fresh folder beside the site (`<site>.archive-cache/new-<pid>/`) that the
 * cache takes once the site is published (src/incremental/archive-days.ts saveCache). A first build
 * of the large dataset makes 67 000 entries of this part: it never holds them (docs/performance.md).
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { HistoryHeads, PartFile, PartSink } from "../feed/archive/types.js";
import { partFile } from "./archive-cache.js";
import { writeFailure, writeFileAtomic } from "../io/atomic-write.js";
import { WriteBatch } from "../io/write-batch.js";

/** How many characters of an asset's entries wait before they are appended to its file. */
const FLUSH_CHARS = 16_384;

/** One of an asset's two part files: where it is, its text waiting to be appended, and its size so far. */
class Pending {
  private readonly batch: WriteBatch;
  private headBytes = 0;
  constructor(readonly file: string) {
    this.batch = new WriteBatch(FLUSH_CHARS, (text) => {
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
    this.headBytes = Buffer.byteLength(head);
  }
  push(text: string): void {
    this.batch.push(text);
  }
  end(): PartFile {
    this.batch.flush();
    return { file: this.file, bytes: this.headBytes + this.batch.written };
  }
}

export class PartFiles implements PartSink {
  private readonly files = new Map<string, { json: Pending; csv: Pending; entries: number }>();

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

  end(): Map<string, { json: PartFile; csv: PartFile }> {
    const out = new Map<string, { json: PartFile; csv: PartFile }>();
    for (const [asset, f] of this.files) out.set(asset, { json: f.json.end(), csv: f.csv.end() });
    return out;
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

/** Whether a part file is there with the size it was written with. */
export function hasSize(f: PartFile): boolean {
  try {
    return statSync(f.file).size === f.bytes;
  } catch {
    return false;
  }
}

/** The part's entry digests (src/feed/archive/types.ts AssetPart `digests`): a line per asset, `<asset> <digests>`. */
const DIGESTS = "digests.txt";

export function writeDigests(folder: string, assets: ReadonlyMap<string, { digests: string }>): void {
  const file = path.join(folder, DIGESTS);
  const lines = [...assets].map(([a, p]) => `${encodeURIComponent(a)} ${p.digests}\n`);
  try {
    writeFileSync(file, lines.join(""));
  } catch (e) {
    throw writeFailure(file, e);
  }
}

/** Each asset's digests, or null when the file cannot be read (the part is then not used). */
export function readDigests(folder: string): Map<string, string> | null {
  let text: string;
  try {
    text = readFileSync(path.join(folder, DIGESTS), "latin1");
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
