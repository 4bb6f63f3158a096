/**
 * docs/methodology.md "New sources: probation", as pure functions: which sources are subject to it,
 * whether a quote counts, and a source's standing after one ingest run. The record they read and
 * make is data/state/probation.json (src/schema/probation.ts); ingest writes it, the build and
 * `compact` read it.
 */
import {
  PROBATION_MIN_DAYS,
  PROBATION_MIN_SPAN_MS,
  PROBATION_RETURN_REFUSALS,
  PROBATION_RUNS,
} from "../core/methodology.js";
import { cairoDate } from "../core/cairo.js";
import type { RejectionReason } from "../core/dataset.js";
import { sourceKind, type SourceConfig } from "../schema/sources.js";
import type { ProbationState, SourceProbation } from "../schema/probation.js";

/** Refusals that keep a source on probation: rules 3 (crossed), 5 (reference asset), 6 (implausible), 7 (side). */
const KEEPS_ON_PROBATION: ReadonlySet<RejectionReason> = new Set([
  "crossed",
  "reference-asset",
  "implausible-sell",
  "implausible-buy",
  "side-doubtful",
]);
/** Refusals that send a graduated source back: rules 3, 6 and 7 (rule 5 is the catalog's to fix, not the source's). */
const SENDS_BACK: ReadonlySet<RejectionReason> = new Set([
  "crossed",
  "implausible-sell",
  "implausible-buy",
  "side-doubtful",
]);

export const keepsOnProbation = (r: RejectionReason) => KEEPS_ON_PROBATION.has(r);
export const sendsBack = (r: RejectionReason) => SENDS_BACK.has(r);

/**
 * The sources of the deployment's sources file that are subject to probation: `seller` and
 * `aggregator` sources whose configuration does not say `"probation": false`. A source not listed
 * there (quotes ingested by hand through another sources file) is not: its quotes count.
 */
export function subjectSources(sources: readonly SourceConfig[]): Set<string> {
  return new Set(
    sources.filter((s) => s.probation !== false && ["seller", "aggregator"].includes(sourceKind(s))).map((s) => s.id),
  );
}

/** The periods in which a source's quotes counted: from each graduation to the return after it (open: null). */
export function countingPeriods(p: SourceProbation | undefined): Array<[number, number | null]> {
  const out: Array<[number, number | null]> = [];
  for (const c of p?.changes ?? []) {
    const t = Date.parse(c.countsFrom ?? c.at);
    const open = out.at(-1);
    if (c.standing === "graduated" && (!open || open[1] !== null)) out.push([t, null]);
    else if (c.standing === "probation" && open && open[1] === null) open[1] = t;
  }
  return out;
}

/**
 * Which quotes count: a quote of a source subject to probation counts only when it was observed in
 * one of the source's graduated periods. `key` is what the answer depends on, for the caches of
 * closed days (src/incremental/closed-days.ts): the subject sources and their periods.
 */
export interface Counting {
  counts(source: string, observedAtMs: number): boolean;
  /** Whether a source is subject to probation at all (its quotes may be set apart). */
  subject(source: string): boolean;
  readonly key: unknown;
}

/** Every quote counts: the simulated market, the sample writer, a dataset without probation. */
export const ALL_COUNT: Counting = { counts: () => true, subject: () => false, key: null };

export function counting(sources: readonly SourceConfig[], state: ProbationState | undefined): Counting {
  const subject = subjectSources(sources);
  if (subject.size === 0) return ALL_COUNT;
  const periods = new Map([...subject].sort().map((id) => [id, countingPeriods(state?.sources[id])]));
  return {
    subject: (source) => subject.has(source),
    counts(source, ms) {
      const list = periods.get(source);
      if (!list) return true;
      return list.some(([from, until]) => ms >= from && (until === null || ms < until));
    },
    key: [...periods],
  };
}

/** One ingest run of one source, as the standing needs it. */
export interface RunResult {
  at: string;
  /** Whether the source read anything (a failed run neither counts nor resets). */
  ok: boolean;
  /** Why each of this run's quotes was refused, one entry per refused quote (accepted ones are absent). */
  refusals: readonly RejectionReason[];
  /** The earliest `observedAt` of the run's quotes (an instant), where it is before `at`. */
  earliest?: string;
}

const dayCount = (runs: ReadonlyArray<{ at: string }>) => new Set(runs.map((r) => cairoDate(Date.parse(r.at)))).size;

