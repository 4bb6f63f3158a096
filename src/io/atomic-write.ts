/**
 * Whole-file writes that a reader never sees half done, and write errors that name their path.
 *
 * Node's errors of a `write(2)` carry no path (only those of `open(2)`, `rename(2)`… do): a full disk
 * during a write reached the user as "unexpected error: ENOSPC … this is a bug". Every write of
 * data/ and of the site goes through here, or wraps its error with `writeFailure`, so a full disk, a
 * read-only one or a permission is one line naming the file (src/core/errors.ts WriteError).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { WRITE_FAULT_CODES, WriteError } from "../core/errors.js";

/**
 * The error to throw for a write of `file` that failed with `e`: a WriteError naming the file when
 * the cause is the disk or a permission (WRITE_FAULT_CODES), else `e` as it was.
 */
export function writeFailure(file: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" && WRITE_FAULT_CODES.has(code) ? new WriteError(file, code, { cause: e }) : e;
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
