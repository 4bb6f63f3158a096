/**
 * `price-feed health`: reads what the deployment keeps — data/'s configuration, each source's runs
 * (data/state/sources.json), probation standing (data/state/probation.json), the last build's outcome
 * (data/state/build.json), the published manifest — and judges it with src/feed/health.ts. Reading
 * only: it writes nothing, so it can run at any time beside the hourly job.
 *
 * In process (the rehearsal checks health over simulated days with it): `checkHealth({ dataDir,
 * outDir, nowMs })` gives the HealthReport; `report.problems.length > 0` is the CLI's exit 3.
 */
import path from "node:path";
import { loadConfig } from "../io/config-files.js";
import { loadSourceRuns } from "../io/source-runs.js";
import { loadProbation } from "../io/probation-state.js";
import { loadBuildOutcome } from "../io/build-outcome.js";
import { loadSourceAssets } from "../io/source-assets.js";
import { readJsonOr } from "../io/json-file.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/documents.js";
import { FAILING_AFTER_HOURS, judgeHealth, type HealthReport } from "../feed/health.js";

export interface HealthOptions {
  dataDir: string;
  /** The published site's folder (the build's --out): its manifest is what /readyz judges. */
  outDir: string;
  nowMs: number;
  /** In-session failed runs in a row that make a problem; FAILING_AFTER_HOURS when not given. */
  afterHours?: number;
  /** How the hourly run's publish job ended (the workflow's needs.publish.result), when known. */
  publishResult?: string | null;
}

export async function checkHealth(o: HealthOptions): Promise<HealthReport> {
  const manifestFile = path.join(o.outDir, MANIFEST_FILE);
  const [config, runs, probation, build, sourceAssets, manifest] = await Promise.all([
    loadConfig(o.dataDir),
    loadSourceRuns(o.dataDir),
    loadProbation(o.dataDir),
    loadBuildOutcome(o.dataDir),
    loadSourceAssets(o.dataDir),
    readJsonOr<Manifest | null>(manifestFile, Manifest, null),
  ]);
  return judgeHealth({
    nowMs: o.nowMs,
    afterHours: o.afterHours ?? FAILING_AFTER_HOURS,
    sources: config.sources.sources,
    catalog: config.catalog,
    calendar: config.calendar,
    runs,
    probation,
    sourceAssets,
    manifest,
    site: o.outDir,
    build,
    publishResult: o.publishResult ?? null,
  });
}
