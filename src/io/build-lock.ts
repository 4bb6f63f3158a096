/**
 * One build at a time per output folder, and never an older one over a newer one (docs/operating.md "What
 * can go wrong"). A build takes `<out>.lock` beside the folder — created with O_CREAT|O_EXCL, so exactly
 * one process gets it — holding its pid and `--now`; another build into the same folder waits for it
 * (up to `waitMs`), then fails with a message naming the holder. A lock whose process is gone is
 * taken over. Under the lock, the build compares its `--now` with the `generatedAt` of the published
 * manifest: an earlier one refuses to publish, unless forced.
 *
 * The lock is for builds on one machine (the pid says whether its holder lives); the hourly job also
 * runs one at a time (its concurrency group).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { instantString } from "../core/cairo.js";
import { TEMP_MAX_AGE_MS, processAlive } from "./day-files.js";
import { acquireLockFile, type LockOwner } from "./lock-file.js";

export const LOCK_WAIT_MS = 60_000;

interface Owner extends LockOwner {
  now: string;
}

export const lockPath = (outDir: string) => `${path.resolve(outDir)}.lock`;

/** Takes the lock of `outDir` for a build at `nowMs` (src/io/lock-file.ts); resolves to its release. */
export async function acquireBuildLock(
  outDir: string,
  nowMs: number,
  waitMs = LOCK_WAIT_MS,
): Promise<() => Promise<void>> {
  const file = lockPath(outDir);
  const me: Owner = { pid: process.pid, now: instantString(nowMs), startedAt: new Date().toISOString() };
  return acquireLockFile(file, me, {
    waitMs,
    leftBy: () => "a build",
    busy: (holder) => {
      const who = holder
        ? `process ${holder.pid}, building at --now ${holder.now}, since ${holder.startedAt}`
        : "a process that has not said who it is";
      return new UsageError(
        `another build is writing into ${path.resolve(outDir)} (${who}); waited ${Math.round(waitMs / 1000)} s`,
        { hint: `run the builds one after the other; if no build runs, delete ${file}` },
      );
    },
  });
}

/** The instant of the build published in `outDir` (its manifest's generatedAt, `manifest` its path in it), or null when none is. */
export async function publishedAt(outDir: string, manifest: string): Promise<number | null> {
  try {
    const m = JSON.parse(await fs.readFile(path.join(outDir, manifest), "utf8")) as { generatedAt?: unknown };
    const ms = typeof m.generatedAt === "string" ? Date.parse(m.generatedAt) : NaN;
    return Number.isFinite(ms) ? ms : null;
  } catch {
    return null;
  }
}

/**
 * Refuses to replace a site built at a later instant: the hourly job's builds may finish out of
 * order, and the later --now must win. Equal instants rebuild (the same inputs give the same bytes).
 */
export async function assertNotOlder(outDir: string, manifest: string, nowMs: number): Promise<void> {
  const published = await publishedAt(outDir, manifest);
  if (published !== null && published > nowMs)
    throw new UsageError(
      `${path.resolve(outDir)} holds a build made at ${instantString(published)}, later than this build's --now ${instantString(nowMs)}: an older build never replaces a newer one`,
      { hint: "build with a later --now, or pass --force to publish this one anyway (a rollback)" },
    );
}

/**
 * Folders an interrupted publish left beside the output (`<out>.tmp-<pid>`, `<out>.old-<pid>`),
 * removed under the lock when their process is gone or they are old.
 */
export async function cleanPublishLeftovers(outDir: string): Promise<void> {
  const out = path.resolve(outDir);
  const dir = path.dirname(out);
  const re = new RegExp(`^${path.basename(out).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(?:tmp|old)-(\\d+)$`);
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    const m = re.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    const full = path.join(dir, name);
    const st = await fs.lstat(full).catch(() => null);
    if (!st) continue;
    if (!processAlive(Number(m[1])) || Date.now() - st.mtimeMs > TEMP_MAX_AGE_MS)
      await fs.rm(full, { recursive: true, force: true });
  }
}
