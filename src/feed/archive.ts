/**
 * The archive's files (docs/methodology.md §5.5): `api/v1/days/<date>.json` for every date with an
 * entry, `api/v1/days.json`, and per asset `api/v1/history/<slug>.json` and `.csv`. Days come in
 * date order, one at a time: a raw day's closes from the build's own records, a compacted day's from
 * its source (src/io/archive-days.ts), which may instead give the day's facts and the file an earlier
 * build published for the same inputs, to be kept as it is.
 */
import { canonical } from "../core/canonical.js";
import type { Dataset, DayRecord } from "../core/dataset.js";
import type { CatalogAsset, DayClose, RegistrySeller } from "../schema/inputs.js";
import type { ArchiveEntry, Days, History } from "../schema/archive.js";
import { closeFacts, referenceEntry, referencePrices, sellerEntry, type DaySeller } from "../rules/archive.js";
import type { DayRef } from "../rules/references.js";
import { CSV_HEADER, csvRow } from "./archive-csv.js";
import { dayAssetJson, entryJson, withItems } from "./archive-json.js";
import { CHANGELOG_PATH, DOCS_PATH, OPENAPI_PATH, TERMS_PATH, files, urlOf } from "./paths.js";

export const CSV_TYPE = "text/csv; charset=utf-8; header=present";

