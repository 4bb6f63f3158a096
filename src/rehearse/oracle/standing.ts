/**
 * Probation as the rulebook states it (/work/shared/METHODOLOGY.md "New sources: probation";
 * docs/methodology.md §2.4), for the rehearsal's oracle: whether a quote counts at its instant, and
 * where a source must stand after one ingest run. Written apart from src/rules/probation.ts on
 * purpose: the rehearsal checks that the record ingest keeps moves in the hour this says.
 */
import { cairoDate } from "../../core/cairo.js";
import type { ProbationState, SourceProbation, StandingChange } from "../../schema/probation.js";
import { PROBATION_MIN_HOURS, PROBATION_RETURN_REFUSALS, PROBATION_RUNS } from "./rulebook.js";

/** Refusals that hold a source on probation: tests 3, 5, 6 and 7. */
const HOLDS = new Set(["crossed", "reference-asset", "implausible-sell", "implausible-buy", "side-doubtful"]);
/** Refusals that send a graduated source back: tests 3, 6 and 7 (test 5 is the catalog's to settle). */
const SENDS_BACK = new Set(["crossed", "implausible-sell", "implausible-buy", "side-doubtful"]);

/** One ingest run of one source, as the rulebook weighs it. */
export interface Run {
  /** The run's instant (UTC ISO). */
  at: string;
  /** Whether it read anything: a failed run, or one without a single quote, neither counts nor resets. */
  ok: boolean;
  /** The reason of each of the run's quotes that a rule refused (accepted quotes are absent). */
  refusals: readonly string[];
  /** The earliest `observedAt` of the run's quotes, when there is one. */
  earliest?: string;
}

/**
 * A source's standing after one run. On probation, a successful run that is later than the last one
 * counted joins the last PROBATION_RUNS; the source graduates once they are that many, none refused a
 * quote by tests 3, 5, 6 or 7, they fall on two Cairo days or more, and the first and the last lie at
 * least 23 hours apart. Graduated, a run with two or more quotes refused by tests 3, 6 or 7 sends it
 * back, its count starting again. The `reason` words are the oracle's own (the driver compares
 * standings, instants and `countsFrom`, not wording).
 */
export function expectStanding(prev: SourceProbation | undefined, run: Run): SourceProbation {
  const cur: SourceProbation = prev ?? { standing: "probation", since: run.at, runs: [], changes: [] };
  if (!run.ok) return cur;
  const at = Date.parse(run.at);
  if (cur.standing === "graduated") {
    const back = run.refusals.filter((r) => SENDS_BACK.has(r)).length;
    if (back < PROBATION_RETURN_REFUSALS) return cur;
    const change: StandingChange = { at: run.at, standing: "probation", reason: `${back} quotes refused in one run` };
    return { standing: "probation", since: run.at, runs: [], changes: [...cur.changes, change] };
  }
  const last = cur.runs.at(-1);
  if (last && at <= Date.parse(last.at)) return cur; // a run stamped before the last one counted is not counted
  const refused = run.refusals.filter((r) => HOLDS.has(r)).length;
  const runs = [...cur.runs, { at: run.at, refused }].slice(-PROBATION_RUNS);
  const first = Date.parse(runs[0]!.at);
  const days = new Set(runs.map((r) => cairoDate(Date.parse(r.at)))).size;
  const graduates =
    runs.length === PROBATION_RUNS &&
    runs.every((r) => r.refused === 0) &&
    days >= 2 &&
    at - first >= PROBATION_MIN_HOURS * 3_600_000;
  if (!graduates) return { ...cur, runs };
  const change: StandingChange = {
    at: run.at,
    standing: "graduated",
    reason: `${PROBATION_RUNS} runs over ${days} Cairo days, none refused`,
  };
  // Its quotes count from the earliest quote of the graduating run when the source stamped it earlier
  // the same Cairo day (docs/methodology.md §2.4): that quote has just passed every test.
  if (run.earliest !== undefined) {
    const e = Date.parse(run.earliest);
    if (e < at && cairoDate(e) === cairoDate(at)) change.countsFrom = new Date(e).toISOString().replace(".000Z", "Z");
  }
  return { standing: "graduated", since: run.at, runs: [], changes: [...cur.changes, change] };
}

/** From when to when a source's quotes counted: each graduation (from `countsFrom`, else `at`) to the return after it. */
export function countedPeriods(p: SourceProbation | undefined): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const c of p?.changes ?? []) {
    const open = out.length > 0 && out.at(-1)![1] === Infinity;
    if (c.standing === "graduated" && !open) out.push([Date.parse(c.countsFrom ?? c.at), Infinity]);
    if (c.standing === "probation" && open) out.at(-1)![1] = Date.parse(c.at);
  }
  return out;
}

/**
 * Whether a source's quote observed at `ms` counts: a source not subject to probation always counts;
 * a subject one only inside one of its graduated periods.
 */
export function countsAt(subject: ReadonlySet<string>, state: ProbationState) {
  const periods = new Map([...subject].map((id) => [id, countedPeriods(state.sources[id])]));
  return (source: string, ms: number): boolean => {
    const list = periods.get(source);
    return list === undefined || list.some(([from, until]) => ms >= from && ms < until);
  };
}

/** What the counting depends on, for the judged days' cache. */
export function countingKey(subject: ReadonlySet<string>, state: ProbationState): string {
  return JSON.stringify([...subject].sort().map((id) => [id, countedPeriods(state.sources[id])]));
}
