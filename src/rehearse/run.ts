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
import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import { promises as fs } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { cairoDate, instantString } from "../core/cairo.js";
import { CONFIG_FILES, DATA_FOLDERS, dataPaths, LOG_FOLDERS, FOLDERS } from "../core/data-layout.js";
import { PriceFeedError } from "../core/errors.js";
import { fromBase64url, keyIdOf } from "../core/statement.js";
import { Catalog, Sources } from "../schema/inputs.js";
import { KILL_POINTS } from "../io/site-writer.js";
import { readJson } from "../io/json-file.js";
import { runBuild } from "../jobs/build.js";
import { runCompact } from "../jobs/compact.js";
import { runIngest, unreachableContact, type SourceReport } from "../jobs/ingest.js";
import { folderReader, verifySite } from "../jobs/verify.js";
import { subjectSources } from "../rules/probation.js";
import { ProbationState } from "../schema/probation.js";
import {
  faultSchedule,
  faultsAt,
  isNetFault,
  type FaultKind,
  type NetFaultKind,
  type ScheduledFault,
} from "./schedule.js";
import { faultTargets, killedBuild, loseCache, publishWorstAsBest, STATE_FILES, truncateFile } from "./faults.js";

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
  close(): Promise<void>;
}
export type StartWorld = (o: { seed: string; sources: Sources; dataDir: string }) => Promise<World>;

/** One difference the oracle found (src/rehearse/oracle/index.ts). */
export interface Difference {
  invariant: string;
  asset?: string;
  path: string;
  expected: unknown;
  published: unknown;
}

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
  /** The configuration rehearsed, as given. */
  data: string;
  /** false: a quiet run (`--no-faults`). */
  faultsOn: boolean;
  /** Each kind of fault, and how many were scheduled. */
  faults: Record<string, number>;
  checks: { passed: number; failed: number; byInvariant: Record<string, { passed: number; failed: number }> };
  failures: Failure[];
  sources: StandingRow[];
  /** Sources the world could not serve, and why (they fail every hour, as an unreachable site would). */
  unserved: Array<{ id: string; why: string }>;
  /** Wall-clock: reported apart, never part of what a replay compares (summary.ts). */
  timing: { seconds: number; hoursPerSecond: number };
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
  startWorld?: StartWorld;
  oracle?: Oracle;
  /** The compiled CLI a killed build runs (faults.ts CLI_BIN). */
  bin?: string;
}

/** The replay command of a run. */
export const replayCommand = (o: { seed: string; fromMs: number; days: number; faults: boolean; data: string }) =>
  `price-feed rehearse --data ${o.data} --seed ${o.seed} --from ${instantString(o.fromMs)} --days ${o.days}${o.faults ? "" : " --no-faults"}`;

/**
 * A throwaway Ed25519 key made from the seed (RFC 8032 §5.1.5: the private key is 32 bytes; RFC
 * 8410's PKCS#8 wraps them), so the same seed signs the same bytes: a replay is byte for byte.
 */
export async function throwawayKey(seed: string, validFromMs: number) {
  const raw = createHash("sha256").update(`price-feed rehearsal key/${seed}`).digest();
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), raw]);
  const key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  const publicKey = (createPublicKey(key).export({ format: "jwk" }) as { x: string }).x;
  const id = await keyIdOf(fromBase64url(publicKey)!);
  return {
    pem: key.export({ format: "pem", type: "pkcs8" }) as string,
    entry: {
      id,
      alg: "Ed25519" as const,
      publicKey,
      validFrom: instantString(Math.floor(validFromMs / 1000) * 1000),
      validUntil: null,
    },
  };
}

/** The files a configuration is: CONFIG_FILES, and any file a source reads from the folder (`path`). */
async function copyConfiguration(from: string, to: string, sources: Sources): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const f of Object.values(CONFIG_FILES)) await fs.copyFile(path.join(from, f), path.join(to, f));
  for (const folder of DATA_FOLDERS) await fs.mkdir(path.join(to, folder), { recursive: true });
  for (const s of sources.sources)
    if ("path" in s && typeof s.path === "string" && !path.isAbsolute(s.path)) {
      const target = path.join(to, s.path);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.cp(path.join(from, s.path), target, { recursive: true }).catch(() => {});
    }
}

