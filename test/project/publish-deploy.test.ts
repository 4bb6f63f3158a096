/**
 * Publishing, as the workflow does it: the job's data commit lands even when main moved meanwhile
 * (rebased and retried, and kept as an artifact when it cannot land), and what is deployed is the
 * folder this job built and checked, by the Netlify CLI with --no-build, while Netlify itself
 * builds nothing. The `run:` scripts are the workflow's own, run with bash -e in scratch repositories.
 * The token that can push is given to the commit step alone, and left nowhere a later step finds it.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { promises as fs } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers/dataset.js";
import {
  ROOT,
  WORKFLOW,
  cloneAs,
  git,
  readWorkflow,
  seededOrigin,
  type Step,
  type Workflow,
} from "../helpers/workflow.js";

const run = promisify(execFile);
const NOW = "2026-11-21T09:10:00Z";

let steps: Step[];
let text: string;
let workflow: Workflow;

beforeAll(async () => {
  ({ text, steps, workflow } = await readWorkflow());
});

const step = (name: string) => {
  const s = steps.find((x) => x.name === name);
  if (!s) throw new Error(`no step "${name}"`);
  return s;
};
/** A step's script as Actions runs it, the run's instant filled in; `sleep` made instant for the test. */
const script = (name: string) =>
  step(name)
    .run!.replaceAll("${{ steps.clock.outputs.now }}", NOW)
    .replace(/\bsleep \$\(\([^)]*\)\)/g, ":");

