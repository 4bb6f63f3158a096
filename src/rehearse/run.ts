/**
 * `price-feed rehearse`: a data folder's own configuration lived hour by hour on a virtual clock, on a
 * copy, against a loopback internet (src/rehearse/world), with faults on a seeded schedule
 * (schedule.ts, faults.ts) and invariants checked after every hour (docs/operating.md "Before going
 * live: a rehearsal"). Each hour runs the hourly job's steps in the workflow's order
 * (.github/workflows/publish.yml): ingest, compact, build (which signs, with a throwaway key), then
 * verify; the site and its caches stay beside the copy from hour to hour, as the workflow's cache
 * carries them, and the copy's data/ stays as its commit carries it.
 *
 * The published numbers are checked against a second, small implementation of the rulebook
 * (src/rehearse/oracle), never the build's own functions; the rest the driver checks itself: that
 * every step did its work or refused in one line with the site and data as they were, that the
 * events agree with the state, that the statement verifies, that no log lost a line.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { cairoDate, instantString } from "../core/cairo.js";
import { dataPaths } from "../core/data-layout.js";
import { Catalog, Sources } from "../schema/inputs.js";
import { KILL_POINTS } from "../io/site-writer.js";
import { readJson } from "../io/json-file.js";
import { runBuild } from "../jobs/build.js";
import { runCompact } from "../jobs/compact.js";
import { runIngest, unreachableContact } from "../jobs/ingest.js";
import { folderReader, verifySite } from "../jobs/verify.js";
import { subjectSources } from "../rules/probation.js";
import { ProbationState } from "../schema/probation.js";
import {
  faultSchedule,
  faultsAt,
  NET_FAULTS,
  isNetFault,
  type FaultKind,
  type NetFaultKind,
  type ScheduledFault,
} from "./schedule.js";
import { faultTargets, killedBuild, loseCache, publishWorstAsBest, STATE_FILES, truncateFile } from "./faults.js";
import { copyConfiguration, throwawayKey } from "./copy.js";
import * as realOracle from "./oracle/index.js";
import { startWorld as realWorld } from "./world/index.js";
import {
  errorText,
  eventsDisagree,
  generatedAt,
  lostFromLogs,
  markLogs,
  oneLine,
  servedSite,
  short,
} from "./checks.js";
import {
  HOUR_MS,
  INVARIANTS,
  REHEARSAL_CONTACT,
  replayCommand,
  RUN_MINUTE_MS,
  type Failure,
  type HourRecord,
  type Invariant,
  type Oracle,
  type RehearsalResult,
  type RehearseOptions,
  type StartWorld,
} from "./types.js";

export * from "./types.js";
export { throwawayKey } from "./copy.js";

/**
 * Lives the span. Resolves to the result whatever the invariants found (the CLI turns failures into
 * exit 1); rejects only when the rehearsal itself cannot run (the configuration does not load).
 */
