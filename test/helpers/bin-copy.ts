/** The compiled command line copied into a folder of its own, for tests that run it apart from the checkout. */
import { promises as fs } from "node:fs";
import path from "node:path";
import { tempDir } from "./dataset.js";

/**
 * The bin and its bundle, the files the bundle reads beside them, and the packages it loads at run
 * time, linked: resvg, native code that no bundle holds, and the fonts it draws the cards with
 * (src/jobs/card-images.ts).
 */
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
  await fs.mkdir(path.join(root, "node_modules"));
  for (const p of ["@resvg", "dejavu-fonts-ttf"])
    await fs.symlink(path.resolve("node_modules", p), path.join(root, "node_modules", p), "dir");
  return { bin: path.join(root, "dist/cli/bin.js") };
}
