/**
 * The oracle's expectation against what a build published (public/api/v1/feed.json): every
 * business date, best, seller row, series value, verdict and change. Each difference names the
 * invariant, the asset, the path in the published asset and both values.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { Expected, ExpectedAsset } from "./feed.js";
import { SIDES } from "./judge.js";

export interface Difference {
  invariant: string;
  asset?: string;
  path: string;
  expected: unknown;
  published: unknown;
}

/** Published instants are compared as instants: `…:00Z` and `…:00.000Z` are the same. */
const instant = (s: unknown) => (typeof s === "string" ? Date.parse(s) : null);
/** Deep equality whatever the order of an object's members; numbers as numbers (1 and 1.0 are one value). */
const canon = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canon)
    : v !== null && typeof v === "object"
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, x]) => [k, canon(x)]),
        )
      : v;
const same = (a: unknown, b: unknown) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));

/* The published asset, as far as the oracle reads it (src/schema/outputs.ts Asset). */
interface PublishedAsset {
  slug: string;
  asOf: string;
  observedAt: string | null;
  confidence: { level: string; checks: number };
  directions: Record<string, Record<string, unknown> & { best: { seller: string; value: number } | null }>;
  benchmark: unknown;
  global: unknown;
  series: unknown[];
  sellers: Array<Record<string, unknown> & { id: string }>;
  probation?: Array<{ id: string; source: string; passed: boolean; reason: string | null }>;
}

export async function compareFeed(expected: Expected, publicDir: string): Promise<Difference[]> {
  const file = path.join(publicDir, "api", "v1", "feed.json");
  let feed: { assets: PublishedAsset[] };
  try {
    feed = JSON.parse(await fs.readFile(file, "utf8")) as { assets: PublishedAsset[] };
  } catch (e) {
    return [{ invariant: "feed", path: file, expected: "a readable feed", published: (e as Error).message }];
  }
  return compareAssets(expected, feed.assets);
}

/** The comparison itself, on a parsed feed (the tests hand it an edited one). */
export function compareAssets(expected: Expected, published: readonly PublishedAsset[]): Difference[] {
  const out: Difference[] = [];
  const bySlug = new Map(published.map((a) => [a.slug, a]));
  for (const slug of new Set([...Object.keys(expected.assets), ...bySlug.keys()])) {
    const e = expected.assets[slug];
    const p = bySlug.get(slug);
    if (!e || !p) {
      out.push({
        invariant: "assets",
        asset: slug,
        path: "",
        expected: e ? "listed" : "absent",
        published: p ? "listed" : "absent",
      });
      continue;
    }
    out.push(...compareAsset(e, p));
  }
  return out;
}

function compareAsset(e: ExpectedAsset, p: PublishedAsset): Difference[] {
  const out: Difference[] = [];
  const diff = (invariant: string, at: string, expected: unknown, published: unknown) => {
    if (!same(expected, published)) out.push({ invariant, asset: e.slug, path: at, expected, published });
  };
  diff("as-of", "asOf", e.asOf, p.asOf);
  for (const side of SIDES) {
    const pd = p.directions[side]!;
    const eb = e.directions[side].best;
    diff(
      "best",
      `directions.${side}.best`,
      eb && { seller: eb.seller, value: eb.value },
      pd.best && { seller: pd.best.seller, value: pd.best.value },
    );
  }
  diff("observed-at", "observedAt", e.observedAtMs, instant(p.observedAt));
  // A reference asset's table is empty (§4): the same comparison says so.
  diff(
    "seller-row",
    "sellers[].id",
    e.sellers.map((r) => r.id),
    p.sellers.map((r) => r.id),
  );
  for (const [i, r] of e.sellers.entries()) {
    const pr = p.sellers.find((x) => x.id === r.id);
    if (!pr) continue; // named by the list of ids above
    const at = `sellers[${i}]`;
    diff("seller-row", `${at}.buy`, r.buy, pr["buy"]);
    diff("seller-row", `${at}.sell`, r.sell, pr["sell"]);
    diff("seller-row", `${at}.source`, r.source, pr["source"]);
    diff("seller-row", `${at}.sources`, r.sources, pr["sources"]);
    diff("seller-row", `${at}.observedAt`, r.observedAtMs, instant(pr["observedAt"]));
    diff("previous", `${at}.previous`, r.previous, pr["previous"]);
  }
  diff(
    "series",
    "series[].date",
    e.series.map((s) => s.date),
    p.series.map((s) => (s as { date: string }).date),
  );
  for (const [i, s] of e.series.entries()) {
    const ps = p.series.find((x) => (x as { date: string }).date === s.date);
    if (!ps) continue;
    const { bench, ...range } = s;
    const { bench: pBench, ...pRange } = ps as { bench: unknown };
    diff("series", `series[${i}]`, range, pRange);
    // The official mid apart: its rounding is its own rule (§5.1 with §3.1), a finding of its own.
    diff("bench", `series[${i}].bench`, bench, pBench);
  }
  for (const side of SIDES) {
    const d = e.directions[side];
    const pd = p.directions[side]!;
    const at = `directions.${side}`;
    diff("verdict", `${at}.verdict`, d.verdict, pd["verdict"]);
    diff("verdict", `${at}.favorability`, d.favorability, pd["favorability"]);
    diff("verdict", `${at}.priorDays`, d.priorDays, pd["priorDays"]);
    diff("verdict", `${at}.signals`, d.signals, pd["signals"]);
    diff("previous", `${at}.previous`, d.previous, pd["previous"]);
  }
  diff("confidence", "confidence", e.confidence, p.confidence);
  diff("references", "benchmark", e.benchmark, p.benchmark);
  diff("references", "global", e.global, p.global);
  diff(
    "probation",
    "probation",
    e.probation,
    (p.probation ?? []).map((r) => ({ source: r.source, id: r.id, passed: r.passed, reason: r.reason })),
  );
  return out;
}
