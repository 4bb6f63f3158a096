/** Redocly's linter (recommended rules) over a description file, as npm test runs it: its JSON report. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: unknown[];
}

export async function redoclyLint(file: string): Promise<LintReport> {
  const bin = path.resolve("node_modules/.bin/redocly");
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const { stdout } = await promisify(execFile)(bin, ["lint", "--format=json", file], {
    env,
    maxBuffer: 1 << 24,
  }).catch((e: { stdout: string }) => e);
  return JSON.parse(stdout.slice(stdout.indexOf("{"))) as LintReport;
}
