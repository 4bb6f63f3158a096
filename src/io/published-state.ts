/** data/state/published.json: what was last published, so that ETags and Last-Modified survive rebuilds. */
import { promises as fs } from "node:fs";
import type { Site } from "../feed/site.js";
import { PublishedState } from "../schema/documents.js";
import { dataPaths } from "../core/data-layout.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readJson } from "./json-file.js";

/** What was last published; a first build starts from nothing. */
export async function loadState(dir: string): Promise<PublishedState> {
  const file = dataPaths(dir).state;
  try {
    await fs.access(file);
  } catch {
    return { files: {} };
  }
  return readJson(file, PublishedState, dir);
}

/** Records what a build published, for the next build (the hourly job commits it). */
export async function writeState(dataDir: string, site: Site): Promise<void> {
  await writeFileAtomic(dataPaths(dataDir).state, `${JSON.stringify(site.state, null, 1)}\n`);
}
