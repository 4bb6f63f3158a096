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

export function closeDay(date: string, accepted: readonly AcceptedQuote[], sources: SourceOrder): DayClose[] {
  const byAsset = new Map<string, AcceptedQuote[]>();
  for (const q of accepted) {
    const list = byAsset.get(q.asset);
    if (list) list.push(q);
    else byAsset.set(q.asset, [q]);
  }
  const order = newerFirst(sources.rank);
  const valueOrder = sellerValueOrder(sources.rank, sources.own);
  const out: DayClose[] = [];
  for (const [asset, quotes] of [...byAsset].sort(([a], [b]) => cmp(a, b))) {
    // One pass, no sort: each choice is the first quote (in reading order) that no other beats, which
    // is what the first of a stable sort would be.
    const closes = new Map<string, AcceptedQuote>(); // seller → its close (§2.3)
    // seller → source → that source's latest accepted quote of the seller (its keys: every source
    // with an accepted quote of it)
    const perSource = new Map<string, Map<string, AcceptedQuote>>();
    let newest = quotes[0]!;
    for (const q of quotes) {
      if (order(q, newest) < 0) newest = q;
      const cur = closes.get(q.seller);
      if (!cur || valueOrder(q, cur) < 0) closes.set(q.seller, q);
      const bySource = perSource.get(q.seller);
      if (!bySource) perSource.set(q.seller, new Map([[q.source, q]]));
      else {
        const had = bySource.get(q.source);
        if (!had || order(q, had) < 0) bySource.set(q.source, q);
      }
    }
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
      sources: [...new Set(quotes.map((q) => q.source))].sort(cmp),
      disagreements,
      observedAt: instantString(newest.observedAtMs),
    });
  }
  return out;
}
