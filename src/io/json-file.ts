/** JSON files of data/ and of the package, parsed and checked with their zod schema; errors name file and line. */
import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import { parse as parseTolerant, printParseErrorCode, type ParseError } from "jsonc-parser";
import { DataError, describeZodIssues } from "../core/errors.js";
import { assertInside, errnoReason } from "./links.js";

/** A file's text; with `within`, only if it resolves inside that folder (assertInside). */
export async function readText(file: string, within?: string): Promise<string> {
  if (within !== undefined) await assertInside(within, file);
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new DataError(file, errnoReason(e), { cause: e });
  }
}

/** Line number (1-based) of a character offset, for JSON syntax errors. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function parseJsonText<T>(file: string, text: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    // V8 does not always say where; a second, tolerant parser finds the first error's offset.
    const errors: ParseError[] = [];
    parseTolerant(text, errors, { allowTrailingComma: false, disallowComments: true });
    const first = errors[0];
    const why = first ? printParseErrorCode(first.error) : (e as Error).message;
    throw new DataError(file, `not valid JSON (${why})`, { line: first ? lineAt(text, first.offset) : null });
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new DataError(file, describeZodIssues(r.error.issues));
  return r.data;
}

export async function readJson<T>(file: string, schema: z.ZodType<T>, within?: string): Promise<T> {
  return parseJsonText(file, await readText(file, within), schema);
}

/**
 * A state file that a first run does not have yet: `fallback` when it is missing, else read and
 * checked as readJson does (inside `within`).
 */
export async function readJsonOr<T>(file: string, schema: z.ZodType<T>, fallback: T, within?: string): Promise<T> {
  return existsSync(file) ? readJson(file, schema, within) : fallback;
}
