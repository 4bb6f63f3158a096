/**
 * Publishes a site as it is composed: each file is checked and written into a fresh folder beside
 * the target as soon as it is made (the sink of src/feed/site.ts), then the manifest, then the
 * folders are swapped; a failed build removes the fresh folder and leaves the previous site untouched
 * (README "What can go wrong"). Then writes the build report. What a file is checked against is the
 * caller's (OutputChecks: src/feed/validate.ts); this module only writes.
 */
import {
  promises as fs,
  appendFileSync,
  closeSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { OutputError, messageOf } from "../core/errors.js";
import { removeTree, writeFailure, writeFileAtomic } from "./atomic-write.js";
import { WriteBatch } from "./write-batch.js";

/** What every file is checked against before it is written (src/feed/validate.ts); each throws on a bad one. */
export interface OutputChecks {
  /** A whole document, by its path in the site. */
  file(f: { path: string; body: string }): void;
  /** One item of a file written item by item, as the document `head` + item + `tail`. */
  item(path: string, head: string, json: string, tail: string): void;
}

/** A file to write: its body, after `prefix`'s bytes when given (copied), and `check`, what is checked instead of the body. */
export interface FileToWrite {
  path: string;
  body: string;
  check?: string | undefined;
  prefix?: { file: string; bytes: number } | undefined;
}

export function reportPath(outDir: string): string {
  const abs = path.resolve(outDir);
  return path.join(path.dirname(abs), `${path.basename(abs)}.build-report.json`);
}

/**
 * The folder a site is written into while it is composed. Each file waits in one flat staging folder
 * until commit() renames it into the site's folders: writing into a folder just made is slower than
 * into one folder, and a rename costs next to nothing. The ~400 folders are made meanwhile on libuv's
 * thread pool, while the main thread composes the next files (how long that takes varies by the hour
 * on a shared disk). The files themselves are written synchronously: the build has nothing else to do
 * (src/io/atomic-write.ts).
 */
export class SiteFolder {
  /** Each file written so far, by its path in the site: where it waits. */
  private readonly staged = new Map<string, string>();
  private readonly stage: string;
  /**
   * Each folder of the site asked for, with its making: an error is kept as the value (a rejection
   * nothing awaits yet would end the process), and commit() throws it.
   */
  private readonly folders = new Map<string, Promise<unknown>>();
  /** The folders made at once as parents of others. */
  private readonly parents = new Set<string>();
  /** The files kept from the published site (keep()): in `staged`, where they are in it. */
  private readonly kept = new Set<string>();
  /** How many files were begun item by item (their staged names: none is in `staged` until it ends). */
  private itemFiles = 0;
  /** The previous site, once swapped out (swap()): removed by removeOld(). */
  private removing: string | null = null;
  /**
   * Each file's SHA-256 (hex) for the signed statement of the build (digests()), or null when the
   * build signs nothing and so hashes nothing. A body is hashed as it is written; a file copied or
   * linked is hashed on libuv's thread pool (read, then Web Crypto), one at a time, while the main
   * thread composes, unless the caller already knows its digest (keep()'s `sha256`).
   */
  private readonly sha: Map<string, string | Promise<string>> | null;
  /** The last file hashed on the pool: the next waits for it, so one file's bytes are held at once. */
  private pool: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly out: string,
    private readonly tmp: string,
    private readonly checks: OutputChecks,
    digests: boolean,
  ) {
    this.stage = path.join(tmp, ".staged");
    this.sha = digests ? new Map() : null;
  }

  /**
   * A fresh folder beside `outDir`, emptied of what a crashed build of this process id left.
   * `digests`: keep every file's SHA-256, for the statement a signed build publishes.
   */
  static async open(outDir: string, checks: OutputChecks, o: { digests?: boolean } = {}): Promise<SiteFolder> {
    const out = path.resolve(outDir);
    const tmp = `${out}.tmp-${process.pid}`;
    await removeTree(tmp).catch((e: unknown) => {
      throw writeFailure(tmp, e);
    });
    const folder = new SiteFolder(out, tmp, checks, o.digests === true);
    try {
      mkdirSync(folder.stage, { recursive: true });
    } catch (e) {
      throw writeFailure(tmp, e);
    }
    return folder;
  }

  /** Checks a file (OutputChecks) and writes it; nothing of it is kept. */
  put(f: FileToWrite): void {
    if (this.staged.has(f.path)) throw new OutputError(f.path, "made twice in one build");
    if (f.prefix && f.check === undefined) throw new OutputError(f.path, "written after a part with nothing to check");
    this.checks.file({ path: f.path, body: f.check ?? f.body });
    const at = path.join(this.stage, String(this.staged.size));
    try {
      if (f.prefix) {
        // The part's bytes are copied by the kernel (copy_file_range), then the rest is written after them.
        copyFileSync(f.prefix.file, at);
        appendFileSync(at, f.body);
        const size = statSync(at).size;
        if (size !== f.prefix.bytes + Buffer.byteLength(f.body))
          throw new OutputError(f.path, `${f.prefix.file} is not the ${f.prefix.bytes} bytes it was written with`, {
            hint: `remove ${path.dirname(path.dirname(f.prefix.file))} (a cache) and build again`,
          });
      } else writeFileSync(at, f.body);
    } catch (e) {
      if (e instanceof OutputError) throw e;
      // A full disk names the folder being built (its staged files are numbered, not named).
      throw writeFailure(this.tmp, e);
    }
    this.placed(f.path, at);
    if (this.sha) {
      const prefix = f.prefix;
      this.sha.set(
        f.path,
        prefix
          ? this.onPool(async () => sha256Of(Buffer.concat([await readFile(prefix.file), Buffer.from(f.body)])))
          : createHash("sha256").update(f.body).digest("hex"),
      );
    }
  }

  /** Hashes on the pool after the file before (`pool`), so that one file's bytes are held at once. */
  private onPool(hash: () => Promise<string>): Promise<string> {
    const p = this.pool.then(hash);
    this.pool = p.catch(() => null);
    return p;
  }

  /**
   * Every file's SHA-256 (hex), by its path in the site, once all are hashed: for the build's signed
   * statement (src/core/statement.ts). Only a folder opened with `digests` has them.
   */
  async digests(): Promise<Record<string, string>> {
    if (!this.sha) throw new Error("this site folder keeps no digests (opened without `digests`)");
    const out: Record<string, string> = {};
    for (const [p, d] of this.sha) out[p] = await d;
    return out;
  }

  /**
   * A file written item by item (src/feed/site-items.ts): the document without its items is checked
   * first, then each item as it comes, and the text goes to the staged file in batches of 64 K
   * characters (src/io/write-batch.ts).
   */
  openItems(p: string, head: string, tail: string) {
    if (this.staged.has(p)) throw new OutputError(p, "made twice in one build");
    this.checks.file({ path: p, body: `${head}${tail}` });
    const at = path.join(this.stage, `items-${this.itemFiles++}`);
    let fd: number | null;
    try {
      fd = openSync(at, "w");
    } catch (e) {
      throw writeFailure(this.tmp, e);
    }
    const h = this.sha ? createHash("sha256") : null;
    const batch = new WriteBatch(65_536, (text) => {
      h?.update(text);
      try {
        writeSync(fd!, text);
      } catch (e) {
        throw writeFailure(this.tmp, e);
      }
    });
    const close = () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    };
    return {
      raw: (text: string) => batch.push(text),
      item: (json: string) => {
        this.checks.item(p, head, json, tail);
        batch.push(json);
      },
      end: () => {
        batch.flush();
        close();
        this.placed(p, at);
        if (h) this.sha!.set(p, h.digest("hex"));
      },
      drop: () => {
        close();
        rmSync(at, { force: true });
      },
    };
  }

  /**
   * Puts a file of the published site as it is, by a hard link (the published folder is beside this
   * one, on the same file system): a closed day's archive file is written once (src/feed/archive/compose.ts).
   * Where no link can be made, it is copied.
   */
  keep(p: string, from: string, sha256?: string): void {
    if (this.staged.has(p)) throw new OutputError(p, "made twice in one build");
    // A digest the caller checked the bytes against is taken as it is (src/incremental/archive-days.ts
    // checks each kept day's file against its ETag, the SHA-256 of its bytes); any other is read.
    if (this.sha) this.sha.set(p, sha256 ?? this.onPool(async () => sha256Of(await readFile(from))));
    // Linked straight into its folder at commit(), when the folders are made: a link into the
    // staging folder and a rename out of it were two calls for each of the archive's ~740 kept files.
    this.kept.add(p);
    this.placed(p, from);
  }

  /** Records where a file waits, and asks for its folder. */
  private placed(p: string, at: string): void {
    this.staged.set(p, at);
    const dir = path.dirname(path.join(this.tmp, p));
    if (dir === this.tmp || this.folders.has(dir)) return;
    // A recursive mkdir on the pool goes on from one level to the next through the main thread,
    // which is busy composing: so the few parents are made here, and each folder of files (an
    // asset's page folder, mostly) by one request that the pool completes on its own.
    const parent = path.dirname(dir);
    if (parent !== this.tmp && !this.parents.has(parent)) {
      try {
        mkdirSync(parent, { recursive: true });
      } catch (e) {
        throw writeFailure(parent, e);
      }
      this.parents.add(parent);
    }
    this.folders.set(
      dir,
      fs.mkdir(dir).then(
        () => null,
        // Already there: made as the parent of another folder.
        (e: NodeJS.ErrnoException) => (e.code === "EEXIST" ? null : writeFailure(dir, e)),
      ),
    );
  }

  text(p: string): string {
    const at = this.staged.get(p);
    if (at === undefined) throw new Error(`${p} is not built yet`);
    return readFileSync(at, "utf8");
  }

  /** Puts the files in their folders, writes the manifest and puts the folder in place of the published one. */
  async commit(manifest: { path: string; body: string }): Promise<void> {
    this.checks.file(manifest);
    for (const error of await Promise.all(this.folders.values())) if (error !== null) throw error;
    try {
      for (const [p, at] of this.staged) {
        const to = path.join(this.tmp, p);
        if (!this.kept.has(p)) renameSync(at, to);
        else
          try {
            linkSync(at, to);
          } catch {
            copyFileSync(at, to); // no link across file systems, or where links are refused
          }
      }
      rmdirSync(this.stage);
      writeFileSync(path.join(this.tmp, manifest.path), manifest.body);
    } catch (e) {
      throw writeFailure(this.tmp, e);
    }
    this.swap();
    await this.removeOld();
  }

  /**
   * Puts the new site in place of the published one. rename(2) cannot replace a folder that holds
   * files, and Linux's exchange of two names (renameat2 RENAME_EXCHANGE) is not in Node. A link
   * `public` → a versioned folder, replaced by one rename, would leave no gap, but the hourly job
   * keeps `public` in the Actions cache, which stores a link without its target, and the Netlify
   * CLI does not follow links in what it deploys (docs/operating.md "What can go wrong"). So
   * `public/` stays a folder, set aside and replaced by two synchronous renames back to back: no
   * `public/` exists only while the second runs. A process killed between them leaves the published
   * site whole as `<out>.old-<pid>`, which the next build puts back (src/io/build-lock.ts
   * cleanPublishLeftovers); a second rename that fails puts it back at once. Then the old site is
   * renamed `<out>.tmp-<pid>` (free again) to be removed: an `.old-` folder is always a whole site,
   * a `.tmp-` one never the published one, so a build killed while removing it leaves nothing that
   * could be put back by mistake.
   */
  private swap(): void {
    const old = `${this.out}.old-${process.pid}`;
    let hadOld = true;
    killPoint("before-renames");
    try {
      renameSync(this.out, old);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw writeFailure(this.out, e);
      hadOld = false;
    }
    killPoint("between-renames");
    try {
      renameSync(this.tmp, this.out);
    } catch (e) {
      if (hadOld)
        try {
          renameSync(old, this.out);
        } catch {
          // Left as `.old-`: the next build puts it back.
        }
      throw writeFailure(this.out, e);
    }
    killPoint("after-renames");
    if (!hadOld) return;
    try {
      renameSync(old, this.tmp);
      this.removing = this.tmp;
    } catch {
      this.removing = old;
    }
    killPoint("before-removal");
  }

  /**
   * Removes the site swapped out, asynchronously on purpose: the thread pool removes its files in
   * parallel, in about two thirds of the time rmSync takes. The new site is published already, so a
   * failure is not the build's: it is said, and the next build removes the folder or says how.
   */
  private async removeOld(): Promise<void> {
    const p = this.removing;
    this.removing = null;
    if (p)
      await removeTree(p).catch((e: unknown) =>
        console.error(`price-feed: could not remove ${p}, the site replaced: ${messageOf(e)}; the next build will`),
      );
  }

  /** Removes the folder: the published site stays as it was. */
  async abort(): Promise<void> {
    await Promise.all(this.folders.values()); // none is still being made inside what is removed
    await fs.rm(this.tmp, { recursive: true, force: true });
  }
}

/** The SHA-256 (hex) of bytes, by Web Crypto: on libuv's thread pool, off the main thread. */
async function sha256Of(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
}

/** The steps of SiteFolder.swap at which PRICE_FEED_TEST_KILL_AT kills the build (killPoint). */
export const KILL_POINTS = ["before-renames", "between-renames", "after-renames", "before-removal"] as const;

/**
 * A test hook, not an option (test/faults/recovery.test.ts): with the environment variable
 * PRICE_FEED_TEST_KILL_AT set to a step of KILL_POINTS, the build sends itself SIGKILL there, as the
 * OOM killer or a cancelled job would, so that a test can check what the next build finds. Unset
 * (always, outside the tests) it does nothing.
 */
function killPoint(step: (typeof KILL_POINTS)[number]): void {
  if (process.env["PRICE_FEED_TEST_KILL_AT"] === step) process.kill(process.pid, "SIGKILL");
}

/** Writes the build report beside the site: where it is. */
export async function writeReport(outDir: string, report: unknown): Promise<string> {
  const file = reportPath(outDir);
  await writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
