/** The compiled command line copied into a folder of its own, for tests that run it apart from the checkout. */
import { promises as fs } from "node:fs";
import path from "node:path";
import { tempDir } from "./dataset.js";

/** The bin and its bundle, and the files the bundle reads beside them. */
export async function binCopy(prefix: string): Promise<{ bin: string }> {
  const root = await tempDir(prefix);
  for (const f of [
    "dist/cli/bin.js",
    "dist/cli/main.bundle.cjs",
    "docs/methodology.md",
    "src/render/openapi/changelog.json",
  ]) {
    await fs.mkdir(path.join(root, path.dirname(f)), { recursive: true });
    await fs.copyFile(f, path.join(root, f));
  }
  await fs.writeFile(path.join(root, "package.json"), '{"type":"module"}\n');
  return { bin: path.join(root, "dist/cli/bin.js") };
}
