/**
 * The rehearsal's summary (docs/operating.md "Before going live: a rehearsal"): for a person, and
 * as JSON (`--json FILE`). Everything but the wall-clock figures is a function of the seed, the
 * span and the configuration, so two runs of one seed give the same bytes once `timing` is set
 * aside (`jq 'del(.timing)'`); `timing` is the JSON's last member for that reason.
 */
import { INVARIANTS, replayCommand, type RehearsalResult } from "./run.js";

/** At most this many failures are listed in the text; the JSON has them all. */
export const FAILURES_SHOWN = 20;

/** The JSON of a run: `text`, as written to --json FILE; `replay`, the same without `timing`. */
export function summaryJson(r: RehearsalResult): { text: string; replay: string } {
  const { timing, ...rest } = r;
  const doc = {
    seed: rest.seed,
    from: rest.from,
    days: rest.days,
    hours: rest.hours,
    ...(rest.interruptedAfter !== undefined && { interruptedAfter: rest.interruptedAfter }),
    data: rest.data,
    faultsOn: rest.faultsOn,
    faults: Object.fromEntries(Object.entries(rest.faults).sort(([a], [b]) => (a < b ? -1 : 1))),
    checks: rest.checks,
    failures: rest.failures,
    incidents: rest.incidents,
    sources: rest.sources,
    unserved: rest.unserved,
  };
  return {
    text: `${JSON.stringify({ ...doc, timing }, null, 2)}\n`,
    replay: `${JSON.stringify(doc, null, 2)}\n`,
  };
}

/** The summary a person reads. */
export function summaryText(r: RehearsalResult): string {
  const lines: string[] = [];
  lines.push(`rehearsal of ${r.data}: ${r.days} day(s) from ${r.from} (${r.hours} hours), seed ${r.seed}`);
  const kinds = Object.entries(r.faults).sort(([a], [b]) => (a < b ? -1 : 1));
  lines.push(
    kinds.length ? `faults injected: ${kinds.map(([k, n]) => `${k} ${n}`).join(", ")}` : "faults injected: none",
  );
  lines.push(`checks: ${r.checks.passed} passed, ${r.checks.failed} failed`);
  for (const [k, t] of Object.entries(r.checks.byInvariant))
    lines.push(
      `  ${k.padEnd(10)} ${String(t.passed).padStart(5)} passed ${String(t.failed).padStart(4)} failed  ${INVARIANTS[k as keyof typeof INVARIANTS] ?? ""}`,
    );
  if (r.incidents.length) lines.push("process faults met:");
  for (const i of r.incidents) lines.push(`  hour ${i.hour} (${i.at}) ${i.what}`);
  lines.push(r.sources.length ? "standing changes:" : "standing changes: none");
  for (const s of r.sources) lines.push(`  ${s.at}  ${s.source}  ${s.standing}: ${s.reason}`);
  for (const u of r.unserved) lines.push(`not served by the rehearsal's internet: ${u.id} (${u.why})`);
  if (r.failures.length) {
    lines.push(
      `failures (${r.failures.length}${r.failures.length > FAILURES_SHOWN ? `, the first ${FAILURES_SHOWN}` : ""}):`,
    );
    for (const f of r.failures.slice(0, FAILURES_SHOWN))
      lines.push(`  hour ${f.hour} (${f.at}) ${f.invariant}: ${f.what}`);
  }
  lines.push(
    `replay: ${replayCommand({ seed: r.seed, fromMs: Date.parse(r.from), days: r.days, faults: r.faultsOn, data: r.data })}`,
  );
  lines.push(
    `${r.interruptedAfter ?? r.hours} hours in ${r.timing.seconds} s: ${r.timing.hoursPerSecond} hours simulated per second`,
  );
  const steps = Object.entries(r.timing.steps);
  if (steps.length)
    lines.push(`  of which ${steps.map(([k, v]) => `${k} ${v} s (CPU ${r.timing.cpu[k] ?? 0} s)`).join(", ")}`);
  if (r.interruptedAfter !== undefined) lines.push(`INTERRUPTED after ${r.interruptedAfter} of ${r.hours} hours`);
  lines.push(r.checks.failed ? `FAILED: ${r.checks.failed} check(s) failed` : "every check passed");
  return `${lines.join("\n")}\n`;
}
