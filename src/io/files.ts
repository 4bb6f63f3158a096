/**
 * Reading and writing data files with errors that name the file and the line.
 *
 * Data files are read synchronously: a build reads hundreds of day files one after another and has
 * nothing else to do meanwhile, and each asynchronous call is a round trip through libuv's thread
 * pool (open, stat, read, close, realpath): on the sample dataset that waiting was a third of the
 * load (README "Performance").
 */
import { createHash } from "node:crypto";
import { promises as fs, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { parse as parseTolerant, printParseErrorCode, type ParseError } from "jsonc-parser";
import { DataError, describeZodIssues, messageOf } from "../core/errors.js";
import { FLAT_ROWS } from "../schema/fast-inputs.js";

const realRoots = new Map<string, string>();

/**
 * Refuses a file that resolves outside `root` — a symbolic link (of the file or of a folder on its
 * way) leaving the data folder — before anything of it is read, so no byte of the target is ever
 * echoed in an error. The data folder is trusted only as far as it is checked.
 */
export async function assertInside(root: string, file: string): Promise<void> {
  assertInsideSync(root, file);
}

/** The same check, for a caller that cannot wait (a generator of a folder's rows, src/io/data.ts). */
export function assertInsideSync(root: string, file: string): void {
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
    throw new DataError(file, null, errnoReason(e), { cause: e });
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep))
    throw new DataError(
      file,
      null,
      "is a symbolic link to a place outside the data folder: refused (copy the file into the folder instead)",
    );
}

export function errnoReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "file is missing";
  if (code === "EISDIR") return "is a folder, not a file";
  if (code === "ELOOP") return "is a loop of symbolic links";
  if (code === "EACCES" || code === "EPERM") return "is not readable by this user";
  return messageOf(e);
}

/**
 * Whether a folder of the data resolves inside `root` (assertInside, without the error): then a
 * regular file listed in it is inside too, and needs no resolving of its own (src/io/data.ts asks
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

/** A file's text; with `within`, only if it resolves inside that folder (assertInside). */
export async function readText(file: string, within?: string): Promise<string> {
  if (within !== undefined) await assertInside(within, file);
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new DataError(file, null, errnoReason(e), { cause: e });
  }
}

/**
 * A day file's bytes (ndjsonRows decodes them a line or a chunk of lines at a time, so no copy of a
 * whole day's text is ever made). A quotes, official or global day file exists only because a
 * record was appended to it, so an empty one is damage (a truncated write, a bad merge), never "no
 * data": it stops the build rather than silently dropping the day. A history day may be empty (every
 * quote of that day was rejected), so the caller says which.
 */
export async function readDayFile(file: string, within: string | null, allowEmpty = false): Promise<Buffer> {
  if (within !== null) await assertInside(within, file); // null: the caller knows it is inside (folderInside)
  return readDayBytes(file, allowEmpty);
}

/** readDayFile for a reader that cannot wait (a generator of rows): the same checks, synchronous. */
export function readDayFileSync(file: string, within: string | null, allowEmpty = false): Buffer {
  if (within !== null) assertInsideSync(within, file);
  return readDayBytes(file, allowEmpty);
}

function readDayBytes(file: string, allowEmpty: boolean): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new DataError(file, null, errnoReason(e), { cause: e });
  }
  if (!allowEmpty && isBlank(bytes))
    throw new DataError(
      file,
      null,
      "the day file is empty: it should hold at least one record (restore it from git, or delete it if the day has none)",
    );
  return bytes;
}

/** Whether bytes decode to white space only, or nothing (what `text.trim() === ""` says of their text). */
function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) {
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue; // the white space of ASCII
    if (b < 0x80) return false;
    return bytes.toString("utf8").trim() === ""; // beyond ASCII: as the decoder and trim say
  }
  return true;
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
    throw new DataError(file, first ? lineAt(text, first.offset) : null, `not valid JSON (${why})`);
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new DataError(file, null, describeZodIssues(r.error.issues));
  return r.data;
}

export async function readJson<T>(file: string, schema: z.ZodType<T>, within?: string): Promise<T> {
  return parseJsonText(file, await readText(file, within), schema);
}

/** How ndjsonRows checks and hands out rows. */
export interface RowOptions {
  /**
   * An exact hand check of the schema (src/schema/fast-inputs.ts): a row it accepts is the schema's;
   * any other goes through the schema, which gives the message.
   */
  fast?: (v: unknown) => boolean;
  /**
   * false: the caller reduces the rows and keeps none (a raw day closed as read, references), so one
   * copy of each string would save nothing and cost a lookup per field.
   */
  intern?: boolean;
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
  const { fast, intern = true } = opts;
  if (!fast || !FLAT_ROWS.has(fast)) {
    yield* lineRows(file, text, schema, fast, intern, 0);
    return;
  }
  for (let at = 0, line = 0; at < text.length;) {
    const chunk = flatChunk(text, at, fast);
    if (chunk.values)
      for (let k = 0; k < chunk.values.length; k++) {
        const value = chunk.values[k];
        yield { value: (intern ? internStrings(value) : value) as T, line: line + 1 + k };
      }
    // Not the shape of flat rows, or a row its check refuses: line by line, for the exact message.
    else yield* lineRows(file, sliceOf(text, at, chunk.end), schema, fast, intern, line);
    line += chunk.lines;
    at = chunk.end;
  }
}

/** Part of a text or of bytes (a view of them: no copy). */
const sliceOf = (text: string | Buffer, from: number, to: number) =>
  typeof text === "string" ? text.slice(from, to) : text.subarray(from, to);

/**
 * Lines of flat rows parsed at once (flatChunk): on the large bench dataset's raw quotes, 300 ms
 * against 410 for a JSON.parse of each line. Each chunk's text and array are young garbage; a whole
 * day's text decoded at once was not (it waited in the old generation for a full collection: the
 * load's peak was 263 MB against 234).
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
  intern: boolean,
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
      throw new DataError(file, line, `not valid JSON (${(e as Error).message})`, { cause: e });
    }
    if (!fast || !fast(raw)) {
      const r = schema.safeParse(raw);
      if (!r.success) throw new DataError(file, line, describeZodIssues(r.error.issues));
    }
    // Strict schemas without defaults: the validated value equals the parsed one, so keep that
    // one (with its strings interned) rather than a copy; it halves what a load leaves to collect.
    yield { value: (intern ? internStrings(raw) : raw) as T, line };
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

/** Lower-case hex SHA-256: what a summary or a closed day names the bytes it was made from by. */
export function sha256Hex(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Write-then-rename, so a reader never sees half a file. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
}

/** One copy of each short repeated string (ids, sources, instants) across a whole load. */
const interned = new Map<string, string>();

function internStrings(v: unknown): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === "string" && x.length <= 40) {
      let s = interned.get(x);
      if (s === undefined) {
        if (interned.size > 200_000) interned.clear();
        interned.set(x, (s = x));
      }
      o[k] = s;
    }
  }
  return o;
}
