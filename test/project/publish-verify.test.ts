/**
 * The hourly job checks what it is about to publish as a client would (issue 50, item 4): after the
 * build and before the data commit and the deploy, `price-feed verify public --key data/keys.json`,
 * against the committed keys. The step's own script, run with bash -e in a scratch folder with the
 * compiled CLI: a signed build passes, a forged file or an unsigned build stops the job, and a
 * deployment without keys says it publishes unsigned.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { newKeyPair, SIGNING_KEY_VAR } from "../../src/io/signing-key.js";
import { files } from "../../src/feed/paths.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";
import { ROOT, readWorkflow, type Step } from "../helpers/workflow.js";

const run = promisify(execFile);
const CLI = `node ${path.join(ROOT, "dist/cli/bin.js")}`;
const STEP = "Verify the signed build";

let steps: Step[];
beforeAll(async () => {
  ({ steps } = await readWorkflow());
});

/** The step's script, run in `cwd` as Actions would (bash -e), with the compiled CLI for npx price-feed. */
async function runStep(cwd: string): Promise<{ code: number; out: string }> {
  const script = steps.find((s) => s.name === STEP)!.run!.replaceAll("npx price-feed", CLI);
  try {
    const r = await run("bash", ["-e", "-c", script], { cwd, maxBuffer: 1 << 24 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe("the job verifies the build before it commits or deploys", () => {
  test("the step comes after the build and before the data commit and every publishing step", () => {
    const names = steps.map((s) => s.name ?? s.uses);
    const at = (n: string) => names.indexOf(n);
    expect(at(STEP)).toBe(at("Build and validate") + 1);
    expect(at(STEP)).toBeLessThan(at("Commit data/"));
    expect(at(STEP)).toBeLessThan(at("Publish (Netlify deploy)"));
    expect(steps[at(STEP)]!.run).toMatch(/npx price-feed verify public --key data\/keys\.json/);
    // It pins the committed keys and is given no secret.
    expect(steps[at(STEP)]!.env).toBeUndefined();
  });

  test("its script: a signed build passes; a forged file, an unsigned build stop the job; no keys file says unsigned", async () => {
    const work = await tempDir("pf-verify-step-");
    const data = await writeDataset(path.join(work, "data"), smallRows());
    const key = await newKeyPair(BUILT_AT - 86_400_000);
    const out = path.join(work, "public");

    // No keys file: the build is unsigned, and the step says so without failing.
    await runBuild({ dataDir: data, outDir: out, nowMs: BUILT_AT, saveState: false, env: {} });
    const bare = await runStep(work);
    expect(bare.code, bare.out).toBe(0);
    expect(bare.out).toContain("::warning title=Unsigned::data/keys.json lists no key");

    await fs.writeFile(path.join(data, "keys.json"), JSON.stringify({ schemaVersion: 1, keys: [key.entry] }));
    await runBuild({
      dataDir: data,
      outDir: out,
      nowMs: BUILT_AT,
      saveState: false,
      env: { [SIGNING_KEY_VAR]: key.privatePem },
    });
    const good = await runStep(work);
    expect(good.code, good.out).toBe(0);
    expect(good.out).toMatch(
      new RegExp(
        `all as signed: checked \\d+ files of public .*signed with key ${key.entry.id} \\(given with --key\\)`,
      ),
    );

    // One byte of the feed changed after the build: named, exit 1.
    const feed = path.join(out, files.feed);
    const text = await fs.readFile(feed, "utf8");
    await fs.writeFile(
      feed,
      text.replace(/"buy":\s*(\d)/, (_m, d: string) => `"buy":${(Number(d) + 1) % 10}`),
    );
    const forged = await runStep(work);
    expect(forged.code).toBe(1);
    expect(forged.out).toContain(`${files.feed}: differs`);

    // Published unsigned on purpose while the keys are listed: the step refuses to let it out.
    await runBuild({ dataDir: data, outDir: out, nowMs: BUILT_AT, saveState: false, force: true, unsigned: true });
    const unsigned = await runStep(work);
    expect(unsigned.code).toBe(1);
    expect(unsigned.out).toMatch(/is not signed/);
  }, 60_000);
});
