/**
 * Vitest global setup: tests that spawn the CLI run the compiled bin (dist/cli/bin.js) and its
 * bundle, so compile first, as `npm run compile` does (tsc, incremental: about a second when nothing
 * changed; then scripts/bundle-cli.mjs), and never test a stale build. Type errors are `npm run
 * check`'s to report (it runs before the tests); tsc still emits, so they do not stop the tests here.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "ignore" });
  if (!existsSync("dist/cli/bin.js")) throw new Error("tsc -p tsconfig.build.json did not produce dist/cli/bin.js");
  const bundle = spawnSync(process.execPath, ["scripts/bundle-cli.mjs"], { encoding: "utf8" });
  if (bundle.status !== 0) throw new Error(`scripts/bundle-cli.mjs failed: ${bundle.stderr}`);
}
