/**
 * §4, a reference market, for the rehearsal's oracle: no seller list, a price from the references.
 */
import type { CatalogAsset } from "../../schema/inputs.js";
import type { AssetInputs, ExpectedAsset } from "./expected.js";
import { SIDES, type Side } from "./judge.js";
import { inForce, type DayRate } from "./references.js";
import { SERIES_WINDOW_DAYS } from "./rulebook.js";
import { judgeSide, priorBests, type ExpectedDirection, type SeriesEntry } from "./verdict.js";

/**
 * §4, a reference asset: each day's price is its global value, else its official mid; the series
 * carries the day's low and high of it; both directions judge that price, with no best, no table,
 * no official or global signal and no previous close; `checks` counts the sources of the price.
 */
export function expectReference(asset: CatalogAsset, x: AssetInputs): ExpectedAsset {
  const official = new Map((x.official ?? []).map((r) => [r.date, r]));
  const global = new Map((x.global ?? []).map((r) => [r.date, r]));
  const dates = [...new Set([...official.keys(), ...global.keys()])].sort();
  const priced = dates
    .map((date) => {
      const g = global.get(date);
      return g?.value != null ? g : official.get(date)?.value != null ? official.get(date)! : null;
    })
    .filter((r): r is DayRate => r !== null);
  const today = priced.at(-1) ?? null;
  const asOf = today?.date ?? x.today;
  const series: SeriesEntry[] = priced.map((r) => ({
    date: r.date,
    buyLo: r.lo,
    buyHi: r.hi,
    sellLo: r.lo,
    sellHi: r.hi,
    bench: official.get(r.date)?.value ?? null,
  }));
  const directions = {} as Record<Side, ExpectedDirection>;
  for (const side of SIDES) {
    const prior = priorBests(series, asOf, side);
    directions[side] = {
      best: null,
      ...judgeSide(side, today?.value ?? null, prior, asOf, null, null),
      previous: null,
    };
  }
  const checks = today?.sources.length ?? 0;
  const off = inForce(x.official, asOf);
  const glob = inForce(x.global, asOf);
  return {
    id: asset.id,
    slug: asset.slug,
    benchmark: off && { buy: off.buy, sell: off.sell },
    global: glob && { value: glob.value },
    probation: [],
    asOf,
    reference: true,
    observedAtMs: today?.ms ?? null,
    confidence: { level: (["none", "low", "medium", "high"] as const)[Math.min(checks, 3)]!, checks },
    sellers: [],
    directions,
    series: series.slice(-SERIES_WINDOW_DAYS),
  };
}
