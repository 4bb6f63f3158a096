/**
 * `price-feed init DIR`: a data folder for a real deployment, from examples/egypt (the CBE-licensed
 * banks, the real catalog and calendar, the sources whose pages are known), with empty logs. It never
 * overwrites: a folder that already holds files is refused, so a live dataset cannot be clobbered.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_FILES, DATA_FOLDERS } from "../core/data-layout.js";
import { loadFull } from "../io/load-full.js";
import { writeFailure } from "../io/atomic-write.js";
import { assertTargetFolder } from "../io/target-folder.js";

/** From the package root, so that src/io and dist/io find the same folder. */
export const DEPLOYMENT_TEMPLATE = fileURLToPath(new URL("../../examples/egypt", import.meta.url));

export async function initDataFolder(dir: string, template = DEPLOYMENT_TEMPLATE): Promise<{ files: string[] }> {
  // A file, a repository's root or a folder that holds anything is refused untouched (src/io/target-folder.ts).
  await assertTargetFolder(dir, {
    named: `init ${dir}`,
    makes: "a new data folder",
    hint: "init writes a new data folder; pick an empty or new one",
  });
  // Each write names its path when the disk is full, read-only or not ours (src/io/atomic-write.ts).
  const write = async (at: string, op: () => Promise<unknown>) => {
    try {
      await op();
    } catch (e) {
      throw writeFailure(at, e);
    }
  };
  await write(dir, () => fs.mkdir(dir, { recursive: true }));
  for (const f of Object.values(CONFIG_FILES))
    await write(path.join(dir, f), () => fs.copyFile(path.join(template, f), path.join(dir, f)));
  // Empty logs, each kept by a .gitkeep so that the hourly job's first commit has the whole layout.
  for (const folder of DATA_FOLDERS) {
    await write(path.join(dir, folder), () => fs.mkdir(path.join(dir, folder)));
    await write(path.join(dir, folder, ".gitkeep"), () => fs.writeFile(path.join(dir, folder, ".gitkeep"), ""));
  }
  await loadFull(dir); // the template must load as the build will load it
  return { files: Object.values(CONFIG_FILES) };
}
