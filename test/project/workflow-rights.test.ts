/**
 * The hourly job holds only what it uses (issue 42, item 4): read-only by default, the push right on
 * the one job that pushes and its token in the one step that pushes, the checkout keeping no
 * credentials, every action pinned to a commit with its version beside it, the Netlify CLI from the
 * lockfile and its token in the deploy step alone; and Dependabot keeping the pins current.
 *
 * Each rule is checked on the workflow as it is, and on a copy broken in that one way, so that every
 * rule is seen to fail when it should (a check that cannot fail proves nothing).
 */
import { beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { ROOT, readWorkflow } from "../helpers/workflow.js";

interface AnyStep {
  name?: string;
  "continue-on-error"?: unknown;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface AnyJob {
  needs?: unknown;
  if?: unknown;
  permissions?: unknown;
  env?: Record<string, unknown>;
  steps?: AnyStep[];
}
interface AnyWorkflow {
  permissions?: unknown;
  env?: Record<string, unknown>;
  jobs: Record<string, AnyJob>;
}

/** The one step given the token that can push, and the one given the Netlify token. */
const PUSH_STEP = "Commit data/";
const DEPLOY_STEP = "Publish (Netlify deploy)";
const BUILD_STEP = "Build and validate";
/** The one step given the job `health`'s token, which can write issues and nothing else (issue 52). */
const HEALTH_STEP = "Feed health";

/** `owner/repo` or `owner/repo/path`, at a full commit SHA. */
const PINNED = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\/[A-Za-z0-9_./-]+)?@[0-9a-f]{40}$/;
/** The line of a pinned action, its version in a comment, as Dependabot reads and rewrites it. */
const PINNED_LINE = /^\s*(- )?uses: \S+@[0-9a-f]{40} # v\d+(\.\d+){0,2}\s*$/;

/** Every way the workflow's text gives a step, a job or itself more than it uses; [] when none. */
function rightsProblems(text: string): string[] {
  const wf = parse(text) as AnyWorkflow;
  const problems: string[] = [];
  const jobs = Object.entries(wf.jobs);
  const steps = jobs.flatMap(([job, j]) => (j.steps ?? []).map((s) => ({ job, s })));
  const label = (job: string, s: AnyStep) => `${job}: ${s.name ?? s.uses ?? "?"}`;

  // Without a top-level block a job gets the repository's default, which may be read-write.
  const top = wf.permissions;
  if (top === undefined || top === null) problems.push("top-level permissions missing");
  else if (typeof top === "string") problems.push(`top-level permissions "${top}"`);
  else
    for (const [scope, level] of Object.entries(top as Record<string, string>))
      if (level !== "read" && level !== "none") problems.push(`top-level permissions ${scope}: ${level}`);

  const writesContents = jobs
    .filter(([, j]) => {
      const p = j.permissions;
      return (
        p === "write-all" ||
        (typeof p === "object" && p !== null && (p as Record<string, string>)["contents"] === "write")
      );
    })
    .map(([name]) => name);
  if (writesContents.join() !== "publish") problems.push(`contents: write on [${writesContents.join(", ")}]`);

  // Issues are written by the job `health` alone, which can push nothing, runs whatever the publish
  // job's outcome, and whose health step cannot fail the run (issue 52).
  const writes = (scope: string) =>
    jobs
      .filter(([, j]) => {
        const p = j.permissions;
        return (
          p === "write-all" || (typeof p === "object" && p !== null && (p as Record<string, string>)[scope] === "write")
        );
      })
      .map(([name]) => name);
  if (writes("issues").join() !== "health") problems.push(`issues: write on [${writes("issues").join(", ")}]`);
  const health = wf.jobs["health"];
  if (health && (health.needs !== "publish" || health.if !== "always()"))
    problems.push("the job health does not run after publish whatever its outcome");
  const healthStep = health?.steps?.find((s) => s.name === HEALTH_STEP);
  if (health && !healthStep) problems.push(`the job health has no step "${HEALTH_STEP}"`);
  if (healthStep && healthStep["continue-on-error"] !== true) problems.push(`health: ${HEALTH_STEP} can fail the run`);

  // Every `uses:` at a commit, its version in a comment on its line.
  for (const { job, s } of steps)
    if (s.uses && !PINNED.test(s.uses)) problems.push(`${label(job, s)} not pinned to a SHA`);
  for (const line of text.split("\n"))
    if (/^\s*(- )?uses:/.test(line) && !PINNED_LINE.test(line)) problems.push(`no "# vX.Y.Z" beside: ${line.trim()}`);

  for (const { job, s } of steps)
    if (s.uses?.startsWith("actions/checkout@") && s.with?.["persist-credentials"] !== false)
      problems.push(`${label(job, s)} persists credentials`);
  // setup-node's `token` input defaults to the job's token; it must not be handed the push right.
  for (const { job, s } of steps)
    if (s.uses?.startsWith("actions/setup-node@") && s.with?.["token"] !== "")
      problems.push(`${label(job, s)} is handed the job's token`);

  // The push token: read by the push step alone. The Netlify token: in the deploy step's env alone.
  const mentions = (x: unknown, re: RegExp) => re.test(JSON.stringify(x ?? null));
  const GITHUB_TOKEN = /github\.token|secrets\.GITHUB_TOKEN/;
  const NETLIFY_TOKEN = /NETLIFY_AUTH_TOKEN/;
  if (mentions(wf.env, GITHUB_TOKEN) || mentions(wf.env, NETLIFY_TOKEN)) problems.push("a token in the workflow's env");
  for (const [name, j] of jobs)
    if (mentions(j.env, GITHUB_TOKEN) || mentions(j.env, NETLIFY_TOKEN)) problems.push(`a token in job ${name}'s env`);
  for (const { job, s } of steps) {
    // The job `health`'s token can write issues only: its one step reads it (checked above: no contents: write there).
    const allowed = (job === "publish" && s.name === PUSH_STEP) || (job === "health" && s.name === HEALTH_STEP);
    if (!allowed && mentions(s, GITHUB_TOKEN))
      problems.push(`${label(job, s)} reads ${job === "health" ? "the job's token" : "the push token"}`);
    if (s.name !== DEPLOY_STEP && mentions(s, /secrets\.NETLIFY_AUTH_TOKEN/))
      problems.push(`${label(job, s)} is given the Netlify token`);
  }
  // The signing key: in the build step's env alone, nowhere else (docs/deployment.md "Signed builds").
  const SIGNING_KEY = /PRICE_FEED_SIGNING_KEY/;
  // The alert webhook's URL is a secret: in the health step's env alone.
  for (const { job, s } of steps)
    if (s.name !== HEALTH_STEP && mentions(s, /secrets\.PRICE_FEED_ALERT_WEBHOOK/))
      problems.push(`${label(job, s)} is given the alert webhook`);
  if (mentions(wf.env, SIGNING_KEY)) problems.push("the signing key in the workflow's env");
  for (const [name, j] of jobs) if (mentions(j.env, SIGNING_KEY)) problems.push(`the signing key in job ${name}'s env`);
  for (const { job, s } of steps)
    if (s.name !== BUILD_STEP && mentions(s, /secrets\.PRICE_FEED_SIGNING_KEY/))
      problems.push(`${label(job, s)} is given the signing key`);
  const build = steps.find(({ s }) => s.name === BUILD_STEP)?.s;
  if (build && build.env?.["PRICE_FEED_SIGNING_KEY"] !== "${{ secrets.PRICE_FEED_SIGNING_KEY }}")
    problems.push("the build step does not sign (no PRICE_FEED_SIGNING_KEY secret in its env)");
  const deploy = steps.find(({ s }) => s.name === DEPLOY_STEP)?.s;
  if (deploy && !Object.keys(deploy.env ?? {}).includes("NETLIFY_AUTH_TOKEN"))
    problems.push("the deploy step has no NETLIFY_AUTH_TOKEN in its env");

  // Nothing resolved from the registry at run time: the CLI is the lockfile's, in node_modules.
  if (/\bnpx\s+(--yes|-y)\b/.test(text)) problems.push("npx --yes");
  if (/netlify-cli@/.test(text)) problems.push("netlify-cli@version resolved at run time");
  if (deploy && !/(^|\s)(node_modules\/\.bin\/netlify|npm exec --no -- netlify) deploy\b/m.test(deploy.run ?? ""))
    problems.push("the deploy step does not run node_modules' netlify");
  return problems;
}

let text: string;

beforeAll(async () => {
  ({ text } = await readWorkflow());
});

/** The workflow's text with `from` (which must be there, once) replaced by `to`. */
const broken = (from: string | RegExp, to: string) => {
  const hits =
    typeof from === "string"
      ? text.split(from).length - 1
      : (text.match(new RegExp(from.source, `${from.flags}g`)) ?? []).length;
  if (hits !== 1) throw new Error(`expected one ${String(from)} in the workflow, found ${hits}`);
  return text.replace(from, to);
};
/** The workflow's text with the first `from` (the publish job's, where the health job repeats it) replaced by `to`. */
const brokenFirst = (from: string | RegExp, to: string) => {
  if (!(typeof from === "string" ? text.includes(from) : from.test(text)))
    throw new Error(`no ${String(from)} in the workflow`);
  return text.replace(from, to);
};

describe("the hourly job holds only what it uses (issue 42, item 4)", () => {
  test("the workflow as it is: nothing more than it uses", () => {
    expect(rightsProblems(text)).toEqual([]);
  });

  test("read-only at the top; contents: write on the publish job alone", () => {
    const wf = parse(text) as AnyWorkflow;
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(wf.jobs["publish"]!.permissions).toEqual({ contents: "write" });
    expect(rightsProblems(broken(/^permissions:\n {2}contents: read$/m, "permissions:\n  contents: write"))).toEqual([
      "top-level permissions contents: write",
    ]);
    expect(rightsProblems(broken(/^permissions:\n {2}contents: read$/m, "permissions: write-all"))).toEqual([
      'top-level permissions "write-all"',
    ]);
    expect(rightsProblems(broken(/^permissions:\n {2}contents: read\n/m, ""))).toEqual([
      "top-level permissions missing",
    ]);
    expect(
      rightsProblems(broken("      pages: write # to deploy to Pages", "      pages: write\n      contents: write")),
    ).toEqual(["contents: write on [publish, mirror]"]);
  });

  test("every action pinned to a full commit SHA, its version in a comment", () => {
    const uses = text.split("\n").filter((l) => /^\s*(- )?uses:/.test(l));
    expect(uses.length).toBeGreaterThanOrEqual(8);
    for (const l of uses) expect(l).toMatch(PINNED_LINE);
    const checkout = /actions\/checkout@[0-9a-f]{40} # (v[\d.]+)/;
    const version = text.match(checkout)![1]!;
    expect(rightsProblems(brokenFirst(checkout, `actions/checkout@${version}`))).toEqual([
      expect.stringMatching(/actions\/checkout@v[\d.]+ not pinned to a SHA$/),
      expect.stringMatching(/^no "# vX\.Y\.Z" beside: - uses: actions\/checkout@v/),
    ]);
    // A SHA without its version: Dependabot cannot say what it moves from, nor a reader what it is.
    expect(rightsProblems(broken(/(actions\/deploy-pages@[0-9a-f]{40}) # v[\d.]+/, "$1"))).toEqual([
      expect.stringMatching(/^no "# vX\.Y\.Z" beside: uses: actions\/deploy-pages@/),
    ]);
    // A short SHA is a prefix GitHub resolves, and one that can be made to collide: refused.
    expect(rightsProblems(broken(/(actions\/cache\/save@[0-9a-f]{7})[0-9a-f]{33}/, "$1"))).toEqual([
      expect.stringMatching(/not pinned to a SHA$/),
      expect.stringMatching(/^no "# vX\.Y\.Z" beside: uses: actions\/cache\/save@/),
    ]);
  });

  test("the checkout keeps no credentials, and setup-node is not handed the job's token", () => {
    expect(rightsProblems(brokenFirst(/\n {8}with:\n {10}persist-credentials: false/, ""))).toEqual([
      "publish: actions/checkout@" + text.match(/actions\/checkout@([0-9a-f]{40})/)![1] + " persists credentials",
    ]);
    expect(
      rightsProblems(brokenFirst("          persist-credentials: false\n", "          persist-credentials: true\n")),
    ).toHaveLength(1);
    expect(rightsProblems(brokenFirst(/\n {10}token: ""/, ""))).toEqual([
      expect.stringMatching(/actions\/setup-node@[0-9a-f]{40} is handed the job's token$/),
    ]);
  });

  test("the push token is read by the push step alone, the Netlify token by the deploy step alone", () => {
    expect(
      rightsProblems(
        broken("      - name: Install\n", "      - name: Install\n        env:\n          GH: ${{ github.token }}\n"),
      ),
    ).toEqual(["publish: Install reads the push token"]);
    expect(
      rightsProblems(
        broken(
          "      - name: Ingest\n",
          "      - name: Ingest\n        env:\n          NETLIFY_AUTH_TOKEN: ${{ secrets.NETLIFY_AUTH_TOKEN }}\n",
        ),
      ),
    ).toEqual(["publish: Ingest is given the Netlify token"]);
    // Hoisted to the job, every step would have it.
    expect(
      rightsProblems(
        broken(
          "    timeout-minutes: 20\n",
          "    timeout-minutes: 20\n    env:\n      NETLIFY_AUTH_TOKEN: ${{ secrets.NETLIFY_AUTH_TOKEN }}\n",
        ),
      ),
    ).toEqual(["a token in job publish's env"]);
  });

  test("the signing key is in the build step's env alone (issue 45)", () => {
    expect(
      rightsProblems(
        broken(
          "      - name: Ingest\n",
          "      - name: Ingest\n        env:\n          PRICE_FEED_SIGNING_KEY: ${{ secrets.PRICE_FEED_SIGNING_KEY }}\n",
        ),
      ),
    ).toEqual(["publish: Ingest is given the signing key"]);
    expect(
      rightsProblems(
        broken(
          "    timeout-minutes: 20\n",
          "    timeout-minutes: 20\n    env:\n      PRICE_FEED_SIGNING_KEY: ${{ secrets.PRICE_FEED_SIGNING_KEY }}\n",
        ),
      ),
    ).toEqual(["the signing key in job publish's env"]);
    // Taken away, the hourly build would publish unsigned, and every client that verifies would refuse it.
    expect(
      rightsProblems(
        broken("        env:\n          PRICE_FEED_SIGNING_KEY: ${{ secrets.PRICE_FEED_SIGNING_KEY }}\n", ""),
      ),
    ).toEqual(["the build step does not sign (no PRICE_FEED_SIGNING_KEY secret in its env)"]);
  });

  test("netlify-cli is the lockfile's, run from node_modules: never npx --yes", async () => {
    expect(text).not.toMatch(/npx\s+(--yes|-y)\b/);
    expect(rightsProblems(broken("node_modules/.bin/netlify deploy", "npx --yes netlify-cli@27.10.2 deploy"))).toEqual([
      "npx --yes",
      "netlify-cli@version resolved at run time",
      "the deploy step does not run node_modules' netlify",
    ]);
    expect(rightsProblems(broken("node_modules/.bin/netlify deploy", "npx -y netlify deploy"))).toEqual([
      "npx --yes",
      "the deploy step does not run node_modules' netlify",
    ]);
    // What node_modules holds is what the lockfile pinned (version and integrity), a devDependency.
    const pkg = JSON.parse(await fs.readFile(path.join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const lock = JSON.parse(await fs.readFile(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string; integrity?: string; dev?: boolean }>;
    };
    expect(pkg.devDependencies["netlify-cli"]).toBeDefined();
    const locked = lock.packages["node_modules/netlify-cli"]!;
    expect(locked).toMatchObject({ dev: true, integrity: expect.stringMatching(/^sha512-/) });
    const installed = JSON.parse(
      await fs.readFile(path.join(ROOT, "node_modules/netlify-cli/package.json"), "utf8"),
    ) as { version: string };
    expect(installed.version).toBe(locked.version);
  });
});

describe("the job health writes issues and nothing else (issue 52)", () => {
  test("issues: write on the job health alone; its token and the webhook in its one step; never failing the run", () => {
    const wf = parse(text) as AnyWorkflow;
    expect(wf.jobs["health"]!.permissions).toEqual({ contents: "read", issues: "write" });
    const step = wf.jobs["health"]!.steps!.find((s) => s.name === HEALTH_STEP)!;
    expect(step.env).toEqual({
      GITHUB_TOKEN: "${{ github.token }}",
      PRICE_FEED_ALERT_WEBHOOK: "${{ secrets.PRICE_FEED_ALERT_WEBHOOK }}",
    });
    expect(step.run).toMatch(/npx price-feed health --notify/);
    // Granted to the publish job, every parser of the hourly run could write issues.
    expect(
      rightsProblems(
        broken(
          "    permissions:\n      contents: write\n",
          "    permissions:\n      contents: write\n      issues: write\n",
        ),
      ),
    ).toEqual(["issues: write on [publish, health]"]);
    expect(
      rightsProblems(
        broken("      contents: read\n      issues: write\n", "      contents: write\n      issues: write\n"),
      ),
    ).toEqual(["contents: write on [publish, health]"]);
    expect(
      rightsProblems(
        broken(
          '      - name: "Health: install"\n',
          '      - name: "Health: install"\n        env:\n          T: ${{ github.token }}\n',
        ),
      ),
    ).toEqual(["health: Health: install reads the job's token"]);
    expect(
      rightsProblems(
        broken(
          "      - name: Ingest\n",
          "      - name: Ingest\n        env:\n          HOOK: ${{ secrets.PRICE_FEED_ALERT_WEBHOOK }}\n",
        ),
      ),
    ).toEqual(["publish: Ingest is given the alert webhook"]);
    expect(rightsProblems(broken(/(- name: Feed health\n {8})continue-on-error: true\n {8}/, "$1"))).toEqual([
      "health: Feed health can fail the run",
    ]);
    expect(
      rightsProblems(
        broken(
          "    needs: publish\n    if: always()\n    runs-on: ubuntu-latest\n    timeout-minutes: 10\n",
          "    needs: publish\n    runs-on: ubuntu-latest\n    timeout-minutes: 10\n",
        ),
      ),
    ).toEqual(["the job health does not run after publish whatever its outcome"]);
  });
});

describe("Dependabot keeps the pins current", () => {
  interface Update {
    "package-ecosystem": string;
    directory: string;
    schedule: { interval: string };
    cooldown?: { "default-days"?: number };
  }

  test("the actions and the root's npm packages, weekly, once a release is a week old", async () => {
    const config = parse(await fs.readFile(path.join(ROOT, ".github/dependabot.yml"), "utf8")) as {
      version: number;
      updates: Update[];
    };
    expect(config.version).toBe(2);
    const entries = config.updates.map((u) => `${u["package-ecosystem"]} ${u.directory} ${u.schedule.interval}`);
    expect(entries.sort()).toEqual(["github-actions / weekly", "npm / weekly"]);
    for (const u of config.updates) expect(u.cooldown?.["default-days"]).toBe(7);
  });

  test("client/ needs no entry of its own while it has no dependencies and no lockfile", async () => {
    // When it gets either, this fails: give it an entry (directory: /client) in .github/dependabot.yml.
    const client = JSON.parse(await fs.readFile(path.join(ROOT, "client/package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    for (const k of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"])
      expect(client[k], k).toBeUndefined();
    await expect(fs.stat(path.join(ROOT, "client/package-lock.json"))).rejects.toThrow();
  });
});
