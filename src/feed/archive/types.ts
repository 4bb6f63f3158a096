/**
 * The archive's parts as the build composes them (src/feed/archive/compose.ts) and the io layer keeps them
 * (src/io/archive-days.ts): what a closed day is made of, and what is kept of it between builds.
 */
import type { DayClose } from "../../schema/inputs.js";
import type { Dataset, DayRecord } from "../../core/dataset.js";
import type { DayRef } from "../../rules/references.js";
import type { ItemsFile } from "../site-items.js";

/** A file of the previous site that stands for a day whose inputs did not change: linked, not written again. */
export interface KeptFile {
  path: string;
  /** Where it is on disk now. */
  from: string;
  etag: string;
  contentType: string;
  bytes: number;
}

/** One asset's entry of a day as written: its id, its JSON and its CSV line (src/feed/archive/json.ts, csv.ts). */
export type EntryRow = readonly [asset: string, json: string, csv: string];

/**
 * What a day's file depends on besides a compacted day's closes: `shared` (the site's header, the
 * catalog and the registry; the same string for every day of a build), `refs` (each asset's
 * references that day, src/feed/archive/refs.ts) and, for a raw day, `closes` (what its closes stand
 * on; "" for a compacted day, whose history file's bytes the source adds).
 */
export interface DayInputs {
  shared: string;
  refs: Uint8Array;
  closes: string;
}

/**
 * A compacted day as its source gives it: its closes, or the entries an earlier build wrote of it
 * from the same inputs and the file it published then, to be kept as it is.
 */
export type CompactedDay = { closes: DayCloses } | { rows: readonly EntryRow[]; kept: KeptFile };

/**
 * A day's closes by asset (a Map will do): a history day's are parsed a line at a time as they are
 * asked for (src/io/history-lines.ts); `done` checks the rest, once the day is made.
 */
export interface DayCloses {
  has(asset: string): boolean;
  get(asset: string): DayClose | undefined;
  done?(): void;
}

/** Where the compacted days come from (src/io/archive-days.ts); without one, the build's records must hold every day's closes. */
export interface CompactedDays {
  /** The compacted dates up to the build date, ascending. */
  readonly dates: readonly string[];
  /** The day, given what its file depends on besides its closes. */
  take(date: string, inputs: DayInputs): Promise<CompactedDay>;
  /** The day as made from its closes, for the source to keep: its entries and its file's ETag. */
  made(date: string, rows: readonly EntryRow[], etag: string): void;
  /**
   * The file of the site being replaced at `path`, when it has these very bytes (the same ETag): kept
   * as it is rather than written again. Null when there is none.
   */
  unchanged(path: string, etag: string): KeptFile | null;
  /**
   * The compacted days' part of every asset's archive as the site being replaced was made with it,
   * when every compacted day's inputs are what they were then (each day's file is then kept as it
   * is, and its entries come joined); null otherwise, and each day is taken one by one.
   */
  whole(inputs: ReadonlyMap<string, DayInputs>): Promise<CompactedPart | null>;
  /** Where this build writes the compacted days' part, when whole() gave none. */
  partSink(heads: HistoryHeads): PartSink;
  /** The compacted days' part as this build made it, for the next build's whole(). */
  keepPart(part: CompactedPart): void;
}

/**
 * A file that holds the first bytes of a history file: its head (up to and with `"entries":[`, or the
 * CSV's header line) and its entries of the closed part, as an earlier build or this one wrote them.
 * The history file is made by copying it and writing the rest after it: the part's bytes are never
 * read into the build (src/io/archive-days.ts).
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
 * each asset's two part files, headed by `heads` (src/io/archive-days.ts). end() closes them.
 */
export interface PartSink {
  add(asset: string, json: string, csv: string): void;
  end(): Map<string, { json: PartFile; csv: PartFile }>;
}

/** Every asset's compacted part, and each compacted day's file and number of assets. */
export interface CompactedPart {
  assets: Map<string, AssetPart>;
  days: Map<string, { kept: KeptFile; count: number }>;
}

/** What the archive is made of: the dataset, the build's records and references, and the compacted days. */
export interface ArchiveInput {
  ds: Pick<Dataset, "catalog" | "registry" | "site">;
  records: ReadonlyMap<string, DayRecord[]>;
  refs: { official: ReadonlyMap<string, DayRef[]>; global: ReadonlyMap<string, DayRef[]> };
  compacted?: CompactedDays | undefined;
  /** The build's Cairo date: the days before it are the closed part (docs/methodology.md §5.5 "Written once"). */
  today: string;
  /** Each raw day's ClosedRawDay `closedKey` (src/core/dataset.ts), where it has one. */
  rawKeys?: ReadonlyMap<string, string>;
  /** The ETag of a file put before (the by-day file's, for `made`). */
  etagOf(path: string): string;
  /** A digest of a text (the build's hashing), for the history files' ETags. */
  digest(text: string): string | Promise<string>;
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
