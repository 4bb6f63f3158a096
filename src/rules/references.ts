/**
 * Official (central bank) and global reference rates, per asset and Cairo date: the latest accepted
 * observation of each day, rounded to the asset's decimals, plus the day's low and high (a reference
 * asset's series uses them).
 */
import { CLOCK_SKEW_MS, REFERENCE_MAX_AGE_DAYS } from "../core/methodology.js";
import { cairoDate, daysBetween, parseInstant } from "../core/cairo.js";
import { midHalfAway, roundHalfAway } from "../core/round.js";
import type { Located } from "../core/dataset.js";
import type { CatalogAsset, GlobalRate, OfficialRate } from "../schema/inputs.js";

export interface DayRef {
  date: string;
  buy: number | null;
  sell: number | null;
  /** The day's reference value: the global value, or the official mid. */
  value: number | null;
  lo: number | null;
  hi: number | null;
  observedAtMs: number;
  /** Sorted; shared between days with the same sources, and frozen. */
  sources: readonly string[];
}

export interface RefIssue {
  file: string;
  line: number;
  reason: string;
  /** An unknown asset's id: the catalog lost it, which refuses the build (src/feed/archive/retired.ts). */
  asset?: string;
}

const isPrice = (p: number) => Number.isFinite(p) && p > 0;
/** At least one price, and each present one a positive finite number. */
const pricesOk = (buy: number | null, sell: number | null) =>
  (buy !== null || sell !== null) && (buy === null || isPrice(buy)) && (sell === null || isPrice(sell));

/**
 * Per asset, per date (ascending): the day's reference. Bad lines become issues, not failures. The
 * rows are read once, in order, so they may come as they are parsed (src/io/load-build.ts): a build
 * computes each kind once (src/feed/assets.ts), and keeps none of their rows.
 */
export function dailyRefs(
  rows: Iterable<Located<OfficialRate | GlobalRate>>,
  assets: ReadonlyMap<string, CatalogAsset>,
  nowMs: number,
  issues: RefIssue[],
): Map<string, DayRef[]> {
  const byAsset = new Map<string, AssetDays>();
  const today = cairoDate(nowMs);
  for (const { value: r, file, line } of rows) {
    const asset = assets.get(r.asset);
    const ms = parseInstant(r.observedAt);
    const isGlobal = "value" in r;
    let reason: string | null = null;
    if (!asset) reason = "unknown-asset";
    else if (ms === null) reason = "invalid-observedAt";
    else if (ms > nowMs + CLOCK_SKEW_MS)
      continue; // not yet observed at this build instant
    else if (isGlobal ? !isPrice(r.value) : !pricesOk(r.buy, r.sell)) reason = "non-positive-price";
    else if ("buy" in r && r.buy !== null && r.sell !== null && r.buy > r.sell) reason = "crossed";
    if (reason || !asset || ms === null) {
      issues.push({ file, line, reason: reason ?? "invalid", ...(!asset && { asset: r.asset }) });
      continue;
    }
    const date = cairoDate(ms);
    if (date > today) continue;
    const d = asset.decimals;
    const buy = "value" in r ? null : r.buy === null ? null : roundHalfAway(r.buy, d);
    const sell = "value" in r ? null : r.sell === null ? null : roundHalfAway(r.sell, d);
    const value =
      "value" in r ? roundHalfAway(r.value, d) : buy !== null && sell !== null ? midHalfAway(buy, sell, d) : null;
    let days = byAsset.get(r.asset);
    if (!days) byAsset.set(r.asset, (days = { list: [], byDate: null, sorted: true }));
    const cur = dayOf(days, date);
    if (!cur) {
      addDay(days, { date, buy, sell, value, lo: value, hi: value, observedAtMs: ms, sources: [r.source] });
      continue;
    }
    if (!cur.sources.includes(r.source)) (cur.sources as string[]).push(r.source);
    if (value !== null) {
      cur.lo = cur.lo === null ? value : Math.min(cur.lo, value);
      cur.hi = cur.hi === null ? value : Math.max(cur.hi, value);
    }
    // The latest observation of the day is the day's rate; on equal instants the first line read stays.
    if (ms > cur.observedAtMs) {
      cur.buy = buy;
      cur.sell = sell;
      cur.value = value;
      cur.observedAtMs = ms;
    }
  }
  const out = new Map<string, DayRef[]>();
  // Days with the same sources share one frozen list: a handful of distinct lists stand for every day
  // of a large dataset, where a list per day was a part of the live heap (docs/performance.md).
  const shared = new Map<string, readonly string[]>();
  for (const [asset, days] of byAsset) {
    const list = days.sorted ? days.list : days.list.sort((a, b) => (a.date < b.date ? -1 : 1));
    for (const d of list) {
      if (d.sources.length > 1) (d.sources as string[]).sort();
      const key = d.sources.join("\n");
      const one = shared.get(key);
      if (one) d.sources = one;
      else shared.set(key, Object.freeze(d.sources));
    }
    out.set(asset, list);
  }
  return out;
}

/**
 * One asset's days as they are read. Day files come in date order, so a row's date is nearly always
 * the last day's or a later one: the list alone answers, and a map of the days by date is made only
 * once a row comes for an earlier day (a per-row map kept from the start was most of the loop's time).
 */
interface AssetDays {
  list: DayRef[];
  byDate: Map<string, DayRef> | null;
  /** Whether `list` is still in ascending date order. */
  sorted: boolean;
}

function dayOf(days: AssetDays, date: string): DayRef | undefined {
  // Once made, the map answers: the list's last day may then no longer be its latest.
  if (days.byDate) return days.byDate.get(date);
  // Until then each day was added later than the one before it, so the last is the latest.
  const last = days.list.at(-1);
  if (last === undefined || date > last.date) return undefined;
  if (date === last.date) return last;
  days.byDate = new Map(days.list.map((d) => [d.date, d]));
  return days.byDate.get(date);
}

function addDay(days: AssetDays, day: DayRef): void {
  const last = days.list.at(-1);
  if (last !== undefined && day.date < last.date) days.sorted = false;
  days.list.push(day);
  days.byDate?.set(day.date, day);
}

/** The reference in force on `date`: the latest day at or before it, at most REFERENCE_MAX_AGE_DAYS old. */
export function refInForce(days: readonly DayRef[] | undefined, date: string): DayRef | null {
  if (!days) return null;
  for (let i = days.length - 1; i >= 0; i--) {
    const d = days[i]!;
    if (d.date > date) continue;
    return daysBetween(d.date, date) <= REFERENCE_MAX_AGE_DAYS ? d : null;
  }
  return null;
}