/**
 * A source's standing after one run. On probation, a successful run later than its last joins its
 * last PROBATION_RUNS; it graduates once they are PROBATION_RUNS, span at least PROBATION_MIN_DAYS
 * Cairo days and PROBATION_MIN_SPAN_MS, and none refused a quote by rules 3, 5, 6 or 7. Graduated, a run with PROBATION_RETURN_REFUSALS or more
 * quotes refused by rules 3, 6 or 7 sends it back, its count starting again. A failed run changes
 * nothing (a source first seen failing is recorded on probation, with no run).
 */
export function afterRun(prev: SourceProbation | undefined, run: RunResult): SourceProbation {
  const cur: SourceProbation = prev ?? { standing: "probation", since: run.at, runs: [], changes: [] };
  if (!run.ok) return cur;
  if (cur.standing === "graduated") {
    const back = run.refusals.filter(sendsBack);
    if (back.length < PROBATION_RETURN_REFUSALS) return cur;
    const reason = `${back.length} quotes refused in one run (${summarize(back)}): back on probation, its count starting again`;
    return {
      standing: "probation",
      since: run.at,
      runs: [],
      changes: [...cur.changes, { at: run.at, standing: "probation", reason }],
    };
  }
  // Each counted run later than the one before (docs/methodology.md §2.4): a run stamped at or before
  // the last (a clock set back) is not counted, or 23 runs in 23 minutes and one "two days earlier"
  // would span two Cairo days.
  if (!laterThanLast(cur, run.at)) return cur;
  const refused = run.refusals.filter(keepsOnProbation).length;
  const runs = [...cur.runs, { at: run.at, refused }].slice(-PROBATION_RUNS);
  const days = dayCount(runs);
  const span = Date.parse(runs.at(-1)!.at) - Date.parse(runs[0]!.at);
  if (
    runs.length === PROBATION_RUNS &&
    days >= PROBATION_MIN_DAYS &&
    span >= PROBATION_MIN_SPAN_MS &&
    runs.every((r) => r.refused === 0)
  ) {
    const reason = `${PROBATION_RUNS} successful runs over ${days} Cairo days (${cairoDate(Date.parse(runs[0]!.at))} to ${cairoDate(Date.parse(run.at))}) with no quote refused by rules 3, 5, 6 or 7`;
    return {
      standing: "graduated",
      since: run.at,
      runs: [],
      changes: [
        ...cur.changes,
        {
          at: run.at,
          standing: "graduated",
          reason,
          ...countsFrom(run),
        },
      ],
    };
  }
  return { ...cur, runs };
}

/**
 * Whether a run at `at` may count towards graduating: later than the source's last counted run (and
 * than its last change, so a clock set back cannot count a run twice across a return).
 */
export function laterThanLast(p: SourceProbation | undefined, at: string): boolean {
  if (!p) return true;
  const last = Math.max(Date.parse(p.runs.at(-1)?.at ?? p.since), Date.parse(p.changes.at(-1)?.at ?? p.since));
  return Date.parse(at) > last || (p.runs.length === 0 && p.changes.length === 0 && at === p.since);
}

/**
 * From when a graduating run's quotes count: its earliest quote's instant, when that is earlier than
 * the run and on the same Cairo day (they passed every rule in this very run). Never an earlier day:
 * a day already closed is not rewritten by a graduation.
 */
function countsFrom(run: RunResult): { countsFrom?: string } {
  if (run.earliest === undefined) return {};
  const t = Date.parse(run.earliest);
  const at = Date.parse(run.at);
  return t < at && cairoDate(t) === cairoDate(at) ? { countsFrom: run.earliest } : {};
}

/** "2 side-doubtful, 1 crossed": the reasons of a run's refusals, most frequent first, then by name. */
function summarize(reasons: readonly RejectionReason[]): string {
  const n = new Map<string, number>();
  for (const r of reasons) n.set(r, (n.get(r) ?? 0) + 1);
  return [...n]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([r, k]) => `${k} ${r}`)
    .join(", ");
}

/** Where a source stands, in words a reader of the source health follows. */
export function standingSummary(p: SourceProbation | undefined, subject: boolean) {
  if (!subject) return { standing: "counted" as const, since: null, runs: null, runsNeeded: null };
  if (!p) return { standing: "probation" as const, since: null, runs: 0, runsNeeded: PROBATION_RUNS };
  return {
    standing: p.standing,
    since: p.since,
    runs: p.standing === "probation" ? p.runs.length : null,
    runsNeeded: p.standing === "probation" ? PROBATION_RUNS : null,
  };
}
