/**
 * Publishes a composed site: validate everything in memory, write it into a fresh folder beside the
 * target, then swap the folders, so a failed build leaves the previous site untouched (README "What can
 * go wrong"). Then records the publishing state and the build report.
 */
import { promises as fs, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { canonical } from "../core/canonical.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { validateFile } from "../feed/validate.js";
import type { Site } from "../feed/site.js";
import { writeFileAtomic } from "./files.js";

export function reportPath(outDir: string): string {
  const abs = path.resolve(outDir);
  return path.join(path.dirname(abs), `${path.basename(abs)}.build-report.json`);
}

export async function publishSite(outDir: string, site: Site): Promise<void> {
  const manifestBody = canonical(site.manifest);
  for (const f of site.files) validateFile(f);
  validateFile({ path: MANIFEST_FILE, body: manifestBody });

  const out = path.resolve(outDir);
  const tmp = `${out}.tmp-${process.pid}`;
  const old = `${out}.old-${process.pid}`;
  await fs.rm(tmp, { recursive: true, force: true });
  try {
    // Synchronous: hundreds of folders and files, each an asynchronous round trip through libuv's
    // thread pool otherwise, while the build has nothing else to do (src/io/files.ts).
    const dirs = new Set(site.files.map((f) => path.dirname(path.join(tmp, f.path))));
    mkdirSync(tmp, { recursive: true });
    for (const d of [...dirs].sort()) mkdirSync(d, { recursive: true });
    for (const f of site.files) writeFileSync(path.join(tmp, f.path), f.body);
    writeFileSync(path.join(tmp, MANIFEST_FILE), manifestBody);
    const hadOld = await fs.rename(out, old).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return false;
        throw e;
      },
    );
    await fs.rename(tmp, out);
    if (hadOld) rmSync(old, { recursive: true, force: true });
  } catch (e) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

export async function writeState(stateFile: string, site: Site): Promise<void> {
  await writeFileAtomic(stateFile, `${JSON.stringify(site.state, null, 1)}\n`);
}

export async function writeReport(outDir: string, site: Site): Promise<string> {
  const file = reportPath(outDir);
  await writeFileAtomic(file, `${JSON.stringify(site.report, null, 2)}\n`);
  return file;
}
