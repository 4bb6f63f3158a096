/**
 * The pages a build keeps from the site it replaces: a page whose ETag hashes what it is made of, the
 * program included, not its bytes (SiteFile.keepable: a past day's pages, src/render/pages/day.ts),
 * is the file the site being replaced published under that very ETag, as long as that site's
 * manifest lists it so, the file is there at its size, and its bytes are those it was made with. It
 * is then put into the new site as a hard link, never made again.
 *
 * The bytes are checked against the SHA-256 recorded when the page was made (src/incremental/
 * digests.ts), never trusted by size: a same-size edit in the site being replaced (47.75 → 48.75)
 * passes any check of size or stat, and was published by the next build. The record is
 * `<out>.page-digests.json` beside the site, sealed (digests.ts seal), each page's ETag and digest,
 * written once the site is published (save) — or, for a signed site without it, the digests its
 * statement signed. A page with no digest recorded, or whose bytes do not match it, is made again,
 * and the report's warnings name an edited one.
 */
import { promises as fs, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { checkStatement } from "../core/statement.js";
import { besideSite } from "../io/build-lock.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { fileSha256, seal, sealOf } from "./digests.js";
import type { KeptFile } from "../feed/archive/types.js";
import { files, MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/documents.js";
import { readJson } from "../io/json-file.js";
import type { PublicKeys } from "../schema/signing.js";
import type { Decisions, MakeReason } from "./decisions.js";

/**
 * The manifest of the site being replaced, read once a build for all the planner keeps of that site
 * (its pages here, its archive's days and history files: archive-days.ts); null when there is no site
 * there, or not one a build wrote: then nothing of it is kept.
 */
export function readPublished(outDir: string): Promise<Manifest | null> {
  return readJson(path.join(outDir, MANIFEST_FILE), Manifest).catch(() => null);
}

/** Where the digests of the site's past days' pages are recorded: beside the site, as its caches are. */
export const pageDigestsPath = (outDir: string) => besideSite(outDir, "page-digests.json");

/** A page's record: the ETag it was made under, and the SHA-256 of its bytes as made. */
export interface PageDigest {
  etag: string;
  sha256: string;
}

/**
 * The record of the site's pages (pageDigestsPath), when it is there and sealed; an empty map when
 * it is not (a first build, a site made before the record), and a warning when its bytes are not as
 * written (then nothing of it is believed, and every page is made again).
 */
export function readPageDigests(outDir: string): { digests: Map<string, PageDigest>; warning: string | null } {
  const file = pageDigestsPath(outDir);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { digests: new Map(), warning: null };
  }
  const notAsMade = `${file}: its bytes do not match the digest recorded when it was made: the pages it stands for are made again`;
  if (sealOf(bytes) !== "sealed") return { digests: new Map(), warning: notAsMade };
  try {
    const doc = JSON.parse(bytes.toString("utf8")) as { pages?: Record<string, [string, string]> };
    const digests = new Map<string, PageDigest>();
    for (const [p, [etag, sha256]] of Object.entries(doc.pages ?? {})) digests.set(p, { etag, sha256 });
    return { digests, warning: null };
  } catch {
    return { digests: new Map(), warning: notAsMade };
  }
}

export class PublishedPages {
  /** What the report's warnings say of the pages: one line per page remade because it was edited. */
  readonly warnings: string[] = [];
  /** Every keepable page of the new site: kept ones with their checked digest, made ones to hash once published. */
  private readonly inSite = new Map<string, { etag: string; sha256: string | null }>();

  /**
   * `recorded`: each page's ETag and digest as recorded when it was made (readPageDigests).
   * `digests`: each file's SHA-256 as the signed statement of the site being replaced lists it
   * (signedDigests): what a page is checked against when there is no record.
   */
  constructor(
    private readonly outDir: string,
    /** The manifest of the site being replaced (readPublished). */
    private readonly site: Manifest | null,
    private readonly decisions: Decisions,
    private readonly digests: ReadonlyMap<string, string> = new Map(),
    private readonly recorded: ReadonlyMap<string, PageDigest> = new Map(),
  ) {}

  /** The page the site being replaced has at `p` under `etag` (keep), or null (make). */
  published(p: string, etag: string): KeptFile | null {
    const make = (reason: MakeReason) => {
      this.decisions.make("page", p, reason);
      this.inSite.set(p, { etag, sha256: null });
      return null;
    };
    const had = this.site?.files[p];
    if (!had) return make("none");
    if (had.etag !== etag) return make("made-of");
    const from = path.join(this.outDir, p);
    try {
      const st = statSync(from);
      if (!st.isFile() || st.size !== had.bytes) throw new Error("not as published");
    } catch {
      return make("not-published");
    }
    const record = this.recorded.get(p);
    const want = record?.etag === etag ? record.sha256 : this.digests.get(p);
    if (!want) return make("unrecorded");
    const got = fileSha256(from);
    if (!got) {
      this.warnings.push(`${from}: cannot be read: remade`);
      return make("unreadable");
    }
    if (got.sha256 !== want) {
      this.warnings.push(`${from}: its bytes do not match the digest recorded when it was made: remade`);
      return make("edited");
    }
    this.decisions.keep("page", p);
    this.inSite.set(p, { etag, sha256: got.sha256 });
    return { path: p, from, etag, contentType: had.contentType, bytes: had.bytes, sha256: got.sha256 };
  }

  /**
   * Once the site is published: the record of its pages, for the next build. A page made now is
   * hashed from the published file (a few an hour; all of them on a first build), a kept one has
   * the digest it was checked against.
   */
  async save(): Promise<void> {
    const pages: Record<string, [string, string]> = {};
    for (const [p, { etag, sha256 }] of [...this.inSite].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const digest = sha256 ?? fileSha256(path.join(this.outDir, p))?.sha256;
      if (digest) pages[p] = [etag, digest];
    }
    await writeFileAtomic(pageDigestsPath(this.outDir), seal({ pages }));
  }
}

/**
 * What the signed statement of the site being replaced says of each file, when its signature holds
 * with a key of data/keys.json: the digests a kept page is known by, so that a signed hourly build
 * does not read again the ~700 past days' pages it keeps (docs/performance.md "Signing"). Empty when
 * that site is unsigned, or its statement does not check: then the kept files are hashed.
 */
export async function signedDigests(outDir: string, keys: PublicKeys): Promise<Map<string, string>> {
  try {
    const [bytes, sig] = await Promise.all([
      fs.readFile(path.join(outDir, files.statement)),
      fs.readFile(path.join(outDir, files.statementSig), "utf8"),
    ]);
    const trusted = await checkStatement(new Uint8Array(bytes), sig, keys.keys);
    return typeof trusted === "string" ? new Map() : new Map(Object.entries(trusted.statement.files));
  } catch {
    return new Map(); // no statement there: an unsigned site, or none
  }
}
