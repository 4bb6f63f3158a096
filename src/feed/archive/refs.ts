/**
 * The archive's view of the daily references (src/rules/references.ts: per asset, one a date,
 * ascending): an asset's reference of a date, and the references half of each day's key.
 */
import type { CatalogAsset } from "../../schema/inputs.js";
import type { DayRef } from "../../rules/references.js";

/** The asset's reference of that date, found by bisection in its list: none when it has none. */
export function refOn(days: readonly DayRef[] | undefined, date: string): DayRef | undefined {
  if (!days) return undefined;
  let [lo, hi] = [0, days.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]!.date < date) lo = mid + 1;
    else hi = mid;
  }
  return days[lo]?.date === date ? days[lo] : undefined;
}

/**
 * Each date's references, in catalog order (the catalog itself is in the key's `shared`): official
 * buy, sell, value, lo, hi, global value, lo, hi — the values the archive shows, not when or by whom
 * seen — as the bytes of doubles (NaN for none), made in one pass over the references: as text per
 * date and asset, they were a visible part of an hourly build.
 */
export function refsKeys(
  catalog: readonly Pick<CatalogAsset, "id">[],
  refs: { official: ReadonlyMap<string, DayRef[]>; global: ReadonlyMap<string, DayRef[]> },
): (date: string) => Uint8Array {
  const index = new Map(catalog.map((a, i) => [a.id, i]));
  const byDate = new Map<string, Float64Array>();
  const at = (date: string) => {
    let v = byDate.get(date);
    if (!v) byDate.set(date, (v = new Float64Array(catalog.length * 8).fill(NaN)));
    return v;
  };
  for (const [asset, days] of refs.official) {
    const i = index.get(asset);
    if (i !== undefined)
      for (const o of days)
        at(o.date).set([o.buy ?? NaN, o.sell ?? NaN, o.value ?? NaN, o.lo ?? NaN, o.hi ?? NaN], 8 * i);
  }
  for (const [asset, days] of refs.global) {
    const i = index.get(asset);
    if (i !== undefined) for (const g of days) at(g.date).set([g.value ?? NaN, g.lo ?? NaN, g.hi ?? NaN], 8 * i + 5);
  }
  const none = new Uint8Array(new Float64Array(catalog.length * 8).fill(NaN).buffer);
  return (date) => {
    const v = byDate.get(date);
    return v ? new Uint8Array(v.buffer) : none;
  };
}
