/**
 * The running program's fingerprint: every cache of src/incremental/ is keyed by it, so that a change
 * of code (or of the Node that runs it) never reuses what another code made.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { precomputed } from "../core/precomputed.js";
import { sha256Hex } from "../io/hash.js";

/**
 * The fingerprint of the running program. The bundle carries its code's, computed at compile time
 * from the sources it was made of (precomputed.ts); unbundled, it is computed here once a process
 * from the code root this module runs from (dist/ after tsc, src/ under tsx or vitest). The
 * packages' lockfile stands for their code; Node's version and its time-zone data are added at run
 * time, since the same code on another Node may date an instant differently.
 */
export function codeFingerprint(): string {
  if (fingerprint === undefined) {
    const code = precomputed?.codeSha256 ?? sourceFingerprint(fileURLToPath(new URL("..", import.meta.url)));
    fingerprint = sha256Hex(
      `${code}\0${process.version}\0${process.versions["tz"] ?? ""}\0${process.versions["icu"] ?? ""}`,
    );
  }
  return fingerprint;
}
let fingerprint: string | undefined;

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
