/**
 * data/state/build.json (src/schema/health.ts BuildOutcome): the last build's outcome, written by
 * every build that keeps state, built or refused, and read by `price-feed health`. A refused build
 * publishes nothing and commits nothing else, so this file is how the hourly job's health step, run
 * after it on the same runner, learns that it was refused and why (.github/workflows/publish.yml).
 */
import { existsSync, statSync } from "node:fs";
import { promises as fs } from "node:fs";
import path from "node:path";
import { BuildOutcome } from "../schema/health.js";
import { dataPaths } from "../core/data-layout.js";
import { redactUrls } from "../core/redact.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readJsonOr } from "./json-file.js";

export function loadBuildOutcome(dataDir: string): Promise<BuildOutcome | null> {
  return readJsonOr<BuildOutcome | null>(dataPaths(dataDir).buildOutcome, BuildOutcome, null, dataDir);
}

/** The first line of an error's message, its URLs' secrets removed (src/core/redact.ts): what the record keeps. */
export function refusalReason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const first = message.split("\n").find((l) => l.trim() !== "") ?? "the build failed";
  return redactUrls(first.trim()).slice(0, 500);
}

/** The outcome of a build at `atMs`: `error` undefined when it was published, else why it was refused. */
export function outcomeOf(prev: BuildOutcome | null, atMs: number, error?: unknown): BuildOutcome {
  const at = new Date(atMs).toISOString();
  return error === undefined
    ? { at, outcome: "built", reason: null, lastBuiltAt: at }
    : { at, outcome: "refused", reason: refusalReason(error), lastBuiltAt: prev?.lastBuiltAt ?? null };
}

/**
 * Writes the record when the data folder is there and its state/ is a folder or absent: a build
 * refused for a missing --data, or a state/ that is a file, leaves nothing to record into.
 */
export async function writeBuildOutcome(dataDir: string, outcome: BuildOutcome): Promise<boolean> {
  const file = dataPaths(dataDir).buildOutcome;
  const state = path.dirname(file);
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) return false;
  if (existsSync(state) && !statSync(state).isDirectory()) return false;
  await fs.mkdir(state, { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(outcome, null, 1)}\n`);
  return true;
}
