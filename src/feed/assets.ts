/**
 * From a loaded dataset and the build instant to every published Asset: the references and the day
 * records of src/rules/days.ts, each computed once, then per asset the table, best sellers, series,
 * verdicts, freshness and confidence. The same dataset and instant give the same result; a plan
 * (src/feed/plan.ts) only spares closing again a raw day an earlier build closed from the same bytes.
 */
import { cairoDate, parseInstant } from "../core/cairo.js";
import type { ClosedRawDay, Dataset, DayRecord, ProbationQuote } from "../core/dataset.js";
import { dailyRefs, refInForce, type DayRef, type RefIssue } from "../rules/references.js";
import type { RejectedQuote } from "../core/dataset.js";
import type { Side } from "../rules/acceptance.js";
import { closeRawDay, dailyCloses, mapsOf, sourceOrder, type Disagreement, type Maps } from "../rules/days.js";
import { bestOf, sellerNames, sellerTable } from "../rules/table.js";
import { referencePrices, referenceSeriesEntry } from "../rules/archive.js";
import { dayBest, priorBests, seriesWindow } from "../rules/series.js";
import { directionPrevious, previousEntry, sellerPrevious } from "../rules/previous.js";
import { assessDirection } from "../rules/verdict.js";
import { freshness } from "../rules/freshness.js";
import { confidence, isInverted } from "../rules/confidence.js";
import type { CatalogAsset, CategoryCalendar } from "../schema/inputs.js";
import type { Asset, SeriesEntry } from "../schema/outputs.js";
import type { Plan, Reuse } from "./plan.js";
import { catalogOn } from "./archive/retired.js";
import { counting } from "../rules/probation.js";

export interface AssetsResult {
  assets: Asset[];
  rejections: RejectedQuote[];
  acceptedCount: number;
  readCount: number;
  refIssues: RefIssue[];
  disagreements: Disagreement[];
  warnings: string[];
  rawDays: string[];
  compactedDays: number;
  /** Per asset, the sources behind its published values on its business date (sorted). */
  fedBy: Map<string, string[]>;
  /** Per seller asset, its day records up to the build date, ascending (src/rules/days.ts dailyCloses): the archive's raw days. */
  records: ReadonlyMap<string, DayRecord[]>;
  /** The official and global references per asset, by date, at the build instant. */
  refs: { official: ReadonlyMap<string, DayRef[]>; global: ReadonlyMap<string, DayRef[]> };
  /** The build's plan, when it has what earlier builds left: the archive follows it too. */
  plan: Plan | null;
  /** The raw days the rules closed (those the plan did not keep), for the record. */
  made: Map<string, ClosedRawDay>;
  /** Per raw day, the quotes of sources on probation set apart (docs/methodology.md "New sources: probation"). */
  probation: ReadonlyMap<string, readonly ProbationQuote[]>;
}

/** What every asset's computation shares: the asset, its calendar, the instant and its references. */
interface AssetContext {
  asset: CatalogAsset;
  cal: CategoryCalendar;
  nowMs: number;
  /** The build instant's Cairo date: an asset without data is "as of" it. */
  today: string;
  officialDays: DayRef[] | undefined;
  globalDays: DayRef[] | undefined;
  /** The official mid per date, the series' `bench`. */
  benchOn: Map<string, number | null>;
}

function sellerEntry(d: DayRecord, bench: number | null): SeriesEntry {
  return { date: d.date, ...d.range, bench };
}

