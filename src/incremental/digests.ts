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
import { Worker } from "node:worker_threads";
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
 */
export function headSha256(file: string, head: number): { sha256: string; rest: Buffer } | null {
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
    for (let at = 0, n: number; at < head; at += n) {
      n = readSync(fd, chunk, 0, Math.min(chunk.length, head - at), at);
      if (n === 0) return null;
      h.update(chunk.subarray(0, n));
    }
    const rest = Buffer.allocUnsafe(size - head);
    for (let at = 0, n: number; at < rest.length; at += n) {
      n = readSync(fd, rest, at, rest.length - at, head + at);
      if (n === 0) return null;
    }
    return { sha256: h.digest("hex"), rest };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** fileSha256 on a thread of its own: posts `[file, FileDigest | null]` for each file it is given. */
const HASHER = `
const { parentPort, workerData } = require("node:worker_threads");
const { closeSync, openSync, readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const chunk = Buffer.allocUnsafe(1 << 20);
for (const file of workerData) {
  let out = null;
  try {
    const fd = openSync(file, "r");
    try {
      const h = createHash("sha256");
      let bytes = 0;
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; bytes += n) h.update(chunk.subarray(0, n));
      out = { sha256: h.digest("hex"), bytes };
    } finally {
      closeSync(fd);
    }
  } catch {}
  parentPort.postMessage([file, out]);
}`;

/**
 * The digests of the files a build expects to keep, taken on a thread of its own from the build's
 * start, while the main thread loads and closes the days: what an hourly build keeps is most of the
 * site it replaces (every closed day's file), and hashing it on the main thread would add to the
 * build's time. A file not given, or one the thread could not hash (it failed to start), is hashed
 * on the main thread when asked for.
 */
export class FileHashes {
  private readonly given = new Map<string, Promise<FileDigest | null | "unknown">>();

  constructor(files: readonly string[]) {
    if (files.length === 0) return;
    const settle = new Map<string, (d: FileDigest | null | "unknown") => void>();
    for (const f of files) this.given.set(f, new Promise((resolve) => settle.set(f, resolve)));
    const rest = (why: "unknown") => {
      for (const resolve of settle.values()) resolve(why);
      settle.clear();
    };
    try {
      const worker = new Worker(HASHER, { eval: true, workerData: [...settle.keys()] });
      worker.on("message", ([file, d]: [string, FileDigest | null]) => {
        settle.get(file)?.(d);
        settle.delete(file);
      });
      worker.on("error", () => rest("unknown"));
      worker.on("exit", () => rest("unknown"));
    } catch {
      rest("unknown");
    }
  }

  /** A file's digest: as the thread took it, or taken now. */
  async of(file: string): Promise<FileDigest | null> {
    const d = await this.given.get(file);
    return d === undefined || d === "unknown" ? fileSha256(file) : d;
  }
}

/** What a build says of a cache file whose bytes do not match their digest (docs/operating.md "What can go wrong"). */
export const notAsMade = (file: string) =>
  `${file}: its bytes do not match the digest recorded when it was made: remade`;
