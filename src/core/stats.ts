/** Small numeric helpers shared by the rules. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Population standard deviation. */
export function stdDevPop(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
}

export function pctDiff(v: number, ref: number): number {
  return ((v - ref) / ref) * 100;
}

/** Lowest and highest of the present values, or nulls. */
export function loHi(values: ReadonlyArray<number | null>): [number | null, number | null] {
  let lo: number | null = null;
  let hi: number | null = null;
  for (const v of values) {
    if (v === null) continue;
    if (lo === null || v < lo) lo = v;
    if (hi === null || v > hi) hi = v;
  }
  return [lo, hi];
}