export async function rehearse(o: RehearseOptions): Promise<RehearsalResult> {
  const log = o.log ?? (() => {});
  /** Wall-clock seconds per step, summed over the hours (the summary's timing, for making the hour cheaper). */
  const steps: Record<string, number> = {};
  /** The process's CPU seconds per step (the world answers in this process: ingest's includes it). */
  const cpu: Record<string, number> = {};
  const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const c = process.cpuUsage();
    try {
      return await f();
    } finally {
      steps[name] = (steps[name] ?? 0) + (performance.now() - t) / 1000;
      const d = process.cpuUsage(c);
      cpu[name] = (cpu[name] ?? 0) + (d.user + d.system) / 1e6;
    }
  };
  const started = performance.now();
  const own = o.workDir === undefined;
  const work = o.workDir ?? (await scratchFolder());
  const dataDir = path.join(work, "data");
  const outDir = path.join(work, "public");
  const hours = o.days * 24;
  const firstMs = Math.floor(o.fromMs / HOUR_MS) * HOUR_MS;
  const from = instantString(firstMs);
  const replay = replayCommand({ ...o, fromMs: firstMs, data: o.dataDir });
  const result: RehearsalResult = {
    seed: o.seed,
    from,
    days: o.days,
    hours,
    data: o.dataDir,
    faultsOn: o.faults,
    faults: {},
    checks: { passed: 0, failed: 0, byInvariant: {} },
    failures: [],
    incidents: [],
    sources: [],
    unserved: [],
    timing: { seconds: 0, hoursPerSecond: 0, steps: {}, cpu: {} },
  };
  for (const k of Object.keys(INVARIANTS)) result.checks.byInvariant[k] = { passed: 0, failed: 0 };
  /** The copy's paths as data/…, public/…: a replay in another temporary folder says the same bytes. */
  const local = (what: string) => what.split(`${work}${path.sep}`).join("");
  const incident = (hour: number, nowMs: number, what: string) =>
    result.incidents.push({ hour, at: instantString(nowMs), what: local(what) });
  const check = (hour: number, nowMs: number, invariant: Invariant, problems: readonly string[]) => {
    const tally = result.checks.byInvariant[invariant]!;
    if (!problems.length) {
      result.checks.passed++;
      tally.passed++;
      return;
    }
    result.checks.failed++;
    tally.failed++;
    for (const what of problems.slice(0, 5).map(local)) {
      const f: Failure = { hour, at: instantString(nowMs), invariant, what };
      result.failures.push(f);
      log(`FAIL hour ${hour} (${f.at}) ${invariant}: ${what} — replay: ${replay}`);
    }
    if (problems.length > 5) {
      const f: Failure = { hour, at: instantString(nowMs), invariant, what: `and ${problems.length - 5} more` };
      result.failures.push(f);
    }
  };

  try {
    await live();
  } finally {
    if (own) await fs.rm(work, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  result.timing = {
    seconds: Math.round(seconds * 10) / 10,
    hoursPerSecond: Math.round(((result.interruptedAfter ?? hours) / seconds) * 100) / 100,
    steps: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, Math.round(v * 10) / 10])),
    cpu: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v * 10) / 10])),
  };
  return result;

  async function live(): Promise<void> {
    const givenSources = await readJson(dataPaths(o.dataDir).sources, Sources, o.dataDir);
    const catalog = await readJson(dataPaths(o.dataDir).catalog, Catalog, o.dataDir);
    await copyConfiguration(o.dataDir, dataDir, givenSources);
    // The loopback internet and the second implementation of the rulebook, or a test's stand-ins.
    const startWorld: StartWorld = o.startWorld ?? realWorld;
    const oracle: Oracle = o.oracle ?? realOracle;
    const world = await startWorld({ seed: o.seed, sources: givenSources, dataDir });
    try {
      // The copy: its sources pointed at the world, a contact that reaches someone (the requests go to
      // loopback only), and the throwaway key listed as the one that may sign.
      const pointed = world.pointSources(givenSources);
      const contact = pointed.contact && !unreachableContact(pointed.contact) ? pointed.contact : REHEARSAL_CONTACT;
      await fs.writeFile(dataPaths(dataDir).sources, `${JSON.stringify({ ...pointed, contact }, null, 2)}\n`);
      const key = await throwawayKey(o.seed, firstMs);
      await fs.writeFile(
        dataPaths(dataDir).keys,
        `${JSON.stringify({ schemaVersion: 1, keys: [key.entry] }, null, 2)}\n`,
      );
      const env = { PRICE_FEED_SIGNING_KEY: key.pem };
      const trusted = [{ id: key.entry.id, publicKey: key.entry.publicKey }];
      result.unserved = [...world.unserved];
      for (const u of world.unserved) log(`not served by the rehearsal's internet: ${u.id} (${u.why})`);

      const schedule: ScheduledFault[] = o.faults
        ? faultSchedule({
            seed: o.seed,
            hours,
            targets: world.faultTargets
              ? Object.fromEntries(NET_FAULTS.map((k) => [k, world.faultTargets!(k)]))
              : faultTargets(pointed.sources, world.served, catalog),
            killPoints: KILL_POINTS,
            stateFiles: STATE_FILES,
          })
        : [];
      for (const f of schedule) result.faults[f.kind] = (result.faults[f.kind] ?? 0) + 1;
      const subject = subjectSources(pointed.sources);
      const runs: HourRecord[] = [];
      let marks = await markLogs(dataDir);
      let builtAt: string | null = null; // the generatedAt of the site last published
      let dayChecks = { passed: result.checks.passed, failed: result.checks.failed };

      for (let hour = 0; hour < hours; hour++) {
        if (o.signal?.aborted) {
          result.interruptedAfter = hour;
          break;
        }
        const nowMs = firstMs + hour * HOUR_MS + RUN_MINUTE_MS;
        const at = instantString(nowMs);
        const active = faultsAt(schedule, hour);
        const startsNow = (k: FaultKind) => active.find((f) => f.kind === k && f.hour === hour);
        world.setHour(
          nowMs,
          active.filter((f) => isNetFault(f.kind)).map((f) => ({ kind: f.kind as NetFaultKind, source: f.target })),
        );
        const jobProblems: string[] = [];

        // A state file cut short before the hour: the step that reads it must refuse in one line or
        // recover as docs/operating.md says; the operator then restores it from the last commit.
        const cuts = new Map<string, () => Promise<void>>(); // target → its restore, while pending
        for (const cut of active.filter((f) => f.kind === "state-truncated" && f.hour === hour)) {
          const file = path.join(dataDir, cut.target);
          const bytes = await truncateFile(file, `${o.seed}/cut/${hour}/${cut.target}`);
          if (!bytes) continue; // no such file yet: nothing to cut
          // Put back as committed, unless a step has since written it whole again (the build
          // rewrites events.json from the published site): restoring then would undo that.
          const cutBytes = await fs.readFile(file);
          cuts.set(cut.target, async () => {
            const now = await fs.readFile(file).catch(() => null);
            if (now === null || now.equals(cutBytes)) await fs.writeFile(file, bytes);
          });
        }
        /** A step, run again once after the operator restored the cut file, when it refused over it. */
        const step = async <T>(name: string, run: () => Promise<T>): Promise<T | null> => {
          for (;;) {
            try {
              return await run();
            } catch (e) {
              const line = oneLine(e);
              if (line === null) {
                jobProblems.push(`${name} failed without a clear line: ${errorText(e)}`);
                return null;
              }
              const target = [...cuts.keys()].find((t) => line.includes(t));
              if (target !== undefined) {
                await cuts.get(target)!();
                cuts.delete(target);
                incident(
                  hour,
                  nowMs,
                  `${target} cut short: ${name} refused in one line (${line}); restored as committed, ${name} run again`,
                );
                continue;
              }
              jobProblems.push(`${name} refused: ${line}`);
              return null;
            }
          }
        };

        const ingested = await timed("ingest", () =>
          step("ingest", () =>
            runIngest({
              dataDir,
              nowMs,
              // Loopback answers in milliseconds: a short timeout keeps a held connection cheap (the
              // world's time-out fault), yet long enough that a machine busy with other work never
              // times out a served answer (that would change the run: a replay must be the same).
              // A Retry-After is waited for on the virtual clock (no real sleep).
              timeoutMs: 3000,
              retries: 1,
              backoffMs: 0,
              sleep: () => Promise.resolve(),
              keepObserved: true,
            }),
          ),
        );
        const record: HourRecord = { hour, nowMs, at, reports: ingested?.reports ?? [] };
        runs.push(record);
        await timed("compact", () => step("compact", () => runCompact(dataDir, nowMs, () => {})));

        if (startsNow("cache-lost")) {
          await loseCache(outDir);
          incident(hour, nowMs, "the site's cache lost: the build starts with no previous site and no caches");
        }
        const kill = startsNow("build-killed");
        const before: string | null = builtAt;
        let built = false;
        if (kill) {
          const k = await timed("killed build", () =>
            killedBuild({
              dataDir,
              outDir,
              nowMs,
              killAt: kill.target,
              signingKey: key.pem,
              ...(o.bin && { bin: o.bin }),
            }),
          );
          if (k.signal !== "SIGKILL")
            jobProblems.push(
              `the build meant to be killed at ${kill.target} ended with ${k.signal ?? `status ${k.code}`}: ${k.stderr.trim().split("\n")[0] ?? ""}`,
            );
          // What a client gets now: the previous site, or (killed after its renames) this hour's, whole.
          const served = await servedSite(outDir);
          const gen = served ? await generatedAt(served) : null;
          incident(
            hour,
            nowMs,
            `build killed at ${kill.target}: the site served is ${gen === at ? "this hour's, whole" : gen === null ? "none yet" : `the previous (${gen})`}${served && served !== outDir ? `, from ${path.basename(served)}` : ""}`,
          );
          if (gen !== null) builtAt = gen;
          if (before !== null && gen !== before && gen !== at)
            jobProblems.push(
              `after the build killed at ${kill.target} the site served is of ${gen ?? "nothing"}, not ${before} nor ${at}`,
            );
          if (served && gen !== null) {
            const v = await verifySite(folderReader(served), trusted);
            check(hour, nowMs, "verify", v.fatal ? [v.fatal] : v.problems.map((p) => `${p.path}: ${p.problem}`));
          }
        } else {
          const r = await timed("build", () => step("build", () => runBuild({ dataDir, outDir, nowMs, env })));
          built = r !== null;
          // A record the build recovers from (docs/operating.md "What can go wrong": events.json
          // unreadable) is said in its report, or it is a silent loss.
          if (r)
            for (const target of cuts.keys()) {
              if (JSON.stringify(r.site.report).includes(target))
                incident(hour, nowMs, `${target} cut short: the build went on and its report says so`);
              else
                jobProblems.push(`${target} was cut short, and neither a step refused nor the build's report says so`);
            }
          if (!built) {
            // A refusal keeps the site as it was.
            const gen = await generatedAt(outDir);
            if (gen !== before)
              jobProblems.push(`the refused build left a site of ${gen ?? "nothing"}, not ${before ?? "nothing"}`);
          }
        }
        // A cut file no step read this hour (a step before it refused): the operator's restore all the same.
        for (const restore of cuts.values()) await restore();
        if (built) {
          builtAt = at;
          if (o.tamper === "worst-as-best") await publishWorstAsBest(outDir);
          const v = await timed("verify", () => verifySite(folderReader(outDir), trusted));
          check(hour, nowMs, "verify", v.fatal ? [v.fatal] : v.problems.map((p) => `${p.path}: ${p.problem}`));
          const diffs = await timed("oracle", async () =>
            oracle.compareFeed(await oracle.expectFeed(dataDir, nowMs), outDir),
          );
          check(
            hour,
            nowMs,
            "feed",
            diffs.map(
              (d) =>
                `${d.invariant && d.invariant !== "feed" ? `[${d.invariant}] ` : ""}${d.asset ? `${d.asset} ` : ""}${d.path}: expected ${short(d.expected)}, published ${short(d.published)}`,
            ),
          );
          check(hour, nowMs, "events", await eventsDisagree(dataDir, outDir, subject, nowMs));
        }
        if (oracle.checkProbation) {
          const diffs = await timed("probation", () => oracle.checkProbation!({ dataDir, nowMs, runs }));
          check(
            hour,
            nowMs,
            "probation",
            diffs.map((d) => `${d.path}: expected ${short(d.expected)}, recorded ${short(d.published)}`),
          );
        }
        check(hour, nowMs, "job", jobProblems);
        const next = await timed("data", () => markLogs(dataDir));
        check(hour, nowMs, "data", await lostFromLogs(dataDir, marks, next));
        marks = next;

        if ((hour + 1) % 24 === 0 || hour === hours - 1) {
          const day = Math.floor(hour / 24) + 1;
          const faults = schedule.filter((f) => f.hour > hour - 24 && f.hour <= hour).map((f) => f.kind);
          log(
            `day ${day} (${cairoDate(nowMs)}): checks ${result.checks.passed - dayChecks.passed} passed, ${result.checks.failed - dayChecks.failed} failed` +
              (faults.length ? `; faults: ${faults.join(", ")}` : ""),
          );
          dayChecks = { passed: result.checks.passed, failed: result.checks.failed };
        }
      }

      // Each source's standing changes over the span, as the record kept them.
      const state = await readJson(dataPaths(dataDir).probation, ProbationState).catch(
        () => ({ sources: {} }) as ProbationState,
      );
      for (const [source, p] of Object.entries(state.sources).sort(([a], [b]) => (a < b ? -1 : 1)))
        for (const c of p.changes) result.sources.push({ source, at: c.at, standing: c.standing, reason: c.reason });
    } finally {
      await world.close();
    }
  }
}

/**
 * A new temporary folder for the copy and its site: in memory (/dev/shm, Linux's tmpfs) where there
 * is one, else the system's temporary folder. The copy is thrown away, so the flushes every atomic
 * write makes (src/io/atomic-write.ts) need not wait for a disk: on a busy machine that saved up to
 * a third of an hour's wall time. The faults the driver injects are kills and cut files, never a
 * power cut, so nothing it checks rests on a flush.
 */
async function scratchFolder(): Promise<string> {
  for (const base of ["/dev/shm", os.tmpdir()])
    try {
      return await fs.mkdtemp(path.join(base, "price-feed-rehearse-"));
    } catch {
      // Not there, or not writable: the next.
    }
  return fs.mkdtemp(path.join(os.tmpdir(), "price-feed-rehearse-"));
}
