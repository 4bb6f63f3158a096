/**
 * A day's close per asset (docs/methodology.md §2.3 and §8): each
 * seller's latest accepted quote, the sources that saw the asset that day, and the pairs of sources
 * that disagree about one seller. This record is what `compact` keeps of a day's raw quotes.
 */
import { SOURCE_DISAGREE_PCT } from "../core/methodology.js";
import { instantString } from "../core/cairo.js";
import { newerFirst, type AcceptedQuote } from "./acceptance.js";
import type { DayClose } from "../schema/inputs.js";

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Percentage by which two prices differ, relative to the lower. */
export function disagreementPct(a: number, b: number): number {
  return (Math.abs(a - b) / Math.min(a, b)) * 100;
}

export function closeDay(date: string, accepted: readonly AcceptedQuote[], rank: (s: string) => number): DayClose[] {
  const byAsset = new Map<string, AcceptedQuote[]>();
  for (const q of accepted) {
    const list = byAsset.get(q.asset);
    if (list) list.push(q);
    else byAsset.set(q.asset, [q]);
  }
  const order = newerFirst(rank);
  const out: DayClose[] = [];
  for (const [asset, quotes] of [...byAsset].sort(([a], [b]) => cmp(a, b))) {
    quotes.sort(order);
    const closes = new Map<string, AcceptedQuote>(); // seller → latest (first in newest-first order)
    const perSource = new Map<string, AcceptedQuote>(); // seller|source → that source's latest
    for (const q of quotes) {
      if (!closes.has(q.seller)) closes.set(q.seller, q);
      const key = `${q.seller}|${q.source}`;
      if (!perSource.has(key)) perSource.set(key, q);
    }
    const disagreements: DayClose["disagreements"] = [];
    const bySeller = new Map<string, AcceptedQuote[]>();
    for (const q of perSource.values()) bySeller.set(q.seller, [...(bySeller.get(q.seller) ?? []), q]);
    for (const [seller, list] of [...bySeller].sort(([a], [b]) => cmp(a, b))) {
      list.sort((a, b) => cmp(a.source, b.source));
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++)
          for (const side of ["sell", "buy"] as const) {
            const a = list[i]![side];
            const b = list[j]![side];
            if (a === null || b === null) continue;
            const diffPct = disagreementPct(a, b);
            if (diffPct > SOURCE_DISAGREE_PCT)
              disagreements.push({ seller, sources: [list[i]!.source, list[j]!.source], side, diffPct: Math.round(diffPct * 100) / 100 });
          }
    }
    out.push({
      date,
      asset,
      closes: [...closes.values()]
        .sort((a, b) => cmp(a.seller, b.seller))
        .map((q) => ({ seller: q.seller, source: q.source, buy: q.buy, sell: q.sell, observedAt: instantString(q.observedAtMs) })),
      sources: [...new Set(quotes.map((q) => q.source))].sort(cmp),
      disagreements,
      observedAt: instantString(quotes[0]!.observedAtMs),
    });
  }
  return out;
}
