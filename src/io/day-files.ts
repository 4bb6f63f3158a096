/**
 * The day logs of data/ (`quotes/`, `official/`, `global/`, `history/`): only files named for a real
 * calendar day are read; a temporary file our own interrupted write left behind is cleaned up when
 * its process is gone; anything else is an error naming the file.
 *
 * Day files are read synchronously: a build reads hundreds of them one after another and has nothing
 * else to do meanwhile, and each asynchronous call is a round trip through libuv's thread pool.
 */
import { promises as fs, closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { DataError } from "../core/errors.js";
import { assertInside, assertInsideSync, errnoReason } from "./links.js";

/** Day logs are `.ndjson`; the summaries of compacted days (`summaries/`) are `.json`. */
export type DayFileKind = "ndjson" | "json";
const DAY_FILE = { ndjson: /^(\d{4}-\d{2}-\d{2})\.ndjson$/, json: /^(\d{4}-\d{2}-\d{2})\.json$/ };
/** What writeFileAtomic leaves behind when its process dies between the write and the rename. */
const OUR_TEMP = { ndjson: /^\d{4}-\d{2}-\d{2}\.ndjson\.tmp-(\d+)$/, json: /^\d{4}-\d{2}-\d{2}\.json\.tmp-(\d+)$/ };
/** A temporary file older than this is abandoned even if its process id has been reused. */
export const TEMP_MAX_AGE_MS = 3_600_000;

/** YYYY-MM-DD that names a real day of the calendar (2026-02-30 does not). */
export function isCalendarDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

/** Whether a process of this machine has this id (kill with signal 0 only checks). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // it exists, it is just not ours
  }
}

/**
 * A leftover `<day>.ndjson.tmp-<pid>` of our own atomic write: removed when its process is gone
 * (or the file is older than TEMP_MAX_AGE_MS), since the rename that would have published it never
 * happened and the day file itself is intact; an error while its writer may still be running.
 */
async function cleanTemp(file: string, pid: number): Promise<void> {
  const st = await fs.lstat(file);
  const abandoned = !processAlive(pid) || Date.now() - st.mtimeMs > TEMP_MAX_AGE_MS;
  if (!st.isFile() || !abandoned)
    throw new DataError(
      file,
      `a temporary file of process ${pid}, which is still running: wait for it to finish (or delete the file if no price-feed command runs)`,
    );
  await fs.rm(file);
  console.error(`price-feed: removed ${file}, left by an interrupted write of process ${pid}`);
}

/** A day file as listed: whether it is a symbolic link comes with the listing, at no extra cost. */
export interface DayFile {
  date: string;
  file: string;
  link: boolean;
}

/**
 * The `<YYYY-MM-DD>.ndjson` (or `.json`) files of a folder of the data folder `root`, ascending;
 * anything else there is an error, but for the leftovers of our own interrupted writes, which are
 * cleaned (cleanTemp). A folder that resolves outside `root` (a symbolic link, or one on its way) is
 * refused first, before anything in it is listed, removed or named (assertInside): its listing would
 * echo the names of a folder that is not ours, and cleanTemp would delete a file there.
 */
export async function dayFiles(root: string, dir: string, kind: DayFileKind = "ndjson"): Promise<DayFile[]> {
  await assertInside(root, dir, "folder");
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new DataError(dir, errnoReason(e), { cause: e });
  }
  const out: DayFile[] = [];
  const link = new Set(entries.filter((e) => e.isSymbolicLink()).map((e) => e.name));
  for (const name of entries.map((e) => e.name).sort()) {
    if (name.startsWith(".")) continue;
    const temp = OUR_TEMP[kind].exec(name);
    if (temp) {
      await cleanTemp(path.join(dir, name), Number(temp[1]));
      continue;
    }
    const m = DAY_FILE[kind].exec(name);
    if (!m) throw new DataError(path.join(dir, name), `unexpected file: day files are named YYYY-MM-DD.${kind}`);
    if (!isCalendarDate(m[1]!))
      throw new DataError(
        path.join(dir, name),
        `${m[1]} is not a day of the calendar: day files are named YYYY-MM-DD.${kind} after a real day`,
      );
    out.push({ date: m[1]!, file: path.join(dir, name), link: link.has(name) });
  }
  return out;
}

/**
 * How a day file's last line is read. "strict": as every other line (history, whose files are only
 * ever written whole). `torn`: a quotes, official or global log, appended to hour after hour — a
 * last line that has no newline and is not valid JSON is a write that was cut short (a full disk, a
 * crash: docs/data-formats.md "A torn last line"); it is dropped, and a warning naming the file and the
 * line is put into `torn`, for the build report. Only the last line: a fault anywhere else is damage,
 * and stops the build.
 */
export interface DayFileRead {
  allowEmpty?: boolean;
  /** Given for a log: where a torn last line, or an empty file (readDayFile), is said for the build report. */
  torn?: string[];
  /** The build's read buffer (readBuffer), grown as needed: the bytes are a view of it. */
  into?: ReadBuffer;
}

