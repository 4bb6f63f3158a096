/**
 * The archive's parts as the build composes them (src/feed/archive/compose.ts) and as what earlier
 * builds left keeps them (src/incremental/archive-days.ts): what a closed day is made of, and the
 * plan that says which closed days are kept as published and which are made.
 */
import type { Dataset, DayCloses, DayRecord } from "../../core/dataset.js";
import type { DayRef } from "../../rules/references.js";
import type { Days } from "../../schema/archive.js";
import type { ItemsFile } from "../site-items.js";
import type { ClosedRecords } from "../../rules/records-part.js";
import type { ArchiveRecords } from "./records.js";

/** A file of the previous site that stands for a day whose inputs did not change: linked, not written again. */
export interface KeptFile {
  path: string;
  /** Where it is on disk now. */
  from: string;
  etag: string;
  contentType: string;
  bytes: number;
  /** The SHA-256 (hex) of its bytes, when the plan checked them against it: a signed build hashes it no more. */
  sha256?: string;
}

/**
 * One asset's entry of a day as written: its id, its JSON and its CSV line (src/feed/archive/json.ts,
 * csv.ts), and what the seller records read of the day (src/feed/archive/records.ts recordDayText;
 * "" for a reference asset).
 */
export type EntryRow = readonly [asset: string, json: string, csv: string, record: string];

/**
 * What a day's file depends on besides its closes: `shared` (the site's header, the catalog and the
 * registry; the same string for every day of a build) and `refs` (each asset's references that day,
 * src/feed/archive/refs.ts). What the closes stand on (a history file's bytes, or what a raw day's
 * closes were made from) the plan adds itself.
 */
export interface DayInputs {
  shared: string;
  refs: Uint8Array;
}

/**
 * A compacted day as the plan gives it: the entries an earlier build wrote of it from the same
 * inputs and the file it published then, kept as it is; or its closes, to make it from.
 */
export type CompactedDay = { closes: DayCloses } | { rows: readonly EntryRow[]; kept: KeptFile };

/**
 * The archive's part of a build's plan (src/feed/plan.ts): whether the closed part of the site being
 * replaced stands whole, and otherwise each compacted day kept or made. The archive composes only
 * what is made; a kept file is yielded as it is.
 */
export interface ArchivePlan {
  /**
   * Every closed day's file and each asset's part as the site being replaced has them, when every
   * closed day's inputs are what they were then (the hourly build's case); null otherwise.
   */
  keep: CompactedPart | null;
  /** When `keep` is null, a compacted day (its inputs were given to the plan). */
  day(date: string): Promise<CompactedDay>;
  /** When `keep` is null, where the closed part's entries go as they are made. */
  partSink(heads: HistoryHeads): PartSink;
  /**
   * A closed day as made or kept, for the record: its entries and its file's ETag. The entries of a
   * day made are written out at once, not held: a first build makes 336 days of them.
   */
  made(date: string, rows: readonly EntryRow[], etag: string): void;
}

/** What plans the archive's closed days: given every closed day's inputs, its plan (src/feed/plan.ts Plan). */
export interface ArchivePlanner {
  archive(days: ReadonlyMap<string, DayInputs>): Promise<ArchivePlan>;
}

/**
 * A file that holds the first bytes of a history file: its head (up to and with `"entries":[`, or the
 * CSV's header line) and its entries of the closed part, as an earlier build or this one wrote them.
 * The history file is made by copying it and writing the rest after it: the part's bytes are never
 * read into the build (src/incremental/archive-days.ts).
 */
export interface PartFile {
  file: string;
  bytes: number;
}

/** One asset's entries of the compacted days, on disk, and the digests its ETags use. */
export interface AssetPart {
  json: PartFile;
  csv: PartFile;
  /** A digest of each entry's JSON, concatenated: what the files' ETags hash in place of the entries. */
  digests: string;
  /** The first and last dates it has ("" for none). */
  first: string;
  last: string;
}

/** Each asset's first bytes of its history files (src/feed/archive/history.ts historyHeads). */
export type HistoryHeads = ReadonlyMap<string, { json: string; csv: string }>;

/**
 * Where the entries of the closed part go as they are made, a day at a time, so that none is kept:
 * each asset's two part files, headed by `heads` (src/incremental/archive-part.ts). end() closes them.
 */
export interface PartSink {
  add(asset: string, json: string, csv: string): void;
  /**
   * Closes the files, and writes beside them the seller records of the part's days (docs/methodology.md
   * §13), which are then not held to the end of the build.
   */
  end(records: ReadonlyMap<string, ClosedRecords>): Map<string, { json: PartFile; csv: PartFile }>;
}

/** Every asset's compacted part, and each compacted day's file and number of assets. */
export interface CompactedPart {
  assets: Map<string, AssetPart>;
  days: Map<string, { kept: KeptFile; count: number }>;
  /** Each seller asset's records of the closed days (src/rules/records-part.ts), kept with the part. */
  records: Map<string, ClosedRecords>;
}

/** What the archive is made of: the dataset, the build's records and references, and the plan. */
export interface ArchiveInput {
  ds: Pick<Dataset, "catalog" | "registry" | "site" | "historyDates">;
  records: ReadonlyMap<string, DayRecord[]>;
  refs: { official: ReadonlyMap<string, DayRef[]>; global: ReadonlyMap<string, DayRef[]> };
  /**
   * What earlier builds left (src/feed/plan.ts): with it, the compacted days up to the build date
   * come from it, and the closed days it keeps are not made again; without it, the records must hold
   * every day's closes (a dataset loaded in full, or made in memory).
   */
  plan?: ArchivePlanner | undefined;
  /** The build's Cairo date: the days before it are the closed part (docs/methodology.md §5.5 "Written once"). */
  today: string;
  /** The ETag of a file put before (the by-day file's, for `made`). */
  etagOf(path: string): string;
  /** A digest of a text (the build's hashing), for the history files' ETags. */
  digest(text: string): string | Promise<string>;
}

/**
 * What the archive made besides its files: the list of days, the closed part when it made it (for
 * the record), and the seller records of its days (with their closed part when it made it).
 */
export interface ArchiveMade {
  days: Days;
  part: Map<string, AssetPart> | null;
  records: ArchiveRecords;
}

/**
 * A file of the archive as composeSite hashes and puts it; `kept` when an earlier build's file
 * stands. `etagInput`, when given, is what its ETag hashes instead of the body, and `check` the
 * document its schema is checked on instead of the body (a history file: see historyFiles).
 */
export type ArchiveFile =
  | {
      path: string;
      body: string;
      contentType: string;
      etagInput?: string;
      check?: string;
      /** A file whose bytes come first, before `body` (a history file's part: never read into the build). */
      prefix?: PartFile;
    }
  | ItemsFile
  | { kept: KeptFile };