/** Each log file's size and the SHA-256 of its bytes, to see that the next hour only added to it. */
type LogMarks = Map<string, { bytes: number; sha: string }>;
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function markLogs(dataDir: string): Promise<LogMarks> {
  const out: LogMarks = new Map();
  for (const folder of [...Object.values(LOG_FOLDERS), FOLDERS.history]) {
    const names = (await fs.readdir(path.join(dataDir, folder)).catch(() => [] as string[])).filter((n) =>
      n.endsWith(".ndjson"),
    );
    for (const n of names.sort()) {
      const b = await fs.readFile(path.join(dataDir, folder, n));
      out.set(`${folder}/${n}`, { bytes: b.length, sha: sha(b) });
    }
  }
  return out;
}

/** What a log lost between two marks: none, when each file kept its bytes as a prefix or went to history/. */
async function lostFromLogs(dataDir: string, before: LogMarks, after: LogMarks): Promise<string[]> {
  const lost: string[] = [];
  for (const [file, m] of before) {
    const now = after.get(file);
    if (!now) {
      const history = `${FOLDERS.history}/${path.basename(file)}`;
      if (file.startsWith(`${LOG_FOLDERS.quotes}/`) && after.has(history)) continue; // compacted (§ compaction)
      lost.push(`${file} is gone`);
      continue;
    }
    if (now.bytes === m.bytes && now.sha === m.sha) continue;
    if (now.bytes < m.bytes) {
      lost.push(`${file} shrank from ${m.bytes} to ${now.bytes} bytes`);
      continue;
    }
    const head = (await fs.readFile(path.join(dataDir, file))).subarray(0, m.bytes);
    if (sha(head) !== m.sha) lost.push(`${file}: its first ${m.bytes} bytes changed`);
  }
  return lost;
}

/** A refusal as the CLI would print it: one of ours, one line (src/cli/main.ts explain). */
const oneLine = (e: unknown): string | null =>
  e instanceof PriceFeedError && !e.message.includes("\n") ? e.message : null;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!;

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** The published generatedAt of a site, or null when it has none that reads. */
async function generatedAt(outDir: string): Promise<string | null> {
  try {
    return (
      JSON.parse(await fs.readFile(path.join(outDir, "api", "v1", "feed.json"), "utf8")) as { generatedAt: string }
    ).generatedAt;
  } catch {
    return null;
  }
}

/** The site a client would get after a killed build: public/, or the whole one a swap cut short left beside it. */
async function servedSite(outDir: string): Promise<string | null> {
  if (
    await fs.stat(outDir).then(
      (s) => s.isDirectory(),
      () => false,
    )
  )
    return outDir;
  const parent = path.dirname(outDir);
  const old = (await fs.readdir(parent)).filter((n) => n.startsWith(`${path.basename(outDir)}.old-`)).sort();
  return old.length ? path.join(parent, old.at(-1)!) : null;
}

interface SourceHealthDoc {
  sources: Array<{
    id: string;
    probation: {
      standing: string;
      since: string | null;
      lastChange: { at: string; standing: string; reason: string; countsFrom: string | null } | null;
    };
  }>;
}
interface EventsDoc {
  events: Array<{
    kind: string;
    at: string;
    source: string | null;
    before: unknown;
    after: { standing?: string } | null;
  }>;
}

/**
 * The events agree with the state: every source's published standing is data/state/probation.json's;
 * a probation event at this build for exactly the sources whose standing changed since the previous
 * build; and the record the build kept (data/state/events.json) holds the events it published.
 */
