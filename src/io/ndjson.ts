/**
 * NDJSON day logs: one JSON value a line, each checked with its zod schema (or its exact fast check,
 * src/schema/fast-inputs.ts); an error names the file and the line.
 */
import type { z } from "zod";
import { DataError, describeZodIssues } from "../core/errors.js";
import { FLAT_ROWS } from "../schema/fast-inputs.js";

/** How ndjsonRows checks and hands out rows. */
export interface RowOptions {
  /**
   * An exact hand check of the schema (src/schema/fast-inputs.ts): a row it accepts is the schema's;
   * any other goes through the schema, which gives the message.
   */
  fast?: (v: unknown) => boolean;
}

type Row<T> = { value: T; line: number };

/**
 * One JSON value a line; blank lines are allowed (a trailing newline is usual). The rows come one at
 * a time, each parsed and checked as it is reached, so a caller that reduces them as they come (the
 * build's raw days and history) never holds a whole day's values.
 */
export function* ndjsonRows<T>(
  file: string,
  text: string | Buffer,
  schema: z.ZodType<T>,
  opts: RowOptions = {},
): Generator<Row<T>, void, undefined> {
  const { fast } = opts;
  if (!fast || !FLAT_ROWS.has(fast)) {
    yield* lineRows(file, text, schema, fast, 0);
    return;
  }
  for (let at = 0, line = 0; at < text.length;) {
    const chunk = flatChunk(text, at, fast);
    if (chunk.values)
      for (let k = 0; k < chunk.values.length; k++) {
        const value = chunk.values[k];
        yield { value: value as T, line: line + 1 + k };
      }
    // Not the shape of flat rows, or a row its check refuses: line by line, for the exact message.
    else yield* lineRows(file, sliceOf(text, at, chunk.end), schema, fast, line);
    line += chunk.lines;
    at = chunk.end;
  }
}

/** Part of a text or of bytes (a view of them: no copy). */
const sliceOf = (text: string | Buffer, from: number, to: number) =>
  typeof text === "string" ? text.slice(from, to) : text.subarray(from, to);

/**
 * Lines of flat rows parsed at once (flatChunk): a quarter faster than a JSON.parse of each line, and
 * each chunk's text and array die young, where a whole day's text decoded at once did not
 * (docs/performance.md "What a build reads").
 */
const CHUNK_LINES = 256;

/**
 * Up to CHUNK_LINES lines from `at`, parsed as one JSON array: the lines joined with a comma
 * before each newline. `values` is what a JSON.parse of each line gives, or null when that cannot
 * be shown, and the caller reads the lines one by one. It is shown when every line is exactly
 * `{…}` (no white space around, not blank), the array parses with one value per line, and `fast`
 * accepts every value, so that each is a flat object (its check is one of FLAT_ROWS). Then no value
 * spans two lines: a flat object holds no brace outside its strings but its own two, and a JSON
 * string cannot hold a raw newline. And each line starts a value (its `{` is outside any string,
 * and a brace outside strings only opens a value), so with as many values as lines, each line holds
 * exactly one, from its `{` to its `}`: the value of the line alone. On bytes, the braces and the
 * newline are looked for as bytes: in UTF-8, a byte below 0x80 is always that ASCII character.
 */
function flatChunk(text: string | Buffer, at: number, fast: (v: unknown) => boolean) {
  const bytes = typeof text === "string" ? null : text;
  const s = typeof text === "string" ? text : null;
  const code = (i: number) => (bytes ? bytes[i]! : s!.charCodeAt(i));
  let end = at;
  let lines = 0;
  let shaped = true;
  while (lines < CHUNK_LINES && end < text.length) {
    let eol = bytes ? bytes.indexOf(10, end) : s!.indexOf("\n", end);
    if (eol < 0) eol = text.length;
    if (code(end) !== 0x7b || code(eol - 1) !== 0x7d) shaped = false; // "{", "}"
    lines++;
    end = Math.min(eol + 1, text.length);
  }
  const none = { end, lines, values: null };
  if (!shaped) return none;
  const stop = code(end - 1) === 10 ? end - 1 : end;
  const body = bytes ? bytes.toString("utf8", at, stop) : s!.slice(at, stop);
  let values: unknown;
  try {
    values = JSON.parse(`[${body.replaceAll("\n", ",\n")}]`);
  } catch {
    return none;
  }
  if (!Array.isArray(values) || values.length !== lines) return none;
  for (const v of values) if (!fast(v)) return none;
  return { end, lines, values: values as unknown[] };
}

/** ndjsonRows line by line; `before`: how many lines of the file come before `text`. */
function* lineRows<T>(
  file: string,
  text: string | Buffer,
  schema: z.ZodType<T>,
  fast: ((v: unknown) => boolean) | undefined,
  before: number,
): Generator<Row<T>, void, undefined> {
  // Bytes are split at the newline byte, which never occurs inside a multi-byte UTF-8 character, so
  // each line decodes as it does in the whole text.
  const bytes = typeof text === "string" ? null : text;
  let line = before;
  for (let at = 0; at <= text.length;) {
    let end = bytes ? bytes.indexOf(10, at) : (text as string).indexOf("\n", at);
    if (end < 0) end = text.length;
    line++;
    const s = (bytes ? bytes.toString("utf8", at, end) : (text as string).slice(at, end)).trim();
    at = end + 1;
    if (!s) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(s);
    } catch (e) {
      throw new DataError(file, `not valid JSON (${(e as Error).message})`, { line, cause: e });
    }
    if (!fast || !fast(raw)) {
      const r = schema.safeParse(raw);
      if (!r.success) throw new DataError(file, describeZodIssues(r.error.issues), { line });
    }
    // Strict schemas without defaults: the validated value equals the parsed one, so that one is kept.
    yield { value: raw as T, line };
  }
}

/** Every row of an NDJSON text (ndjsonRows), checked. */
export function parseNdjson<T>(
  file: string,
  text: string,
  schema: z.ZodType<T>,
  fast?: (v: unknown) => boolean,
): Array<{ value: T; line: number }> {
  return [...ndjsonRows(file, text, schema, fast ? { fast } : {})];
}
