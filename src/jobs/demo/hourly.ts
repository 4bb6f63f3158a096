/**
 * The live demo's disk side (`price-feed demo`, `npm start`): a working copy of `data/` in a
 * git-ignored folder, the simulated market brought up to the demo's clock through the demo sources,
 * and the hourly run exactly as the job runs it (ingest, compact, build). The committed `data/` is
 * only ever read; everything is written under the working folder (`.demo/` by default):
 *
 *   .demo/data      the copy the demo ingests into and builds from
 *   .demo/public    the built site the demo serves (public.build-report.json, public.page-digests.json and public.archive-cache/ beside it)
 *   .demo/demo.pid  one demo per working folder
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { DateTime } from "luxon";
import { CAIRO, isoUtc } from "../../core/cairo.js";
import { DataError, UsageError } from "../../core/errors.js";
import { readiness } from "../../feed/readiness.js";
import { Sources } from "../../schema/inputs.js";
import type { Readiness } from "../../schema/documents.js";
import type { FreshnessState } from "../../rules/freshness.js";
import { dataPaths, GENERATED_FOLDERS } from "../../core/data-layout.js";
import { withDataLock } from "../../io/data-lock.js";
import { assertTargetFolder } from "../../io/target-folder.js";
import { processAlive } from "../../io/day-files.js";
import { readJson } from "../../io/json-file.js";
import { runBuild } from "../build.js";
import { runCompact } from "../compact.js";
import { runIngest, type SourceReport } from "../ingest.js";
import { writeSample } from "../sample.js";

export const HOUR_MS = 3_600_000;
/** A gap longer than this is not caught up hour by hour: the market is generated afresh, ending now. */
export const CATCH_UP_MAX_DAYS = 31;
/** Days of history of a regenerated market (`price-feed sample`'s default). */
const SAMPLE_DAYS = 130;

export interface DemoPaths {
  work: string;
  data: string;
  out: string;
  pid: string;
}

export function demoPaths(work: string): DemoPaths {
  return { work, data: path.join(work, "data"), out: path.join(work, "public"), pid: path.join(work, "demo.pid") };
}

/** The top of the hour at or before `ms`. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * Takes the working folder for this process: a second demo on the same folder would replace the
 * copy the first one is serving. A pid file whose process is gone is taken over.
 */
