/** Small numeric helpers shared by the rules. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The median of `sorted` (ascending) without one occurrence of `v` (all of it when `v` is null or
 * absent): what `median` gives of the same values, found by index instead of a copy and a sort, so
 * that each seller's "median of the others" (docs/methodology.md §2.1 rule 6) costs O(log n).
 * Null when no value is left.
 */
export function medianWithout(sorted: readonly number[], v: number | null): number | null {
  let skip = -1; // the index of the occurrence left out
  if (v !== null) {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo < sorted.length && sorted[lo] === v) skip = lo;
  }
  const n = skip < 0 ? sorted.length : sorted.length - 1;
  if (n === 0) return null;
  const at = (i: number) => sorted[skip >= 0 && i >= skip ? i + 1 : i]!;
  const mid = n >> 1;
  return n % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
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