async function bash(cwd: string, code: string, env: Record<string, string> = {}) {
  try {
    const r = await run("bash", ["-e", "-c", code], { cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 24 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? 1, out: `${x.stdout ?? ""}${x.stderr ?? ""}` };
  }
}

/** A bare origin with one seed commit (a data file and a README), the job's clone, and a colleague's. */
async function repos() {
  const dir = await tempDir("pf-push-");
  const { origin, clone: job } = await seededOrigin(dir, "job", async (job) => {
    await fs.mkdir(path.join(job, "data/quotes"), { recursive: true });
    await fs.writeFile(path.join(job, "data/quotes/2026-11-21.ndjson"), '{"n":1}\n');
    await fs.writeFile(path.join(job, "README.md"), "seed\n");
  });
  const other = path.join(dir, "other");
  await cloneAs(origin, other, "colleague");
  return { origin, job, other };
}

/** The colleague pushes a commit to main after the job checked out. */
async function colleaguePushes(other: string, file: string, content: string) {
  await fs.mkdir(path.dirname(path.join(other, file)), { recursive: true });
  await fs.writeFile(path.join(other, file), content);
  await git(other, "add", file);
  await git(other, "commit", "-q", "-m", `colleague: ${file}`);
  await git(other, "push", "-q", "origin", "main");
}

describe("the workflow publishes what it built, once an hour", () => {
  test("passes action-validator", async () => {
    await run(path.join(ROOT, "node_modules/.bin/action-validator"), [WORKFLOW]);
  });

  test("build, commit, bundle, deploy in that order; the deploy last; no build hook, one build", () => {
    const names = steps.map((s) => s.name ?? s.uses);
    const at = (n: string) => names.indexOf(n);
    expect(at("Build and validate")).toBeGreaterThan(-1);
    expect(at("Build and validate")).toBeLessThan(at("Commit data/"));
    expect(at("Commit data/")).toBeLessThan(at("Publish: bundle the edge function"));
    expect(at("Publish: bundle the edge function")).toBeLessThan(at("Publish (Netlify deploy)"));
    // After the primary's deploy, only the upload of that same folder for the mirror.
    expect(names.slice(at("Publish (Netlify deploy)") + 1)).toEqual(["Mirror: upload the checked site"]);
    // Nothing asks Netlify to build: no build hook, no `netlify deploy` that builds, no --trigger.
    expect(text).not.toMatch(/BUILD_HOOK|api\.netlify\.com\/build_hooks|--trigger/);
    // One build per run: the job's own, at its instant.
    const builds = steps.filter((s) => /price-feed build|npm run build|netlify build/.test(s.run ?? ""));
    expect(builds.map((s) => s.name)).toEqual(["Build and validate"]);
    expect(step("Publish: bundle the edge function").run).toMatch(/tsx scripts\/bundle-edge\.ts/);
  });

  test("the deploy: node_modules' netlify-cli (the lockfile's), --prod --no-build of public/, the two secrets", () => {
    const deploy = step("Publish (Netlify deploy)");
    expect(deploy.run).toMatch(/^\s*node_modules\/\.bin\/netlify deploy --prod --no-build --dir public\b/m);
    expect(deploy.env).toEqual({
      NETLIFY_AUTH_TOKEN: "${{ secrets.NETLIFY_AUTH_TOKEN }}",
      NETLIFY_SITE_ID: "${{ secrets.NETLIFY_SITE_ID }}",
    });
  });

  test("netlify.toml: Netlify cancels its own builds, publishes public/, finds the bundle where the job puts it", async () => {
    const toml = await fs.readFile(path.join(ROOT, "netlify.toml"), "utf8");
    expect(toml).toMatch(/^\[build\][^[]*^\s*ignore = "exit 0"$/m);
    expect(toml).toMatch(/^\s*publish = "public"$/m);
    expect(toml).toMatch(/^\s*edge_functions = "netlify\/edge-functions"$/m);
    const bundler = await fs.readFile(path.join(ROOT, "scripts/bundle-edge.ts"), "utf8");
    expect(bundler).toContain('outfile = "netlify/edge-functions/api.js"');
  });

  test("the deploy step refuses to run without its secrets, and runs node_modules' CLI on the checked folder", async () => {
    const { job } = await repos();
    // A stand-in for the CLI npm ci installs, recording what it was asked to run; and an npx that
    // fails, so a deploy that resolved its CLI from the registry instead would fail here.
    const cli = path.join(job, "node_modules/.bin");
    await fs.mkdir(cli, { recursive: true });
    await fs.writeFile(path.join(cli, "netlify"), '#!/bin/sh\nprintf "%s\\n" "$@" > "$CLI_ARGS"\n', { mode: 0o755 });
    const bin = path.join(job, ".bin");
    await fs.mkdir(bin);
    await fs.writeFile(path.join(bin, "npx"), "#!/bin/sh\necho npx was called >&2\nexit 99\n", { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env["PATH"]}`, CLI_ARGS: path.join(job, "cli-args") };
    const code = script("Publish (Netlify deploy)");

    const unset = await bash(job, code, { ...env, NETLIFY_AUTH_TOKEN: "", NETLIFY_SITE_ID: "" });
    expect(unset.code).not.toBe(0);
    expect(unset.out).toContain("NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID must both be set");

    const secrets = { ...env, NETLIFY_AUTH_TOKEN: "t", NETLIFY_SITE_ID: "s" };
    const unbuilt = await bash(job, code, secrets);
    expect(unbuilt.code).not.toBe(0); // no public/ and no bundle: nothing to deploy
    expect(unbuilt.out).toContain("public/_manifest.json is missing");

    await fs.mkdir(path.join(job, "public"));
    await fs.writeFile(path.join(job, "public/_manifest.json"), "{}");
    await fs.mkdir(path.join(job, "netlify/edge-functions"), { recursive: true });
    await fs.writeFile(path.join(job, "netlify/edge-functions/api.js"), "export default () => {};");
    const ok = await bash(job, code, secrets);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).not.toContain("npx was called");
    const args = (await fs.readFile(env.CLI_ARGS, "utf8")).trim().split("\n");
    expect(args.slice(0, 5)).toEqual(["deploy", "--prod", "--no-build", "--dir", "public"]);
    expect(args.slice(5)).toEqual(["--message", expect.stringContaining(`build at ${NOW}`)]);
  });
});

describe("the second home: the same build on GitHub Pages, after the primary's (issue 27)", () => {
  const MIRROR_ON = "vars.PRICE_FEED_MIRROR == 'github-pages'";

  test("the publish job uploads the very public/ it built, checked and deployed, as its last step", () => {
    const upload = step("Mirror: upload the checked site");
    expect(upload.uses).toMatch(/^actions\/upload-pages-artifact@[0-9a-f]{40}$/);
    expect(upload.with).toMatchObject({ path: "public" });
    expect(upload.if).toBe(MIRROR_ON);
    expect(steps.at(-1)).toBe(upload);
    // No step between the build and the upload writes public/ again: one build, deployed twice.
    const after = steps.slice(steps.findIndex((s) => s.name === "Build and validate") + 1);
    for (const s of after) expect(s.run ?? "").not.toMatch(/price-feed build|npm run build|--out\b|rm -rf public/);
  });

  test("the mirror job needs the publish job, checks out and builds nothing, and deploys the artifact to Pages", () => {
    const mirror = workflow.jobs.mirror!;
    expect(mirror.needs).toBe("publish");
    expect(mirror.if).toBe(MIRROR_ON);
    expect(mirror.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(mirror.environment?.name).toBe("github-pages");
    expect(mirror.steps.map((s) => s.uses)).toEqual([expect.stringMatching(/^actions\/deploy-pages@[0-9a-f]{40}$/)]);
    expect(mirror.steps.some((s) => s.run !== undefined)).toBe(false);
    // The workflow's other jobs are these two and `health`, which publishes nothing (it writes issues).
    expect(Object.keys(workflow.jobs)).toEqual(["publish", "mirror", "health"]);
  });
});

describe("the data commit lands even when main moved (issue 26, item 14)", () => {
  test("a colleague's push between checkout and push: rebased onto it and pushed, nothing lost", async () => {
    const { origin, job, other } = await repos();
    await colleaguePushes(other, "docs/note.md", "a code change\n");
    await colleaguePushes(other, "data/sellers.json", "[]\n"); // data/ too, another file
    await fs.appendFile(path.join(job, "data/quotes/2026-11-21.ndjson"), '{"n":2}\n');
    const r = await bash(job, script("Commit data/"));
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/push refused \(attempt 1 of 5\)/);
    expect((await git(origin, "log", "--format=%s", "main")).split("\n")).toEqual([
      `data: ingest and build at ${NOW}`,
      "colleague: data/sellers.json",
      "colleague: docs/note.md",
      "seed",
    ]);
    expect(await git(origin, "show", "main:data/quotes/2026-11-21.ndjson")).toBe('{"n":1}\n{"n":2}');
    expect(await git(origin, "show", "main:docs/note.md")).toBe("a code change");
  });

  test("nothing to commit: nothing pushed", async () => {
    const { origin, job } = await repos();
    const head = await git(origin, "rev-parse", "main");
    const r = await bash(job, script("Commit data/"));
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("data/ unchanged");
    expect(await git(origin, "rev-parse", "main")).toBe(head);
  });

  test("a push refused every time: 5 attempts, then the step fails loudly and keeps the commit as a patch", async () => {
    const { origin, job } = await repos();
    await fs.writeFile(path.join(origin, "hooks/pre-receive"), "#!/bin/sh\necho 'main is protected' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const head = await git(origin, "rev-parse", "main");
    await fs.appendFile(path.join(job, "data/quotes/2026-11-21.ndjson"), '{"n":2}\n');
    const r = await bash(job, script("Commit data/"));
    expect(r.code).not.toBe(0);
    expect(r.out.match(/push refused \(attempt \d of 5\)/g)).toHaveLength(4);
    expect(r.out).toContain("::error title=Commit data/::the push was refused 5 times");
    expect(await git(origin, "rev-parse", "main")).toBe(head);
    const patches = await fs.readdir(path.join(job, "unpushed"));
    expect(patches).toHaveLength(1);
    expect(await fs.readFile(path.join(job, "unpushed", patches[0]!), "utf8")).toContain('+{"n":2}');
    // The artifact step uploads it when the job fails.
    const keep = step("Keep the unpushed data commit");
    expect(keep).toMatchObject({ if: "failure()", with: { name: "unpushed-data", path: "unpushed/" } });
    expect(keep.uses).toMatch(/^actions\/upload-artifact@[0-9a-f]{40}$/);
  });

  test("a data commit that cannot be replayed (the same lines changed on main): the rebase is undone, the step fails, the patch is kept", async () => {
    const { origin, job, other } = await repos();
    await colleaguePushes(other, "data/quotes/2026-11-21.ndjson", '{"n":1}\n{"n":"by hand"}\n');
    const head = await git(origin, "rev-parse", "main");
    await fs.appendFile(path.join(job, "data/quotes/2026-11-21.ndjson"), '{"n":2}\n');
    const r = await bash(job, script("Commit data/"));
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("does not rebase onto origin/main");
    expect(await git(origin, "rev-parse", "main")).toBe(head);
    await expect(fs.stat(path.join(job, ".git/rebase-merge"))).rejects.toThrow();
    expect(await fs.readdir(path.join(job, "unpushed"))).toHaveLength(1);
  });
});

describe("the token that can push: in the push step alone (issue 42, item 4)", () => {
  const TOKEN = "ghs_not-a-real-token-0123456789";
  const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");

  test("the step gives git the token as a header for github.com only, masked in the log first", async () => {
    const { job } = await repos();
    const commit = script("Commit data/");
    // The step's lines before its first git command, then what git makes of them.
    const prelude = commit.slice(0, commit.indexOf("git config user.name"));
    const probe = (url: string) => `${prelude}\ngit config --get-urlmatch http.extraheader ${url} || echo none`;
    const github = await bash(job, probe("https://github.com/owner/repo.git"), { PUSH_TOKEN: TOKEN });
    expect(github.code, github.out).toBe(0);
    expect(github.out.trim().split("\n")).toEqual([`::add-mask::${BASIC}`, `AUTHORIZATION: basic ${BASIC}`]);
    const elsewhere = await bash(job, probe("https://example.com/owner/repo.git"), { PUSH_TOKEN: TOKEN });
    expect(elsewhere.out.trim().split("\n").at(-1)).toBe("none");
  });

  test("after the push, nothing of the token is left where a later step would find it", async () => {
    const { origin, job } = await repos();
    await fs.appendFile(path.join(job, "data/quotes/2026-11-21.ndjson"), '{"n":2}\n');
    const r = await bash(job, script("Commit data/"), { PUSH_TOKEN: TOKEN });
    expect(r.code, r.out).toBe(0);
    expect(await git(origin, "log", "-1", "--format=%s", "main")).toBe(`data: ingest and build at ${NOW}`);
    // The next step (the bundle, the Netlify CLI) starts from .git/config and a fresh environment.
    const config = await fs.readFile(path.join(job, ".git/config"), "utf8");
    expect(config).not.toContain(TOKEN);
    expect(config).not.toContain(BASIC);
    const after = await bash(job, "git config --get-regexp 'extraheader' || echo none");
    expect(after.out.trim()).toBe("none");
  });
});
