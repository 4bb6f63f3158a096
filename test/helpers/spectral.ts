/**
 * Spectral (@stoplight/spectral-cli) over a description file with the `spectral:oas` ruleset and its
 * default severities, nothing of the project's added or turned off: every result it reports (errors,
 * warnings, information and hints alike), as `code path: message`.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

interface Result {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

export async function spectralLint(file: string): Promise<string[]> {
  const bin = path.resolve("node_modules/.bin/spectral");
  const dir = await mkdtemp(path.join(os.tmpdir(), "pf-spectral-"));
  try {
    const ruleset = path.join(dir, ".spectral.yaml");
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n');
    const { stdout } = await promisify(execFile)(
      bin,
      ["lint", path.resolve(file), "--ruleset", ruleset, "--format", "json", "--fail-severity", "hint", "--quiet"],
      { cwd: dir, maxBuffer: 1 << 26, env: { ...process.env, NO_COLOR: "1" } },
    ).catch((e: { stdout: string; stderr: string }) => {
      if (!e.stdout.trim().startsWith("[")) throw new Error(`spectral failed: ${e.stderr || e.stdout}`);
      return e;
    });
    const results = JSON.parse(stdout.trim() || "[]") as Result[];
    return results.map((r) => `${r.code} ${r.path.join(".")}: ${r.message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
