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
import { UsageError, errnoIs } from "../core/errors.js";
import { instantString } from "../core/cairo.js";
import { removeTree, shellWord } from "./atomic-write.js";
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
  // A swap interrupted between its two renames left no folder: the site cleanPublishLeftovers puts back is the one published.
  const restore = await toRestore(outDir);
  const published = await publishedAt(restore ?? outDir, manifest);
  if (published !== null && published > nowMs)
    throw new UsageError(
      `${path.resolve(outDir)}${restore ? ` (set aside as ${restore} by an interrupted build)` : ""} holds a build made at ${instantString(published)}, later than this build's --now ${instantString(nowMs)}: an older build never replaces a newer one`,
      { hint: "build with a later --now, or pass --force to publish this one anyway (a rollback)" },
    );
}

/** The folders beside the site that only save a build time (src/incremental/archive-cache.ts, src/jobs/card-images.ts). */
export const SITE_CACHES = ["archive-cache", "card-cache"] as const;

/** `<out>.<suffix>`: a file or folder kept beside the output folder (its lock, its caches). */
export const besideSite = (outDir: string, suffix: string) => `${path.resolve(outDir)}.${suffix}`;

interface Leftover {
  full: string;
  kind: "tmp" | "old";
  pid: number;
}

/** The `<out>.tmp-<pid>` and `<out>.old-<pid>` beside the output folder (src/io/site-writer.ts SiteFolder). */
async function leftovers(outDir: string): Promise<Leftover[]> {
  const out = path.resolve(outDir);
  const dir = path.dirname(out);
  const re = new RegExp(`^${path.basename(out).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(tmp|old)-(\\d+)$`);
  const found: Leftover[] = [];
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    const m = re.exec(name);
    if (m) found.push({ full: path.join(dir, name), kind: m[1] as "tmp" | "old", pid: Number(m[2]) });
  }
  return found;
}

/**
 * The published site to put back when there is no output folder but an `<out>.old-<pid>` folder: a
 * swap killed between its two renames (SiteFolder.commit) left the site it was replacing there,
 * whole (its removal only begins once the new one is in place). Of several, the last renamed.
 */
async function toRestore(outDir: string): Promise<string | null> {
  if (
    await fs.lstat(outDir).then(
      () => true,
      () => false,
    )
  )
    return null;
  let best: { full: string; at: number } | null = null;
  for (const l of await leftovers(outDir)) {
    if (l.kind !== "old") continue;
    const st = await fs.lstat(l.full).catch(() => null);
    if (st?.isDirectory() && (!best || st.ctimeMs > best.at)) best = { full: l.full, at: st.ctimeMs };
  }
  return best?.full ?? null;
}

/**
 * Under the lock, before anything is read, puts right what an interrupted build left beside the
 * output folder, each said in one line on stderr and returned, for the build report's warnings
 * (docs/operating.md "What can go wrong"):
 *
 * - no output folder but an `<out>.old-<pid>`: the swap was killed between its renames; the site
 *   it held is put back in place;
 * - every `<out>.tmp-<pid>` and `<out>.old-<pid>` is removed. The lock is ours, so no build that
 *   runs owns one, whatever its process id says (ids are reused: a container's build may get the
 *   very id of the killed one). A folder in it without write permission is made writable first
 *   (atomic-write.ts removeTree); one that still cannot be removed stops the build with the command
 *   that removes it, rather than fill the disk one site at a time;
 * - a cache beside the site (SITE_CACHES) that is not a folder — a file, a dangling link — is
 *   removed: the build makes the cache again (the first build after it takes longer).
 */
export async function cleanPublishLeftovers(outDir: string): Promise<string[]> {
  const out = path.resolve(outDir);
  const said: string[] = [];
  const say = (line: string) => {
    console.error(`price-feed: ${line}`);
    said.push(line);
  };
  const restore = await toRestore(out);
  if (restore) {
    await fs.rename(restore, out).catch((e: unknown) => {
      throw new UsageError(`cannot put back ${out} from ${restore}, left by an interrupted build: ${reason(e, out)}`, {
        hint: `put it back by hand (mv ${shellWord(restore)} ${shellWord(out)}), then build again`,
      });
    });
    say(`put back ${out} from ${restore}: a build was interrupted while it swapped the site in`);
  }
  for (const l of await leftovers(out)) {
    let madeWritable: boolean;
    try {
      ({ madeWritable } = await removeTree(l.full));
    } catch (e) {
      throw new UsageError(
        `cannot remove ${l.full}, left by an interrupted build (process ${l.pid}): ${reason(e, l.full)}`,
        {
          hint: `remove it by hand (chmod -R u+w ${shellWord(l.full)} && rm -rf ${shellWord(l.full)}, as its owner or with sudo), then build again`,
        },
      );
    }
    say(
      `removed ${l.full}, left by an interrupted build (process ${l.pid})${madeWritable ? "; it held read-only folders, made writable first" : ""}`,
    );
  }
  for (const suffix of SITE_CACHES) {
    const cache = besideSite(out, suffix);
    const st = await fs.lstat(cache).catch(() => null);
    if (!st || (await fs.stat(cache).catch(() => null))?.isDirectory()) continue;
    try {
      await fs.rm(cache, { force: true });
    } catch (e) {
      throw new UsageError(`${cache}: is not a folder, and cannot be removed: ${reason(e, cache)}`, {
        hint: `remove it by hand (rm ${shellWord(cache)}); the next build makes the cache again`,
      });
    }
    say(
      `removed ${cache}: a ${st.isSymbolicLink() ? "link" : "file"} where the cache folder goes; the cache is made again`,
    );
  }
  return said;
}

/** What an error of the file system says, with the path it names when that is another. */
function reason(e: unknown, p: string): string {
  const err = e as NodeJS.ErrnoException;
  const what = errnoIs(e) ?? err?.code ?? String(e);
  return typeof err?.path === "string" && path.resolve(err.path) !== path.resolve(p) ? `${err.path} ${what}` : what;
}
