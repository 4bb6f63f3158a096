/**
 * The project's one error family. Every fault a person can cause (a data file, a source, a flag, a
 * folder) is a `PriceFeedError` subclass, told apart with `instanceof`; it carries its context in an
 * options object (which file and line, which source, what to do: `hint`) and keeps the original
 * error as `cause`, so nothing is lost by wrapping. Expected bad data is not an error at
 * all: a rejected quote is a value with a reason code (src/rules/acceptance.ts), and so is a failed
 * source in an ingest run. Only the CLI entry turns an error into an exit status.
 */

/** What every error of ours may carry besides its message. */
export interface ErrorOptions {
  /** What to do about it, in one line: the CLI prints it under the message. */
  hint?: string | null;
  /** The error this one wraps: kept, so that nothing is lost by wrapping. */
  cause?: unknown;
}

export abstract class PriceFeedError extends Error {
  /** One line saying what to do, or null when the message says all there is. */
  readonly hint: string | null;
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint ?? null;
  }
}

/**
 * A data file that cannot be read as its format says. It carries where (file, line) and why, and
 * stops the command before anything is published or appended.
 */
export class DataError extends PriceFeedError {
  override name = "DataError";
  /** The 1-based line, or null when the fault is the file's as a whole. */
  readonly line: number | null;
  constructor(
    readonly file: string,
    readonly reason: string,
    options: ErrorOptions & { line?: number | null } = {},
  ) {
    super(`${file}${options.line == null ? "" : `:${options.line}`}: ${reason}`, options);
    this.line = options.line ?? null;
  }
}

/**
 * A source that could not be read this run: the request failed (`url`, `status`), or its answer no
 * longer has the shape its adapter reads (ShapeError). Ingest reports it against that source and
 * goes on with the others.
 */
export class SourceError extends PriceFeedError {
  override name = "SourceError";
  readonly url: string | null;
  readonly status: number | null;
  constructor(message: string, options: ErrorOptions & { url?: string | null; status?: number | null } = {}) {
    super(message, options);
    this.url = options.url ?? null;
    this.status = options.status ?? null;
  }
}

/** A source's answer that no longer has the shape its adapter reads (a redesigned page, a challenge). */
export class ShapeError extends SourceError {
  override name = "ShapeError";
}

/** A file the build made that does not match its own schema: a bug, so the build stops. */
export class OutputError extends PriceFeedError {
  override name = "OutputError";
  constructor(
    readonly file: string,
    readonly reason: string,
    options: ErrorOptions = {},
  ) {
    super(`${file}: invalid output: ${reason}`, options);
  }
}

/**
 * What an errno code says of a path: the one table every message naming a path reads. `is`: the
 * path's state ("does not exist"); `write`, for the faults a write meets that a person can fix (a
 * full or read-only disk, a used-up quota, a permission): why it could not be written, what to do.
 */
export const ERRNO: Readonly<Record<string, { is: string; write?: { reason: string; hint: string } }>> = {
  ENOENT: { is: "does not exist" },
  EISDIR: { is: "is a folder, not a file" },
  ENOTDIR: { is: "is not a folder" },
  ELOOP: { is: "is a loop of symbolic links" },
  EIO: { is: "could not be read or written: the disk reported an input/output error (EIO)" },
  ENOSPC: {
    is: "is on a full disk (ENOSPC)",
    write: {
      reason: "cannot be written: the disk is full (ENOSPC)",
      hint: "free space on the disk that holds it, then run the command again",
    },
  },
  EDQUOT: {
    is: "is on a disk whose quota is used up (EDQUOT)",
    write: {
      reason: "cannot be written: the disk quota is used up (EDQUOT)",
      hint: "free space within the quota (or raise it), then run the command again",
    },
  },
  EROFS: {
    is: "is on a read-only file system (EROFS)",
    write: {
      reason: "cannot be written: the file system is read-only (EROFS)",
      hint: "mount it writable, or point the command at a folder on a writable disk",
    },
  },
  EACCES: {
    is: "is not readable or writable by this user (EACCES)",
    write: {
      reason: "cannot be written by this user (EACCES)",
      hint: "check the permissions of the file and of its folder, then run the command again",
    },
  },
  EPERM: {
    is: "is not permitted (EPERM)",
    write: {
      reason: "cannot be written: the operation is not permitted (EPERM)",
      hint: "check the permissions and attributes of the file and of its folder, then run the command again",
    },
  },
};

/** What an error of the file system says of its path (ERRNO), or undefined for any other error. */
export function errnoIs(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? ERRNO[code]?.is : undefined;
}

/** The errno codes WriteError stands for. */
export const WRITE_FAULT_CODES: ReadonlySet<string> = new Set(
  Object.entries(ERRNO).flatMap(([code, e]) => (e.write ? [code] : [])),
);

/**
 * A file or folder that could not be written, created, renamed or removed for a reason outside the
 * program (ERRNO's `write`): one line naming the path, never "a bug". A write that fails this way leaves
 * what it would have replaced as it was (src/io/atomic-write.ts).
 */
export class WriteError extends PriceFeedError {
  override name = "WriteError";
  constructor(
    readonly file: string,
    readonly code: string,
    options: ErrorOptions = {},
  ) {
    const fault = ERRNO[code]?.write;
    super(`${file}: ${fault?.reason ?? `cannot be written (${code})`}`, {
      hint: fault?.hint ?? "check the path and its disk, then run the command again",
      ...options,
    });
  }
}

/** A command used in a way it cannot work (a flag, a folder, a port); its hint says what to do instead. */
export class UsageError extends PriceFeedError {
  override name = "UsageError";
}

/** `serve` pointed at a folder that holds no built site (no manifest). */
export class NotBuiltError extends PriceFeedError {
  override name = "NotBuiltError";
  constructor(
    readonly dir: string,
    options: ErrorOptions = {},
  ) {
    super(`${dir}: nothing is built there yet (no _manifest.json)`, {
      hint: "build it first: `npm run build` (or `npx price-feed build --out DIR`), or run the live demo: `npm start`.",
      ...options,
    });
  }
}

/** A zod error as one readable line: `path.to.field: message; …`. */
export function describeZodIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? `${i.path.map(String).join(".")}: ` : ""}${i.message}`)
    .join("; ");
}

/** An unknown thrown value as text, for a message: the error's own message, not `String(e)`. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
