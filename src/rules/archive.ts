/**
 * docs/methodology.md §5.5, the archive: each day's entry of an asset (its series entry, who gave
 * each side's best, the day's references, how many sellers closed) and each day's seller table.
 * Pure: the same closes and references give the same entries.
 */
import { dayRange, type DayRange } from "../core/dataset.js";
import type { CatalogAsset, DayClose, RegistrySeller } from "../schema/inputs.js";
import type { SeriesEntry, SellerRow } from "../schema/outputs.js";
import type { ArchiveEntry, ArchiveSeller } from "../schema/archive.js";
import type { DayRef } from "./references.js";
import { bestOf, sellerNames, sellerTable } from "./table.js";

/**
 * What one seller asset's closes of a day give its archive entry, besides the references
 * (sellerEntry). A closed day's entries, as written, are what later builds keep of it
 * (src/incremental/archive-days.ts, data/state/archive/), not these facts.
 */
export interface DayFacts {
  asset: string;
  range: DayRange;
  /** The seller ids behind sellLo and buyHi (ties as for today's best, src/rules/table.ts bestOf). */
  bestSell: string | null;
  bestBuy: string | null;
  sellerCount: number;
}

/** A day's seller table as the by-day document lists it: the feed's rows, without `previous`. */
export type DaySeller = Omit<SellerRow, "previous">;

/** One asset's close of a day: its facts and its seller table, sorted as the feed's `sellers`. */
export function closeFacts(
  close: DayClose,
  asset: CatalogAsset,
  sellers: ReadonlyMap<string, RegistrySeller>,
): { facts: DayFacts; table: DaySeller[] } {
  const rows = sellerTable(close.closes, asset, sellers);
  const facts: DayFacts = {
    asset: close.asset,
    range: dayRange(close),
    bestSell: bestOf(rows, "sell")?.id ?? null,
    bestBuy: bestOf(rows, "buy")?.id ?? null,
    sellerCount: rows.length,
  };
  return { facts, table: rows.map(({ previous: _p, ...row }) => row) };
}

/** The references of one asset on one date, exactly that day's (no carrying forward: a day without one has none). */
export interface DayRefs {
  official: DayRef | undefined;
  global: DayRef | undefined;
}

function seller(id: string | null, sellers: ReadonlyMap<string, RegistrySeller>): ArchiveSeller | null {
  return id === null ? null : sellerNames(id, sellers);
}

/** The series entry of the day with the archive's additions. `bench` is the official mid of that day, as in series. */
function entryOf(
  base: SeriesEntry,
  refs: DayRefs,
  best: { sell: ArchiveSeller | null; buy: ArchiveSeller | null },
  sellerCount: number,
): ArchiveEntry {
  const { official, global } = refs;
  return {
    ...base,
    bestSell: best.sell,
    bestBuy: best.buy,
    official: official ? { buy: official.buy, sell: official.sell } : null,
    global: global?.value ?? null,
    sellerCount,
  };
}

/** A seller asset's entry of a day, from its facts: the series entry (docs/methodology.md §5.1) and the rest. */
export function sellerEntry(
  date: string,
  f: DayFacts,
  refs: DayRefs,
  sellers: ReadonlyMap<string, RegistrySeller>,
): ArchiveEntry {
  const base = { date, ...f.range, bench: refs.official?.value ?? null };
  // A side with no value has no best seller, whatever the facts say.
  const best = {
    sell: f.range.sellLo === null ? null : seller(f.bestSell, sellers),
    buy: f.range.buyHi === null ? null : seller(f.bestBuy, sellers),
  };
  return entryOf(base, refs, best, f.sellerCount);
}

/**
 * A reference asset's priced days (docs/methodology.md §4): the global value of the day, or failing
 * that the official mid, with that price's low and high. Ascending by date.
 */
export function referencePrices(officialDays: readonly DayRef[] = [], globalDays: readonly DayRef[] = []): DayRef[] {
  const byDate = new Map<string, DayRef>();
  for (const d of officialDays) if (d.value !== null) byDate.set(d.date, d);
  for (const d of globalDays) if (d.value !== null) byDate.set(d.date, d); // global first, official failing that
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** A reference asset's series entry of a priced day: its price's low and high on both sides. */
export function referenceSeriesEntry(r: DayRef, bench: number | null): SeriesEntry {
  return { date: r.date, buyLo: r.lo, buyHi: r.hi, sellLo: r.lo, sellHi: r.hi, bench };
}

/** A reference asset's archive entry of a priced day: no sellers, no best seller. */
export function referenceEntry(priced: DayRef, refs: DayRefs): ArchiveEntry {
  return entryOf(referenceSeriesEntry(priced, refs.official?.value ?? null), refs, { sell: null, buy: null }, 0);
}
