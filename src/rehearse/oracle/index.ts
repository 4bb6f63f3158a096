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
 *   data/state/probation.json); compareStandings(expected, dataDir) → where the record differs;
 *   checkProbation({dataDir, nowMs, runs}) → all three, hour by hour, as the driver calls it
 *   (src/rehearse/run.ts Oracle).
 *
 * Where the rulebook leaves a point open, the oracle settles it as docs/methodology.md §11 does
 * (conflicting quotes, edges of the bands, the bench of a day without its own official rate); the
 * Peers of tests 6 and 7 apply to every day, whatever its date. A compacted day (history/) is taken
 * as kept: it is final (§10), and the oracle checks what is built from it, not the compaction.
 */
import { cairoDate, parseInstant } from "../../core/cairo.js";
import type { ProbationState } from "../../schema/probation.js";
import { readConfig, readProbation, readQuoteDays, readRefs, type RawQuote } from "./data.js";
import { judgeRawDays } from "./feed.js";
import { expectStanding } from "./standing.js";
import { dailyRates } from "./references.js";
import type { Difference } from "./compare.js";

export { expectFeed, type Expected, type ExpectedAsset, type ExpectOptions } from "./feed.js";
export { compareFeed, compareAssets, type Difference } from "./compare.js";
export { expectStanding, countedPeriods, type Run } from "./standing.js";
export { roundHalf } from "./rulebook.js";

const keyOf = (q: RawQuote) => JSON.stringify([q.source, q.seller, q.asset, q.observedAt, q.buy, q.sell]);

/** One source's quotes of one ingest run, as ingest's report carries them (`observed.quotes`). */
export interface SourceRun {
  id: string;
  quotes: readonly RawQuote[];
}

/**
 * One ingest run's quotes, judged as ingest must judge them after appending (docs/methodology.md
 * §2.4): every test over each day as logged at `nowMs`, with the references in force, and each
 * quote's peers by the standing before the run (`o.probation`, by default data/state/probation.json
 * as it is: pass the record as it was before the run when ingest has already rewritten it). Per
 * source, one reason per refused logged line that is one of the run's quotes (a quote ingest did not
 * log is not judged), and the earliest `observedAt` of its quotes.
 */
export async function judgeRuns(
  dataDir: string,
  nowMs: number,
  runs: readonly SourceRun[],
  o: { probation?: ProbationState } = {},
): Promise<Map<string, { refusals: string[]; earliest?: string }>> {
  const keys = new Map<string, string>(); // quote key → source
  const dates = new Set<string>();
  const out = new Map<string, { refusals: string[]; earliest?: string }>();
  for (const r of runs) {
    let earliest = Infinity;
    for (const q of r.quotes) {
      if (q.source !== r.id) continue;
      keys.set(keyOf(q), r.id);
      const ms = parseInstant(q.observedAt);
      if (ms === null) continue;
      dates.add(cairoDate(ms));
      earliest = Math.min(earliest, ms);
    }
    out.set(r.id, { refusals: [], ...(Number.isFinite(earliest) && { earliest: instant(earliest) }) });
  }
  if (keys.size === 0) return out;
  const cfg = await readConfig(dataDir);
  const days = await judgeRawDays(
    dataDir,
    nowMs,
    cfg,
    o.probation ?? (await readProbation(dataDir)),
    await readQuoteDays(dataDir),
    dailyRates(await readRefs(dataDir, "official"), cfg.assets, nowMs),
    dailyRates(await readRefs(dataDir, "global"), cfg.assets, nowMs),
    (date) => !dates.has(date),
  );
  for (const day of days.values())
    for (const j of day.quotes) {
      if (j.reason === null) continue;
      const id = keys.get(keyOf(j.quote));
      if (id !== undefined) out.get(id)!.refusals.push(j.reason);
    }
  return out;
}

/** judgeRuns for one source: `judgeRun(dataDir, nowMs, sourceId, quotes)`. */
export async function judgeRun(
  dataDir: string,
  nowMs: number,
  sourceId: string,
  quotes: readonly RawQuote[],
  o: { probation?: ProbationState } = {},
): Promise<{ refusals: string[]; earliest?: string }> {
  return (await judgeRuns(dataDir, nowMs, [{ id: sourceId, quotes }], o)).get(sourceId)!;
}

const instant = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** One hour's ingest as the driver records it (src/rehearse/run.ts HourRecord). */
export interface HourRun {
  nowMs: number;
  at: string;
  reports: ReadonlyArray<{ id: string; ok: boolean; observed?: { quotes: readonly RawQuote[] } }>;
}

/** The replay so far per data folder: the runs already replayed and the record they give. */
const replays = new Map<string, { first: string; done: number; state: ProbationState }>();

/**
 * The probation record replayed by the rulebook from every ingest run so far, against the one ingest
 * kept (data/state/probation.json). Called after each hour with all the hours so far; the hours
 * already replayed are remembered (a run is judged against the day as logged right after it, so it
 * can only be judged in its own hour). `initial`: the record before the first run (an operator's
 * folder may come with one); empty by default.
 */
export async function checkProbation(o: {
  dataDir: string;
  nowMs: number;
  runs: readonly HourRun[];
  initial?: ProbationState;
}): Promise<Difference[]> {
  const first = o.runs[0]?.at ?? "";
  let r = replays.get(o.dataDir);
  if (!r || r.first !== first || r.done > o.runs.length)
    r = { first, done: 0, state: structuredClone(o.initial ?? { sources: {} }) };
  replays.set(o.dataDir, r);
  const cfg = await readConfig(o.dataDir);
  for (const hour of o.runs.slice(r.done)) {
    const mine = hour.reports.filter((x) => cfg.subject.has(x.id));
    const judged = await judgeRuns(
      o.dataDir,
      hour.nowMs,
      mine.map((x) => ({ id: x.id, quotes: x.observed?.quotes ?? [] })),
      { probation: r.state },
    );
    const next: ProbationState = { sources: { ...r.state.sources } };
    for (const x of mine) {
      const quotes = (x.observed?.quotes ?? []).filter((q) => q.source === x.id);
      const j = judged.get(x.id)!;
      next.sources[x.id] = expectStanding(r.state.sources[x.id], {
        at: instant(hour.nowMs),
        ok: x.ok && quotes.length > 0,
        refusals: j.refusals,
        ...(j.earliest !== undefined && { earliest: j.earliest }),
      });
    }
    r.state = next;
    r.done++;
  }
  return compareStandings(r.state, o.dataDir);
}

/**
 * The probation record ingest kept (data/state/probation.json) against the oracle's replay: for each
 * source the replay knows, its standing, `since`, the number of runs counted, and every graduation
 * and return's instant, standing and `countsFrom`.
 */
export async function compareStandings(expected: ProbationState, dataDir: string): Promise<Difference[]> {
  let kept: ProbationState;
  try {
    kept = await readProbation(dataDir);
  } catch (e) {
    // A record that cannot be read is a difference to report, not a reason to stop the rehearsal.
    const why = (e as Error).message.split("\n")[0];
    return [
      { invariant: "probation", path: "data/state/probation.json", expected: "a readable record", published: why },
    ];
  }
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
