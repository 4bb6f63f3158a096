/**
 * The archive's files (docs/methodology.md §5.5): `api/v1/days/<date>.json` for every date with an
 * entry, `api/v1/days.json`, and per asset `api/v1/history/<slug>.json` and `.csv`. Days come in
 * date order, one at a time: a raw day's closes from the build's own records, a compacted day's from
 * its source (src/io/archive-days.ts), which may instead give the day's entries and the file an earlier
 * build published for the same inputs, to be kept as it is.
 */
import { canonical } from "../core/canonical.js";
import type { Dataset } from "../core/dataset.js";
import type { DayClose, RegistrySeller } from "../schema/inputs.js";
import type { ArchiveEntry, Days } from "../schema/archive.js";
import { closeFacts, referenceEntry, referencePrices, sellerEntry, type DaySeller } from "../rules/archive.js";
import type { DayRef } from "../rules/references.js";
import { csvRow } from "./archive-csv.js";
import { AssetLines, historyFiles } from "./archive-history.js";
import type { ArchiveFile, ArchiveInput, AssetPart, DayInputs, EntryRow } from "./archive-types.js";
import { dayAssetJson, entryJson, withItems } from "./archive-json.js";
import { files, urlOf } from "./paths.js";
import { documentHeader } from "./header.js";

export { CSV_TYPE } from "./archive-history.js";
export type * from "./archive-types.js";

/** The English name of a date's day of the week (a Cairo date is a calendar date: no zone applies). */
export function weekdayName(date: string): string {
  const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  return names[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

export function archiveHeader(ds: Pick<Dataset, "site">, self: string) {
  return documentHeader(ds.site, self);
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
