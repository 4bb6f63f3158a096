/**
 * The running program's fingerprint: every cache of src/incremental/ is keyed by it, so that a change
 * of code (or of the Node that runs it) never reuses what another code made; and the pages that a
 * build keeps from the site it replaces are known by it.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { precomputed } from "../core/precomputed.js";
import { sha256Hex } from "../io/hash.js";

/**
 * The program's one fingerprint: what a page whose ETag hashes what it is made of is known by
 * (src/feed/site.ts SiteFile.keepable), and what every cache of this folder is keyed by (through
 * cacheKey). The bundle carries the fingerprint of the sources it was made of, computed at compile
 * time (src/core/precomputed.ts); unbundled, the modules — compiled (dist/) or not (src/, under tsx
 * or vitest) — compute the same from the src/ beside them, so that all three give a page the same
 * ETag. Without src/ (an installed package run unbundled), the running code's own. Computed once a
 * process. (A dist/ older than the src/ beside it would take the sources' key: every npm script
 * compiles first, scripts/compile.mjs, and the bin runs the bundle, which carries its own.)
 */
export function programFingerprint(): string {
  return (program ??= precomputed?.codeSha256 ?? sourcesBeside());
}
let program: string | undefined;
function sourcesBeside(): string {
  const src = fileURLToPath(new URL("../../src", import.meta.url));
  return sourceFingerprint(existsSync(src) ? src : fileURLToPath(new URL("..", import.meta.url)));
}

/**
 * What the caches are keyed by (closed days, the archive's days and part): the program's
 * fingerprint and the Node that runs it, its time-zone data and ICU, since the same code on another
 * Node may date an instant differently. Not a page's ETag: every Node the project supports builds
 * the same bytes (test/project/node-versions.test.ts), so the published ETags are the same too.
 */
export function cacheKey(): string {
  return (key ??= sha256Hex(
    `${programFingerprint()}\0${process.version}\0${process.versions["tz"] ?? ""}\0${process.versions["icu"] ?? ""}`,
  ));
}
let key: string | undefined;

/**
 * The fingerprint of a code root (src/ or dist/) and the lockfile beside it, what the bundle step
 * stores: every program file below it (`relative path\0content\0`, in name order; not source maps),
 * then the lockfile.
 */
export function sourceFingerprint(codeRoot: string): string {
  const h = createHash("sha256");
  const files = readdirSync(codeRoot, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js|cjs|mjs|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const f of files)
    h.update(`${path.relative(codeRoot, f)}\0`)
      .update(readFileSync(f))
      .update("\0");
  let lock: Buffer | string = "no lockfile";
  try {
    lock = readFileSync(path.join(codeRoot, "..", "package-lock.json"));
  } catch {
    // Installed without its lockfile: the program's own files still key the cache.
  }
  return h.update("\0package-lock.json\0").update(lock).digest("hex");
}
