/**
 * The hourly job, run locally: the workflow file passes a maintained validator (action-validator,
 * the SchemaStore schema, offline), and its own steps — ingest with the demo sources, compact,
 * build, commit data/ — run in order in a scratch clone, twice an hour apart, then once failing.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { promises as fs } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers/dataset.js";
import { ROOT, WORKFLOW, git, readWorkflow, seededOrigin, type Step, type Workflow } from "../helpers/workflow.js";

const run = promisify(execFile);
const CLI = `node ${path.join(ROOT, "dist/cli/bin.js")}`;

let steps: Step[];
let workflow: Workflow;

beforeAll(async () => {
  ({ workflow, steps } = await readWorkflow());
});

describe("the workflow file", () => {
  test("passes action-validator (GitHub's workflow schema, offline)", async () => {
    // Exit 0 (run() throws otherwise) and not a word: the validator lists errors only.
    expect(await run(path.join(ROOT, "node_modules/.bin/action-validator"), [WORKFLOW])).toEqual({
      stdout: "",
      stderr: "",
    });
  });

  test("the validator rejects a broken workflow, so the check can fail", async () => {
    const bad = path.join(await tempDir(), "bad.yml");
    await fs.writeFile(
      bad,
      (await fs.readFile(WORKFLOW, "utf8")).replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"),
    );
    const err = (await run(path.join(ROOT, "node_modules/.bin/action-validator"), [bad]).catch((e: unknown) => e)) as {
      code: number;
      stdout: string;
      stderr: string;
    };
    expect(err.code).toBe(1);
    expect(err.stdout + err.stderr).toContain("Additional property 'runs_on' is not allowed");
  });

  test("hourly and by hand, one run at a time, publishing last", () => {
    expect(workflow.on).toMatchObject({
      schedule: [{ cron: expect.stringMatching(/^\d+ \* \* \* \*$/) }],
      workflow_dispatch: {},
    });
    expect(workflow.concurrency).toEqual({ group: "publish-feed", "cancel-in-progress": false });
    const names = steps.map((s) => s.name ?? s.uses);
    expect(names.indexOf("Build and validate")).toBeLessThan(names.indexOf("Commit data/"));
    // Publishing last: the primary's deploy, then the mirror's upload of the same folder.
    expect(names.slice(-2)).toEqual(["Publish (Netlify deploy)", "Mirror: upload the checked site"]);
  });
});

/** Runs the workflow's own `run:` steps, from Ingest to the data commit, as Actions would (bash -e). */
async function runJob(work: string, now: string): Promise<{ failedAt: string | null; log: string }> {
  let log = "";
  for (const s of steps.slice(steps.findIndex((x) => x.name === "Ingest"))) {
    if (!s.run || s.name?.startsWith("Publish")) continue;
    const script = s.run.replaceAll("${{ steps.clock.outputs.now }}", now).replaceAll("npx price-feed", CLI);
    try {
      const r = await run("bash", ["-e", "-c", script], { cwd: work, maxBuffer: 1 << 26 });
      log += r.stdout;
    } catch (e) {
      return {
        failedAt: s.name ?? "?",
        log: log + String((e as { stdout?: string }).stdout ?? "") + String((e as { stderr?: string }).stderr ?? ""),
      };
    }
  }
  return { failedAt: null, log };
}

const manifestOf = async (work: string) =>
  JSON.parse(await fs.readFile(path.join(work, "public/_manifest.json"), "utf8")) as {
    files: Record<string, { etag: string }>;
  };
const feedOf = async (work: string, file: string) =>
  JSON.parse(await fs.readFile(path.join(work, "public", file), "utf8")) as {
    assets: Array<{ id: string; observedAt: string | null; series: Array<{ date: string; sellLo: number | null }> }>;
  };

describe("the job's steps, run locally", () => {
  test("twice an hour apart: ETags kept where nothing changed, history advanced where something did; a failed run leaves the repository as it was", async () => {
    const { origin, clone: work } = await seededOrigin(await tempDir("pf-job-"), "work", async (work) => {
      await fs.cp(path.join(ROOT, "data"), path.join(work, "data"), { recursive: true });
      await fs.copyFile(path.join(ROOT, ".gitignore"), path.join(work, ".gitignore"));
    });

    // Saturday 11:10 Cairo: the metals are in session, the currencies are closed.
    const first = await runJob(work, "2026-11-21T09:10:00Z");
    expect(first.failedAt, first.log).toBeNull();
    expect(first.log).toMatch(/dealers-board \(demo\): fetched \d+, appended [1-9]/);
    const m1 = await manifestOf(work);
    const gold1 = (await feedOf(work, "api/v1/feed/asset/gold-24k.json")).assets[0]!;
    expect(gold1.observedAt).toBe("2026-11-21T09:00:00.000Z");

    const second = await runJob(work, "2026-11-21T10:10:00Z");
    expect(second.failedAt, second.log).toBeNull();
    const m2 = await manifestOf(work);
    const gold2 = (await feedOf(work, "api/v1/feed/asset/gold-24k.json")).assets[0]!;
    // Where nothing changed (the closed currencies), the ETags stayed; where the metals moved, they moved.
    for (const f of [
      "api/v1/feed/asset/us-dollar.json",
      "api/v1/feed/category/currencies.json",
      "api/v1/changelog.json",
      "terms/index.html",
    ])
      expect(m2.files[f]!.etag, f).toBe(m1.files[f]!.etag);
    for (const f of ["api/v1/feed/asset/gold-24k.json", "api/v1/feed/category/metals.json", "api/v1/feed.json"])
      expect(m2.files[f]!.etag, f).not.toBe(m1.files[f]!.etag);
    expect(gold2.observedAt).toBe("2026-11-21T10:00:00.000Z");
    expect(gold2.series.at(-1)!.date).toBe("2026-11-21");

    const log = await git(origin, "log", "--format=%s", "main");
    expect(log.split("\n").slice(0, 3)).toEqual([
      "data: ingest and build at 2026-11-21T10:10:00Z",
      "data: ingest and build at 2026-11-21T09:10:00Z",
      "seed",
    ]);
    expect(await git(origin, "show", "main:data/quotes/2026-11-21.ndjson")).toContain(
      '"observedAt":"2026-11-21T10:00:00Z"',
    );

    // A run that fails before the commit step commits nothing: the repository stays as it was.
    const head = await git(origin, "rev-parse", "main");
    await fs.appendFile(path.join(work, "data/quotes/2026-11-21.ndjson"), "{ not json\n");
    const third = await runJob(work, "2026-11-21T11:10:00Z");
    // Compaction reads the whole dataset first, so it is the step that stops, naming file and line.
    expect(third.failedAt).toBe("Compact raw days past retention");
    expect(third.log).toMatch(/data\/quotes\/2026-11-21\.ndjson:\d+/);
    expect(await git(origin, "rev-parse", "main")).toBe(head);
  }, 120_000);
});
