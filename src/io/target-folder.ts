/**
 * No command destroys what it did not make (docs/operating.md "What can go wrong"). A command that
 * writes or replaces a whole folder (`build --out`, `sample --out`, `demo --work`, `init DIR`)
 * checks its target first, before it takes a lock or writes anything beside it, and refuses in one
 * line:
 *
 * - a target that is there and is not a folder (a file, a link to one): a build would have turned
 *   `--out README.md` into a folder;
 * - the data folder, or a folder that holds it (`--out data` for `--data data`, `--out .`);
 * - a repository's root (it holds `.git`): `--out .` in a checkout deleted `.git`;
 * - a folder that holds anything, when what it holds is not what this command made before (an
 *   earlier build has its manifest, a simulated dataset says `"simulated": true`): the command
 *   replaces what it made, and nothing else.
 *
 * Paths are compared with their symbolic links resolved (resolvedPath), so a link to the data
 * folder is the data folder.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { resolvedPath } from "./saved-bodies.js";

export interface TargetRules {
  /** How the command line names the target, for the message: `--out public`, `init DIR`. */
  named: string;
  /** What the command makes there, for the message: "a build", "a simulated dataset". */
  makes: string;
  /** The data folders the target may neither be nor hold. */
  dataDirs?: readonly string[];
  /** Whether a non-empty folder holds what this command made before (so that it may be replaced). */
  ownContents?: (dir: string, names: readonly string[]) => Promise<boolean>;
  /** What to pass instead, in one line. */
  hint: string;
}

/** `dir` is `parent` or inside it. */
const within = (dir: string, parent: string) => {
  const rel = path.relative(parent, dir);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/** Throws a UsageError, touching nothing, when `target` is not a folder this command may write (above). */
export async function assertTargetFolder(target: string, rules: TargetRules): Promise<void> {
  const full = path.resolve(target);
  const real = await resolvedPath(target);
  const refuse = (why: string) => new UsageError(`${rules.named}: ${full} ${why}`, { hint: rules.hint });
  const st = await fs.stat(full).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? null : e));
  if (st instanceof Error) {
    // A link to nowhere, a path through a file: nothing can be made there, and it is not ours to remove.
    const lst = await fs.lstat(full).catch(() => null);
    throw refuse(
      lst?.isSymbolicLink() ? "is a link to nothing, not a folder" : `cannot be looked at (${st.code ?? st.message})`,
    );
  }
  if (st && !st.isDirectory()) throw refuse(`is a file, not a folder: ${rules.makes} would replace it`);
  for (const data of rules.dataDirs ?? []) {
    const dataFull = path.resolve(data);
    const dataReal = await resolvedPath(data);
    if (within(dataFull, full) || within(dataReal, real))
      throw refuse(
        `${dataReal === real || dataFull === full ? "is" : "holds"} the data folder ${data}: ${rules.makes} would replace it`,
      );
  }
  if (!st) return;
  const names = await fs.readdir(full);
  if (names.includes(".git")) throw refuse(`is a repository's root (it holds .git): ${rules.makes} would replace it`);
  if (names.length && !(await rules.ownContents?.(full, names)))
    throw refuse(
      `holds files ${rules.makes} did not make (${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""}), and would replace them`,
    );
}

/** Whether `file` in `dir` is a JSON object for which `test` holds (false for anything unreadable). */
export async function jsonSays(dir: string, file: string, test: (doc: Record<string, unknown>) => boolean) {
  try {
    const doc = JSON.parse(await fs.readFile(path.join(dir, file), "utf8")) as unknown;
    return typeof doc === "object" && doc !== null && !Array.isArray(doc) && test(doc as Record<string, unknown>);
  } catch {
    return false;
  }
}
