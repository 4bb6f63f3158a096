/**
 * After an ingest run, each source's standing on probation (docs/methodology.md "New sources:
 * probation"): its quotes of this run are judged as the build judges them — every rule, against
 * the whole day's quotes as now logged and the references in force — and the refusals move it
 * (src/rules/probation.ts afterRun). Written to data/state/probation.json under the data
 * folder's lock by the caller (src/jobs/ingest.ts), the record the build and `compact` read.
 */
import { cairoDate, instantString, parseInstant } from "../core/cairo.js";
import { dataPaths, dayFile } from "../core/data-layout.js";
import type { LocatedQuote, RejectionReason } from "../core/dataset.js";
import { acceptDay } from "../rules/acceptance.js";
import { mapsOf, sourceOrder } from "../rules/days.js";
import { dailyRefs, refInForce } from "../rules/references.js";
import { afterRun, counting, laterThanLast, subjectSources } from "../rules/probation.js";
import { GlobalRate, OfficialRate, type Quote } from "../schema/inputs.js";
import { isGlobalRate, isOfficialRate } from "../schema/fast-inputs.js";
import type { ProbationState, StandingChange } from "../schema/probation.js";
import { loadConfig, type Config } from "../io/config-files.js";
import { folderRows, quotesOf } from "../io/day-rows.js";
import { readDayFile } from "../io/day-files.js";
import { loadProbation, writeProbation } from "../io/probation-state.js";

/** What one source did in the run: whether it read anything, and the quotes it read. */
export interface SourceRunQuotes {
  id: string;
  ok: boolean;
  quotes: readonly Quote[];
}

/** A graduation or a return this run caused, for ingest's output. */
export interface StandingMove {
  source: string;
  change: StandingChange;
}

/** The earliest valid `observedAt` of a run's quotes, as an instant string, when there is one. */
function earliestOf(quotes: readonly Quote[]): { earliest?: string } {
  let min = Infinity;
  for (const q of quotes) {
    const ms = parseInstant(q.observedAt);
    if (ms !== null && ms < min) min = ms;
  }
  return Number.isFinite(min) ? { earliest: instantString(min) } : {};
}

const keyOf = (q: Quote) => JSON.stringify([q.source, q.seller, q.asset, q.observedAt, q.buy, q.sell]);

/**
 * Why each of the run's quotes was refused, by the rules over the day as logged: per source, one
 * reason per refused quote. A quote that is not in the day's log (ingest skipped it: before the
 * compaction horizon) is not judged here.
 */
export async function refusalsOf(
  dataDir: string,
  config: Config,
  nowMs: number,
  runs: readonly SourceRunQuotes[],
  state?: ProbationState,
): Promise<Map<string, RejectionReason[]>> {
  const out = new Map<string, RejectionReason[]>(runs.map((r) => [r.id, []]));
  const wanted = new Map<string, Set<string>>(); // date → keys of this run's quotes
  for (const r of runs)
    for (const q of r.quotes) {
      const ms = Date.parse(q.observedAt);
      if (!Number.isFinite(ms)) continue;
      const date = cairoDate(ms);
      (wanted.get(date) ?? wanted.set(date, new Set()).get(date)!).add(keyOf(q));
    }
  if (wanted.size === 0) return out;
  const maps = mapsOf(config);
  const p = dataPaths(dataDir);
  const warnings: string[] = [];
  const official = dailyRefs(
    await folderRows(dataDir, p.official, OfficialRate, isOfficialRate, warnings),
    maps.assets,
    nowMs,
    [],
  );
  const global = dailyRefs(
    await folderRows(dataDir, p.global, GlobalRate, isGlobalRate, warnings),
    maps.assets,
    nowMs,
    [],
  );
  const order = sourceOrder(config.sources.sources);
  // Peers (docs/methodology.md §2.1): judged as the build will judge them, by the standings before
  // this run — a counted quote only by counted ones.
  const count = counting(config.sources.sources, state);
  for (const [date, keys] of [...wanted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const file = dayFile(p.quotes, date);
    let quotes: LocatedQuote[];
    try {
      quotes = [...quotesOf(file, await readDayFile(file, null, { allowEmpty: true, torn: warnings }))];
    } catch {
      continue; // no log for the day: none of the run's quotes of it was appended
    }
    const r = acceptDay(quotes, {
      date,
      nowMs,
      assets: maps.assets,
      sellers: maps.sellers,
      official: (asset) => refInForce(official.get(asset), date),
      global: (asset) => refInForce(global.get(asset), date)?.value ?? null,
      sourceRank: order.rank,
      ownSource: order.own,
      counts: (source, ms) => count.counts(source, ms),
    });
    const byLine = new Map(quotes.map((q) => [q.line, q.quote]));
    for (const x of r.rejected) {
      const q = byLine.get(x.line);
      if (q && keys.has(keyOf(q))) out.get(x.source)?.push(x.reason);
    }
  }
  return out;
}

/**
 * The record after a run at `nowMs`: each source of the deployment's sources file that is subject
 * to probation and was asked this run moves by its result. A run that read no quote is taken as a
 * failed one (it neither counts nor resets): a page that answers but yields nothing has shown
 * nothing, and must not graduate on it.
 */
export async function recordProbation(
  dataDir: string,
  nowMs: number,
  runs: readonly SourceRunQuotes[],
): Promise<{ moves: StandingMove[]; notes: string[] }> {
  const config = await loadConfig(dataDir);
  const subject = subjectSources(config.sources.sources);
  const mine = runs.filter((r) => subject.has(r.id));
  if (mine.length === 0) return { moves: [], notes: [] };
  const state: ProbationState = await loadProbation(dataDir);
  const refusals = await refusalsOf(dataDir, config, nowMs, mine, state);
  const at = instantString(nowMs);
  const moves: StandingMove[] = [];
  const notes: string[] = [];
  for (const r of mine) {
    const prev = state.sources[r.id];
    const ok = r.ok && r.quotes.length > 0;
    if (ok && prev?.standing === "probation" && !laterThanLast(prev, at))
      notes.push(
        `${r.id}: this run (${at}) is not after its last counted run (${prev.runs.at(-1)?.at ?? prev.since}), so it does not count towards graduating: is the clock or --now set back?`,
      );
    const next = afterRun(prev, {
      at,
      ok,
      refusals: refusals.get(r.id) ?? [],
      ...earliestOf(r.quotes),
    });
    if (next.changes.length > (prev?.changes.length ?? 0)) moves.push({ source: r.id, change: next.changes.at(-1)! });
    state.sources[r.id] = next;
  }
  await writeProbation(dataDir, state);
  return { moves, notes };
}
