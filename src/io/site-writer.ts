/**
 * Publishes a site as it is composed: each file is validated and written into a fresh folder beside
 * the target as soon as it is made (src/feed/site.ts SiteSink), then the manifest, then the folders
 * are swapped; a failed build removes the fresh folder and leaves the previous site untouched (README
 * "What can go wrong"). Then records the publishing state and the build report.
 */
import { promises as fs, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { canonical } from "../core/canonical.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { validateFile } from "../feed/validate.js";
import type { Site, SiteFile, SiteSink } from "../feed/site.js";
import type { Manifest } from "../schema/documents.js";
import { writeFileAtomic } from "./files.js";

export function reportPath(outDir: string): string {
  const abs = path.resolve(outDir);
  return path.join(path.dirname(abs), `${path.basename(abs)}.build-report.json`);
}

/**
 * The folder a site is written into while it is composed. Synchronous writes: hundreds of folders
 * and files, each an asynchronous round trip through libuv's thread pool otherwise, while the build
 * has nothing else to do (src/io/files.ts).
 */
export class SiteFolder implements SiteSink {
  private readonly made = new Set<string>();

  private constructor(
    private readonly out: string,
    private readonly tmp: string,
  ) {}

  /** A fresh folder beside `outDir`, emptied of what a crashed build of this process id left. */
  static async open(outDir: string): Promise<SiteFolder> {
    const out = path.resolve(outDir);
    const tmp = `${out}.tmp-${process.pid}`;
    await fs.rm(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    return new SiteFolder(out, tmp);
  }

  /** Validates a file against its schema (src/feed/validate.ts) and writes it; nothing of it is kept. */
  put(f: SiteFile): void {
    validateFile(f);
    const file = path.join(this.tmp, f.path);
    const dir = path.dirname(file);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    writeFileSync(file, f.body);
  }

  text(p: string): string {
    try {
      return readFileSync(path.join(this.tmp, p), "utf8");
    } catch (e) {
      throw new Error(`${p} is not built yet`, { cause: e });
    }
  }

  /** Writes the manifest and puts the folder in place of the published one. */
  async commit(manifest: Manifest): Promise<void> {
    const manifestBody = canonical(manifest);
    validateFile({ path: MANIFEST_FILE, body: manifestBody });
    writeFileSync(path.join(this.tmp, MANIFEST_FILE), manifestBody);
    const old = `${this.out}.old-${process.pid}`;
    const hadOld = await fs.rename(this.out, old).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return false;
        throw e;
      },
    );
    await fs.rename(this.tmp, this.out);
    if (hadOld) rmSync(old, { recursive: true, force: true });
  }

  /** Removes the folder: the published site stays as it was. */
  async abort(): Promise<void> {
    await fs.rm(this.tmp, { recursive: true, force: true });
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
