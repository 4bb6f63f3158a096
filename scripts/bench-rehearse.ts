/**
 * The rehearsal's figure for `npm run bench` (issue 49): `price-feed rehearse` of init's configuration
 * (examples/egypt), 14 days with faults from the spring clock change's week, as
 * test/rehearse/rehearse.test.ts runs it, timed as a whole process of the compiled command line.
 * What it reports: the wall time, the hours simulated per second, and each step's wall and CPU
 * seconds as the rehearsal measured them (its JSON's `timing`).
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";

const run = promisify(execFile);

export const REHEARSAL_ARGS = ["--data", "examples/egypt", "--from", "2026-04-18", "--days", "14", "--seed", "ci-14"];

export async function benchRehearse(bench: string) {
  const json = path.join(bench, "rehearsal.json");
  const started = performance.now();
  const r = await run(
    process.execPath,
    [path.resolve("dist/cli/bin.js"), "rehearse", ...REHEARSAL_ARGS, "--json", json],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((e: { code?: number; stdout?: string }) => ({ stdout: e.stdout ?? "", code: e.code }));
  const wallS = (performance.now() - started) / 1000;
  const doc = JSON.parse(await fs.readFile(json, "utf8")) as {
    hours: number;
    checks: { passed: number; failed: number };
    timing: { seconds: number; hoursPerSecond: number; steps: Record<string, number>; cpu: Record<string, number> };
  };
  return {
    args: REHEARSAL_ARGS.join(" "),
    hours: doc.hours,
    wholeProcessS: +wallS.toFixed(1),
    seconds: doc.timing.seconds,
    hoursPerSecond: doc.timing.hoursPerSecond,
    cpuSecondsPerHour: +(Object.values(doc.timing.cpu).reduce((a, b) => a + b, 0) / doc.hours).toFixed(2),
    steps: doc.timing.steps,
    cpu: doc.timing.cpu,
    checksPassed: doc.checks.passed,
    checksFailed: doc.checks.failed,
    exit: "code" in r ? r.code : 0,
  };
}
