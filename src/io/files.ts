/** Reading and writing data files with errors that name the file and the line. */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { parse as parseTolerant, printParseErrorCode, type ParseError } from "jsonc-parser";
import { DataError, describeZodIssues, messageOf } from "../core/errors.js";

export async function readText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (e) {
    throw new DataError(file, null, (e as NodeJS.ErrnoException).code === "ENOENT" ? "file is missing" : messageOf(e), { cause: e });
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
    throw new DataError(file, first ? lineAt(text, first.offset) : null, `not valid JSON (${why})`);
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new DataError(file, null, describeZodIssues(r.error.issues));
  return r.data;
}

export async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T> {
  return parseJsonText(file, await readText(file), schema);
}

/**
 * One JSON value a line; blank lines are allowed (a trailing newline is usual). The whole file is
 * parsed at once as an array (much faster); only when that fails is it read line by line to say where.
 */
export function parseNdjson<T>(file: string, text: string, schema: z.ZodType<T>): Array<{ value: T; line: number }> {
  const out: Array<{ value: T; line: number }> = [];
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
  let whole: unknown[] | null = null;
  try {
    whole = JSON.parse(`[${present.join(",")}]`) as unknown[];
    if (whole.length !== present.length) whole = null; // a line held more than one value
  } catch {
    whole = null;
  }
  if (whole) {
    for (let i = 0; i < whole.length; i++) {
      const r = schema.safeParse(whole[i]);
      if (!r.success) throw new DataError(file, numbered[i]!, describeZodIssues(r.error.issues));
      // Strict schemas without defaults: the validated value equals the parsed one, so keep that
      // one (with its strings interned) rather than a copy; it halves what a load leaves to collect.
      out.push({ value: internStrings(whole[i]) as T, line: numbered[i]! });
    }
    return out;
  }
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

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.ndjson$/;

/** The `<YYYY-MM-DD>.ndjson` files of a folder, ascending; anything else there is an error. */
export async function dayFiles(dir: string): Promise<Array<{ date: string; file: string }>> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: Array<{ date: string; file: string }> = [];
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    const m = DAY_FILE.exec(name);
    if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`)))
      throw new DataError(path.join(dir, name), null, "unexpected file: day files are named YYYY-MM-DD.ndjson");
    out.push({ date: m[1]!, file: path.join(dir, name) });
  }
  return out;
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
