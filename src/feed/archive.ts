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
import type { ArchiveEntry, Day, Days, History } from "../schema/archive.js";
import {
  closeFacts,
  referenceEntry,
  referencePrices,
  sellerEntry,
  type DayFacts,
  type DaySeller,
} from "../rules/archive.js";
import type { DayRef } from "../rules/references.js";
import { historyCsv } from "./archive-csv.js";
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

/** A compacted day as its source gives it: its closes, or its facts and the published file to keep. */
export type CompactedDay = { closes: readonly DayClose[] } | { facts: readonly DayFacts[]; kept: KeptFile };

/** Where the compacted days come from (src/io/archive-days.ts); without one, the build's records must hold every day's closes. */
export interface CompactedDays {
  /** The compacted dates up to the build date, ascending. */
  readonly dates: readonly string[];
  /**
   * The day, given what its by-day file depends on besides the day's closes (`inputs`: the site's
   * header, the catalog, the registry and the day's references, serialized).
   */
  take(date: string, inputs: string): Promise<CompactedDay>;
  /** The day as made from its closes, for the source to keep (its facts, and the file under `inputs`). */
  made(date: string, inputs: string, facts: readonly DayFacts[], file: { path: string; etag: string } | null): void;
}

/** What the archive is made of: the dataset, the build's records and references, and the compacted days. */
export interface ArchiveInput {
  ds: Pick<Dataset, "catalog" | "registry" | "site">;
  records: ReadonlyMap<string, DayRecord[]>;
  refs: { official: ReadonlyMap<string, DayRef[]>; global: ReadonlyMap<string, DayRef[]> };
  compacted?: CompactedDays | undefined;
  /** The ETag of a file put before (the by-day file's, for `made`). */
  etagOf(path: string): string;
}

/** A file of the archive as composeSite hashes and puts it; `kept` when an earlier build's file stands. */
export type ArchiveFile = { path: string; body: string; contentType: string } | { kept: KeptFile };

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

  const entries = new Map<string, ArchiveEntry[]>(ds.catalog.map((a) => [a.id, []]));
  const shared = canonical({ site: ds.site, catalog: ds.catalog, registry: ds.registry });
  const list: Days["days"] = [];
  for (const date of [...dates].sort()) {
    // What the day's file depends on besides its closes: the header, the catalog, the registry and the day's references.
    const dayRefs = ds.catalog.map((a) => [a.id, refsOn(a.id, date)]);
    const inputs = `${shared}\0${canonical(dayRefs)}`;
    let closes: readonly DayClose[] | undefined = rawCloses.get(date);
    let facts: readonly DayFacts[] | null = null;
    let kept: KeptFile | null = null;
    if (compactedDates.has(date)) {
      const day = await input.compacted!.take(date, inputs);
      if ("kept" in day) ({ facts, kept } = day);
      else closes = day.closes;
    }
    const tables = new Map<string, DaySeller[]>();
    if (!facts) {
      const byAsset = new Map((closes ?? []).map((c) => [c.asset, c]));
      const made: DayFacts[] = [];
      for (const a of ds.catalog) {
        const c = byAsset.get(a.id);
        if (!c || a.market === "reference") continue;
        const r = closeFacts(c, a, sellers);
        made.push(r.facts);
        tables.set(a.id, r.table);
      }
      facts = made;
    }
    const factsOf = new Map(facts.map((f) => [f.asset, f]));
    const dayAssets: Day["assets"] = [];
    for (const a of ds.catalog) {
      let entry: ArchiveEntry | null = null;
      if (a.market === "reference") {
        const p = priced.get(a.id)!.get(date);
        if (p) entry = referenceEntry(p, refsOn(a.id, date));
      } else {
        const f = factsOf.get(a.id);
        if (f) entry = sellerEntry(date, f, refsOn(a.id, date), sellers);
      }
      if (!entry) continue;
      entries.get(a.id)!.push(entry);
      if (!kept) dayAssets.push({ ...assetHead(a), entry, sellers: tables.get(a.id) ?? [] });
    }
    const path = files.day(date);
    const count = kept ? factsOf.size + reference.filter((a) => priced.get(a.id)!.has(date)).length : dayAssets.length;
    if (count === 0) continue;
    list.push({ date, weekday: weekdayName(date), assets: count, _self: urlOf(path) });
    if (kept) {
      yield { kept };
      continue;
    }
    const doc: Day = { ...archiveHeader(ds, urlOf(path)), date, weekday: weekdayName(date), assets: dayAssets };
    yield { path, body: canonical(doc), contentType: "application/json; charset=utf-8" };
    if (compactedDates.has(date)) input.compacted!.made(date, inputs, facts, { path, etag: input.etagOf(path) });
  }
  for (const a of ds.catalog) {
    const rows = entries.get(a.id)!;
    const path = files.history(a.slug);
    const doc: History = {
      ...archiveHeader(ds, urlOf(path)),
      asset: assetHead(a),
      from: rows[0]?.date ?? null,
      to: rows.at(-1)?.date ?? null,
      entries: rows,
    };
    yield { path, body: canonical(doc), contentType: "application/json; charset=utf-8" };
    yield { path: files.historyCsv(a.slug), body: historyCsv(rows), contentType: CSV_TYPE };
  }
  const doc: Days = { ...archiveHeader(ds, urlOf(files.days)), days: list };
  yield { path: files.days, body: canonical(doc), contentType: "application/json; charset=utf-8" };
}
