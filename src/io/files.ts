/** Reading and writing data files with errors that name the file and the line. */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { parse as parseTolerant, printParseErrorCode, type ParseError } from "jsonc-parser";
import { DataError, describeZodIssues, messageOf } from "../core/errors.js";

const realRoots = new Map<string, string>();

/**
 * Refuses a file that resolves outside `root` — a symbolic link (of the file or of a folder on its
 * way) leaving the data folder — before anything of it is read, so no byte of the target is ever
 * echoed in an error. The data folder is trusted only as far as it is checked.
 */
export async function assertInside(root: string, file: string): Promise<void> {
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) {
    realRoot = await fs.realpath(root).catch(() => undefined);
    if (realRoot === undefined) return; // no folder yet: nothing in it to leave it
    realRoots.set(root, realRoot);
  }
  let real: string;
  try {
    real = await fs.realpath(file);
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

/** A file's text; with `within`, only if it resolves inside that folder (assertInside). */
export async function readText(file: string, within?: string): Promise<string> {
  if (within !== undefined) await assertInside(within, file);
  try {
    return await fs.readFile(file, "utf8");
  } catch (e) {
    throw new DataError(file, null, errnoReason(e), { cause: e });
  }
}

/**
 * A day file's text. A quotes, official or global day file exists only because a record was
 * appended to it, so an empty one is damage (a truncated write, a bad merge), never "no data":
 * it stops the build rather than silently dropping the day. A history day may be empty (every
 * quote of that day was rejected), so the caller says which.
 */
export async function readDayText(file: string, within: string, allowEmpty = false): Promise<string> {
  const text = await readText(file, within);
  if (!allowEmpty && text.trim() === "")
    throw new DataError(
      file,
      null,
      "the day file is empty: it should hold at least one record (restore it from git, or delete it if the day has none)",
    );
  return text;
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

/**
 * One JSON value a line; blank lines are allowed (a trailing newline is usual). The whole file is
 * parsed at once as an array (much faster); only when that fails is it read line by line to say where.
 * `fast`, when given, is an exact hand check of the schema (src/schema/fast-inputs.ts): a row it
 * accepts is the schema's; any other goes through the schema, which gives the message.
 */
export function parseNdjson<T>(
  file: string,
  text: string,
  schema: z.ZodType<T>,
  fast?: (v: unknown) => boolean,
): Array<{ value: T; line: number }> {
  const out: Array<{ value: T; line: number }> = [];
  const whole = parseWhole(text);
  if (whole) {
    const { values, lineOf } = whole;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!fast || !fast(v)) {
        const r = schema.safeParse(v);
        if (!r.success) throw new DataError(file, lineOf(i), describeZodIssues(r.error.issues));
      }
      // Strict schemas without defaults: the validated value equals the parsed one, so keep that
      // one (with its strings interned) rather than a copy; it halves what a load leaves to collect.
      out.push({ value: internStrings(v) as T, line: lineOf(i) });
    }
    return out;
  }
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!.trim();
    if (!s) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(s);
    } catch (e) {
      throw new DataError(file, i + 1, `not valid JSON (${(e as Error).message})`, { cause: e });
    }
    const r = schema.safeParse(raw);
    if (!r.success) throw new DataError(file, i + 1, describeZodIssues(r.error.issues));
    out.push({ value: r.data, line: i + 1 });
  }
  return out;
}

/** A line that is empty or only white space (`\s` is exactly what String.prototype.trim removes). */
const BLANK_LINE = /(?:^|\n)[^\S\n]*(?:\n|$)/;

/** Every line's value at once, or null (then the caller reads line by line to say where it fails). */
function parseWhole(text: string): { values: unknown[]; lineOf: (i: number) => number } | null {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  if (body !== "" && !BLANK_LINE.test(body)) {
    // The usual file: no blank line, so value i is on line i + 1.
    let lines = 1;
    for (let at = body.indexOf("\n"); at >= 0; at = body.indexOf("\n", at + 1)) lines++;
    try {
      const values = JSON.parse(`[${body.replaceAll("\n", ",")}]`) as unknown[];
      if (values.length === lines) return { values, lineOf: (i) => i + 1 };
    } catch {
      // white space JSON does not allow around a value (trimmed below), or a real error
    }
  }
  const lines = text.split("\n");
  const numbered: number[] = [];
  const present: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!.trim();
    if (s) {
      numbered.push(i + 1);
      present.push(s);
    }
  }
  try {
    const values = JSON.parse(`[${present.join(",")}]`) as unknown[];
    return values.length === present.length ? { values, lineOf: (i) => numbered[i]! } : null;
  } catch {
    return null;
  }
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
