/**
 * The layout of a data folder (`data/`), in one place: every job that reads or writes it (build,
 * compact, ingest, init, demo, sample) takes its paths from here, as src/feed/paths.ts is the one
 * description of the output. docs/data-formats.md describes each file's format. (It joins paths with
 * node:path, so the edge, which reads no data folder, never imports it.)
 *
 *   assets.json sellers.json calendar.json site.json sources.json   the configuration
 *   quotes/ official/ global/    <YYYY-MM-DD>.ndjson day logs that ingest appends to
 *   history/                     <YYYY-MM-DD>.ndjson daily closes of compacted days
 *   summaries/                   <YYYY-MM-DD>.json   what a build reads of a history day (a cache)
 *   state/published.json         the ETags and Last-Modified last published
 *   state/sources.json           each source's last run, success and failure
 *   state/closed-days/           raw days already closed by a build (a cache)
 */
import path from "node:path";

/** The configuration files, as `init` copies them from its template. */
export const CONFIG_FILES = {
  catalog: "assets.json",
  registry: "sellers.json",
  calendar: "calendar.json",
  site: "site.json",
  sources: "sources.json",
} as const;

/** The day logs that ingest appends to, one per kind of observation (src/ingest/log.ts LogKind). */
export const LOG_FOLDERS = { quotes: "quotes", official: "official", global: "global" } as const;

/** Every folder of a data folder. */
export const FOLDERS = { ...LOG_FOLDERS, history: "history", summaries: "summaries", state: "state" } as const;

/** Every folder, as `init` creates them (each kept in git by a .gitkeep). */
export const DATA_FOLDERS = Object.values(FOLDERS);

/** The folders a regenerated market replaces (everything but the configuration and the summaries' cache). */
export const GENERATED_FOLDERS = [...Object.values(LOG_FOLDERS), FOLDERS.history, FOLDERS.state];

export interface DataPaths {
  catalog: string;
  registry: string;
  calendar: string;
  site: string;
  sources: string;
  quotes: string;
  official: string;
  global: string;
  history: string;
  summaries: string;
  /** state/published.json */
  state: string;
  /** state/sources.json */
  sourceRuns: string;
  /** state/closed-days/ */
  closedDays: string;
}

export function dataPaths(dir: string): DataPaths {
  const state = path.join(dir, FOLDERS.state);
  return {
    catalog: path.join(dir, CONFIG_FILES.catalog),
    registry: path.join(dir, CONFIG_FILES.registry),
    calendar: path.join(dir, CONFIG_FILES.calendar),
    site: path.join(dir, CONFIG_FILES.site),
    sources: path.join(dir, CONFIG_FILES.sources),
    quotes: path.join(dir, LOG_FOLDERS.quotes),
    official: path.join(dir, LOG_FOLDERS.official),
    global: path.join(dir, LOG_FOLDERS.global),
    history: path.join(dir, FOLDERS.history),
    summaries: path.join(dir, FOLDERS.summaries),
    state: path.join(state, "published.json"),
    sourceRuns: path.join(state, "sources.json"),
    closedDays: path.join(state, "closed-days"),
  };
}

/** A day file of a folder of the data: `<folder>/<YYYY-MM-DD>.ndjson` (or `.json` for summaries). */
export const dayFile = (folder: string, date: string, ext: "ndjson" | "json" = "ndjson") =>
  path.join(folder, `${date}.${ext}`);

/** A day log's name relative to the data folder, `quotes/2026-11-21.ndjson`, as ingest and the sample name them. */
export const dayLogName = (folder: string, date: string, ext: "ndjson" | "json" = "ndjson") =>
  `${folder}/${date}.${ext}`;
