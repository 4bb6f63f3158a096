/**
 * What changed between two published builds, worked out from scratch from their published
 * documents (feed.json and sources.json) with none of src/feed/events.ts: the yardstick the events
 * the build derives are held to (docs/methodology.md §12).
 */
import type { Feed } from "../../src/schema/outputs.js";
import type { SourceHealth } from "../../src/schema/documents.js";

export interface Published {
  feed: Feed;
  sources: SourceHealth;
}

export interface Change {
  kind: string;
  asset: string | null;
  source: string | null;
  side: string | null;
  before: unknown;
  after: unknown;
}

const failing = (s: SourceHealth["sources"][number]) =>
  s.lastFailure !== null && (s.lastSuccessAt === null || s.lastFailure.at > s.lastSuccessAt);
const sourceState = (s: SourceHealth["sources"][number]) =>
  failing(s) ? { state: "failing", reason: s.lastFailure!.reason } : { state: "ok", reason: null };

/** The changes from `a` to `b`, in the order the rulebook gives: assets (catalog order), then sources. */
export function changesBetween(a: Published, b: Published): Change[] {
  const out: Change[] = [];
  const add = (
    kind: string,
    asset: string | null,
    source: string | null,
    side: string | null,
    x: unknown,
    y: unknown,
  ) => out.push({ kind, asset, source, side, before: x, after: y });
  for (const now of b.feed.assets) {
    const was = a.feed.assets.find((x) => x.slug === now.slug);
    if (!was) continue;
    for (const side of ["sell", "buy"] as const) {
      const [x, y] = [was.directions[side].best, now.directions[side].best];
      if ((x?.seller ?? null) !== (y?.seller ?? null)) add("best-seller", now.slug, null, side, x, y);
    }
    for (const side of ["sell", "buy"] as const) {
      const [x, y] = [was.directions[side].verdict, now.directions[side].verdict];
      if (x !== y) add("verdict", now.slug, null, side, x, y);
    }
    if (JSON.stringify(was.benchmark) !== JSON.stringify(now.benchmark))
      add("official-rate", now.slug, null, null, was.benchmark, now.benchmark);
    const [f, g] = [was.freshness.state, now.freshness.state];
    if (f !== g && (f === "stale" || g === "stale")) add("freshness", now.slug, null, null, f, g);
    if (was.confidence.level !== now.confidence.level)
      add("confidence", now.slug, null, null, was.confidence.level, now.confidence.level);
  }
  for (const s of b.sources.sources) {
    const was = a.sources.sources.find((x) => x.id === s.id);
    if (was && failing(was) !== failing(s)) add("source", null, s.id, null, sourceState(was), sourceState(s));
  }
  return out;
}

/** An event's members that a from-scratch diff can know. */
export const changeOf = (e: Change): Change => ({
  kind: e.kind,
  asset: e.asset,
  source: e.source,
  side: e.side,
  before: e.before,
  after: e.after,
});
