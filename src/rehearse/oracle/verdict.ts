/**
 * §5.2 and §6: the day's best on a side, the prior days the verdict weighs, and favorability, the
 * signals and the verdict of one side — for the rehearsal's oracle, from the rulebook alone.
 */
import { addDays, daysBetween } from "../../core/cairo.js";
import type { Side } from "./judge.js";
import {
  FLAT_PCT,
  GLOBAL_NOTABLE_PCT,
  HIGH_POSITION,
  LOOKBACK_DAYS,
  LOOKBACK_MAX_AGE_DAYS,
  LOW_POSITION,
  MIN_PRIOR_DAYS,
  OFFICIAL_TOL_PCT,
  roundHalf,
  TREND_DAYS,
  TREND_MIN_VALUES,
} from "./rulebook.js";

export interface SeriesEntry {
  date: string;
  buyLo: number | null;
  buyHi: number | null;
  sellLo: number | null;
  sellHi: number | null;
  bench: number | null;
}

type Lean = -1 | 0 | 1;
export interface ExpectedDirection {
  best: { id: string; seller: string; value: number } | null;
  verdict: "favorable" | "weak" | "ordinary" | "mixed" | "calibrating";
  favorability: number | null;
  priorDays: number;
  signals: {
    position: { lean: Lean };
    trend: {
      lean: Lean;
      direction: "up" | "down" | "flat";
      changePct: number;
      volatilityPct: number;
      days: number;
    } | null;
    official: { lean: Lean; diffPct: number } | null;
    global: { diffPct: number; notable: boolean } | null;
  };
  previous: { date: string; value: number; change: number; changePct: number } | null;
}

/** §5.2: `sellLo` for sell, `buyHi` for buy. */
export const dayBest = (e: SeriesEntry, side: Side) => (side === "sell" ? e.sellLo : e.buyHi);

/** §6.1: P, the best values of the side on the latest 90 days that have one, before asOf and within 365 days. */
export function priorBests(series: readonly SeriesEntry[], asOf: string, side: Side) {
  return series
    .filter((e) => e.date < asOf && daysBetween(e.date, asOf) <= LOOKBACK_MAX_AGE_DAYS)
    .map((e) => ({ date: e.date, value: dayBest(e, side) }))
    .filter((p): p is { date: string; value: number } => p.value !== null)
    .slice(-LOOKBACK_DAYS);
}

/** §6: favorability, the signals and the verdict of one side. */
export function judgeSide(
  side: Side,
  v: number | null,
  prior: ReadonlyArray<{ date: string; value: number }>,
  asOf: string,
  official: number | null,
  global: number | null,
): Omit<ExpectedDirection, "best" | "previous"> {
  const priorDays = prior.length;
  if (v === null)
    return {
      verdict: "calibrating",
      favorability: null,
      priorDays,
      signals: { position: { lean: 0 }, trend: null, official: null, global: null },
    };
  const better = (p: number) => (side === "sell" ? p > v : p < v);
  const fav = priorDays
    ? (prior.filter((p) => better(p.value)).length + 0.5 * prior.filter((p) => p.value === v).length) / priorDays
    : null;
  const calibrating = priorDays < MIN_PRIOR_DAYS;
  const position: Lean = calibrating ? 0 : fav! >= HIGH_POSITION ? 1 : fav! <= LOW_POSITION ? -1 : 0;
  // Trend: the prior days from asOf − 7 to asOf − 1, then today.
  const from = addDays(asOf, -TREND_DAYS);
  const window = [...prior.filter((p) => p.date >= from), { date: asOf, value: v }];
  let trend: ExpectedDirection["signals"]["trend"] = null;
  if (window.length >= TREND_MIN_VALUES) {
    const f = window[0]!;
    const changePct = ((v - f.value) / f.value) * 100;
    const steps = window.slice(1).map((w, i) => ((w.value - window[i]!.value) / window[i]!.value) * 100);
    const mean = steps.reduce((s, c) => s + c, 0) / steps.length;
    const vol = Math.sqrt(steps.reduce((s, c) => s + (c - mean) ** 2, 0) / steps.length);
    const direction = Math.abs(changePct) < FLAT_PCT ? "flat" : changePct > 0 ? "up" : "down";
    const lean: Lean = direction === "flat" ? 0 : (direction === "down") === (side === "sell") ? 1 : -1;
    trend = {
      lean,
      direction,
      changePct: roundHalf(changePct, 2),
      volatilityPct: roundHalf(vol, 2),
      days: daysBetween(f.date, asOf),
    };
  }
  let off: ExpectedDirection["signals"]["official"] = null;
  if (official !== null) {
    const d = ((v - official) / official) * 100;
    const favorable = side === "sell" ? d < -OFFICIAL_TOL_PCT : d > OFFICIAL_TOL_PCT;
    const against = side === "sell" ? d > OFFICIAL_TOL_PCT : d < -OFFICIAL_TOL_PCT;
    off = { lean: favorable ? 1 : against ? -1 : 0, diffPct: roundHalf(d, 2) };
  }
  let glob: ExpectedDirection["signals"]["global"] = null;
  if (global !== null) {
    const d = ((v - global) / global) * 100;
    glob = { diffPct: roundHalf(d, 2), notable: Math.abs(d) >= GLOBAL_NOTABLE_PCT };
  }
  const leans = [position, trend?.lean ?? 0, off?.lean ?? 0];
  const verdict = calibrating
    ? "calibrating"
    : leans.includes(1) && leans.includes(-1)
      ? "mixed"
      : position === 1
        ? "favorable"
        : position === -1
          ? "weak"
          : "ordinary";
  return {
    verdict,
    favorability: calibrating || fav === null ? null : roundHalf(fav, 3),
    priorDays,
    signals: { position: { lean: position }, trend, official: off, global: glob },
  };
}
