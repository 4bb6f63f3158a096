/**
 * What the tests of the hourly workflow share (test/project/publish-job.test.ts, test/project/publish-deploy.test.ts):
 * its file read and parsed, and scratch git repositories to run its steps in.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";

const run = promisify(execFile);

export const ROOT = path.resolve(".");
export const WORKFLOW = path.join(ROOT, ".github/workflows/publish.yml");

export interface Step {
  id?: string;
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

export interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  environment?: { name: string; url?: string };
  steps: Step[];
}

export interface Workflow {
  on: Record<string, unknown>;
  concurrency: { group: string; "cancel-in-progress": boolean };
  permissions: Record<string, string>;
  jobs: { publish: Job; mirror?: Job; health?: Job };
}

/** The workflow file: its text, parsed, and the publish job's steps. */
export async function readWorkflow(): Promise<{ text: string; workflow: Workflow; steps: Step[] }> {
  const text = await fs.readFile(WORKFLOW, "utf8");
  const workflow = parse(text) as Workflow;
  return { text, workflow, steps: workflow.jobs.publish.steps };
}

/** `git …args` in `cwd`; its output, trimmed. */
export const git = (cwd: string, ...args: string[]) => run("git", args, { cwd }).then((r) => r.stdout.trim());

/** Clones `origin` into `clone`, committing as `<who>@price-feed.test`. */
export async function cloneAs(origin: string, clone: string, who: string): Promise<void> {
  await run("git", ["clone", "-q", origin, clone]);
  await git(clone, "config", "user.email", `${who}@price-feed.test`);
  await git(clone, "config", "user.name", who);
}

/**
 * A bare origin `<dir>/origin.git` (branch main) and its clone `<dir>/<name>`, committing as dev,
 * whose first commit, "seed" (what `seed` writes into the clone), is pushed.
 */
export async function seededOrigin(
  dir: string,
  name: string,
  seed: (clone: string) => Promise<void>,
): Promise<{ origin: string; clone: string }> {
  const origin = path.join(dir, "origin.git");
  const clone = path.join(dir, name);
  await run("git", ["init", "-q", "--bare", "-b", "main", origin]);
  await cloneAs(origin, clone, "dev");
  await seed(clone);
  await git(clone, "add", ".");
  await git(clone, "commit", "-q", "-m", "seed");
  await git(clone, "push", "-q", "origin", "main");
  return { origin, clone };
}
