/** The build as the CLI runs it: load `data/`, compose, validate, publish, record state and report. */
import path from "node:path";
import { promises as fs } from "node:fs";
import { composeSite, type Renderer, type Site } from "../feed/site.js";
import { dataPaths, loadDataset, loadState } from "./data.js";
import { loadChangelog } from "./changelog.js";
import { publishSite, writeReport, writeState } from "./site-writer.js";
import { compactDays, historyText } from "../rules/compact.js";
import { writeFileAtomic } from "./files.js";
import { apiRenderers } from "../api/renderers.js";
import { cairoDate } from "../core/cairo.js";

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  nowMs: number;
  renderers?: readonly Renderer[];
}

export async function runBuild(o: BuildOptions): Promise<{ site: Site; reportFile: string }> {
  const [dataset, changelog, previous] = await Promise.all([loadDataset(o.dataDir, { upTo: cairoDate(o.nowMs) }), loadChangelog(), loadState(o.dataDir)]);
  const site = await composeSite({ dataset, changelog, nowMs: o.nowMs, previous }, o.renderers ?? apiRenderers);
  await publishSite(o.outDir, site);
  await writeState(dataPaths(o.dataDir).state, site);
  const reportFile = await writeReport(o.outDir, site);
  return { site, reportFile };
}

/** Compacts raw quote days past retention: history first, then the raw file goes. */
export async function runCompact(dataDir: string, nowMs: number) {
  const ds = await loadDataset(dataDir);
  const days = compactDays(ds, nowMs);
  for (const d of days) {
    await writeFileAtomic(path.join(dataPaths(dataDir).history, `${d.date}.ndjson`), historyText(d.closes));
    await fs.rm(d.rawFile);
  }
  return days;
}
