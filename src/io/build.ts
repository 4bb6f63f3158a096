/** The build as the CLI runs it: load `data/`, compose, validate, publish, record state and report. */
import path from "node:path";
import { promises as fs } from "node:fs";
import { composeSite, type Renderer, type Site } from "../feed/site.js";
import { dataPaths, loadDataset, loadState } from "./data.js";
import { ClosedDays } from "./closed-days.js";
import { loadChangelog } from "./changelog.js";
import { SiteFolder, writeReport, writeState } from "./site-writer.js";
import { compactDays, daySummary, historyText, summaryText } from "../rules/compact.js";
import { recordOf } from "../core/dataset.js";
import { dayFiles } from "./day-files.js";
import { sha256Hex, writeFileAtomic } from "./files.js";
import { apiRenderers } from "../api/renderers.js";
import { methodologyHtml as renderedMethodology } from "../api/pages/methodology-html.js";
import { cairoDate } from "../core/cairo.js";
import { loadSourceRuns } from "./source-runs.js";
import { acquireBuildLock, assertNotOlder, cleanPublishLeftovers } from "./build-lock.js";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import type { Hashing } from "../core/canonical.js";

/** The rulebook the docs page renders, from the package root (as CHANGELOG_FILE). */
export const METHODOLOGY_FILE = fileURLToPath(new URL("../../docs/methodology.md", import.meta.url));

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  nowMs: number;
  renderers?: readonly Renderer[];
  /** Publish even over a site built at a later instant (a rollback). */
  force?: boolean;
  /** How long to wait for another build into the same folder (build-lock.ts LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** false: read data/state/ (published.json, closed-days/) but do not rewrite it (a local build; the hourly job commits it). */
  saveState?: boolean;
}

/**
 * Under the output folder's lock (build-lock.ts), from loading to the report: two builds into one
 * folder run one after the other, the folder, the state and the report come from one build, and an
 * earlier --now never replaces a later one.
 */
export async function runBuild(o: BuildOptions): Promise<{ site: Site; reportFile: string; closedDaysUsed: number }> {
  const release = await acquireBuildLock(o.outDir, o.nowMs, o.lockWaitMs);
  try {
    if (!o.force) await assertNotOlder(o.outDir, o.nowMs);
    await cleanPublishLeftovers(o.outDir);
    return await buildUnlocked(o);
  } finally {
    await release();
  }
}

async function buildUnlocked(o: BuildOptions): Promise<{ site: Site; reportFile: string; closedDaysUsed: number }> {
  const closedDays = await ClosedDays.open(o.dataDir);
  const [dataset, changelog, previous, methodologyHtml, sourceRuns] = await Promise.all([
    loadDataset(o.dataDir, { upTo: cairoDate(o.nowMs), bounded: true, closeAt: o.nowMs, closedDays }),
    loadChangelog(),
    loadState(o.dataDir),
    fs.readFile(METHODOLOGY_FILE, "utf8").then(renderedMethodology),
    loadSourceRuns(o.dataDir),
  ]);
  const folder = await SiteFolder.open(o.outDir);
  let site: Site;
  try {
    site = await composeSite(
      { dataset, changelog, nowMs: o.nowMs, previous, methodologyHtml, sourceRuns },
      folder,
      o.renderers ?? apiRenderers,
      nodeHashing,
    );
    await folder.commit(site.manifest);
  } catch (e) {
    await folder.abort();
    throw e;
  }
  if (o.saveState !== false) {
    await writeState(dataPaths(o.dataDir).state, site);
    await closedDays.save(new Set(dataset.quoteDays.map((d) => d.date)));
  }
  const reportFile = await writeReport(o.outDir, site);
  return { site, reportFile, closedDaysUsed: closedDays.used };
}

/** core/canonical.ts Hashing with Node's crypto and Buffer: the same ETags and lengths as webHashing (tested). */
export const nodeHashing: Hashing = {
  etag: (text) => `"${createHash("sha256").update(text, "utf8").digest("base64url")}"`,
  byteLength: (text) => Buffer.byteLength(text, "utf8"),
};

/**
 * Compacts raw quote days past retention: history first, then its summary, then the raw file goes (an
 * interruption leaves at worst a day without summary, which a build reads in full, and the next
 * compact writes). Then every history day's summary is made true again: written where missing or
 * stale, removed where its history day is gone (src/schema/inputs.ts DaySummary).
 */
export async function runCompact(dataDir: string, nowMs: number) {
  const p = dataPaths(dataDir);
  const ds = await loadDataset(dataDir);
  const days = compactDays(ds, nowMs);
  const summaryFile = (date: string) => path.join(p.summaries, `${date}.json`);
  for (const d of days) {
    const text = historyText(d.closes);
    await writeFileAtomic(path.join(p.history, `${d.date}.ndjson`), text);
    await writeFileAtomic(
      summaryFile(d.date),
      summaryText(daySummary(d.date, sha256Hex(text), d.closes.map(recordOf))),
    );
    await fs.rm(d.rawFile);
  }
  const summaries = { written: 0, removed: 0 };
  // The history days there are now: those read, and those just compacted (their summaries are written).
  const historyDates = new Set([...ds.historyDays, ...days].map((h) => h.date));
  for (const h of ds.historyDays) {
    const want = summaryText(daySummary(h.date, sha256Hex(await fs.readFile(h.file)), h.records));
    const have = await fs.readFile(summaryFile(h.date), "utf8").catch(() => null);
    if (have === want) continue;
    await writeFileAtomic(summaryFile(h.date), want);
    summaries.written++;
  }
  for (const s of await dayFiles(p.summaries, "json"))
    if (!historyDates.has(s.date)) {
      await fs.rm(s.file);
      summaries.removed++;
    }
  return { days, summaries };
}
