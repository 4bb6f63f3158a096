/**
 * A day's close per asset (docs/methodology.md §2.3 and §8): each
 * seller's latest accepted quote, the sources that saw the asset that day, and the pairs of sources
 * that disagree about one seller. This record is what `compact` keeps of a day's raw quotes.
 */
import { SOURCE_DISAGREE_PCT } from "../core/methodology.js";
import { instantString } from "../core/cairo.js";
import { newerFirst, sellerValueOrder, type AcceptedQuote } from "./acceptance.js";
import { DayQuotesPicked } from "./day-quotes.js";
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

/** One asset's day so far, in closeDay's single pass: each choice is a position in the day's columns. */
interface AssetDay {
  newest: number;
  /** seller → its close (§2.3) */
  closes: Map<string, number>;
  /** seller → source → that source's latest accepted quote of the seller (its keys: every source with an accepted quote of it) */
  perSource: Map<string, Map<string, number>>;
  sources: Set<string>;
}

/**
 * The quotes are positions in a day's columns (day-quotes.ts): only each choice is kept, and no
 * object is made for a quote (made for each, a day's tens of thousands lived long enough in the
 * maps below to be promoted to V8's old generation, as garbage). An array is taken as it comes.
 */
export function closeDay(
  date: string,
  accepted: DayQuotesPicked | readonly AcceptedQuote[],
  sources: SourceOrder,
): DayClose[] {
  const picked = accepted instanceof DayQuotesPicked ? accepted : DayQuotesPicked.of(accepted);
  const q = picked.from;
  const order = newerFirst(sources.rank, q);
  const valueOrder = sellerValueOrder(sources.rank, sources.own, q);
  const byAsset = new Map<string, AssetDay>();
  // One pass, no sort: each choice is the first quote (in reading order) that no other beats, which
  // is what the first of a stable sort would be. Quotes of one source, seller and instant that tie
  // here have the same prices: acceptance rejected those that did not (conflicting-quote, §11), so
  // reading order never picks a price.
  for (let k = 0; k < picked.length; k++) {
    const i = picked.at(k);
    const asset = q.asset(i);
    const seller = q.seller(i);
    const source = q.source(i);
    let day = byAsset.get(asset);
    if (!day) byAsset.set(asset, (day = { newest: i, closes: new Map(), perSource: new Map(), sources: new Set() }));
    if (order(i, day.newest) < 0) day.newest = i;
    day.sources.add(source);
    const cur = day.closes.get(seller);
    if (cur === undefined || valueOrder(i, cur) < 0) day.closes.set(seller, i);
    const bySource = day.perSource.get(seller);
    if (!bySource) day.perSource.set(seller, new Map([[source, i]]));
    else {
      const had = bySource.get(source);
      if (had === undefined || order(i, had) < 0) bySource.set(source, i);
    }
  }
  const out: DayClose[] = [];
  for (const [asset, { newest, closes, perSource, sources: seen }] of [...byAsset].sort(([a], [b]) => cmp(a, b))) {
    const disagreements: DayClose["disagreements"] = [];
    for (const [seller, bySource] of [...perSource].sort(([a], [b]) => cmp(a, b))) {
      if (bySource.size < 2) continue;
      const list = [...bySource.values()].sort((a, b) => cmp(q.source(a), q.source(b)));
      for (let x = 0; x < list.length; x++)
        for (let y = x + 1; y < list.length; y++)
          for (const side of ["sell", "buy"] as const) {
            const a = q.price(list[x]!, side);
            const b = q.price(list[y]!, side);
            if (a === null || b === null) continue;
            const diffPct = disagreementPct(a, b);
            if (diffPct > SOURCE_DISAGREE_PCT)
              disagreements.push({
                seller,
                sources: [q.source(list[x]!), q.source(list[y]!)],
                side,
                diffPct: Math.round(diffPct * 100) / 100,
              });
          }
    }
    out.push({
      date,
      asset,
      closes: [...closes]
        .sort(([a], [b]) => cmp(a, b))
        .map(([seller, i]) => ({
          seller,
          source: q.source(i),
          sources: [...perSource.get(seller)!.keys()].sort(cmp),
          buy: q.price(i, "buy"),
          sell: q.price(i, "sell"),
          observedAt: instantString(q.observedAtMs(i)),
        })),
      sources: [...seen].sort(cmp),
      disagreements,
      observedAt: instantString(q.observedAtMs(newest)),
    });
  }
  return out;
}
