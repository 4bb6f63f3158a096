/**
 * data/state/events.json (docs/methodology.md §12): the summary of what the last build published and
 * the events kept. The hourly job's build rewrites it and commits it with the rest of data/, so the
 * next run's clean checkout goes on from it; a `--no-state` build reads it and leaves it as it is.
 */
import { dataPaths } from "../core/data-layout.js";
import { EventsState } from "../schema/events.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readJsonOr } from "./json-file.js";

/** The record the last build left; undefined for a first build, which starts from none and derives no events. */
export function loadEvents(dir: string): Promise<EventsState | undefined> {
  return readJsonOr<EventsState | undefined>(dataPaths(dir).events, EventsState, undefined, dir);
}

/** Records a build's events and summary for the next build. */
export async function writeEvents(dir: string, state: EventsState): Promise<void> {
  await writeFileAtomic(dataPaths(dir).events, `${JSON.stringify(state, null, 1)}\n`);
}
