/**
 * The rehearsal's oracle: the rulebook's constants and arithmetic, written again from the rulebook
 * (docs/methodology.md §2–§9 and §14) and NOT imported from src/core/methodology.ts or src/core/round.ts:
 * a second implementation that shares the first one's numbers would agree with its mistakes.
 */

export const CLOCK_SKEW_MS = 5 * 60_000; // §2.1 test 4
export const PLAUSIBLE_BAND = 0.1; // §2.1 test 6
export const PLAUSIBLE_MIN_PEERS = 3; // §2.1 test 6
export const GLOBAL_BAND_BELOW = 0.25; // §2.1 test 6, an asset without an official rate
export const GLOBAL_BAND_ABOVE = 0.6;
export const PROBATION_RUNS = 24; // §2.4
export const PROBATION_MIN_HOURS = 23; // the rulebook's "at least 23 hours from the first to the last"
export const PROBATION_RETURN_REFUSALS = 2; // §2.4
export const SERIES_WINDOW_DAYS = 30; // §5.3
export const LOOKBACK_DAYS = 90; // §6.1
export const LOOKBACK_MAX_AGE_DAYS = 365;
export const MIN_PRIOR_DAYS = 10; // §6.2
export const HIGH_POSITION = 0.75; // §6.4
export const LOW_POSITION = 0.25;
export const TREND_DAYS = 7;
export const TREND_MIN_VALUES = 3;
export const FLAT_PCT = 0.25;
export const OFFICIAL_TOL_PCT = 0.5;
export const GLOBAL_NOTABLE_PCT = 2;
export const SOURCE_DISAGREE_PCT = 1; // §8
export const CHANGE_MAX_GAP_DAYS = 7; // §5.4
export const REFERENCE_MAX_AGE_DAYS = 7; // §9

/**
 * Half away from zero at `decimals`, on the decimal the number prints as (§3.1: 1.005 → 1.01): the
 * shortest round-trip digits of |x| (toExponential with no argument) are cut by string, then the kept
 * digits are an exact integer. Never -0.
 */
export function roundHalf(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  // Far from a half, binary rounding of the scaled number cannot go the wrong way.
  const f = 10 ** decimals;
  const scaled = Math.abs(x) * f;
  if (scaled < 1e15 && Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
    const r = Math.round(scaled) / f;
    return r === 0 ? 0 : x < 0 ? -r : r;
  }
  const [mantissa, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const keep = 1 + Number(exp) + decimals; // how many of the digits lie before the cut
  if (keep >= digits.length) return x;
  if (keep < 0) return 0;
  let n = BigInt(digits.slice(0, keep) || "0");
  if (digits[keep]! >= "5") n += 1n;
  const out = Number(`${n}e-${decimals}`);
  return out === 0 ? 0 : x < 0 ? -out : out;
}

/**
 * The mid `(a + b) / 2` of two prices already at `decimals`, rounded half away from zero on the exact
 * decimal: 12.92 and 12.95 give 12.935, so 12.94 (in binary the sum's half prints 12.934999…).
 */
export function midHalf(a: number, b: number, decimals: number): number {
  const f = 10 ** decimals;
  const sum = Math.round(a * f) + Math.round(b * f); // exact integers: a and b have `decimals` decimals
  const half = sum % 2 === 0 ? sum / 2 : (sum + Math.sign(sum)) / 2; // an odd sum ends in 5: away from zero
  return Number(`${half}e-${decimals}`);
}

/** The median of a list of numbers; an even count gives the mean of the two middle values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Code-unit comparison (§11: names compare character code by character code). */
export const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
