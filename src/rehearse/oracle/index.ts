/**
 * The rehearsal's oracle (issue 49): a second, small implementation of the rulebook, written from it
 * alone, that recomputes from a data folder what a build must publish and where each source must
 * stand on probation. It never imports the build's own rules (src/rules, src/feed, src/incremental,
 * src/jobs: test/rehearse/oracle-imports.test.ts holds it to that), so a mistake in them shows as a
 * difference instead of being repeated here.
 *
 * - expectFeed(dataDir, nowMs) → what feed.json must say per asset; compareFeed(expected, publicDir)
 *   → the differences, each {invariant, asset, path, expected, published}.
 * - judgeRun(dataDir, nowMs, sourceId, quotes) → the refusals of one ingest run's quotes, judged as
 *   ingest must judge them (against the day as then logged, with the references in force);
 *   expectStanding(prev, run) → the source's record after the run (the shape of
 *   data/state/probation.json); compareStandings(expected, dataDir) → where the record differs.
 */
import { cairoDate, parseInstant } from "../../core/cairo.js";
import type { ProbationState } from "../../schema/probation.js";
import { readConfig, readProbation, readQuoteDays, readRefs, type RawQuote } from "./data.js";
import { judgeRawDays } from "./feed.js";
import { dailyRates } from "./references.js";
import type { Difference } from "./compare.js";

export { expectFeed, type Expected, type ExpectedAsset, type ExpectOptions } from "./feed.js";
export { compareFeed, compareAssets, type Difference } from "./compare.js";
export { expectStanding, countedPeriods, type Run } from "./standing.js";
export { roundHalf } from "./rulebook.js";

const keyOf = (q: RawQuote) => JSON.stringify([q.source, q.seller, q.asset, q.observedAt, q.buy, q.sell]);

/**
 * One run of one source, judged as ingest judges it after appending (docs/methodology.md §2.4): every
 * test over the day as logged at `nowMs`, with the references in force, each quote's peers by the
 * standing before the run (`o.probation`, by default data/state/probation.json as it is: pass the
 * record as it was before the run when ingest has already rewritten it). One reason per refused
 * logged line that is one of the run's quotes; a quote not in the log (skipped by ingest) is not judged.
 */
export async function judgeRun(
  dataDir: string,
  nowMs: number,
  sourceId: string,
  quotes: readonly RawQuote[],
  o: { probation?: ProbationState } = {},
): Promise<{ refusals: string[]; earliest?: string }> {
  const mine = quotes.filter((q) => q.source === sourceId);
  const keys = new Set(mine.map(keyOf));
  const dates = new Set<string>();
  let earliest = Infinity;
  for (const q of mine) {
    const ms = parseInstant(q.observedAt);
    if (ms === null) continue;
    dates.add(cairoDate(ms));
    earliest = Math.min(earliest, ms);
  }
  const cfg = await readConfig(dataDir);
  const state = o.probation ?? (await readProbation(dataDir));
  const days = await judgeRawDays(
    dataDir,
    nowMs,
    cfg,
    state,
    await readQuoteDays(dataDir),
    dailyRates(await readRefs(dataDir, "official"), cfg.assets, nowMs),
    dailyRates(await readRefs(dataDir, "global"), cfg.assets, nowMs),
    (date) => !dates.has(date),
  );
  const refusals: string[] = [];
  for (const day of days.values())
    for (const j of day.quotes)
      if (j.reason !== null && j.quote.source === sourceId && keys.has(keyOf(j.quote))) refusals.push(j.reason);
  return {
    refusals,
    ...(Number.isFinite(earliest) && { earliest: new Date(earliest).toISOString().replace(".000Z", "Z") }),
  };
}

/**
 * The probation record ingest kept (data/state/probation.json) against the oracle's replay: for each
 * source the replay knows, its standing, `since`, the number of runs counted, and every graduation
 * and return's instant, standing and `countsFrom`.
 */
export async function compareStandings(expected: ProbationState, dataDir: string): Promise<Difference[]> {
  const kept = await readProbation(dataDir);
  const out: Difference[] = [];
  for (const [id, e] of Object.entries(expected.sources)) {
    const k = kept.sources[id];
    const view = (p: typeof e | undefined) =>
      p && {
        standing: p.standing,
        since: Date.parse(p.since),
        runs: p.runs.length,
        changes: p.changes.map((c) => ({
          at: Date.parse(c.at),
          standing: c.standing,
          countsFrom: c.countsFrom ? Date.parse(c.countsFrom) : null,
        })),
      };
    const a = view(e);
    const b = view(k);
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push({ invariant: "probation", path: `sources.${id}`, expected: a, published: b ?? null });
  }
  return out;
}
