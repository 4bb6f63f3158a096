/**
 * docs/methodology.md §6, the verdict of one direction: favorability, the four signals and the verdict.
 * Comparisons use unrounded values; only what is published is rounded.
 */
import {
  FAVORABILITY_DECIMALS,
  FLAT_PCT,
  GLOBAL_NOTABLE_PCT,
  HIGH_POSITION,
  LOW_POSITION,
  MIN_PRIOR_DAYS,
  OFFICIAL_TOL_PCT,
  PCT_DECIMALS,
  TREND_DAYS,
  TREND_MIN_VALUES,
} from "../core/methodology.js";
import { roundHalfAway } from "../core/round.js";
import { pctDiff, stdDevPop } from "../core/stats.js";
import { daysBetween } from "../core/cairo.js";
import type { Side } from "./acceptance.js";
import type { DatedValue } from "./series.js";
import type { Signals, Verdict } from "../schema/outputs.js";

type Lean = -1 | 0 | 1;
const pct = (x: number) => roundHalfAway(x, PCT_DECIMALS);

/** 1 = the best day in the window for the customer; ties count half. Unrounded. */
export function favorability(v: number, prior: readonly number[], side: Side): number {
  let better = 0;
  let equal = 0;
  for (const p of prior) {
    if (p === v) equal++;
    else if (side === "sell" ? p > v : p < v) better++;
  }
  return (better + 0.5 * equal) / prior.length;
}

export function positionLean(fav: number): Lean {
  return fav >= HIGH_POSITION ? 1 : fav <= LOW_POSITION ? -1 : 0;
}

/** Prior days within the last TREND_DAYS calendar days (asOf − 7 … asOf − 1), plus today. */
export function trendSignal(v: number, prior: readonly DatedValue[], asOf: string, side: Side): Signals["trend"] {
  const window = [...prior.filter((p) => daysBetween(p.date, asOf) <= TREND_DAYS), { date: asOf, value: v }];
  if (window.length < TREND_MIN_VALUES) return null;
  const first = window[0]!;
  const change = pctDiff(v, first.value);
  const steps: number[] = [];
  for (let i = 1; i < window.length; i++) steps.push(pctDiff(window[i]!.value, window[i - 1]!.value));
  const direction = Math.abs(change) < FLAT_PCT ? "flat" : change > 0 ? "up" : "down";
  const lean: Lean = direction === "flat" ? 0 : (direction === "up") === (side === "buy") ? 1 : -1;
  return {
    lean,
    direction,
    changePct: pct(change),
    volatilityPct: pct(stdDevPop(steps)),
    days: daysBetween(first.date, asOf),
  };
}

export function officialSignal(v: number, official: number | null, side: Side): Signals["official"] {
  if (official === null) return null;
  const diff = pctDiff(v, official);
  // For sell, paying less than the official rate is good; for buy, receiving more is.
  const signed = side === "sell" ? -diff : diff;
  const lean: Lean = signed > OFFICIAL_TOL_PCT ? 1 : signed < -OFFICIAL_TOL_PCT ? -1 : 0;
  return { lean, diffPct: pct(diff) };
}

export function globalSignal(v: number, global: number | null): Signals["global"] {
  if (global === null) return null;
  const diff = pctDiff(v, global);
  return { diffPct: pct(diff), notable: Math.abs(diff) >= GLOBAL_NOTABLE_PCT };
}

export function verdictOf(signals: Signals): Exclude<Verdict, "calibrating"> {
  const leans = [signals.position.lean, signals.trend?.lean, signals.official?.lean];
  if (leans.includes(1) && leans.includes(-1)) return "mixed";
  return signals.position.lean === 1 ? "favorable" : signals.position.lean === -1 ? "weak" : "ordinary";
}

export interface DirectionInput {
  side: Side;
  asOf: string;
  v: number | null;
  prior: readonly DatedValue[];
  official: number | null; // the benchmark of this side; null for a reference asset
  global: number | null; // null for a reference asset
}

export function assessDirection(d: DirectionInput): {
  verdict: Verdict;
  favorability: number | null;
  priorDays: number;
  signals: Signals;
} {
  const priorDays = d.prior.length;
  if (d.v === null) {
    return {
      verdict: "calibrating",
      favorability: null,
      priorDays,
      signals: { position: { lean: 0 }, trend: null, official: null, global: null },
    };
  }
  const signalsBase = {
    trend: trendSignal(d.v, d.prior, d.asOf, d.side),
    official: officialSignal(d.v, d.official, d.side),
    global: globalSignal(d.v, d.global),
  };
  if (priorDays < MIN_PRIOR_DAYS) {
    return {
      verdict: "calibrating",
      favorability: null,
      priorDays,
      signals: { position: { lean: 0 }, ...signalsBase },
    };
  }
  const fav = favorability(
    d.v,
    d.prior.map((p) => p.value),
    d.side,
  );
  const signals: Signals = { position: { lean: positionLean(fav) }, ...signalsBase };
  return { verdict: verdictOf(signals), favorability: roundHalfAway(fav, FAVORABILITY_DECIMALS), priorDays, signals };
}
