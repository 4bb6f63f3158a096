/**
 * The hourly workflow's health steps, run as Actions runs them (bash -e): the publish job keeps what
 * `price-feed health` reads, even a refused build's record; the job `health` puts it over its
 * checkout and runs `price-feed health --notify`, turning exit 3 into a warning and never failing
 * (issue 52, item 5). `npx` is a stand-in on PATH that records what it was asked and where.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { readWorkflow, type Step } from "../helpers/workflow.js";
import { tempDir } from "../helpers/dataset.js";

const run = promisify(execFile);
let publish: Step[];
let health: Step[];

beforeAll(async () => {
  const { text } = await readWorkflow();
  const wf = parse(text) as { jobs: Record<string, { steps: Step[] }> };
  publish = wf.jobs["publish"]!.steps;
  health = wf.jobs["health"]!.steps;
});

async function bash(cwd: string, code: string, env: Record<string, string>) {
  try {
    const r = await run("bash", ["-e", "-c", code], { cwd, env: { ...process.env, ...env } });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? 1, out: `${x.stdout ?? ""}${x.stderr ?? ""}` };
  }
}

/** An `npx` that records its arguments and the state file it finds, then exits with `status`. */
async function fakeNpx(dir: string, status: number): Promise<string> {
  const bin = path.join(dir, "bin");
  await fs.mkdir(bin, { recursive: true });
  await fs.writeFile(
    path.join(bin, "npx"),
    `#!/bin/sh\necho "$@" > "${dir}/asked"\ncat data/state/build.json > "${dir}/seen" 2>/dev/null\nls public >> "${dir}/seen" 2>/dev/null\nexit ${status}\n`,
    { mode: 0o755 },
  );
  return bin;
}

describe("the workflow's health steps", () => {
  test("the publish job keeps the state files and the manifest, after a refused build too", async () => {
    const dir = await tempDir("pf-health-wf-");
    const work = path.join(dir, "work");
    await fs.mkdir(path.join(work, "data/state/closed-days"), { recursive: true });
    await fs.mkdir(path.join(work, "public"), { recursive: true });
    await fs.writeFile(path.join(work, "data/state/build.json"), '{"outcome":"refused"}\n');
    await fs.writeFile(path.join(work, "data/state/sources.json"), '{"sources":{}}\n');
    await fs.writeFile(path.join(work, "data/state/closed-days/x.json"), "{}\n");
    await fs.writeFile(path.join(work, "public/_manifest.json"), "{}\n");
    const keep = publish.find((s) => s.name === "Health: what it reads")!;
    expect(keep.if).toBe("always()");
    const r = await bash(work, keep.run!, { RUNNER_TEMP: path.join(dir, "tmp") });
    expect(r.code, r.out).toBe(0);
    const kept = path.join(dir, "tmp/feed-health");
    expect((await fs.readdir(path.join(kept, "data/state"))).sort()).toEqual(["build.json", "sources.json"]);
    expect(await fs.readdir(path.join(kept, "public"))).toEqual(["_manifest.json"]);
    const upload = publish.find((s) => s.name === "Health: keep what it reads")!;
    expect(upload).toMatchObject({
      if: "always()",
      with: { name: "feed-health", path: "${{ runner.temp }}/feed-health/" },
    });
    // Before the data commit, which a refused build never reaches; the deploy and the mirror's upload stay last.
    const names = publish.map((s) => s.name);
    expect(names.indexOf("Health: keep what it reads")).toBeLessThan(names.indexOf("Commit data/"));
  });

  test.each([
    { status: 0, code: 0, warning: false },
    { status: 3, code: 0, warning: true },
    { status: 1, code: 1, warning: false },
  ])("the health step: price-feed health exits $status, the step $code", async ({ status, code, warning }) => {
    const dir = await tempDir("pf-health-wf-");
    const work = path.join(dir, "work");
    const left = path.join(dir, "tmp/feed-health");
    await fs.mkdir(path.join(work, "data/state"), { recursive: true });
    await fs.writeFile(path.join(work, "data/state/build.json"), '{"outcome":"built"}\n');
    await fs.mkdir(path.join(left, "data/state"), { recursive: true });
    await fs.mkdir(path.join(left, "public"), { recursive: true });
    await fs.writeFile(path.join(left, "data/state/build.json"), '{"outcome":"refused"}\n');
    await fs.writeFile(path.join(left, "public/_manifest.json"), "{}\n");
    const step = health.find((s) => s.name === "Feed health")!;
    const bin = await fakeNpx(dir, status);
    const r = await bash(work, step.run!.replaceAll("${{ needs.publish.result }}", "failure"), {
      RUNNER_TEMP: path.join(dir, "tmp"),
      PATH: `${bin}:${process.env["PATH"]}`,
    });
    expect(r.code, r.out).toBe(code);
    expect(r.out.includes("::warning title=Feed health::something needs the operator")).toBe(warning);
    expect((await fs.readFile(path.join(dir, "asked"), "utf8")).trim()).toBe(
      "price-feed health --notify --publish-result failure",
    );
    // What the run left is what health judged: the refused build, and the manifest beside it.
    expect(await fs.readFile(path.join(dir, "seen"), "utf8")).toBe('{"outcome":"refused"}\n_manifest.json\n');
  });

  test("nothing left by the publish job: a warning, and health judges the checkout", async () => {
    const dir = await tempDir("pf-health-wf-");
    const work = path.join(dir, "work");
    await fs.mkdir(path.join(work, "data/state"), { recursive: true });
    await fs.writeFile(path.join(work, "data/state/build.json"), '{"outcome":"built"}\n');
    const bin = await fakeNpx(dir, 0);
    const step = health.find((s) => s.name === "Feed health")!;
    const r = await bash(work, step.run!.replaceAll("${{ needs.publish.result }}", "failure"), {
      RUNNER_TEMP: path.join(dir, "tmp"),
      PATH: `${bin}:${process.env["PATH"]}`,
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("::warning title=Feed health::the publish job left nothing to judge");
    expect(await fs.readFile(path.join(dir, "seen"), "utf8")).toBe('{"outcome":"built"}\n');
  });
});
