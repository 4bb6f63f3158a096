/** The rehearsal's shapes (src/rehearse/run.ts): the world and the oracle as the driver sees them, the invariants, the result. */
import { instantString } from "../core/cairo.js";
import type { SourceReport } from "../jobs/ingest.js";
import type { Sources } from "../schema/inputs.js";
import type { NetFaultKind } from "./schedule.js";

export const HOUR_MS = 3_600_000;
/** The hourly job runs at :07 (.github/workflows/publish.yml "cron"), after the sources' top-of-hour updates. */
export const RUN_MINUTE_MS = 7 * 60_000;

/** The contact the copy names when the configuration's would reach nobody: its requests go to loopback only. */
export const REHEARSAL_CONTACT = "mailto:rehearsal@localhost";

/** What the world is to the driver (src/rehearse/world/index.ts). */
export interface NetFault {
  kind: NetFaultKind;
  source: string;
}
export interface World {
  readonly url: string;
  pointSources(file: Sources): Sources;
  setHour(nowMs: number, faults: readonly NetFault[]): void;
  readonly served: readonly string[];
  readonly unserved: ReadonlyArray<{ id: string; why: string }>;
  /** The served sources a fault kind can hit; without it, faults.ts faultTargets judges from the configuration. */
  faultTargets?(kind: NetFaultKind): string[];
  close(): Promise<void>;
}
export type StartWorld = (o: { seed: string; sources: Sources; dataDir: string }) => Promise<World>;

/** One difference the oracle found: its own type (src/rehearse/oracle/compare.ts), not a copy. */
export type { Difference } from "./oracle/compare.js";
import type { Difference } from "./oracle/compare.js";

/** What the oracle is to the driver (src/rehearse/oracle/index.ts). */
export interface Oracle {
  expectFeed(dataDir: string, nowMs: number): Promise<unknown>;
  compareFeed(expected: unknown, publicDir: string): Promise<Difference[]>;
  /** The probation record as the rulebook replays it from the runs so far, against data/state/probation.json. */
  checkProbation?(o: { dataDir: string; nowMs: number; runs: readonly HourRecord[] }): Promise<Difference[]>;
}

/** One hour's ingest run as the driver records it, for the oracle's replay of probation. */
export interface HourRecord {
  hour: number;
  nowMs: number;
  at: string;
  /** ingest's reports, one per enabled source; empty when ingest refused to run this hour. */
  reports: SourceReport[];
}

export const INVARIANTS = {
  job: "every step did its work, or refused in one line with the site and data as they were",
  feed: "every published best, seller row, series value and verdict equals the oracle's",
  probation: "each graduation and return happens in the hour the rulebook says",
  events: "the published standings and events agree with data/state/",
  verify: "the published site verifies against its signed statement",
  data: "data/ loses nothing: every log only grows, a compacted raw day is in history/",
} as const;
export type Invariant = keyof typeof INVARIANTS;

export interface Failure {
  hour: number;
  at: string;
  invariant: Invariant;
  what: string;
}

/** A source's standing change over the span (data/state/probation.json's record). */
export interface StandingRow {
  source: string;
  at: string;
  standing: string;
  reason: string;
}

export interface RehearsalResult {
  seed: string;
  from: string;
  days: number;
  hours: number;
  /** Set when the rehearsal was stopped before its last hour: the hours it lived. */
  interruptedAfter?: number;
  /** The configuration rehearsed, as given. */
  data: string;
  /** false: a quiet run (`--no-faults`). */
  faultsOn: boolean;
  /** Each kind of fault, and how many were scheduled. */
  faults: Record<string, number>;
  checks: { passed: number; failed: number; byInvariant: Record<string, { passed: number; failed: number }> };
  failures: Failure[];
  /** What each process fault met: the refusal and the restore, the site a killed build left, a lost cache. */
  incidents: Array<{ hour: number; at: string; what: string }>;
  sources: StandingRow[];
  /** Sources the world could not serve, and why (they fail every hour, as an unreachable site would). */
  unserved: Array<{ id: string; why: string }>;
  /** Wall-clock: reported apart, never part of what a replay compares (summary.ts). */
  timing: { seconds: number; hoursPerSecond: number; steps: Record<string, number>; cpu: Record<string, number> };
}

export interface RehearseOptions {
  /** The data folder whose configuration is rehearsed; never written. */
  dataDir: string;
  fromMs: number;
  days: number;
  seed: string;
  faults: boolean;
  /** Where the copy and the site go (a new temporary folder, removed after, when not given). */
  workDir?: string;
  /** Each line of progress, and each failure as it is found. */
  log?: (line: string) => void;
  /** Internal, never a flag: publish each side's worst seller as its best, to prove the checks fail. */
  tamper?: "worst-as-best";
  /** Stops the rehearsal after the hour it is in (Ctrl-C): the copy is removed, the result says so. */
  signal?: AbortSignal;
  startWorld?: StartWorld;
  oracle?: Oracle;
  /** The compiled CLI a killed build runs (faults.ts CLI_BIN). */
  bin?: string;
}

/** The replay command of a run. */
export const replayCommand = (o: { seed: string; fromMs: number; days: number; faults: boolean; data: string }) =>
  `price-feed rehearse --data ${o.data} --seed ${o.seed} --from ${instantString(o.fromMs)} --days ${o.days}${o.faults ? "" : " --no-faults"}`;
