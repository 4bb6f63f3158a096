/**
 * What a build checks the bytes it reuses against: the SHA-256 of each cache's bytes, taken when it
 * was made. A same-size edit passes every check of shape, size, key or stat that does not read the
 * bytes, and would be published under the clean build's ETag; so whatever src/incremental/ reuses
 * is read and hashed first, and remade on a mismatch.
 *
 * data/state/closed-days/, data/state/archive/ and the archive cache's index are written sealed: the
 * digest is the first member, `{"sha256":"<hex>",`, and hashes every byte after it, to the final
 * newline, so that it is checked on the bytes as read, before any parser has seen them. The part
 * files and site files are checked against a digest kept elsewhere (the index, the manifest's ETag).
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { sha256Hex } from "../io/hash.js";

const OPEN = '{"sha256":"';
/** Where the bytes the digest stands for begin: after `{"sha256":"<64 hex>",`. */
const REST_AT = OPEN.length + 64 + 2;

/** An object's JSON, sealed: its digest first, then its members as JSON.stringify writes them, and a newline. */
export function seal(value: object): string {
  const json = JSON.stringify(value);
  if (json.length < 3 || "sha256" in value) throw new Error("only an object with members and no sha256 is sealed");
  const rest = `${json.slice(1)}\n`;
  return `${OPEN}${sha256Hex(rest)}",${rest}`;
}

/** The digest a sealed text carries (seal's first member). */
export const sealDigest = (sealed: string) => sealed.slice(OPEN.length, OPEN.length + 64);

/**
 * Whether a file's bytes are those it was sealed with: "sealed"; "unsealed" when it carries no digest
 * (written by code before sealing, or not by a build at all); "mismatch" when the digest it carries is
 * not that of the bytes after it (an edit, or bytes damaged since).
 */
export function sealOf(bytes: Uint8Array): "sealed" | "unsealed" | "mismatch" {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, REST_AT)).toString("latin1");
  if (!head.startsWith('{"sha256"')) return "unsealed";
  if (!head.startsWith(OPEN) || !/^[0-9a-f]{64}",$/.test(head.slice(OPEN.length))) return "mismatch";
  return sha256Hex(bytes.subarray(REST_AT)) === head.slice(OPEN.length, OPEN.length + 64) ? "sealed" : "mismatch";
}

/** One buffer the files hashed on the main thread are read through. */
const chunk = Buffer.allocUnsafe(1 << 20);

/** A file's SHA-256 (hex) and its number of bytes. */
export interface FileDigest {
  sha256: string;
  bytes: number;
}

/** The SHA-256 of a file's bytes and their number, or null when it cannot be read. */
export function fileSha256(file: string): FileDigest | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const h = createHash("sha256");
    let bytes = 0;
    for (let n: number; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; bytes += n)
      h.update(chunk.subarray(0, n));
    return { sha256: h.digest("hex"), bytes };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The SHA-256 (hex) of a file's first `head` bytes, and the bytes after them; null when it cannot be
 * read or is shorter. A history file kept from the site being replaced is its part's bytes then its
 * own: the first are checked against the part's digest, the rest against what this build made.
 * `whole` is the SHA-256 of all of it, the head's state carried on (what a signed build's statement
 * lists), so the file is read once.
 */
export function headSha256(file: string, head: number): { sha256: string; rest: Buffer; whole: string } | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < head) return null;
    const h = createHash("sha256");
    const rest = Buffer.allocUnsafe(size - head);
    // One pass over the file: the head through the shared chunk, hashed as it comes (it is not
    // kept), the rest straight into the buffer handed back.
    for (let at = 0, n: number; at < size; at += n) {
      const inHead = at < head;
      n = inHead
        ? readSync(fd, chunk, 0, Math.min(chunk.length, head - at), at)
        : readSync(fd, rest, at - head, size - at, at);
      if (n === 0) return null;
      if (inHead) h.update(chunk.subarray(0, n));
    }
    const whole = h.copy().update(rest).digest("hex");
    return { sha256: h.digest("hex"), rest, whole };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A file's SHA-256 off the main thread: read and digested by the platform's own thread pool (Web Crypto). */
async function digestAsync(file: string): Promise<FileDigest | null> {
  try {
    const bytes = await readFile(file);
    const d = await crypto.subtle.digest("SHA-256", bytes);
    return { sha256: Buffer.from(d).toString("hex"), bytes: bytes.length };
  } catch {
    return null;
  }
}

/**
 * The digests of the files a build expects to keep, taken from the build's start while the main
 * thread loads and closes the days: what an hourly build keeps is most of the site it replaces
 * (every closed day's file), and hashing it on the main thread would add to the build's time. The
 * reading and the hashing run on Node's own thread pool (fs and Web Crypto), one file at a time so
 * that one file's bytes are held at once; no thread of our own. A file not given is hashed when
 * asked for.
 */
export class FileHashes {
  private readonly given = new Map<string, Promise<FileDigest | null>>();

  constructor(files: readonly string[]) {
    let previous: Promise<unknown> = Promise.resolve();
    for (const f of files) {
      const p = previous.then(() => digestAsync(f));
      this.given.set(f, p);
      previous = p;
    }
  }

  /** A file's digest: as taken from the build's start, or taken now. */
  async of(file: string): Promise<FileDigest | null> {
    return (await this.given.get(file)) ?? fileSha256(file);
  }
}

/** What a build says of a cache file whose bytes do not match their digest (docs/operating.md "What can go wrong"). */
export const notAsMade = (file: string) =>
  `${file}: its bytes do not match the digest recorded when it was made: remade`;
