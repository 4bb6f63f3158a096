/**
 * The archive's files (docs/methodology.md §5.5): `api/v1/days/<date>.json` for every date with an
 * entry, `api/v1/days.json`, and per asset `api/v1/history/<slug>.json` and `.csv`. Days come in
 * date order, one at a time: a raw day's closes from the build's own records, a compacted day's from
 * the plan (src/feed/plan.ts), which may instead keep the closed days' files an earlier build
 * published from the same inputs: those are yielded as they are, and only the others are made.
 */
import { canonical } from "../../core/canonical.js";
import type { Dataset, DayCloses } from "../../core/dataset.js";
import type { CatalogAsset, DayClose, RegistrySeller } from "../../schema/inputs.js";
import type { ArchiveEntry, Days } from "../../schema/archive.js";
import { closeFacts, referenceEntry, referencePrices, sellerEntry, type DaySeller } from "../../rules/archive.js";
import { refOn, refsKeys } from "./refs.js";
import { assertCatalogHolds, closeAfterRetirement, retiredOn } from "./retired.js";
import { csvRow } from "./csv.js";
import { AssetLines, historyFiles, historyHeads } from "./history.js";
import type { ArchiveFile, ArchiveInput, ArchiveMade, AssetPart, DayInputs, EntryRow } from "./types.js";
import { dayAssetJson, entryJson, itemsCut } from "./json.js";
import { recordDay, recordDayFrom, recordDayText, RecordsCollector } from "./records.js";
import { files, urlOf } from "../paths.js";
import { documentHeader } from "../header.js";

