/**
 * Interning of the short strings of loaded rows: ids, sources and instants repeat in every row, and
 * one copy of each across a whole load halves what the load leaves to collect.
 */

/** One copy of each short repeated string (ids, sources, instants) across a whole load. */
const interned = new Map<string, string>();

export function internStrings(v: unknown): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === "string" && x.length <= 40) {
      let s = interned.get(x);
      if (s === undefined) {
        if (interned.size > 200_000) interned.clear();
        interned.set(x, (s = x));
      }
      o[k] = s;
    }
  }
  return o;
}
