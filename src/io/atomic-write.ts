/** Whole-file writes that a reader never sees half done. */
import { promises as fs } from "node:fs";
import path from "node:path";

/** Write-then-rename, so a reader never sees half a file. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
}