/** The English name of a date's day of the week (a Cairo date is a calendar date: no zone applies). */
export function weekdayName(date: string): string {
  const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  return names[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

export function archiveHeader(ds: Pick<Dataset, "site">, self: string) {
  return documentHeader(ds.site, self);
}

const JSON_TYPE = "application/json; charset=utf-8";

/** A compacted day's file as the refusals name it, in the data folder. */
const historyFile = (date: string) => `history/${date}.ndjson`;

/**
 * Every archive file, a day at a time, then each asset's history and the list of days; returns that
 * list, for the renderers (src/feed/site.ts RenderContext), and the closed part when it made it.
 */
export async function* archiveFiles(input: ArchiveInput): AsyncGenerator<ArchiveFile, ArchiveMade> {
  const { ds, records } = input;
  const sellers: ReadonlyMap<string, RegistrySeller> = new Map(ds.registry.map((s) => [s.id, s]));
  const refsOn = (asset: string, date: string) => ({
    official: refOn(input.refs.official.get(asset), date),
    global: refOn(input.refs.global.get(asset), date),
  });
  const reference = ds.catalog.filter((a) => a.market === "reference");
  // A retired reference asset has no entry from its retirement on (src/feed/archive/retired.ts).
  const priced = new Map(
    reference.map((a) => [
      a.id,
      new Map(
        referencePrices(input.refs.official.get(a.id), input.refs.global.get(a.id))
          .filter((d) => !retiredOn(a, d.date))
          .map((d) => [d.date, d]),
      ),
    ]),
  );
  // The compacted days up to the build date, whose closes the plan reads from history/.
  const compactedDates = new Set(input.plan ? (ds.historyDates ?? []).filter((d) => d <= input.today) : []);
  // Every asset with days in data/ is in the catalog, retired or not: one deleted would silently
  // drop its published archive (src/feed/archive/retired.ts). Records of an asset the catalog lacks
  // come only from history/: acceptance closes no raw day of one.
  assertCatalogHolds(
    ds.catalog,
    [...records].map(([asset, list]) => ({ asset, where: historyFile(list[0]?.date ?? "") })),
  );
  // The raw days: every record the build closed that no compacted day stands for.
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
  const sorted = [...dates].sort();

  // The closed part: every date before the build's (a raw day before it is over: its file changes
  // only when its quotes do), and any compacted day. The plan keeps what an earlier build made of the
  // same inputs: the whole part as it was written (the hourly build makes only today's), or day by day.
  const shared = canonical({ site: ds.site, catalog: ds.catalog, registry: ds.registry });
  const refsKey = refsKeys(ds.catalog, input.refs);
  const closedInputs = new Map<string, DayInputs>();
  for (const d of sorted)
    if (d < input.today || compactedDates.has(d)) closedInputs.set(d, { shared, refs: refsKey(d) });
  const plan = input.plan ? await input.plan.archive(closedInputs) : null;
  const whole = plan?.keep ?? null;
  // The seller records take each seller asset's days as they are written (docs/methodology.md §13).
  const taken = new RecordsCollector(input.today, whole?.records ?? null, closedInputs.size);
  // The part's entries go to files as they are made (none is kept in the build), when there is a
  // plan to keep them; otherwise every entry is kept as the rest, with the same bytes and ETags.
  const sink = plan && !whole ? plan.partSink(historyHeads(ds)) : null;
  const partLines = new Map(
    ds.catalog.map((a) => [a.id, new AssetLines(sink ? (json, csv) => sink.add(a.id, json, csv) : undefined)]),
  );
  const tailLines = new Map(ds.catalog.map((a) => [a.id, new AssetLines()]));
  const list: Days["days"] = [];
  for (const date of sorted) {
    const inPart = date < input.today;
    if (whole && inPart) {
      const day = whole.days.get(date);
      if (!day) continue; // a date without an entry
      list.push({ date, weekday: weekdayName(date), assets: day.count, _self: urlOf(day.kept.path) });
      yield { kept: day.kept };
      continue;
    }

    const lines = inPart && sink ? partLines : tailLines;
    let byAsset: DayCloses = new Map((rawCloses.get(date) ?? []).map((c) => [c.asset, c]));
    if (plan && compactedDates.has(date)) {
      const day = await plan.day(date);
      if ("kept" in day) {
        for (const [asset, json, csv, rec] of day.rows) {
          await lines.get(asset)?.add(date, json, csv, input.digest);
          if (rec) taken.add(asset, recordDayFrom(date, rec));
        }
        list.push({ date, weekday: weekdayName(date), assets: day.rows.length, _self: urlOf(day.kept.path) });
        plan.made(date, day.rows, day.kept.etag);
        yield { kept: day.kept };
        continue;
      }
      byAsset = day.closes;
      const where = historyFile(date);
      assertCatalogHolds(
        ds.catalog,
        [...(byAsset.assets?.() ?? [])].map((asset) => ({ asset, where })),
      );
    }
    // A day holding a retired asset on or after its retirement was published with it: refused, never rewritten.
    for (const a of ds.catalog)
      if (retiredOn(a, date) && byAsset.has(a.id)) throw closeAfterRetirement(a, date, historyFile(date));
    // Which assets have an entry that day: a seller asset with a close, a reference asset with a price.
    const has = (a: CatalogAsset) => (a.market === "reference" ? priced.get(a.id)!.has(date) : byAsset.has(a.id));
    const count = ds.catalog.filter(has).length;
    if (count === 0) {
      byAsset.done?.();
      plan?.made(date, [], "");
      continue;
    }
    const rows: EntryRow[] = [];
    // Each asset of the day made when the file asks for it, then written and dropped (src/feed/site-items.ts).
    async function* dayAssets(): AsyncGenerator<string> {
      for (const a of ds.catalog) {
        if (!has(a)) continue;
        let entry: ArchiveEntry;
        let table: DaySeller[] = [];
        let rec = "";
        if (a.market === "reference") entry = referenceEntry(priced.get(a.id)!.get(date)!, refsOn(a.id, date));
        else {
          const r = closeFacts(byAsset.get(a.id)!, a, sellers);
          entry = sellerEntry(date, r.facts, refsOn(a.id, date), sellers);
          table = r.table;
          const day = recordDay(entry, table);
          taken.add(a.id, day);
          // Kept with the day's entry only when a plan keeps it (data/state/archive/).
          if (plan) rec = recordDayText(day);
        }
        const row = [a.id, entryJson(entry), csvRow(entry), rec] as const;
        rows.push(row);
        await lines.get(a.id)!.add(date, row[1], row[2], input.digest);
        yield dayAssetJson(a, row[1], table);
      }
    }
    const path = files.day(date);
    list.push({ date, weekday: weekdayName(date), assets: count, _self: urlOf(path) });
    const [head, tail] = itemsCut({ ...archiveHeader(ds, urlOf(path)), date, weekday: weekdayName(date) }, "assets");
    yield { path, contentType: JSON_TYPE, head, tail, items: dayAssets() };
    if (rows.length !== count) throw new Error(`${path}: ${rows.length} assets written of ${count}`);
    byAsset.done?.();
    plan?.made(date, rows, input.etagOf(path));
  }
  const sellerRecords = taken.finish();
  let part: Map<string, AssetPart> | null = null;
  if (sink) {
    part = new Map<string, AssetPart>();
    for (const [asset, f] of sink.end(sellerRecords.made!)) {
      const l = partLines.get(asset)!;
      part.set(asset, { ...f, digests: l.digests.join(""), first: l.first, last: l.last });
    }
  }
  yield* historyFiles(ds, part ?? whole?.assets ?? new Map(), tailLines);
  const doc: Days = { ...archiveHeader(ds, urlOf(files.days)), days: list };
  yield { path: files.days, body: canonical(doc), contentType: "application/json; charset=utf-8" };
  return { days: doc, part, records: sellerRecords };
}
