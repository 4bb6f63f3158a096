/**
 * The project's one error family. Every fault the code raises on purpose is a `PriceFeedError` of a
 * named kind that carries its context (which file and line, which source, which flag) and keeps the
 * original error as `cause`, so nothing is lost by wrapping. Expected bad data is not an error at
 * all: a rejected quote is a value with a reason code (src/rules/acceptance.ts), and so is a failed
 * source in an ingest run. Only the CLI entry turns an error into an exit status.
 */

export type ErrorKind = "data" | "source" | "output" | "usage" | "not-built" | "http";

export abstract class PriceFeedError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A data file that cannot be read as its format says. It carries where (file, line) and why, and
 * stops the build before anything is published.
 */
export class DataError extends PriceFeedError {
  override name = "DataError";
  readonly kind = "data";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${reason}`, options);
  }
}

/**
 * A source that could not be read this run: the request failed (`url`, `status`), or its answer no
 * longer has the shape its adapter reads (`shape`). Ingest reports it against that source and goes on
 * with the others.
 */
export class SourceError extends PriceFeedError {
  override name = "SourceError";
  readonly kind = "source";
  constructor(
    message: string,
    readonly url: string | null = null,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A source's answer that no longer has the shape its adapter reads (a redesigned page, a challenge). */
export class ShapeError extends SourceError {
  override name = "ShapeError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, null, null, options);
  }
}

/** A file the build made that does not match its own schema: a bug, so the build stops. */
export class OutputError extends PriceFeedError {
  override name = "OutputError";
  readonly kind = "output";
  constructor(
    readonly file: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: invalid output: ${reason}`, options);
  }
}

/** A command used in a way it cannot work (a flag, a folder, a port); `hint` says what to do instead. */
export class UsageError extends PriceFeedError {
  override name = "UsageError";
  readonly kind = "usage";
  constructor(
    message: string,
    readonly hint: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `serve` pointed at a folder that holds no built site (no manifest). */
export class NotBuiltError extends PriceFeedError {
  override name = "NotBuiltError";
  readonly kind = "not-built";
  constructor(
    readonly dir: string,
    options?: { cause?: unknown },
  ) {
    super(`${dir}: nothing is built there yet (no _manifest.json)`, options);
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
