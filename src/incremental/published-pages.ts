/**
 * The pages a build keeps from the site it replaces: a page whose ETag hashes what it is made of, the
 * program included, not its bytes (SiteFile.keepable: a past day's pages, src/render/pages/day.ts),
 * is the file the site being replaced published under that very ETag, as long as that site's
 * manifest lists it so and the file is there at its size. It is then put into the new site as a
 * hard link, never made again.
 *
 * As with the cards' pictures (card-cache.ts), what is checked is the file's presence and size, not
 * its bytes: the ETag stands for the inputs and the program (fingerprint.ts programFingerprint), and
 * a page made again from them is those very bytes.
 */
import { promises as fs, statSync } from "node:fs";
import path from "node:path";
import { checkStatement } from "../core/statement.js";
import type { KeptFile } from "../feed/archive/types.js";
import { files, MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/documents.js";
import { readJson } from "../io/json-file.js";
import type { PublicKeys } from "../schema/signing.js";
import type { Decisions } from "./decisions.js";

/**
 * The manifest of the site being replaced, read once a build for all the planner keeps of that site
 * (its pages here, its archive's days and history files: archive-days.ts); null when there is no site
 * there, or not one a build wrote: then nothing of it is kept.
 */
export function readPublished(outDir: string): Promise<Manifest | null> {
  return readJson(path.join(outDir, MANIFEST_FILE), Manifest).catch(() => null);
}

export class PublishedPages {
  /**
   * `digests`: each file's SHA-256 as the signed statement of the site being replaced lists it
   * (signedDigests), for the statement of a signed build: a page kept is then
   * not read again. Should its bytes have changed since, the new statement still names the bytes
   * that build signed, and `price-feed verify` or a client finds the difference; it is never signed.
   */
  constructor(
    private readonly outDir: string,
    /** The manifest of the site being replaced (readPublished). */
    private readonly site: Manifest | null,
    private readonly decisions: Decisions,
    private readonly digests: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** The page the site being replaced has at `p` under `etag` (keep), or null (make). */
  published(p: string, etag: string): KeptFile | null {
    const had = this.site?.files[p];
    if (!had) {
      this.decisions.make("page", p, "none");
      return null;
    }
    if (had.etag !== etag) {
      this.decisions.make("page", p, "made-of");
      return null;
    }
    const from = path.join(this.outDir, p);
    try {
      const st = statSync(from);
      if (!st.isFile() || st.size !== had.bytes) throw new Error("not as published");
    } catch {
      this.decisions.make("page", p, "not-published");
      return null;
    }
    this.decisions.keep("page", p);
    const sha256 = this.digests.get(p);
    return { path: p, from, etag, contentType: had.contentType, bytes: had.bytes, ...(sha256 && { sha256 }) };
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
