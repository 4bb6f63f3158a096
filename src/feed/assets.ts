/**
 * From a loaded dataset and the build instant to every published Asset: acceptance of the raw days,
 * daily closes (raw or compacted), then per asset the table, best sellers, series, verdicts,
 * freshness and confidence. Pure: the same dataset and instant give the same result.
 */
import { cairoDate, parseInstant } from "../core/cairo.js";
import { recordOf, type Dataset, type DayRecord } from "../core/dataset.js";
import { dailyRefs, refInForce, type DayRef, type RefIssue } from "../core/references.js";
import { acceptDay, type RejectedQuote } from "../ingest/acceptance.js";
import { closeDay } from "../history/close.js";
import { bestOf, publicRow, sellerTable } from "../market/table.js";
import { dayBest, priorBests, seriesWindow } from "../market/series.js";
import { assessDirection } from "../verdict/verdict.js";
import { freshness } from "../quality/freshness.js";
import { confidence } from "../quality/confidence.js";
import type { CatalogAsset, CategoryCalendar, DayClose, RegistrySeller } from "../schema/inputs.js";
import type { Asset, SeriesEntry } from "../schema/outputs.js";
import type { Side } from "../ingest/acceptance.js";

export interface AssetsResult {
  assets: Asset[];
  rejections: RejectedQuote[];
  acceptedCount: number;
  readCount: number;
  refIssues: RefIssue[];
  disagreements: Array<DayClose["disagreements"][number] & { date: string; asset: string }>;
  warnings: string[];
  rawDays: string[];
  compactedDays: number;
}

export function sourceRanker(ids: readonly string[]): (s: string) => number {
  const rank = new Map(ids.map((id, i) => [id, i]));
  return (s) => rank.get(s) ?? ids.length;
}

/** Closes of every day up to the build date, per asset, ascending; compacted days are used as kept. */
export function dailyCloses(ds: Dataset, nowMs: number, maps: Maps, official: Map<string, DayRef[]>) {
  const today = cairoDate(nowMs);
  const rank = sourceRanker(ds.sources.sources.map((s) => s.id));
  const perAsset = new Map<string, DayRecord[]>();
  const put = (c: DayRecord) => {
    const list = perAsset.get(c.asset);
    if (list) list.push(c);
    else perAsset.set(c.asset, [c]);
  };
  const warnings: string[] = [];
  const rejections: RejectedQuote[] = [];
  const disagreements: AssetsResult["disagreements"] = [];
  let accepted = 0;
  let read = 0;
  const compacted = new Set<string>();
  const days = new Map<string, () => DayRecord[]>();
  for (const h of ds.historyDays) {
    if (h.date > today) continue;
    compacted.add(h.date);
    days.set(h.date, () => h.records);
  }
  const rawDays: string[] = [];
  for (const day of ds.quoteDays) {
    if (day.date > today) continue; // a later day has not happened yet at this build instant
    if (compacted.has(day.date)) {
      warnings.push(`${day.file}: raw quotes of a compacted day are ignored; its closes in history/ stand`);
      continue;
    }
    rawDays.push(day.date);
    days.set(day.date, () => {
      const r = closeRawDay(day, nowMs, maps, official, rank);
      read += day.quotes.length;
      accepted += r.accepted;
      rejections.push(...r.rejected);
      for (const c of r.closes) for (const d of c.disagreements) disagreements.push({ date: c.date, asset: c.asset, ...d });
      return r.closes.map(recordOf);
    });
  }
  for (const date of [...days.keys()].sort()) for (const c of days.get(date)!()) put(c);
  return { perAsset, warnings, rejections, disagreements, accepted, read, rawDays, compactedDays: compacted.size };
}

