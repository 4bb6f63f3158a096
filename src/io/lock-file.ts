/**
 * A lock file for the commands of one machine: created with O_CREAT|O_EXCL (open(2)), so exactly one
 * process gets it, holding its owner as JSON (at least its pid and when it took the lock). Another
 * process waits for it (up to `waitMs`), then fails with the caller's error naming the holder. A lock
 * whose process is gone (kill(pid, 0), src/io/day-files.ts processAlive) is taken over, with a line
 * on stderr. Used for the output folder (src/io/build-lock.ts) and for the data folder
 * (src/io/data-lock.ts).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { processAlive } from "./day-files.js";
import { writeFailure } from "./atomic-write.js";

const POLL_MS = 100;
/** A lock file without a readable owner this long after it was made is abandoned (its writer died at once). */
const UNREADABLE_GRACE_MS = 5_000;

export interface LockOwner {
  pid: number;
  startedAt: string;
}

export interface LockFileOptions<O extends LockOwner> {
  /** How long to wait for the holder, in ms. */
  waitMs: number;
  /** The error once `waitMs` has passed: `holder` is null when the lock file does not say who holds it. */
  busy: (holder: O | null) => Error;
  /** Who left a lock that is taken over, for the line saying so: "a build", "price-feed ingest". */
  leftBy: (holder: O | null) => string;
}

async function readOwner<O extends LockOwner>(file: string): Promise<{ owner: O | null; ageMs: number } | null> {
  try {
    const [text, st] = await Promise.all([fs.readFile(file, "utf8"), fs.stat(file)]);
    let owner: O | null = null;
    try {
      const o = JSON.parse(text) as O;
      if (Number.isSafeInteger(o.pid)) owner = o;
    } catch {
      owner = null;
    }
    return { owner, ageMs: Date.now() - st.mtimeMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** The owner a lock file holds, or null when there is none (or it says nothing readable). */
export async function lockOwner<O extends LockOwner>(file: string): Promise<O | null> {
  return (await readOwner<O>(file).catch(() => null))?.owner ?? null;
}

/** Takes the lock file `file` for `me`; resolves to its release. */
export async function acquireLockFile<O extends LockOwner>(
  file: string,
  me: O,
  opts: LockFileOptions<O>,
): Promise<() => Promise<void>> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
  } catch (e) {
    throw writeFailure(path.dirname(file), e);
  }
  const deadline = Date.now() + opts.waitMs;
  for (;;) {
    let handle: fs.FileHandle | null = null;
    try {
      handle = await fs.open(file, "wx"); // O_CREAT | O_EXCL: atomic, one winner
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw writeFailure(file, e);
    }
    if (handle) {
      try {
        await handle.writeFile(`${JSON.stringify(me)}\n`);
      } catch (e) {
        // A lock that cannot say who holds it (a full disk) is not taken: removed at once, so that
        // it never stands in another command's way.
        await handle.close().catch(() => undefined);
        await fs.rm(file, { force: true }).catch(() => undefined);
        throw writeFailure(file, e);
      }
      await handle.close();
      return async () => {
        const held = await readOwner<O>(file).catch(() => null);
        if (held?.owner?.pid === me.pid && held.owner.startedAt === me.startedAt) await fs.rm(file, { force: true });
      };
    }
    const held = await readOwner<O>(file);
    if (held === null) continue; // released between our attempt and the read: try again at once
    const abandoned = held.owner ? !processAlive(held.owner.pid) : held.ageMs > UNREADABLE_GRACE_MS;
    if (abandoned) {
      // Re-read just before removing, so a lock another waiter has just re-taken is not removed.
      const again = await readOwner<O>(file);
      if (again && again.owner?.pid === held.owner?.pid && again.owner?.startedAt === held.owner?.startedAt) {
        await fs.rm(file, { force: true });
        console.error(
          `price-feed: removed ${file}, left by ${opts.leftBy(held.owner)} (process ${held.owner?.pid ?? "unknown"}) that no longer runs`,
        );
      }
      continue;
    }
    if (Date.now() >= deadline) throw opts.busy(held.owner);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