async function eventsDisagree(
  dataDir: string,
  outDir: string,
  subject: ReadonlySet<string>,
  previous: ReadonlyMap<string, string> | null,
  builtAt: string,
): Promise<{ problems: string[]; standings: Map<string, string> }> {
  const problems: string[] = [];
  const state: ProbationState = await readJson(dataPaths(dataDir).probation, ProbationState).catch(() => ({
    sources: {},
  }));
  const read = async <T>(p: string) => JSON.parse(await fs.readFile(path.join(outDir, p), "utf8")) as T;
  const health = await read<SourceHealthDoc>("api/v1/sources.json");
  const events = await read<EventsDoc>("api/v1/events.json");
  const standings = new Map<string, string>();
  for (const s of health.sources) {
    const st = state.sources[s.id];
    const want = !subject.has(s.id) ? "counted" : (st?.standing ?? "probation");
    standings.set(s.id, s.probation.standing);
    if (s.probation.standing !== want)
      problems.push(`${s.id}: published standing ${s.probation.standing}, data/state/probation.json ${want}`);
    const last = st?.changes.at(-1);
    const wantLast = last
      ? { at: last.at, standing: last.standing, reason: last.reason, countsFrom: last.countsFrom ?? null }
      : null;
    if (subject.has(s.id) && !isDeepStrictEqual(s.probation.lastChange, wantLast))
      problems.push(`${s.id}: published lastChange ${short(s.probation.lastChange)}, state ${short(wantLast)}`);
    if (subject.has(s.id) && st && s.probation.since !== st.since)
      problems.push(`${s.id}: published since ${s.probation.since}, state ${st.since}`);
  }
  const now = events.events.filter((e) => e.kind === "probation" && e.at === builtAt);
  for (const [id, standing] of standings) {
    const before = previous?.get(id);
    const moved = previous !== null && before !== undefined && before !== standing;
    const got = now.filter((e) => e.source === id);
    if (moved && (got.length !== 1 || got[0]!.after?.standing !== standing))
      problems.push(
        `${id}: its standing went from ${before} to ${standing}, and the build published ${got.length} probation event(s) for it`,
      );
    if (!moved && got.length) problems.push(`${id}: a probation event at ${builtAt}, but its standing did not change`);
  }
  const kept = await fs
    .readFile(dataPaths(dataDir).events, "utf8")
    .then((t) => JSON.parse(t) as EventsDoc)
    .catch(() => null);
  if (!kept || !isDeepStrictEqual(kept.events, events.events))
    problems.push(`data/state/events.json does not hold the events the build published`);
  return { problems, standings };
}

/**
 * Lives the span. Resolves to the result whatever the invariants found (the CLI turns failures into
 * exit 1); rejects only when the rehearsal itself cannot run (the configuration does not load).
 */
