/** data/state/published.json: what was last published, so that ETags and Last-Modified survive rebuilds. */
import { PublishedState } from "../schema/documents.js";
import { dataPaths } from "../core/data-layout.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readJsonOr } from "./json-file.js";

/** What was last published; a first build starts from nothing. */
export function loadState(dir: string): Promise<PublishedState> {
  return readJsonOr(dataPaths(dir).state, PublishedState, { files: {} }, dir);
}

/** Records what a build published, for the next build (the hourly job commits it). */
export async function writeState(dataDir: string, state: PublishedState): Promise<void> {
  await writeFileAtomic(dataPaths(dataDir).state, `${JSON.stringify(state, null, 1)}\n`);
}
