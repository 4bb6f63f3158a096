/**
 * Rounding half away from zero to a number of decimals (docs/methodology.md §3.1: every price is
 * rounded to its asset's decimals before it is compared or published, so equal prices are equal).
 * It rounds the decimal that the number prints as, so 1.005 → 1.01 (binary 1.00499… would give 1.00).
 */
export function roundHalfAway(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const sign = x < 0 ? -1 : 1;
  // Fast path: far from a half, binary rounding cannot go the wrong way.
  const f = 10 ** decimals;
  const scaled = Math.abs(x) * f;
  const frac = scaled - Math.floor(scaled);
  if (Math.abs(frac - 0.5) > 1e-6 && scaled < 1e15) {
    const r = Math.round(scaled) / f;
    return r === 0 ? 0 : sign * r;
  }
  const [mantissa, exp = "0"] = Math.abs(x).toExponential().split("e");
  const shifted = Number(`${mantissa}e${Number(exp) + decimals}`);
  const rounded = Math.floor(shifted + 0.5);
  const out = Number(`${rounded}e${-decimals}`);
  return out === 0 ? 0 : sign * out; // never publish -0
}

/**
 * docs/methodology.md §2.1 test 2: a price the feed can keep is finite, above zero, and small enough
 * that its value in the asset's smallest unit (`x × 10^decimals`) is a safe integer (below 2^53), so
 * that rounding it is exact. A page's "1000000000000000000000000" is read as 1e+24, and rounding
 * such a number to decimals once gave NaN, which then mis-sorted a median of rule 6 and refused every
 * genuine quote judged against it (issue 50).
 */
export function isSafePrice(x: number, decimals: number): boolean {
  return Number.isFinite(x) && x > 0 && x * 10 ** decimals <= Number.MAX_SAFE_INTEGER;
}

/**
 * The mean of two prices already rounded to `decimals`, rounded half away from zero (docs/methodology.md
 * §5.1: the official mid, `bench`). Computed in the smallest unit, where the sum is an exact integer:
 * in binary (55.80 + 55.93) / 2 is 55.864999…, which rounded to 55.86 where the rulebook's 55.865
 * gives 55.87 (found by the rehearsal's second implementation).
 */
export function midHalfAway(a: number, b: number, decimals: number): number {
  const f = 10 ** decimals;
  const sum = Math.round(a * f) + Math.round(b * f);
  const half = sum >= 0 ? Math.ceil(sum / 2) : -Math.ceil(-sum / 2); // .5 away from zero
  const out = half / f;
  return out === 0 ? 0 : out;
}

export function roundOrNull(x: number | null, decimals: number): number | null {
  return x === null ? null : roundHalfAway(x, decimals);
}