export async function lockWork(p: DemoPaths): Promise<() => Promise<void>> {
  await fs.mkdir(p.work, { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(p.pid, `${process.pid}\n`, { flag: "wx" });
      return async () => {
        const held = await fs.readFile(p.pid, "utf8").catch(() => "");
        if (Number(held.trim()) === process.pid) await fs.rm(p.pid, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const pid = Number((await fs.readFile(p.pid, "utf8").catch(() => "")).trim());
    if (Number.isSafeInteger(pid) && pid > 0 && processAlive(pid))
      throw new UsageError(`another demo (process ${pid}) is running in ${p.work}`, {
        hint: `stop it (Ctrl-C in its terminal, or kill ${pid}), or give this one its own folder and port: --work DIR --port 0`,
      });
    await fs.rm(p.pid, { force: true });
  }
  throw new UsageError(`could not take ${p.pid}`, { hint: `delete it if no demo runs, then start again` });
}

/**
 * A fresh copy of `from` in the working folder, and the previous build removed (the demo's clock may
 * be earlier than the last demo's, and a build never replaces a later one).
 */
export async function prepareCopy(from: string, p: DemoPaths): Promise<void> {
  const names = await checkWork(from, p);
  for (const name of names)
    if (name !== path.basename(p.pid)) await fs.rm(path.join(p.work, name), { recursive: true, force: true });
  await fs.cp(from, p.data, { recursive: true });
}

/**
 * Refuses, before anything is written, a dataset that is not a folder and a working folder that
 * overlaps it or holds anything a demo did not put there (the demo replaces its working folder).
 * Resolves to what the working folder holds.
 */
export async function checkWork(from: string, p: DemoPaths): Promise<string[]> {
  const st = await fs.stat(from).catch(() => null);
  if (!st?.isDirectory())
    throw new UsageError(`${from}: no such folder (--data)`, {
      hint: "run from the project's root, where data/ is, or pass the dataset with --data DIR",
    });
  const source = path.resolve(from);
  const work = path.resolve(p.work);
  // A file or a repository's root is refused untouched (src/io/target-folder.ts); the rest is checked below, as before.
  await assertTargetFolder(p.work, {
    named: `--work ${p.work}`,
    makes: "the demo",
    ownContents: async () => true,
    hint: "give the demo a folder of its own: --work DIR (default: .demo)",
  });
  if (source === work || source.startsWith(work + path.sep) || work.startsWith(source + path.sep))
    throw new UsageError(`the working folder ${p.work} and the dataset ${from} overlap`, {
      hint: "give the demo a folder of its own: --work DIR (default: .demo)",
    });
  // The demo replaces what is in its working folder: only ever what a demo put there.
  const names = await fs.readdir(work).catch(() => [] as string[]);
  const foreign = names.filter((n) => !DEMO_FILES.test(n));
  if (foreign.length)
    throw new UsageError(
      `${p.work} holds files the demo did not make (${foreign.slice(0, 3).join(", ")}${foreign.length > 3 ? ", …" : ""}), and the demo replaces its working folder`,
      { hint: "give the demo a folder of its own: --work DIR (default: .demo)" },
    );
  return names;
}

/** What a demo leaves in its working folder: the copy, the site and the build's by-products, the pid. */
const DEMO_FILES =
  /^(data|data\.lock|public|public\.build-report\.json|public\.page-digests\.json|public\.(archive|card)-cache|public\.lock|public\.(tmp|old)-\d+|demo\.pid)$/;

/** The demo market of the copy's sources file; the demo runs only the simulated market. */
export async function demoMarket(dataDir: string): Promise<NonNullable<Sources["demo"]>> {
  const file = dataPaths(dataDir).sources;
  const sources = await readJson(file, Sources);
  const other = sources.sources.filter((s) => s.enabled && s.adapter !== "demo").map((s) => s.id);
  if (!sources.demo || other.length)
    throw new DataError(
      file,
      other.length
        ? `the demo runs the simulated market only, and this sources file has other enabled sources (${other.join(", ")})`
        : 'the demo needs the simulated market: this sources file has no "demo" block',
    );
  return sources.demo;
}

/** The newest Cairo date any log of the dataset holds, or null for a dataset without logs. */
export async function newestLogDate(dataDir: string): Promise<string | null> {
  const p = dataPaths(dataDir);
  let newest: string | null = null;
  for (const dir of [p.quotes, p.official, p.global, p.history]) {
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const m = /^(\d{4}-\d{2}-\d{2})\.ndjson$/.exec(name);
      if (m && (newest === null || m[1]! > newest)) newest = m[1]!;
    }
  }
  return newest;
}

export interface CatchUp {
  /** How the copy was brought up to now. */
  how: "ingested" | "regenerated" | "current";
  hours: number;
  fromMs: number | null;
  toMs: number;
}

/**
 * Brings the simulated market of the copy up to `nowMs`. Every hour from the start of the newest
 * logged day runs the demo sources through `ingest`, as the hourly job would have (ingest is
 * idempotent: hours already logged add nothing). A dataset with no logs, or one more than
 * CATCH_UP_MAX_DAYS behind, is regenerated as `price-feed sample --compact` ending at `nowMs`.
 */
export async function catchUp(dataDir: string, nowMs: number): Promise<CatchUp> {
  const market = await demoMarket(dataDir);
  const newest = await newestLogDate(dataDir);
  const toMs = hourOf(nowMs);
  const fromMs = newest === null ? null : DateTime.fromISO(newest, { zone: CAIRO }).toMillis();
  if (fromMs === null || toMs - fromMs > CATCH_UP_MAX_DAYS * 24 * HOUR_MS) {
    // One locked unit (src/io/data-lock.ts): no other writer sees the folders gone before the sample is back.
    await withDataLock(dataDir, { command: "demo", nowMs }, async () => {
      for (const dir of GENERATED_FOLDERS) await fs.rm(path.join(dataDir, dir), { recursive: true, force: true });
      await writeSample({
        out: dataDir,
        nowMs,
        days: SAMPLE_DAYS,
        compact: true,
        seed: market.seed,
        assets: market.assets,
        sellers: market.sellers,
      });
    });
    return { how: "regenerated", hours: 0, fromMs, toMs };
  }
  let hours = 0;
  for (let h = fromMs; h <= toMs; h += HOUR_MS, hours++) await ingestOrFail(dataDir, h);
  return { how: hours ? "ingested" : "current", hours, fromMs, toMs };
}

async function ingestOrFail(dataDir: string, nowMs: number): Promise<SourceReport[]> {
  const { reports } = await runIngest({ dataDir, nowMs });
  const failed = reports.filter((r) => !r.ok);
  // The demo sources read no network: a failure is a broken copy, not a flaky source.
  if (failed.length)
    throw new DataError(
      dataPaths(dataDir).sources,
      `demo source ${failed[0]!.id} failed at ${isoUtc(nowMs)}: ${failed[0]!.error}`,
    );
  return reports;
}

export interface HourlyRun {
  nowMs: number;
  /** Lines the sources appended, and the hours ingested (more than one after the machine slept). */
  appended: number;
  hours: number;
  compactedDays: string[];
  files: number;
  changedFiles: string[];
  generatedAt: string;
  /** The feed's own ETag and the readiness of the new build at its instant. */
  feedEtag: string;
  readiness: { status: 200 | 503; body: Readiness };
}

/**
 * One run of the hourly job on the copy, at `nowMs`: the demo sources through `ingest` (for every
 * hour since `sinceMs`, so a machine that slept catches up), `compact`, `build`.
 */
export async function hourlyRun(p: DemoPaths, nowMs: number, sinceMs: number | null = null): Promise<HourlyRun> {
  // The whole run holds the copy's data lock, as one hourly job does; the steps inside take it again
  // without waiting (src/io/data-lock.ts).
  return withDataLock(p.data, { command: "demo", nowMs }, () => hourlyRunLocked(p, nowMs, sinceMs));
}

async function hourlyRunLocked(p: DemoPaths, nowMs: number, sinceMs: number | null): Promise<HourlyRun> {
  let appended = 0;
  let hours = 0;
  const start = sinceMs === null ? hourOf(nowMs) : Math.min(hourOf(nowMs), hourOf(sinceMs) + HOUR_MS);
  for (let h = start; h < hourOf(nowMs); h += HOUR_MS, hours++)
    for (const r of await ingestOrFail(p.data, h)) appended += r.appended;
  for (const r of await ingestOrFail(p.data, nowMs)) appended += r.appended;
  hours++;
  const { days: compacted } = await runCompact(p.data, nowMs);
  const { site } = await runBuild({ dataDir: p.data, outDir: p.out, nowMs });
  return {
    nowMs,
    appended,
    hours,
    compactedDays: compacted.map((d) => d.date),
    files: site.report.files,
    changedFiles: site.report.changedFiles,
    generatedAt: site.report.generatedAt,
    feedEtag: site.manifest.files["api/v1/feed.json"]?.etag ?? "",
    readiness: readiness(site.manifest, nowMs),
  };
}

/** "15 fresh" or "11 closed, 4 fresh": the assets by freshness state. */
export function freshnessSummary(assets: Record<string, FreshnessState>): string {
  const order: FreshnessState[] = ["fresh", "closed", "delayed", "stale"];
  const counts = new Map<FreshnessState, number>();
  for (const s of Object.values(assets)) counts.set(s, (counts.get(s) ?? 0) + 1);
  return (
    order
      .filter((s) => counts.has(s))
      .map((s) => `${counts.get(s)} ${s}`)
      .join(", ") || "no assets"
  );
}
