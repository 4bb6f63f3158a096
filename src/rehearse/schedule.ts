/**
 * The rehearsal's fault schedule (docs/operating.md "Before going live: a rehearsal"): a pure function
 * of the seed and the span, so the same seed replays the same faults in the same hours. Every draw is
 * counter-based (src/sample/random.ts: a key in, a number out), never Math.random.
 *
 * Two families of faults: the network's, which the simulated internet answers with
 * (src/rehearse/world), and the process's, which the driver does to the job itself (src/rehearse/faults.ts):
 * a build killed mid-write, a lost site cache, a truncated state file. Egypt's clock changes and the
 * Friday–Saturday weekend are not faults but calendar facts of the span (`--from`).
 */
import { uniform } from "../sample/random.js";
import { NET_FAULT_KINDS, type NetFaultKind } from "./world/index.js";

/** What the simulated internet can do wrong: the world's own list (src/rehearse/world/types.ts), one list for both. */
export const NET_FAULTS: readonly NetFaultKind[] = NET_FAULT_KINDS;
export type { NetFaultKind };

/** What the driver does to the job itself. */
export const PROCESS_FAULTS = ["build-killed", "cache-lost", "state-truncated"] as const;
export type ProcessFaultKind = (typeof PROCESS_FAULTS)[number];

export type FaultKind = NetFaultKind | ProcessFaultKind;

/** One fault of the schedule: from `hour` (0 = the span's first) for `hours` hours. */
export interface ScheduledFault {
  hour: number;
  hours: number;
  kind: FaultKind;
  /**
   * A network fault: the source it hits ("*": every source the kind concerns, the reference's for
   * reference-down). A process fault: what it hits (a kill point, a state file, "site").
   */
  target: string;
}

export interface ScheduleInput {
  seed: string;
  /** Hours of the span. */
  hours: number;
  /** Per network fault kind, the sources it can hit (an empty list or none: the kind is not scheduled). */
  targets: Partial<Record<NetFaultKind, readonly string[]>>;
  /** The steps at which a build can be killed (src/io/site-writer.ts KILL_POINTS). */
  killPoints: readonly string[];
  /** The state files that can be cut short, relative to the data folder. */
  stateFiles: readonly string[];
}

/** About one network fault every this many hours, and one process fault every PROCESS_EVERY. */
export const NET_EVERY = 6;
export const PROCESS_EVERY = 20;

/** A whole number in [0, n) from a key. */
const pick = (key: string, n: number) => Math.min(n - 1, Math.floor(uniform(key) * n));

/** `items` in an order fixed by the key (Fisher–Yates over counter-based draws). */
function shuffled<T>(items: readonly T[], key: string): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = pick(`${key}/${i}`, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The schedule of a span: every kind that can happen happens at least once when the span has room
 * (so a 14-day rehearsal meets each), then more drawn at random, about one network fault every
 * NET_EVERY hours and one process fault every PROCESS_EVERY. None in the first hour: the first
 * build has no previous site to keep. Sorted by hour, then kind, then target.
 */
export function faultSchedule(s: ScheduleInput): ScheduledFault[] {
  if (s.hours < 2) return [];
  const net = NET_FAULTS.filter((k) => (s.targets[k]?.length ?? 0) > 0);
  const proc = PROCESS_FAULTS.filter(
    (k) => (k !== "build-killed" || s.killPoints.length) && (k !== "state-truncated" || s.stateFiles.length),
  );
  const draw = (family: "net" | "process", kinds: readonly FaultKind[], every: number): FaultKind[] => {
    if (!kinds.length) return [];
    const n = Math.max(Math.min(kinds.length, s.hours - 1), Math.round(s.hours / every));
    const first = shuffled(kinds, `${s.seed}/${family}/order`);
    return Array.from({ length: n }, (_, i) => first[i] ?? kinds[pick(`${s.seed}/${family}/kind/${i}`, kinds.length)]!);
  };
  const out: ScheduledFault[] = [];
  for (const [family, kinds] of [
    ["net", draw("net", net, NET_EVERY)],
    ["process", draw("process", proc, PROCESS_EVERY)],
  ] as const)
    kinds.forEach((kind, i) => {
      const key = `${s.seed}/${family}/${i}`;
      const hour = 1 + pick(`${key}/hour`, s.hours - 1);
      out.push({ hour, kind, ...shape(kind, key, s) });
    });
  return out.sort(
    (a, b) => a.hour - b.hour || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.target < b.target ? -1 : 1),
  );
}

/** How long a fault lasts and what it hits. */
function shape(kind: FaultKind, key: string, s: ScheduleInput): { hours: number; target: string } {
  switch (kind) {
    case "build-killed":
      return { hours: 1, target: s.killPoints[pick(`${key}/target`, s.killPoints.length)]! };
    case "state-truncated":
      return { hours: 1, target: s.stateFiles[pick(`${key}/target`, s.stateFiles.length)]! };
    case "cache-lost":
      return { hours: 1, target: "site" };
    case "reference-down": {
      // The "the global reference down for a day".
      const t = s.targets[kind]!;
      return { hours: 24, target: t[pick(`${key}/target`, t.length)]! };
    }
    default: {
      const t = s.targets[kind]!;
      return { hours: 1 + pick(`${key}/hours`, 3), target: t[pick(`${key}/target`, t.length)]! };
    }
  }
}

/** The faults in force in `hour`, network and process. */
export function faultsAt(schedule: readonly ScheduledFault[], hour: number): ScheduledFault[] {
  return schedule.filter((f) => hour >= f.hour && hour < f.hour + f.hours);
}

export const isNetFault = (k: FaultKind): k is NetFaultKind => (NET_FAULTS as readonly string[]).includes(k);
