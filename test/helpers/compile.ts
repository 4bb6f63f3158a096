/**
 * Vitest global setup: tests that spawn the CLI run the compiled bin (dist/cli/bin.js), so compile
 * first (incremental: about a second when nothing changed) and never test a stale build.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
}
