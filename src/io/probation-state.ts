/**
 * data/state/probation.json (docs/methodology.md "New sources: probation"): where each new source
 * stands. Missing file: no run recorded yet, so every subject source is on probation. It is the
 * record, written by ingest under the data folder's lock; the build and `compact` only read it.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { ProbationState } from "../schema/probation.js";
import { writeFileAtomic } from "./atomic-write.js";
import { dataPaths } from "../core/data-layout.js";
import { readJsonOr } from "./json-file.js";

export function loadProbation(dataDir: string): Promise<ProbationState> {
  return readJsonOr(dataPaths(dataDir).probation, ProbationState, { sources: {} }, dataDir);
}

export async function writeProbation(dataDir: string, state: ProbationState): Promise<void> {
  const file = dataPaths(dataDir).probation;
  await fs.mkdir(path.dirname(file), { recursive: true });
  const sources = Object.fromEntries(Object.entries(state.sources).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFileAtomic(file, `${JSON.stringify({ sources }, null, 1)}\n`);
}
