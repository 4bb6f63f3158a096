/**
 * The shapes of what the archive keeps between builds (src/incremental/archive-days.ts): a compacted day's
 * entry in data/state/archive/, and the cache beside the site (`<site>.archive-cache/`). Both are
 * written sealed (src/incremental/digests.ts), and each part file's SHA-256 is in the index: what a
 * build reuses of them is checked against the digest of its bytes taken when it was made.
 */
import { existsSync, type BigIntStats } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { sealOf } from "./digests.js";
import { besideSite, type SITE_CACHES } from "../io/build-lock.js";

type SiteCache = (typeof SITE_CACHES)[number];

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * One compacted day as data/state/archive/ keeps it: under `key`, every asset's entry of the day as
 * written (its id, its JSON, its CSV line, what the seller records read of it: src/feed/archive/types.ts
 * EntryRow) and the ETag of the day's file made from the same inputs.
 */
export interface ArchiveDayEntry {
  date: string;
  key: string;
  etag: string;
  rows: Array<[string, string, string, string]>;
}

/**
 * The entry's shape, checked by hand rather than by zod: 400 entries of 200 rows each are read by
 * every hourly build, and a cache needs only to know whether it may be used (anything else is a miss).
 */
export function isArchiveDayEntry(v: unknown): v is ArchiveDayEntry {
  if (typeof v !== "object" || v === null) return false;
  const { sha256: _, ...e } = v as Record<string, unknown>;
  return (
    typeof e["date"] === "string" &&
    typeof e["key"] === "string" &&
    HEX64.test(e["key"]) &&
    typeof e["etag"] === "string" &&
    Array.isArray(e["rows"]) &&
    e["rows"].every(
      (r: unknown) => Array.isArray(r) && r.length === 4 && r.every((x: unknown) => typeof x === "string"),
    ) &&
    Object.keys(e).length === 4
  );
}

/**
 * A compacted day's entry of data/state/archive/ and the digest its bytes match (null when they do
 * not match the one it was sealed with, or it has none); null when it is missing or unreadable: the
 * day is then read and the entry written anew.
 */
export async function readDayEntry(
  file: string,
  date: string,
): Promise<{ entry: ArchiveDayEntry; digest: string | null } | null> {
  // A first build has no entry for any day: none is opened, rather than a failed open each, whose
  // error Node keeps with the stack it was made on, and the stack every call's closures
  // (docs/performance.md "Memory").
  if (!existsSync(file)) return null;
  try {
    const bytes = await readFile(file);
    const v: unknown = JSON.parse(bytes.toString("utf8"));
    if (!isArchiveDayEntry(v) || v.date !== date) return null;
    const { sha256, ...entry } = v as ArchiveDayEntry & { sha256?: unknown };
    return { entry, digest: sealOf(bytes) === "sealed" ? (sha256 as string) : null };
  } catch {
    return null;
  }
}

/** What a history file was hashed at: equal stats stand for equal bytes. */
export const HashedFile = z.strictObject({
  size: z.string(),
  mtimeNs: z.string(),
  ctimeNs: z.string(),
  ino: z.string(),
  sha256: z.string().regex(HEX64),
});
/** A day's key, its file's ETag and its number of assets (0, and no file, for a day without an entry). */
export const CachedDay = z.strictObject({ key: z.string(), etag: z.string(), count: z.int().min(0) });
/**
 * An asset's closed part: its dates, and the sizes of its two files beside this index (each headed by
 * its history file's first bytes, src/feed/archive/types.ts PartFile). Its entries' digests are in
 * the part's `digests.txt` (src/incremental/archive-part.ts), not in this index, which every hourly
 * build reads and checks.
 */
export const CachedPart = z.strictObject({
  first: z.string(),
  last: z.string(),
  jsonBytes: z.int().min(0),
  csvBytes: z.int().min(0),
  /** The SHA-256 of each part file's bytes, taken as it was written: it is used only while they match. */
  jsonSha256: z.string().regex(HEX64),
  csvSha256: z.string().regex(HEX64),
});
export const ArchiveCache = z.strictObject({
  recordedAtMs: z.number(),
  history: z.record(z.string(), HashedFile),
  days: z.record(z.string(), CachedDay),
  /** The SHA-256 of every closed day's date and key: the part below stands while it does. */
  partKey: z.string(),
  part: z.record(z.string(), CachedPart),
  /** The SHA-256 of the part's `digests.txt` as it was written ("" with no part). */
  digestsSha256: z.string(),
  /** The SHA-256 of the part's `records.json`, the seller records of the closed days, as written ("" with no part). */
  recordsSha256: z.string(),
});
export type ArchiveCache = z.infer<typeof ArchiveCache>;

/** No cache, made anew (its members are filled in by a build): nothing kept, as for a first build. */
export const noCache = (): ArchiveCache => ({
  recordedAtMs: 0,
  history: {},
  days: {},
  partKey: "",
  part: {},
  digestsSha256: "",
  recordsSha256: "",
});

/**
 * The cache's index: null when there is none or it is not one this code wrote (no seal, another
 * shape: a miss, no news); "mismatch" when its bytes are not those it was sealed with.
 */
export async function readCacheIndex(file: string): Promise<ArchiveCache | "mismatch" | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return null;
  }
  const sealed = sealOf(bytes);
  if (sealed !== "sealed") return sealed === "mismatch" ? "mismatch" : null;
  try {
    const { sha256: _, ...v } = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
    const r = ArchiveCache.safeParse(v);
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * The cache beside a site: `<site>.archive-cache/index.json`, and the closed part's bytes under
 * `<partKey>/`. One of SITE_CACHES: a file in its place is removed before the build reads it
 * (src/io/build-lock.ts cleanPublishLeftovers).
 */
export const archiveCacheDir = (outDir: string): string => besideSite(outDir, "archive-cache" satisfies SiteCache);
export const partFile = (dir: string, partKey: string, asset: string, ext: "json" | "csv") =>
  path.join(dir, partKey, `${encodeURIComponent(asset)}.${ext}`);

export const statKey = (s: BigIntStats) => ({
  size: String(s.size),
  mtimeNs: String(s.mtimeNs),
  ctimeNs: String(s.ctimeNs),
  ino: String(s.ino),
});