/**
 * A day file's bytes (ndjsonRows decodes them a line or a chunk of lines at a time, so no copy of a
 * whole day's text is ever made). An empty log (`torn` given: a quotes, official or global day) is
 * read as no records, and a warning naming the file goes into `torn`: ingest creates the file with
 * its first append, so an empty one is that append cut short (or a file emptied by hand), the same
 * fault as a torn last line, and one bad day must not refuse the whole build (issue 42 item 6). It
 * is said, never silent. A history day may be empty (every quote of that day was rejected:
 * `allowEmpty`); any other empty day file stops the build.
 */
export async function readDayFile(file: string, within: string | null, read: DayFileRead = {}): Promise<Buffer> {
  if (within !== null) await assertInside(within, file); // null: the caller knows it is inside (folderInside)
  return readDayBytes(file, read);
}

/** readDayFile for a reader that cannot wait (a generator of rows): the same checks, synchronous. */
export function readDayFileSync(file: string, within: string | null, read: DayFileRead = {}): Buffer {
  if (within !== null) assertInsideSync(within, file);
  return readDayBytes(file, read);
}

/**
 * The buffer a build reads its day files into (DayFileRead `into`), one for the whole build: each
 * file's bytes are used before the next file is read. Once glibc's malloc has freed a buffer as
 * large as a raw day, it serves every later allocation under that size from its arenas, which keep
 * their freed middles: a new buffer per file raised the hourly build's peak (docs/performance.md).
 */
export interface ReadBuffer {
  buffer: Buffer;
}

/** An empty one, grown at its first read or sized at once by readBufferFor. */
export const readBuffer = (): ReadBuffer => ({ buffer: Buffer.alloc(0) });

/**
 * Makes `into` large enough at once for the largest of `files` and a quarter more (a day log still
 * grows): growing it file by file would free each smaller buffer on the way.
 */
export function readBufferFor(into: ReadBuffer, files: ReadonlyArray<{ file: string }>): void {
  let largest = 0;
  for (const { file } of files) {
    try {
      largest = Math.max(largest, statSync(file).size);
    } catch {
      // Its read names the file and the fault.
    }
  }
  const size = Math.ceil((largest * 1.25 + 1) / 65_536) * 65_536;
  if (into.buffer.length < size) into.buffer = Buffer.allocUnsafeSlow(size);
}

/** The file's bytes, read into `into.buffer` (grown when it is too small): a view of it. */
function readInto(file: string, into: ReadBuffer): Buffer {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (into.buffer.length <= size) into.buffer = Buffer.allocUnsafeSlow(Math.max(size + 1, 2 * into.buffer.length));
    let n = 0;
    for (let got = -1; got !== 0; n += got) {
      // A file that grew since its size was taken: read to its end all the same, as readFileSync does.
      if (n === into.buffer.length) into.buffer = Buffer.concat([into.buffer, Buffer.allocUnsafeSlow(n)]);
      got = readSync(fd, into.buffer, n, into.buffer.length - n, null);
    }
    return into.buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function readDayBytes(file: string, read: DayFileRead): Buffer {
  let bytes: Buffer;
  try {
    bytes = read.into ? readInto(file, read.into) : readFileSync(file);
  } catch (e) {
    throw new DataError(file, errnoReason(e), { cause: e });
  }
  const torn = read.torn ? tornTail(bytes) : null;
  if (torn) {
    read.torn!.push(
      `${file}:${torn.line}: a torn last line (no newline at its end, not valid JSON: a write cut short) was dropped; the next ingest into this day cuts it from the file`,
    );
    // What remains may be nothing: the day's first append was the one cut short.
    return bytes.subarray(0, torn.keep);
  }
  if (read.torn && isBlank(bytes)) {
    read.torn.push(emptyLogWarning(file));
    return bytes.subarray(0, 0);
  }
  if (!read.allowEmpty && isBlank(bytes))
    throw new DataError(
      file,
      "the day file is empty: it should hold at least one record (restore it from git, or delete it if the day has none)",
    );
  return bytes;
}

/** The build report's line for an empty log (readDayFile): the file, what it is read as, and what to do. */
export function emptyLogWarning(file: string): string {
  return `${file}: the day file is empty: read as no records (an append cut short before its first line, or a file emptied by hand; restore it from git if it held records, or delete it)`;
}

/**
 * A torn last line of a log's bytes: the bytes are not blank, do not end with a newline, and their
 * last line is not valid JSON (a line written whole and then cut off at its newline is valid JSON, and
 * is kept: a file edited by hand often lacks the final newline). `keep`: the length up to and
 * including the last newline; `line`: the torn line's number (1-based).
 */
export function tornTail(bytes: Buffer): { keep: number; line: number } | null {
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return null;
  const keep = bytes.lastIndexOf(0x0a) + 1;
  const tail = bytes.subarray(keep);
  if (isBlank(tail)) return null;
  try {
    JSON.parse(tail.toString("utf8"));
    return null;
  } catch {
    let line = 1;
    for (let at = bytes.indexOf(0x0a); at >= 0 && at < keep; at = bytes.indexOf(0x0a, at + 1)) line++;
    return { keep, line };
  }
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
