/**
 * A day's close per asset (docs/methodology.md §2.3 and §8): each
 * seller's latest accepted quote, the sources that saw the asset that day, and the pairs of sources
 * that disagree about one seller. This record is what `compact` keeps of a day's raw quotes.
 */
import { SOURCE_DISAGREE_PCT } from "../core/methodology.js";
import { instantString } from "../core/cairo.js";
import { newerFirst, sellerValueOrder, type AcceptedQuote } from "./acceptance.js";
import type { DayClose } from "../schema/inputs.js";

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Percentage by which two prices differ, relative to the lower. */
export function disagreementPct(a: number, b: number): number {
  return (Math.abs(a - b) / Math.min(a, b)) * 100;
}

/** How sources compete for a seller's close: their configured order and which are sellers' own. */
export interface SourceOrder {
  rank: (source: string) => number;
  own: (source: string) => boolean;
}

/** One asset's day so far, in closeDay's single pass over the day's accepted quotes. */
interface AssetDay {
  newest: AcceptedQuote;
  /** seller → its close (§2.3) */
  closes: Map<string, AcceptedQuote>;
  /** seller → source → that source's latest accepted quote of the seller (its keys: every source with an accepted quote of it) */
  perSource: Map<string, Map<string, AcceptedQuote>>;
  sources: Set<string>;
}

/**
 * The quotes may come one at a time, made as they are read (day-quotes.ts): only each choice is kept,
 * never the day's quotes.
 */
export function closeDay(date: string, accepted: Iterable<AcceptedQuote>, sources: SourceOrder): DayClose[] {
  const order = newerFirst(sources.rank);
  const valueOrder = sellerValueOrder(sources.rank, sources.own);
  const byAsset = new Map<string, AssetDay>();
  // One pass, no sort: each choice is the first quote (in reading order) that no other beats, which
  // is what the first of a stable sort would be.
  for (const q of accepted) {
    let day = byAsset.get(q.asset);
    if (!day) byAsset.set(q.asset, (day = { newest: q, closes: new Map(), perSource: new Map(), sources: new Set() }));
    if (order(q, day.newest) < 0) day.newest = q;
    day.sources.add(q.source);
    const cur = day.closes.get(q.seller);
    if (!cur || valueOrder(q, cur) < 0) day.closes.set(q.seller, q);
    const bySource = day.perSource.get(q.seller);
    if (!bySource) day.perSource.set(q.seller, new Map([[q.source, q]]));
    else {
      const had = bySource.get(q.source);
      if (!had || order(q, had) < 0) bySource.set(q.source, q);
    }
  }
  const out: DayClose[] = [];
  for (const [asset, { newest, closes, perSource, sources: seen }] of [...byAsset].sort(([a], [b]) => cmp(a, b))) {
    const disagreements: DayClose["disagreements"] = [];
    for (const [seller, bySource] of [...perSource].sort(([a], [b]) => cmp(a, b))) {
      if (bySource.size < 2) continue;
      const list = [...bySource.values()].sort((a, b) => cmp(a.source, b.source));
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++)
          for (const side of ["sell", "buy"] as const) {
            const a = list[i]![side];
            const b = list[j]![side];
            if (a === null || b === null) continue;
            const diffPct = disagreementPct(a, b);
            if (diffPct > SOURCE_DISAGREE_PCT)
              disagreements.push({
                seller,
                sources: [list[i]!.source, list[j]!.source],
                side,
                diffPct: Math.round(diffPct * 100) / 100,
              });
          }
    }
    out.push({
      date,
      asset,
      closes: [...closes.values()]
        .sort((a, b) => cmp(a.seller, b.seller))
        .map((q) => ({
          seller: q.seller,
          source: q.source,
          sources: [...perSource.get(q.seller)!.keys()].sort(cmp),
          buy: q.buy,
          sell: q.sell,
          observedAt: instantString(q.observedAtMs),
        })),
      sources: [...seen].sort(cmp),
      disagreements,
      observedAt: instantString(newest.observedAtMs),
    });
  }
  return out;
}