/** One raw day through acceptance to its closes: what the build does, and what `compact` keeps. */
export function closeRawDay(day: Dataset["quoteDays"][number], nowMs: number, maps: Maps, official: Map<string, DayRef[]>, rank: (s: string) => number) {
  const r = acceptDay(day.quotes, {
    date: day.date,
    nowMs,
    assets: maps.assets,
    sellers: maps.sellers,
    official: (asset) => refInForce(official.get(asset), day.date),
    sourceRank: rank,
  });
  return { closes: closeDay(day.date, r.accepted, rank), rejected: r.rejected, accepted: r.accepted.length };
}

export function mapsOf(ds: Dataset): Maps {
  return { assets: new Map(ds.catalog.map((a) => [a.id, a])), sellers: new Map(ds.registry.map((s) => [s.id, s])) };
}

export interface Maps {
  assets: ReadonlyMap<string, CatalogAsset>;
  sellers: ReadonlyMap<string, RegistrySeller>;
}

function sellerEntry(d: DayRecord, bench: number | null): SeriesEntry {
  return { date: d.date, ...d.range, bench };
}

function refEntry(r: { date: string; lo: number | null; hi: number | null }, bench: number | null): SeriesEntry {
  return { date: r.date, buyLo: r.lo, buyHi: r.hi, sellLo: r.lo, sellHi: r.hi, bench };
}

export function buildAssets(ds: Dataset, nowMs: number): AssetsResult {
  const maps = mapsOf(ds);
  const refIssues: RefIssue[] = [];
  const official = dailyRefs(ds.official, maps.assets, nowMs, refIssues);
  const global = dailyRefs(ds.global, maps.assets, nowMs, refIssues);
  const closes = dailyCloses(ds, nowMs, maps, official);
  const today = cairoDate(nowMs);
  const warnings = [...closes.warnings];
  const assets = ds.catalog.map((asset) => {
    const cal = ds.calendar.categories[asset.category];
    if (!cal) throw new Error(`calendar.json has no sessions for category "${asset.category}"`); // checked on load
    const officialDays = official.get(asset.id);
    const benchOn = new Map((officialDays ?? []).map((d) => [d.date, d.value]));
    return asset.market === "reference"
      ? referenceAsset(asset, cal, nowMs, today, global.get(asset.id), officialDays, benchOn)
      : sellerAsset(asset, cal, nowMs, today, closes.perAsset.get(asset.id) ?? [], officialDays, global.get(asset.id), benchOn, maps, warnings);
  });
  return {
    assets,
    rejections: closes.rejections,
    acceptedCount: closes.accepted,
    readCount: closes.read,
    refIssues,
    disagreements: closes.disagreements,
    warnings,
    rawDays: closes.rawDays,
    compactedDays: closes.compactedDays,
  };
}

function staticFields(a: CatalogAsset) {
  return {
    id: a.id, slug: a.slug, name: a.name, nameAr: a.nameAr, category: a.category, kind: a.kind,
    market: a.market, unit: a.unit, decimals: a.decimals, defaultSide: a.defaultSide,
  };
}

function directions(asOf: string, entries: SeriesEntry[], v: Record<Side, number | null>, official: Record<Side, number | null>, global: number | null, best: Record<Side, Asset["directions"]["sell"]["best"]>) {
  const one = (side: Side) => ({
    best: best[side],
    ...assessDirection({ side, asOf, v: v[side], prior: priorBests(entries, asOf, side), official: official[side], global }),
  });
  return { sell: one("sell"), buy: one("buy") };
}