/** The English name of a date's day of the week (a Cairo date is a calendar date: no zone applies). */
export function weekdayName(date: string): string {
  const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  return names[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

/** A file of the previous site that stands for a day whose inputs did not change: linked, not written again. */
export interface KeptFile {
  path: string;
  /** Where it is on disk now. */
  from: string;
  etag: string;
  contentType: string;
  bytes: number;
}

/** One asset's entry of a day as written: its id, its JSON and its CSV line (src/feed/archive-json.ts, archive-csv.ts). */
export type EntryRow = readonly [asset: string, json: string, csv: string];

/**
 * What a day's file depends on besides the day's closes: `shared` (the site's header, the catalog and
 * the registry; the same string for every day of a build) and `day` (each asset's references that day).
 */
export interface DayInputs {
  shared: string;
  day: string;
}

/**
 * A compacted day as its source gives it: its closes, or the entries an earlier build wrote of it
 * from the same inputs and the file it published then, to be kept as it is.
 */
export type CompactedDay = { closes: readonly DayClose[] } | { rows: readonly EntryRow[]; kept: KeptFile };

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
  /** The compacted days' part as this build made it, for the next build's whole(). */
  keepPart(part: CompactedPart): void;
}

/** One asset's entries of the compacted days, written and joined, and the digests its ETags use. */
export interface AssetPart {
  /** The entries' JSON, joined by commas; empty for none. Kept from an earlier build, its UTF-8 bytes. */
  json: string | Uint8Array;
  /** The CSV lines, each ending CRLF (or their UTF-8 bytes). */
  csv: string | Uint8Array;
  /** A digest of each entry's JSON, concatenated: what the files' ETags hash in place of the entries. */
  digests: string;
  /** The first and last dates it has ("" for none). */
  first: string;
  last: string;
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
      /** The file's bytes in pieces, in place of `body` (a part kept as bytes is never decoded). */
      chunks?: Array<string | Uint8Array>;
    }
  | { kept: KeptFile };

export function archiveHeader(ds: Pick<Dataset, "site">, self: string) {
  return {
    _about: ds.site.about,
    _disclaimer: ds.site.disclaimer,
    _license: ds.site.license,
    _self: self,
    _docs: DOCS_PATH,
    _spec: OPENAPI_PATH,
    _changelog: CHANGELOG_PATH,
    _terms: TERMS_PATH,
    schemaVersion: 1 as const,
  };
}

function assetHead(a: CatalogAsset) {
  const { id, slug, name, nameAr, category, kind, market, unit, decimals } = a;
  return { id, slug, name, nameAr, category, kind, market, unit, decimals };
}

/** Each reference of a date, by asset: a map per date, built once from the per-asset lists. */
function refsByDate(refs: ReadonlyMap<string, DayRef[]>): Map<string, Map<string, DayRef>> {
  const out = new Map<string, Map<string, DayRef>>();
  for (const [asset, days] of refs)
    for (const d of days) {
      let m = out.get(d.date);
      if (!m) out.set(d.date, (m = new Map()));
      m.set(asset, d);
    }
  return out;
}

/**
 * Each asset's history as JSON and CSV: its closed part (joined once) and the rest. The ETag hashes
 * the header and a digest of each entry rather than the whole body: the same bytes give the same
 * ETag wherever the closed part ends, and the part, the bulk of the file, is not hashed again each
 * hour (its entries' digests are kept with it). When the part was kept from the
 * site being replaced, written and checked by the same code from the same inputs, the schema is
 * checked on the document without it.
 */
function* historyFiles(
  ds: Pick<Dataset, "catalog" | "site">,
  part: ReadonlyMap<string, AssetPart>,
  tail: ReadonlyMap<string, AssetLines>,
  partKept: boolean,
): Generator<ArchiveFile> {
  for (const a of ds.catalog) {
    const p = part.get(a.id) ?? { json: "", csv: "", digests: "", first: "", last: "" };
    const t = tail.get(a.id)!;
    const path = files.history(a.slug);
    const head: Omit<History, "entries"> = {
      ...archiveHeader(ds, urlOf(path)),
      asset: assetHead(a),
      from: p.first || t.first || null,
      to: t.last || p.last || null,
    };
    const h = canonical({ ...head, entries: [] });
    const at = h.indexOf('"entries":[]') + '"entries":['.length;
    const [h1, h2] = [h.slice(0, at), h.slice(at)];
    const rest = t.json.join(",");
    const restCsv = t.csv.map((c) => `${c}\r\n`).join("");
    const comma = p.json.length > 0 && rest ? "," : "";
    const json = [h1, p.json, `${comma}${rest}${h2}`];
    const csv = [`${CSV_HEADER}\r\n`, p.csv, restCsv];
    const pieces = (c: Array<string | Uint8Array>) =>
      c.every((x) => typeof x === "string") ? { body: c.join("") } : { body: "", chunks: c };
    yield {
      path,
      ...pieces(json),
      contentType: JSON_TYPE,
      etagInput: `archive-v1\0json\0${h1}\0${p.digests}${t.digests.join("")}\0${h2}`,
      ...(partKept ? { check: `${h1}${rest}${h2}` } : {}),
    };
    yield {
      path: files.historyCsv(a.slug),
      ...pieces(csv),
      contentType: CSV_TYPE,
      etagInput: `archive-v1\0csv\0${p.digests}${t.digests.join("")}`,
      ...(partKept ? { check: `${CSV_HEADER}\r\n${restCsv}` } : {}),
    };
  }
}

/** One asset's archive as written so far: its entries' JSON and CSV lines, its first and last date. */
class AssetLines {
  readonly json: string[] = [];
  readonly csv: string[] = [];
  readonly digests: string[] = [];
  /** Each entry's digest (its JSON's), in order. */
  async digest(of: (text: string) => string | Promise<string>): Promise<void> {
    for (const j of this.json.slice(this.digests.length)) this.digests.push(await of(j));
  }
  first = "";
  last = "";
  add(date: string, json: string, csv: string): void {
    this.json.push(json);
    this.csv.push(csv);
    this.first ||= date;
    this.last = date;
  }
}

const JSON_TYPE = "application/json; charset=utf-8";

/** Every archive file, a day at a time, then each asset's history and the list of days. */
export async function* archiveFiles(input: ArchiveInput): AsyncGenerator<ArchiveFile> {
  const { ds, records } = input;
  const sellers: ReadonlyMap<string, RegistrySeller> = new Map(ds.registry.map((s) => [s.id, s]));
  const official = refsByDate(input.refs.official);
  const global = refsByDate(input.refs.global);
  const refsOn = (asset: string, date: string) => ({
    official: official.get(date)?.get(asset),
    global: global.get(date)?.get(asset),
  });
  const reference = ds.catalog.filter((a) => a.market === "reference");
  const priced = new Map(
    reference.map((a) => [
      a.id,
      new Map(referencePrices(input.refs.official.get(a.id), input.refs.global.get(a.id)).map((d) => [d.date, d])),
    ]),
  );
  // The raw days: every record the build closed that no compacted day stands for.
  const compactedDates = new Set(input.compacted?.dates ?? []);
  const rawCloses = new Map<string, DayClose[]>();
  for (const list of records.values())
    for (const r of list) {
      if (compactedDates.has(r.date)) continue;
      if (!r.close) throw new Error(`${r.asset}: the closes of ${r.date} are needed for the archive`);
      const day = rawCloses.get(r.date);
      if (day) day.push(r.close);
      else rawCloses.set(r.date, [r.close]);
    }
  const dates = new Set([...compactedDates, ...rawCloses.keys()]);
  for (const p of priced.values()) for (const d of p.keys()) dates.add(d);

  const shared = canonical({ site: ds.site, catalog: ds.catalog, registry: ds.registry });
  const inputsOf = (date: string): DayInputs => {
    // Each asset's references of the day: the values the archive shows, not when or by whom seen.
    const dayRefs = ds.catalog.map((a) => {
      const { official: o, global: g } = refsOn(a.id, date);
      return [a.id, o?.buy, o?.sell, o?.value, o?.lo, o?.hi, g?.value, g?.lo, g?.hi].map((v) => v ?? null);
    });
    return { shared, day: JSON.stringify(dayRefs) };
  };
  // The closed part: every date before the first raw day (all of them when there is none). Each
  // asset's entries of those days are written once and come back joined while their inputs stand.
  const sorted = [...dates].sort();
  const boundary = rawCloses.size ? [...rawCloses.keys()].sort()[0]! : "\uffff";
  const partDates = sorted.filter((d) => d < boundary);
  const partInputs = new Map(partDates.map((d) => [d, inputsOf(d)]));
  const whole = input.compacted ? await input.compacted.whole(partInputs) : null;
  // Each asset's entries as written (JSON and CSV lines), so that no entry object outlives its day.
  const partLines = new Map(ds.catalog.map((a) => [a.id, new AssetLines()]));
  const tailLines = new Map(ds.catalog.map((a) => [a.id, new AssetLines()]));
  const list: Days["days"] = [];
  for (const date of sorted) {
    const inPart = date < boundary;
    if (whole && inPart) {
      const day = whole.days.get(date);
      if (!day) continue; // a date without an entry
      list.push({ date, weekday: weekdayName(date), assets: day.count, _self: urlOf(day.kept.path) });
      yield { kept: day.kept };
      continue;
    }
    const inputs = partInputs.get(date) ?? inputsOf(date);
    const lines = inPart ? partLines : tailLines;
    let closes: readonly DayClose[] | undefined = rawCloses.get(date);
    const compacted = compactedDates.has(date) ? input.compacted! : null;
    if (compacted) {
      const day = await compacted.take(date, inputs);
      if ("kept" in day) {
        for (const [asset, json, csv] of day.rows) lines.get(asset)?.add(date, json, csv);
        list.push({ date, weekday: weekdayName(date), assets: day.rows.length, _self: urlOf(day.kept.path) });
        input.compacted!.made(date, day.rows, day.kept.etag);
        yield { kept: day.kept };
        continue;
      }
      closes = day.closes;
    }
    const byAsset = new Map((closes ?? []).map((c) => [c.asset, c]));
    const rows: EntryRow[] = [];
    const dayAssets: string[] = [];
    for (const a of ds.catalog) {
      let entry: ArchiveEntry | null = null;
      let table: DaySeller[] = [];
      if (a.market === "reference") {
        const p = priced.get(a.id)!.get(date);
        if (p) entry = referenceEntry(p, refsOn(a.id, date));
      } else {
        const c = byAsset.get(a.id);
        if (c) {
          const r = closeFacts(c, a, sellers);
          entry = sellerEntry(date, r.facts, refsOn(a.id, date), sellers);
          table = r.table;
        }
      }
      if (!entry) continue;
      const row = [a.id, entryJson(entry), csvRow(entry)] as const;
      rows.push(row);
      lines.get(a.id)!.add(date, row[1], row[2]);
      dayAssets.push(dayAssetJson(a, row[1], table));
    }
    if (rows.length === 0) {
      input.compacted?.made(date, rows, "");
      continue;
    }
    const path = files.day(date);
    list.push({ date, weekday: weekdayName(date), assets: rows.length, _self: urlOf(path) });
    const head = { ...archiveHeader(ds, urlOf(path)), date, weekday: weekdayName(date) };
    yield { path, body: withItems(head, "assets", dayAssets), contentType: JSON_TYPE };
    input.compacted?.made(date, rows, input.etagOf(path));
  }
  let part = whole?.assets;
  if (!part) {
    part = new Map<string, AssetPart>();
    for (const [asset, l] of partLines) {
      const json = l.json.join(",");
      const csv = l.csv.map((c) => `${c}\r\n`).join("");
      await l.digest(input.digest);
      part.set(asset, { json, csv, digests: l.digests.join(""), first: l.first, last: l.last });
    }
    input.compacted?.keepPart({ assets: part, days: new Map() });
  }
  for (const l of tailLines.values()) await l.digest(input.digest);
  yield* historyFiles(ds, part, tailLines, whole !== null);
  const doc: Days = { ...archiveHeader(ds, urlOf(files.days)), days: list };
  yield { path: files.days, body: canonical(doc), contentType: "application/json; charset=utf-8" };
}
