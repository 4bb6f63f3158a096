/**
 * data/state/sources.json: ingest's record of each source's last run, last success and last failure,
 * read by the build for /api/v1/sources.json. Missing file: no run recorded yet.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { SourceRuns, type SourceRun } from "../schema/documents.js";
import { writeFileAtomic } from "./atomic-write.js";
import { dataPaths } from "../core/data-layout.js";
import { readJsonOr } from "./json-file.js";
import { redactUrls } from "../core/redact.js";
import { publishedUnknown, recordUnknown, type UnknownNames } from "../core/unknown-names.js";

export function loadSourceRuns(dataDir: string): Promise<SourceRuns> {
  return readJsonOr(dataPaths(dataDir).sourceRuns, SourceRuns, { sources: {} }, dataDir);
}

export interface RunOutcome {
  id: string;
  ok: boolean;
  error?: string | null;
  /** The seller names a successful run met that the registry does not know. */
  unknownSellers?: readonly string[];
}

/**
 * The record after one ingest run at `at`: a success clears nothing but the failure's recency.
 * Every reason kept, this run's and those an older ingest stored, loses its URLs' userinfo, query
 * and fragment (src/core/redact.ts): the file is committed, and published by the build.
 */
export function recordRuns(prev: SourceRuns, outcomes: readonly RunOutcome[], at: string): SourceRuns {
  const sources = Object.fromEntries(
    Object.entries(prev.sources).map(([id, run]) => [
      id,
      run.lastFailure
        ? { ...run, lastFailure: { ...run.lastFailure, reason: redactUrls(run.lastFailure.reason) } }
        : run,
    ]),
  );
  for (const o of outcomes) {
    const before = sources[o.id];
    sources[o.id] = {
      lastRunAt: at,
      lastSuccessAt: o.ok ? at : (before?.lastSuccessAt ?? null),
      lastFailure: o.ok ? (before?.lastFailure ?? null) : { at, reason: redactUrls(o.error ?? "failed") },
      // As of its last successful run: a failed run read no name, so the last list stands. Each name
      // counted (how many runs in a row, since when) and the list bounded: src/core/unknown-names.ts.
      ...unknownFields(
        o.ok
          ? recordUnknown(before && publishedUnknown(before), o.unknownSellers ?? [], at)
          : before && publishedUnknown(before),
      ),
      // Where this run of failures began, for `price-feed health`'s failures in a row (src/feed/health.ts).
      ...(o.ok ? {} : { failingSince: before ? failingSinceOf(before, at) : at }),
    };
  }
  return { sources: Object.fromEntries(Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/**
 * The first failed run of the failures that a failing run at `at` continues: the record's own
 * `failingSince`; for a record an older ingest wrote without it, its last failure when that came after
 * its last success (the run after a success is the first that can fail); else this run.
 */
function failingSinceOf(before: SourceRuns["sources"][string], at: string): string {
  const failing =
    before.lastFailure !== null &&
    (before.lastSuccessAt === null || Date.parse(before.lastFailure.at) > Date.parse(before.lastSuccessAt));
  if (!failing) return at;
  return before.failingSince ?? before.lastFailure!.at;
}

/** A record's unknown names as the state file keeps them: absent when there is none. */
function unknownFields(u: UnknownNames | undefined): Pick<SourceRun, "unknownNames" | "unknownMore"> {
  if (!u?.names.length) return {};
  return { unknownNames: u.names, ...(u.more ? { unknownMore: u.more } : {}) };
}

export async function writeSourceRuns(dataDir: string, runs: SourceRuns): Promise<void> {
  const file = dataPaths(dataDir).sourceRuns;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(runs, null, 1)}\n`);
}
