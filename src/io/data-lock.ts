/**
 * One writer of a data folder at a time (docs/operating.md "What can go wrong"): every command that
 * writes data/ — `ingest` (its check of what is logged, then its append), `compact`, the build's
 * writing of data/state/, `sample` into a data folder, and the demo's hourly run through these — takes
 * `<data>.lock` beside the folder (src/io/lock-file.ts, as a build takes `<out>.lock`): the holder's
 * pid, command and instant. Another writer waits for it (up to DATA_LOCK_WAIT_MS), then fails with a
 * UsageError naming the holder; a lock whose process is gone is taken over.
 *
 * Beside the folder, not inside: the hourly job commits `data/` (`git add data`), and a lock left by
 * a killed process must never be committed, checked out on a runner and there name a live process.
 *
 * The lock is re-entrant within one chain of calls (AsyncLocalStorage): the demo's hourly run may hold
 * it around ingest, compact and build, each of which takes it again. Two independent calls of one
 * process still take turns, as two processes do.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { instantString } from "../core/cairo.js";
import { UsageError } from "../core/errors.js";
import { acquireLockFile, type LockOwner } from "./lock-file.js";

/** Long enough for a compact of a large data folder; a second writer waits no longer than this. */
export const DATA_LOCK_WAIT_MS = 60_000;

/** The command holding a data folder, as its lock file says it. */
export interface DataLockOwner extends LockOwner {
  command: string;
  now: string;
}

/** `<data>.lock`, beside the data folder. */
export const dataLockPath = (dataDir: string) => `${path.resolve(dataDir)}.lock`;

/** The data folders' locks held by the current chain of calls. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

export interface DataLockOptions {
  /** The command taking it, for the message a waiting writer gets: "ingest", "compact", "build", "sample". */
  command: string;
  /** The command's instant (its --now). */
  nowMs: number;
  waitMs?: number;
}

/** Runs `fn` holding the data folder's lock (taken here unless this chain of calls holds it already). */
export async function withDataLock<T>(dataDir: string, o: DataLockOptions, fn: () => Promise<T>): Promise<T> {
  const file = dataLockPath(dataDir);
  const mine = held.getStore();
  if (mine?.has(file)) return fn();
  const waitMs = o.waitMs ?? DATA_LOCK_WAIT_MS;
  const me: DataLockOwner = {
    pid: process.pid,
    command: o.command,
    now: instantString(o.nowMs),
    startedAt: new Date().toISOString(),
  };
  const release = await acquireLockFile(file, me, {
    waitMs,
    leftBy: (h) => (h ? `price-feed ${h.command}` : "a price-feed command"),
    busy: (h) => {
      const who = h
        ? `process ${h.pid}, price-feed ${h.command} at --now ${h.now}, since ${h.startedAt}`
        : "a process that has not said who it is";
      return new UsageError(
        `another command is writing to ${path.resolve(dataDir)} (${who}); waited ${waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`}`,
        {
          hint: `run the commands that write data/ one after the other; if none runs, delete ${file}`,
        },
      );
    },
  });
  try {
    return await held.run(new Set([...(mine ?? []), file]), fn);
  } finally {
    await release();
  }
}
