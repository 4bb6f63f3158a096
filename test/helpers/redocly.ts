/**
 * Redocly's linter over a description file with its recommended rules as they come: run from an
 * empty folder, so that no configuration of the project's (redocly.yaml) turns a rule off (issue
 * 53). Its JSON report.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: unknown[];
}

export async function redoclyLint(file: string): Promise<LintReport> {
  const bin = path.resolve("node_modules/.bin/redocly");
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const cwd = await mkdtemp(path.join(os.tmpdir(), "pf-redocly-"));
  try {
    const { stdout } = await promisify(execFile)(bin, ["lint", "--format=json", path.resolve(file)], {
      env,
      cwd,
      maxBuffer: 1 << 24,
    }).catch((e: { stdout: string }) => e);
    return JSON.parse(stdout.slice(stdout.indexOf("{"))) as LintReport;
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
