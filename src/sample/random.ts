/**
 * Counter-based randomness: every draw is a pure function of its key, so any hour of the simulated
 * market can be produced alone (the demo source asks for "the next hour") and equals the same hour
 * produced inside a whole sample.
 */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Uniform in [0, 1) from a key (mulberry32 finaliser over the FNV-1a hash). */
export function uniform(key: string): number {
  let t = (fnv1a(key) + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Standard normal from a key (Box–Muller). */
export function normal(key: string): number {
  const u = Math.max(uniform(`${key}#u`), 1e-12);
  const v = uniform(`${key}#v`);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
