/**
 * The data folder is trusted only as far as it is checked: a file (or a folder on its way) that is a
 * symbolic link leaving the data folder is refused before anything of it is read, so no byte of the
 * target is ever echoed in an error.
 */
import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { DataError, errnoIs, messageOf } from "../core/errors.js";

const realRoots = new Map<string, string>();

/**
 * Refuses a file that resolves outside `root` — a symbolic link (of the file or of a folder on its
 * way) leaving the data folder — before anything of it is read, so no byte of the target is ever
 * echoed in an error. The data folder is trusted only as far as it is checked.
 */
export async function assertInside(root: string, file: string, what: "file" | "folder" = "file"): Promise<void> {
  assertInsideSync(root, file, what);
}

/** The same check, for a caller that cannot wait (a generator of a folder's rows, src/io/day-rows.ts). */
export function assertInsideSync(root: string, file: string, what: "file" | "folder" = "file"): void {
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) {
    try {
      realRoot = realpathSync.native(root);
    } catch {
      return; // no folder yet: nothing in it to leave it
    }
    realRoots.set(root, realRoot);
  }
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // missing: the reader says so
    throw new DataError(file, errnoReason(e), { cause: e });
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep))
    throw new DataError(
      file,
      `is a symbolic link to a place outside the data folder: refused (${what === "file" ? "copy the file into the folder" : "move the folder into the data folder"} instead)`,
    );
}

/** A file-system error as the reason of a DataError: what a person can do something about. */
export function errnoReason(e: unknown): string {
  // "file is missing" reads better than "does not exist" after the file's name and a colon.
  if ((e as NodeJS.ErrnoException).code === "ENOENT") return "file is missing";
  return errnoIs(e) ?? messageOf(e);
}

/**
 * Whether a folder of the data resolves inside `root` (assertInside, without the error): then a
 * regular file listed in it is inside too, and needs no resolving of its own (src/io/load-build.ts asks
 * once per day-log folder instead of once per file, each resolution being several system calls).
 */
export async function folderInside(root: string, folder: string): Promise<boolean> {
  try {
    await assertInside(root, folder);
    return true;
  } catch {
    return false;
  }
}

/** A day file as a folder's listing gives it (src/io/day-files.ts): its path, and whether it is a link. */
export interface ListedFile {
  file: string;
  link: boolean;
}

/**
 * Where a listed file of `folder` must be shown to lie inside `root` (assertInside): nowhere (null)
 * when the folder itself resolves inside and the file is no symbolic link, which the listing says at
 * no cost; else `root`, and the file is resolved on its own.
 */
export async function insideCheck(root: string, folder: string): Promise<(d: ListedFile) => string | null> {
  const inside = await folderInside(root, folder);
  return (d) => (inside && !d.link ? null : root);
}

/**
 * Whether a plain file is at `p`: not a folder, and not a symbolic link (a site's files are its own,
 * never a link to elsewhere); false when nothing is there, or a folder on the way is a file.
 */
export function isPlainFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}
