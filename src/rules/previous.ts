/**
 * docs/methodology.md §5.4, change since the previous close: D_prev, the latest day before `asOf`
 * with a series entry and at most CHANGE_MAX_GAP_DAYS calendar days before it; each direction's best
 * then against that day's best, and each seller against its own close of that day.
 */
import { daysBetween } from "../core/cairo.js";
import { CHANGE_MAX_GAP_DAYS, PCT_DECIMALS } from "../core/methodology.js";
import { roundHalfAway } from "../core/round.js";
import type { SellerClose } from "../schema/inputs.js";
import type { Previous, SellerPrevious, SeriesEntry } from "../schema/outputs.js";
import type { Side } from "./acceptance.js";
import { dayBest } from "./series.js";

/** D_prev's entry: the latest entry strictly before `asOf`, when at most CHANGE_MAX_GAP_DAYS before it; else null. */
export function previousEntry(entries: readonly SeriesEntry[], asOf: string): SeriesEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.date >= asOf) continue;
    return daysBetween(e.date, asOf) <= CHANGE_MAX_GAP_DAYS ? e : null;
  }
  return null;
}

/**
 * A direction's `previous`: D_prev's best on the side and today's change from it, in EGP rounded to
 * the asset's decimals and in percent rounded to PCT_DECIMALS (both from the unrounded difference).
 * Null without D_prev, when today's or that day's value is null; a reference asset never calls it.
 */
export function directionPrevious(
  prev: SeriesEntry | null,
  side: Side,
  v: number | null,
  decimals: number,
): Previous | null {
  const value = prev && dayBest(prev, side);
  if (prev === null || value === null || v === null) return null;
  return {
    date: prev.date,
    value,
    change: roundHalfAway(v - value, decimals),
    changePct: roundHalfAway(((v - value) / value) * 100, PCT_DECIMALS),
  };
}

/** Each seller's close on D_prev, by seller id: a row's `previous` (null for a seller without one). */
export function sellerPrevious(closesOnPrev: readonly SellerClose[] | null): (seller: string) => SellerPrevious | null {
  const by = new Map((closesOnPrev ?? []).map((c) => [c.seller, { buy: c.buy, sell: c.sell }]));
  return (seller) => by.get(seller) ?? null;
}
