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

export function roundOrNull(x: number | null, decimals: number): number | null {
  return x === null ? null : roundHalfAway(x, decimals);
}
