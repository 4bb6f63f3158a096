/**
 * Vitest global setup: tests that spawn the CLI run the compiled bin (dist/cli/bin.js) and its
 * bundle, so dist/ must be what the sources compile to now. scripts/compile.mjs decides, as it does
 * for `npm run build`: nothing to do when no input is newer than its stamp, else tsc and the bundle
 * (several seconds). Type errors are `npm run check`'s to report (it runs before the tests); tsc
 * still emits, so they do not stop the tests here, but such a compile leaves no stamp and the next
 * run compiles again: a stale build is never tested.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { checkTree } from "../../scripts/compile.mjs";

export default function setup(): void {
  if (!checkTree().stale) return;
  const r = spawnSync(process.execPath, ["scripts/compile.mjs", "--allow-type-errors"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`scripts/compile.mjs failed:\n${r.stdout}${r.stderr}`);
  for (const f of ["dist/cli/bin.js", "dist/cli/main.bundle.cjs"])
    if (!existsSync(f)) throw new Error(`scripts/compile.mjs did not produce ${f}`);
}
