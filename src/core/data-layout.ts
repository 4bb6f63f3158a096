/**
 * The layout of a data folder (`data/`), in one place: every job that reads or writes it (build,
 * compact, ingest, init, demo, sample) takes its paths from here, as src/feed/paths.ts is the one
 * description of the output. docs/data-formats.md describes each file's format. Like the rest of
 * src/core it imports nothing from node:, so it joins paths itself (joinPath, as node:path's posix
 * join does; Node's file functions take "/" on every system).
 *
 *   assets.json sellers.json calendar.json site.json sources.json   the configuration
 *   quotes/ official/ global/    <YYYY-MM-DD>.ndjson day logs that ingest appends to
 *   history/                     <YYYY-MM-DD>.ndjson daily closes of compacted days
 *   summaries/                   <YYYY-MM-DD>.json   what a build reads of a history day (a cache)
 *   state/published.json         the ETags and Last-Modified last published
 *   state/sources.json           each source's last run, success and failure
 *   state/events.json            what the last build published, summarized, and the events kept
 *   state/probation.json         where each new source stands on probation (the record, not a cache)
 *   state/build.json             the last build's outcome: built or refused, and why (read by `health`)
 *   state/closed-days/           raw days already closed by a build (a cache)
 *   state/archive/               what the archive keeps of each compacted day (a cache)
 */
/**
 * node:path's posix join: the parts joined with "/", then "." and empty segments dropped and each
 * ".." taking its parent away (kept at the start of a relative path); "." for nothing left.
 */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  if (joined === "") return ".";
  const absolute = joined.startsWith("/");
  const out: string[] = [];
  for (const seg of joined.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (seg !== ".." || !absolute) out.push(seg);
  }
  const body = out.join("/");
  const trailing = joined.endsWith("/");
  if (body === "") return absolute ? "/" : trailing ? "./" : ".";
  return `${absolute ? "/" : ""}${body}${trailing ? "/" : ""}`;
}

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
  /** state/events.json (docs/methodology.md §12) */
  events: string;
  /** state/probation.json (docs/methodology.md "New sources: probation") */
  probation: string;
  /** state/build.json: the last build's outcome (src/io/build-outcome.ts), read by `price-feed health` */
  buildOutcome: string;
  /** state/closed-days/ */
  closedDays: string;
  /** state/archive/ */
  archive: string;
  /** keys.json: the public keys that may sign a build (optional; docs/deployment.md "Signed builds") */
  keys: string;
}

export function dataPaths(dir: string): DataPaths {
  const state = joinPath(dir, FOLDERS.state);
  return {
    catalog: joinPath(dir, CONFIG_FILES.catalog),
    registry: joinPath(dir, CONFIG_FILES.registry),
    calendar: joinPath(dir, CONFIG_FILES.calendar),
    site: joinPath(dir, CONFIG_FILES.site),
    sources: joinPath(dir, CONFIG_FILES.sources),
    quotes: joinPath(dir, LOG_FOLDERS.quotes),
    official: joinPath(dir, LOG_FOLDERS.official),
    global: joinPath(dir, LOG_FOLDERS.global),
    history: joinPath(dir, FOLDERS.history),
    summaries: joinPath(dir, FOLDERS.summaries),
    state: joinPath(state, "published.json"),
    sourceRuns: joinPath(state, "sources.json"),
    events: joinPath(state, "events.json"),
    probation: joinPath(state, "probation.json"),
    buildOutcome: joinPath(state, "build.json"),
    closedDays: joinPath(state, "closed-days"),
    archive: joinPath(state, "archive"),
    keys: joinPath(dir, "keys.json"),
  };
}

/** A day file of a folder of the data: `<folder>/<YYYY-MM-DD>.ndjson` (or `.json` for summaries). */
export const dayFile = (folder: string, date: string, ext: "ndjson" | "json" = "ndjson") =>
  joinPath(folder, `${date}.${ext}`);

/** A day log's name relative to the data folder, `quotes/2026-11-21.ndjson`, as ingest and the sample name them. */
export const dayLogName = (folder: string, date: string, ext: "ndjson" | "json" = "ndjson") =>
  `${folder}/${date}.${ext}`;
