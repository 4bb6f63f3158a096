/**
 * data/state/events.json (docs/methodology.md §12): the summary of what the last build published and
 * the events kept. The hourly job's build rewrites it and commits it with the rest of data/, so the
 * next run's clean checkout goes on from it; a `--no-state` build reads it and leaves it as it is.
 * Beside it, what the site being replaced published (its feed, source health and events), for the
 * build to go on from when that is newer (src/feed/events.ts startingRecord).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { dataPaths } from "../core/data-layout.js";
import { DataError } from "../core/errors.js";
import { Events, EventsState } from "../schema/events.js";
import { Feed } from "../schema/outputs.js";
import { SourceHealth } from "../schema/documents.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readJsonOr } from "./json-file.js";

/**
 * The record the last build left; undefined for a first build, which starts from none and derives no
 * events. An unreadable record is not the build's to stop on (the published site holds its events):
 * `problem` says why it was not read, and the build goes on without it.
 */
export async function loadEvents(dir: string): Promise<{ state?: EventsState; problem?: string }> {
  try {
    const state = await readJsonOr<EventsState | undefined>(dataPaths(dir).events, EventsState, undefined, dir);
    return state ? { state } : {};
  } catch (e) {
    if (e instanceof DataError) return { problem: e.message };
    throw e;
  }
}

/** Records a build's events and summary for the next build. */
export async function writeEvents(dir: string, state: EventsState): Promise<void> {
  await writeFileAtomic(dataPaths(dir).events, `${JSON.stringify(state, null, 1)}\n`);
}

/**
 * What the site in `outDir` published: its feed, source health and events; undefined when there is
 * no site or any of them cannot be read as its schema says (then the state alone is the record).
 */
export async function loadPublishedEvents(
  outDir: string,
): Promise<{ feed: Feed; sources: SourceHealth; events: Events["events"] } | undefined> {
  const read = (f: string) => fs.readFile(path.join(outDir, f), "utf8").then((t) => JSON.parse(t) as unknown);
  try {
    const [feed, sources, events] = await Promise.all([
      read("api/v1/feed.json"),
      read("api/v1/sources.json"),
      read("api/v1/events.json"),
    ]);
    return { feed: Feed.parse(feed), sources: SourceHealth.parse(sources), events: Events.parse(events).events };
  } catch {
    return undefined; // no site yet, or one of another shape: nothing to go on from
  }
}