export async function rehearse(o: RehearseOptions): Promise<RehearsalResult> {
  const log = o.log ?? (() => {});
  const started = performance.now();
  const own = o.workDir === undefined;
  const work = o.workDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), "price-feed-rehearse-")));
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
    sources: [],
    unserved: [],
    timing: { seconds: 0, hoursPerSecond: 0 },
  };
  for (const k of Object.keys(INVARIANTS)) result.checks.byInvariant[k] = { passed: 0, failed: 0 };
  const check = (hour: number, nowMs: number, invariant: Invariant, problems: readonly string[]) => {
    const tally = result.checks.byInvariant[invariant]!;
    if (!problems.length) {
      result.checks.passed++;
      tally.passed++;
      return;
    }
    result.checks.failed++;
    tally.failed++;
    for (const what of problems.slice(0, 5)) {
      const f: Failure = { hour, at: instantString(nowMs), invariant, what };
      result.failures.push(f);
      log(`FAIL hour ${hour} (${f.at}) ${invariant}: ${what} — replay: ${replay}`);
    }
    if (problems.length > 5) {
      const f: Failure = { hour, at: instantString(nowMs), invariant, what: `and ${problems.length - 5} more` };
      result.failures.push(f);
    }
  };

  const givenSources = await readJson(dataPaths(o.dataDir).sources, Sources, o.dataDir);
  const catalog = await readJson(dataPaths(o.dataDir).catalog, Catalog, o.dataDir);
  await copyConfiguration(o.dataDir, dataDir, givenSources);
  const startWorld = o.startWorld ?? (await defaultWorld());
  const oracle = o.oracle ?? (await defaultOracle());
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
          targets: faultTargets(pointed.sources, world.served, catalog),
          killPoints: KILL_POINTS,
          stateFiles: STATE_FILES,
        })
      : [];
    for (const f of schedule) result.faults[f.kind] = (result.faults[f.kind] ?? 0) + 1;
    const subject = subjectSources(pointed.sources);
    const runs: HourRecord[] = [];
    let marks = await markLogs(dataDir);
    let standings: Map<string, string> | null = null;
    let builtAt: string | null = null; // the generatedAt of the site last published
    let dayChecks = { passed: result.checks.passed, failed: result.checks.failed };

    for (let hour = 0; hour < hours; hour++) {
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
      const cut = startsNow("state-truncated");
      let restore: (() => Promise<void>) | null = null;
      if (cut) {
        const file = path.join(dataDir, cut.target);
        const bytes = await truncateFile(file, `${o.seed}/cut/${hour}`);
        if (bytes) restore = () => fs.writeFile(file, bytes);
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
            if (restore && cut && line.includes(path.basename(cut.target))) {
              await restore();
              restore = null;
              continue;
            }
            jobProblems.push(`${name} refused: ${line}`);
            return null;
          }
        }
      };

      const ingested = await step("ingest", () =>
        runIngest({
          dataDir,
          nowMs,
          // Loopback answers in milliseconds: a short timeout keeps a held connection cheap, and a
          // Retry-After is waited for on the virtual clock (no real sleep).
          timeoutMs: 1000,
          retries: 1,
          backoffMs: 0,
          sleep: () => Promise.resolve(),
          keepObserved: true,
        }),
      );
      const record: HourRecord = { hour, nowMs, at, reports: ingested?.reports ?? [] };
      runs.push(record);
      await step("compact", () => runCompact(dataDir, nowMs, () => {}));

      if (startsNow("cache-lost")) await loseCache(outDir);
      const kill = startsNow("build-killed");
      const before: string | null = builtAt;
      let built = false;
      if (kill) {
        const k = await killedBuild({
          dataDir,
          outDir,
          nowMs,
          killAt: kill.target,
          signingKey: key.pem,
          ...(o.bin && { bin: o.bin }),
        });
        if (k.signal !== "SIGKILL")
          jobProblems.push(
            `the build meant to be killed at ${kill.target} ended with ${k.signal ?? `status ${k.code}`}: ${k.stderr.trim().split("\n")[0] ?? ""}`,
          );
        // What a client gets now: the previous site, or (killed after its renames) this hour's, whole.
        const served = await servedSite(outDir);
        const gen = served ? await generatedAt(served) : null;
        if (before !== null && gen !== before && gen !== at)
          jobProblems.push(
            `after the build killed at ${kill.target} the site served is of ${gen ?? "nothing"}, not ${before} nor ${at}`,
          );
        if (served && gen !== null) {
          const v = await verifySite(folderReader(served), trusted);
          check(hour, nowMs, "verify", v.fatal ? [v.fatal] : v.problems.map((p) => `${p.path}: ${p.problem}`));
        }
      } else {
        const r = await step("build", () => runBuild({ dataDir, outDir, nowMs, env }));
        built = r !== null;
        if (!built) {
          // A refusal keeps the site as it was.
          const gen = await generatedAt(outDir);
          if (gen !== before)
            jobProblems.push(`the refused build left a site of ${gen ?? "nothing"}, not ${before ?? "nothing"}`);
        }
      }
      if (restore) await restore(); // a cut file no step read this hour: the operator's restore all the same
      if (built) {
        builtAt = at;
        if (o.tamper === "worst-as-best") await publishWorstAsBest(outDir);
        const v = await verifySite(folderReader(outDir), trusted);
        check(hour, nowMs, "verify", v.fatal ? [v.fatal] : v.problems.map((p) => `${p.path}: ${p.problem}`));
        const diffs = await oracle.compareFeed(await oracle.expectFeed(dataDir, nowMs), outDir);
        check(
          hour,
          nowMs,
          "feed",
          diffs.map(
            (d) =>
              `${d.asset ? `${d.asset} ` : ""}${d.path}: expected ${short(d.expected)}, published ${short(d.published)}`,
          ),
        );
        const ev = await eventsDisagree(dataDir, outDir, subject, standings, at);
        check(hour, nowMs, "events", ev.problems);
        standings = ev.standings;
      }
      if (oracle.checkProbation) {
        const diffs = await oracle.checkProbation({ dataDir, nowMs, runs });
        check(
          hour,
          nowMs,
          "probation",
          diffs.map((d) => `${d.path}: expected ${short(d.expected)}, recorded ${short(d.published)}`),
        );
      }
      check(hour, nowMs, "job", jobProblems);
      const next = await markLogs(dataDir);
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
    if (own) await fs.rm(work, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  result.timing = { seconds: Math.round(seconds * 10) / 10, hoursPerSecond: Math.round((hours / seconds) * 100) / 100 };
  return result;
}

/** The simulated internet (src/rehearse/world), loaded when the rehearsal runs. */
async function defaultWorld(): Promise<StartWorld> {
  const spec = "./world/index.js";
  const m = (await import(spec)) as { startWorld: StartWorld };
  return m.startWorld;
}

/** The second implementation of the rulebook (src/rehearse/oracle), loaded when the rehearsal runs. */
async function defaultOracle(): Promise<Oracle> {
  const spec = "./oracle/index.js";
  return (await import(spec)) as Oracle;
}