function sellerAsset(
  asset: CatalogAsset, cal: CategoryCalendar, nowMs: number, today: string, days: DayRecord[],
  officialDays: DayRef[] | undefined, globalDays: DayRef[] | undefined, benchOn: Map<string, number | null>,
  maps: Maps, warnings: string[],
): Asset {
  const todayRecord = days.at(-1) ?? null; // every record has at least one close
  if (todayRecord && !todayRecord.close) throw new Error(`${asset.id}: the closes of ${todayRecord.date} were not kept (load with upTo)`);
  const todayClose = todayRecord?.close ?? null;
  const asOf = todayClose?.date ?? today;
  const entries = days.map((d) => sellerEntry(d, benchOn.get(d.date) ?? null));
  const rows = todayClose ? sellerTable(todayClose.closes, asset, maps.sellers) : [];
  if (todayClose) {
    const n = todayClose.closes.length;
    if (asset.market === "sole" && n !== 1) warnings.push(`${asset.id}: declared sole but ${n} sellers quote it on ${asOf}`);
    if (asset.market === "competitive" && n < 2) warnings.push(`${asset.id}: declared competitive but ${n} seller quotes it on ${asOf}`);
  }
  const off = refInForce(officialDays, asOf);
  const glob = refInForce(globalDays, asOf);
  const bestRow = { sell: bestOf(rows, "sell"), buy: bestOf(rows, "buy") };
  const best = {
    sell: bestRow.sell && { seller: bestRow.sell.seller, sellerAr: bestRow.sell.sellerAr, value: bestRow.sell.sell },
    buy: bestRow.buy && { seller: bestRow.buy.seller, sellerAr: bestRow.buy.sellerAr, value: bestRow.buy.buy },
  };
  const todayEntry = entries.at(-1)?.date === asOf ? entries.at(-1)! : null;
  const v = { sell: todayEntry && dayBest(todayEntry, "sell"), buy: todayEntry && dayBest(todayEntry, "buy") };
  const observedAtMs = todayClose?.observedAt ? parseInstant(todayClose.observedAt) : null;
  return {
    ...staticFields(asset),
    asOf,
    observedAt: observedAtMs === null ? null : new Date(observedAtMs).toISOString(),
    freshness: freshness(observedAtMs, nowMs, cal),
    confidence: confidence(todayClose?.sources.length ?? 0, (todayClose?.disagreements.length ?? 0) > 0),
    directions: directions(asOf, entries, v, { sell: off?.sell ?? null, buy: off?.buy ?? null }, glob?.value ?? null, best),
    benchmark: off ? { buy: off.buy, sell: off.sell } : null,
    global: glob ? { value: glob.value } : null,
    series: seriesWindow(entries, asOf),
    sellers: rows.map(publicRow),
  };
}

/**
 * METHODOLOGY "Markets", reference: the price is the global mid-market value or, failing that, the
 * official mid; both directions use it, there is no seller, and the official and global signals are null.
 */
function referenceAsset(
  asset: CatalogAsset, cal: CategoryCalendar, nowMs: number, today: string, globalDays: DayRef[] | undefined,
  officialDays: DayRef[] | undefined, benchOn: Map<string, number | null>,
): Asset {
  const byDate = new Map<string, DayRef>();
  for (const d of officialDays ?? []) if (d.value !== null) byDate.set(d.date, d);
  for (const d of globalDays ?? []) if (d.value !== null) byDate.set(d.date, d); // global first, official failing that
  const priced = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  const todayRef = priced.at(-1) ?? null;
  const asOf = todayRef?.date ?? today;
  const entries = priced.map((d) => refEntry(d, benchOn.get(d.date) ?? null));
  const price = todayRef?.value ?? null;
  const off = refInForce(officialDays, asOf);
  const glob = refInForce(globalDays, asOf);
  const observedAtMs = todayRef?.observedAtMs ?? null;
  return {
    ...staticFields(asset),
    asOf,
    observedAt: observedAtMs === null ? null : new Date(observedAtMs).toISOString(),
    freshness: freshness(observedAtMs, nowMs, cal),
    confidence: confidence(todayRef?.sources.length ?? 0, false),
    directions: directions(asOf, entries, { sell: price, buy: price }, { sell: null, buy: null }, null, { sell: null, buy: null }),
    benchmark: off ? { buy: off.buy, sell: off.sell } : null,
    global: glob ? { value: glob.value } : null,
    series: seriesWindow(entries, asOf),
    sellers: [],
  };
}


