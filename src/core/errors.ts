/**
 * A data file that cannot be read as its format says. It carries where (file, line) and why, and
 * stops the build: only the CLI entry turns it into an exit code.
 */
export class DataError extends Error {
  override name = "DataError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${reason}`);
  }
}

/** A zod error as one readable line: `path.to.field: message; …`. */
export function describeZodIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? `${i.path.map(String).join(".")}: ` : ""}${i.message}`)
    .join("; ");
}
