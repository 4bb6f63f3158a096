/**
 * §9: the official and global rates per asset and Cairo date (the day's latest observation, rounded),
 * and the one in force on a date (its own, else the latest earlier one up to 7 days old).
 */
import { cairoDate, daysBetween, parseInstant } from "../../core/cairo.js";
import type { CatalogAsset } from "../../schema/inputs.js";
import type { RawRef } from "./data.js";
import { CLOCK_SKEW_MS, REFERENCE_MAX_AGE_DAYS, midHalf, roundHalf } from "./rulebook.js";

export interface DayRate {
  date: string;
  buy: number | null;
  sell: number | null;
  /** The global value, or the official mid (null when a side is missing). */
  value: number | null;
  ms: number;
  /** The lowest and highest value of the day's observations (a reference asset's series), and their sources. */
  lo: number | null;
  hi: number | null;
  sources: string[];
}

const price = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** asset → its days, ascending. Rows that are unusable (§9) or not yet observed at `nowMs` are left out. */
export function dailyRates(rows: readonly RawRef[], assets: ReadonlyMap<string, CatalogAsset>, nowMs: number) {
  const today = cairoDate(nowMs);
  const out = new Map<string, Map<string, DayRate>>();
  for (const r of rows) {
    const asset = assets.get(r.asset);
    const ms = parseInstant(r.observedAt);
    if (!asset || ms === null || ms > nowMs + CLOCK_SKEW_MS) continue;
    let rate: Pick<DayRate, "buy" | "sell" | "value">;
    const d = asset.decimals;
    if ("value" in r) {
      if (!price(r.value)) continue;
      rate = { buy: null, sell: null, value: roundHalf(r.value, d) };
    } else {
      const buy = r.buy ?? null;
      const sell = r.sell ?? null;
      if ((buy === null && sell === null) || (buy !== null && !price(buy)) || (sell !== null && !price(sell))) continue;
      if (buy !== null && sell !== null && buy > sell) continue;
      const b = buy === null ? null : roundHalf(buy, d);
      const s = sell === null ? null : roundHalf(sell, d);
      rate = { buy: b, sell: s, value: b !== null && s !== null ? midHalf(b, s, d) : null };
    }
    const date = cairoDate(ms);
    if (date > today) continue;
    const days = out.get(r.asset) ?? new Map<string, DayRate>();
    out.set(r.asset, days);
    const cur = days.get(date);
    if (!cur) {
      days.set(date, { date, ms, ...rate, lo: rate.value, hi: rate.value, sources: [r.source] });
      continue;
    }
    if (!cur.sources.includes(r.source)) cur.sources.push(r.source);
    if (rate.value !== null) {
      cur.lo = cur.lo === null ? rate.value : Math.min(cur.lo, rate.value);
      cur.hi = cur.hi === null ? rate.value : Math.max(cur.hi, rate.value);
    }
    if (ms > cur.ms) Object.assign(cur, { ms, ...rate }); // equal instants: the first read stays
  }
  return new Map([...out].map(([a, days]) => [a, [...days.values()].sort((x, y) => (x.date < y.date ? -1 : 1))]));
}

/** The rate in force on `date`: the latest day at or before it, at most REFERENCE_MAX_AGE_DAYS before. */
export function inForce(days: readonly DayRate[] | undefined, date: string): DayRate | null {
  for (let i = (days?.length ?? 0) - 1; i >= 0; i--) {
    const d = days![i]!;
    if (d.date <= date) return daysBetween(d.date, date) <= REFERENCE_MAX_AGE_DAYS ? d : null;
  }
  return null;
}