export function buildAssets(ds: Dataset, nowMs: number, reuse?: Reuse): AssetsResult {
  const maps = mapsOf(ds);
  const refIssues: RefIssue[] = [];
  // The references first: acceptance compares each quote with the official rate in force (rule 6).
  const official = dailyRefs(ds.official, maps.assets, nowMs, refIssues);
  const global = dailyRefs(ds.global, maps.assets, nowMs, refIssues);
  const rawDates = ds.quoteDays.map((d) => d.date);
  const count = counting(ds.sources.sources, ds.probation);
  const plan = reuse?.plan({
    catalog: ds.catalog,
    registry: ds.registry,
    sources: ds.sources,
    official,
    global,
    counting: count,
    rawDates,
  });
  const order = sourceOrder(ds.sources.sources);
  const made = new Map<string, ClosedRawDay>();
  // Each raw day read when its turn comes, and closed by the rules unless the plan keeps its closes.
  const closes = dailyCloses(ds, nowMs, (day) => {
    const { bytes, quotes } = day.read();
    const kept = plan?.closes(day, bytes);
    if (kept) return kept;
    const closed = closeRawDay({ date: day.date, quotes }, nowMs, maps, { official, global }, order, count);
    made.set(day.date, closed);
    return closed;
  });
  const today = cairoDate(nowMs);
  // Read as the days were (a torn last line, a summary it could not use), then the plan's and the rules'.
  const warnings = [...(ds.warnings ?? []), ...(plan?.warnings ?? []), ...closes.warnings];
  const fedBy = new Map<string, string[]>();
  // A retired asset is in no feed from its retirement on; its days still closed above, for its archive.
  const assets = catalogOn(ds.catalog, today).map((asset) => {
    const cal = ds.calendar.categories[asset.category];
    if (!cal) throw new Error(`calendar.json has no sessions for category "${asset.category}"`); // checked on load
    const officialDays = official.get(asset.id);
    const ctx: AssetContext = {
      asset,
      cal,
      nowMs,
      today,
      officialDays,
      globalDays: global.get(asset.id),
      benchOn: new Map((officialDays ?? []).map((d) => [d.date, d.value])),
    };
    const published =
      asset.market === "reference"
        ? referenceAsset(ctx)
        : sellerAsset(ctx, closes.perAsset.get(asset.id) ?? [], maps, warnings, closes.probation);
    fedBy.set(asset.id, published.sources);
    return published.asset;
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
    fedBy,
    records: closes.perAsset,
    refs: { official, global },
    plan: plan ?? null,
    made,
    probation: closes.probation,
  };
}

function staticFields(a: CatalogAsset) {
  return {
    id: a.id,
    slug: a.slug,
    name: a.name,
    nameAr: a.nameAr,
    category: a.category,
    kind: a.kind,
    market: a.market,
    unit: a.unit,
    decimals: a.decimals,
    defaultSide: a.defaultSide,
  };
}

function directions(
  asOf: string,
  entries: SeriesEntry[],
  v: Record<Side, number | null>,
  official: Record<Side, number | null>,
  global: number | null,
  best: Record<Side, Asset["directions"]["sell"]["best"]>,
  /** D_prev's entry and the asset's decimals; null for a reference asset, whose `previous` is always null (§5.4). */
  prev: { entry: SeriesEntry | null; decimals: number } | null,
) {
  const one = (side: Side) => ({
    best: best[side],
    previous: prev && directionPrevious(prev.entry, side, v[side], prev.decimals),
    ...assessDirection({
      side,
      asOf,
      v: v[side],
      prior: priorBests(entries, asOf, side),
      official: official[side],
      global,
    }),
  });
  return { sell: one("sell"), buy: one("buy") };
}

/** An asset as published, and the sources behind it on its business date (closes and references). */
interface Published {
  asset: Asset;
  sources: string[];
}

const sourcesBehind = (...lists: Array<readonly string[] | undefined>) =>
  [...new Set(lists.flatMap((l) => l ?? []))].sort();

/** The asset's quotes of sources on probation on its business date, as published (the registry's names). */
function probationRows(
  list: readonly ProbationQuote[] | undefined,
  asset: string,
  maps: Maps,
): NonNullable<Asset["probation"]> {
  const rows: NonNullable<Asset["probation"]> = [];
  for (const q of list ?? []) {
    if (q.asset !== asset) continue;
    rows.push({
      ...sellerNames(q.seller, maps.sellers),
      source: q.source,
      buy: q.buy,
      sell: q.sell,
      observedAt: q.observedAt,
      passed: q.passed,
      reason: q.reason,
    });
  }
  return rows;
}

function sellerAsset(
  ctx: AssetContext,
  days: DayRecord[],
  maps: Maps,
  warnings: string[],
  probation: ReadonlyMap<string, ProbationQuote[]>,
): Published {
  const { asset, cal, nowMs, today, officialDays, globalDays, benchOn } = ctx;
  const todayRecord = days.at(-1) ?? null; // every record has at least one close
  if (todayRecord && !todayRecord.close)
    throw new Error(`${asset.id}: the closes of ${todayRecord.date} were not kept (load with upTo)`);
  const todayClose = todayRecord?.close ?? null;
  const asOf = todayClose?.date ?? today;
  const entries = days.map((d) => sellerEntry(d, benchOn.get(d.date) ?? null));
  const prevEntry = previousEntry(entries, asOf);
  const prevRecord = prevEntry && days.find((d) => d.date === prevEntry.date)!;
  if (prevRecord && !prevRecord.close)
    throw new Error(`${asset.id}: the closes of ${prevRecord.date} (the previous close) were not kept`);
  const previousOf = sellerPrevious(prevRecord?.close?.closes ?? null);
  const rows = todayClose ? sellerTable(todayClose.closes, asset, maps.sellers, previousOf) : [];
  if (todayClose) {
    const n = todayClose.closes.length;
    if (asset.market === "sole" && n !== 1)
      warnings.push(`${asset.id}: declared sole but ${n} sellers quote it on ${asOf}`);
    if (asset.market === "competitive" && n < 2)
      warnings.push(`${asset.id}: declared competitive but ${n} seller quotes it on ${asOf}`);
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
  const disagree = (todayClose?.disagreements.length ?? 0) > 0;
  const { buy: bb, sell: bs } = bestRow;
  const inverted = bb !== null && bs !== null && isInverted(bb.buy, bs.sell);
  if (inverted)
    // §8: the report names the cause of a lowered confidence; the values stay as published
    warnings.push(
      `${asset.id}: inverted market on ${asOf}: best buy ${bb.buy} (${bb.seller}) above best sell ${bs.sell} (${bs.seller}); confidence lowered one step`,
    );
  const published: Asset = {
    ...staticFields(asset),
    asOf,
    observedAt: observedAtMs === null ? null : new Date(observedAtMs).toISOString(),
    freshness: freshness(observedAtMs, nowMs, cal),
    confidence: confidence(todayClose?.sources.length ?? 0, disagree, inverted),
    directions: directions(
      asOf,
      entries,
      v,
      { sell: off?.sell ?? null, buy: off?.buy ?? null },
      glob?.value ?? null,
      best,
      { entry: prevEntry, decimals: asset.decimals },
    ),
    benchmark: off ? { buy: off.buy, sell: off.sell } : null,
    global: glob ? { value: glob.value } : null,
    series: seriesWindow(entries, asOf),
    sellers: rows,
  };
  // Listed apart, and only when there is one: a feed whose sources all count keeps its bytes.
  const apart = probationRows(probation.get(asOf), asset.id, maps);
  if (apart.length) published.probation = apart;
  return { asset: published, sources: sourcesBehind(todayClose?.sources, off?.sources, glob?.sources) };
}

/**
 * docs/methodology.md §4, a reference market: the price is the global mid-market value or, failing that, the
 * official mid; both directions use it, there is no seller, and the official and global signals are null.
 */
function referenceAsset(ctx: AssetContext): Published {
  const { asset, cal, nowMs, today, officialDays, globalDays, benchOn } = ctx;
  const priced = referencePrices(officialDays, globalDays);
  const todayRef = priced.at(-1) ?? null;
  const asOf = todayRef?.date ?? today;
  const entries = priced.map((d) => referenceSeriesEntry(d, benchOn.get(d.date) ?? null));
  const price = todayRef?.value ?? null;
  const off = refInForce(officialDays, asOf);
  const glob = refInForce(globalDays, asOf);
  const observedAtMs = todayRef?.observedAtMs ?? null;
  const published: Asset = {
    ...staticFields(asset),
    asOf,
    observedAt: observedAtMs === null ? null : new Date(observedAtMs).toISOString(),
    freshness: freshness(observedAtMs, nowMs, cal),
    confidence: confidence(todayRef?.sources.length ?? 0, false),
    directions: directions(
      asOf,
      entries,
      { sell: price, buy: price },
      { sell: null, buy: null },
      null,
      { sell: null, buy: null },
      null,
    ),
    benchmark: off ? { buy: off.buy, sell: off.sell } : null,
    global: glob ? { value: glob.value } : null,
    series: seriesWindow(entries, asOf),
    sellers: [],
  };
  return { asset: published, sources: sourcesBehind(todayRef?.sources, off?.sources, glob?.sources) };
}
