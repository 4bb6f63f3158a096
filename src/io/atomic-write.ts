/**
 * Whole-file writes that a reader never sees half done, and write errors that name their path.
 *
 * Node's errors of a `write(2)` carry no path (only those of `open(2)`, `rename(2)`… do): a full disk
 * during a write reached the user as "unexpected error: ENOSPC … this is a bug". Every write of
 * data/ and of the site goes through here, or wraps its error with `writeFailure`, so a full disk, a
 * read-only one or a permission is one line naming the file (src/core/errors.ts WriteError).
 */
import { promises as fs, statSync } from "node:fs";
import path from "node:path";
import { UsageError, WRITE_FAULT_CODES, WriteError } from "../core/errors.js";

/**
 * The error to throw for a write of `file` that failed with `e`: a WriteError naming the file when
 * the cause is the disk or a permission (WRITE_FAULT_CODES); a UsageError naming the plain file
 * that stands where a folder is made or written into (notAFolder); else `e` as it was.
 */
export function writeFailure(file: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string" && WRITE_FAULT_CODES.has(code)) return new WriteError(file, code, { cause: e });
  return notAFolder(e) ?? e;
}

/** A path as one word of a shell command line (bash, zsh): quoted only when it has to be. */
export const shellWord = (p: string) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replaceAll("'", `'\\''`)}'`);

/**
 * EEXIST from mkdir(2) of a folder that is a file, or ENOTDIR from a path through one: the file in
 * the way, named with the command that removes it (docs/operating.md "What can go wrong"). Without it
 * the message named a path that does not exist (`…/closed-days/x.json is not a folder`) or a code
 * (`failed (EEXIST)`), and every later run failed the same. Only a plain file found on the path
 * counts: anything else is left as it was.
 */
function notAFolder(e: unknown): UsageError | null {
  const err = e as NodeJS.ErrnoException & { dest?: string };
  if (err?.code !== "EEXIST" && err?.code !== "ENOTDIR") return null;
  for (const p of [err.path, err.dest]) {
    if (typeof p !== "string") continue;
    // EEXIST: the folder made is itself the file; ENOTDIR: one of the folders on the way is.
    for (let at = path.resolve(err.code === "EEXIST" ? p : path.dirname(p)); ; at = path.dirname(at)) {
      const st = statOrNull(at);
      if (st && !st.isDirectory()) return fileInTheWay(at, e);
      if (st || err.code === "EEXIST" || path.dirname(at) === at) break;
    }
  }
  return null;
}

/** The one line for a plain file at `at` where a folder goes, and the command that removes it. */
const fileInTheWay = (at: string, cause?: unknown) =>
  new UsageError(`${at}: is a file where a folder should be`, {
    hint: `nothing can be written under it: remove it (rm ${shellWord(at)}) and run the command again`,
    ...(cause !== undefined && { cause }),
  });

/**
 * Throws notAFolder's error when `p` is there and is not a folder: a command checks the folders it
 * will write into before it begins (src/jobs/build.ts, data/state/), so that it stops before it
 * publishes anything rather than after, and whatever it would have had to write.
 */
export function assertFolderOrAbsent(p: string): void {
  const st = statOrNull(p);
  if (st && !st.isDirectory()) throw fileInTheWay(path.resolve(p));
}

function statOrNull(p: string) {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/**
 * Removes a folder tree a build left behind (src/io/build-lock.ts), or a file. `rm -rf` as the
 * owner fails on a folder without write permission (chmod 0555: nothing in it can be unlinked), so
 * on EACCES or EPERM every folder of the tree is made writable by its owner (u+rwx) and the removal
 * tried again; resolves to whether that was needed. What still fails (another user's folder, a
 * read-only disk) is thrown as it came.
 */
export async function removeTree(p: string): Promise<{ madeWritable: boolean }> {
  try {
    await fs.rm(p, { recursive: true, force: true });
    return { madeWritable: false };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM") throw e;
  }
  await makeWritable(p);
  await fs.rm(p, { recursive: true, force: true });
  return { madeWritable: true };
}

/** chmod u+rwx on a folder and every folder under it (before it is listed: a 0555 or 0000 one too); links are not followed. */
export async function makeWritable(p: string): Promise<void> {
  const st = await fs.lstat(p);
  if (!st.isDirectory()) return;
  if ((st.mode & 0o700) !== 0o700) await fs.chmod(p, (st.mode & 0o7777) | 0o700);
  for (const e of await fs.readdir(p, { withFileTypes: true }))
    if (e.isDirectory()) await makeWritable(path.join(p, e.name));
}

export interface AtomicWriteOptions {
  /**
   * Flush the new file to the disk before the rename makes it the file, and the folder's entry
   * after: a crash or power loss then leaves the old content or the new, never an empty or partial
   * file (the rename alone orders nothing on ext4 and others without it; see fsync(2), rename(2)).
   * For the record itself (the day logs); a cache can be rebuilt.
   */
  durable?: boolean;
  /**
   * The temporary file's name in the target's folder: `<name>.tmp-<pid>` by default, which the
   * readers of data/ clean when its process is gone (src/io/day-files.ts). A day log that other
   * commands read while it is written uses a hidden name (`.<name>.tmp-<pid>`), which a folder's
   * listing skips, so a concurrent build never trips over it.
   */
  hidden?: boolean;
}

/** The temporary file writeFileAtomic writes `file` through. */
export const tempOf = (file: string, hidden = false) =>
  path.join(path.dirname(file), `${hidden ? "." : ""}${path.basename(file)}.tmp-${process.pid}`);

/**
 * Write-then-rename (rename(2) replaces the target atomically within a file system), so a reader
 * never sees half a file and a failed write — a full disk half-way — leaves the file as it was: the
 * temporary file is removed and the error names the target.
 */
export async function writeFileAtomic(file: string, text: string, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (e) {
    throw writeFailure(dir, e);
  }
  const tmp = tempOf(file, opts.hidden);
  try {
    if (opts.durable) {
      const handle = await fs.open(tmp, "w");
      try {
        await handle.writeFile(text);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } else await fs.writeFile(tmp, text);
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw writeFailure(file, e);
  }
  if (opts.durable) await syncFolder(dir);
}

/** fsync(2) of a folder, so that a rename into it survives a crash; where a system refuses it, nothing. */
async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some systems and file systems refuse fsync on a folder (EISDIR, EINVAL): the data is written.
  }
}
