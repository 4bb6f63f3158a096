/**
 * The bin turns on Node's compile cache and runs the command line's bundle (src/cli/bin.ts, made by
 * scripts/bundle-cli.mjs, with what src/core/precomputed.ts lists computed at compile time). It must
 * make the same bytes as the modules themselves, with the cache or without it; the cache is Node's
 * (NODE_COMPILE_CACHE names its folder, NODE_DISABLE_COMPILE_CACHE turns it off) and never a
 * requirement; and a Node older than package.json's "engines" is refused in one line.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { parseInstant } from "../../src/core/cairo.js";
import { snapshot, tempDir } from "../helpers/dataset.js";
import { binCopy } from "../helpers/bin-copy.js";

const run = promisify(execFile);
const NOW = "2026-11-19T12:30:00Z";
const DATA = path.resolve("data");

/** The environment of a run: the tests' own, without a debug switch or a compile cache setting, plus `env`. */
function envOf(env: Record<string, string>): NodeJS.ProcessEnv {
  // Node reads NODE_DISABLE_COMPILE_CACHE's presence, not its value: left out unless a test sets it.
  const { NODE_DISABLE_COMPILE_CACHE: _off, NODE_COMPILE_CACHE: _dir, ...rest } = process.env;
  return { ...rest, PRICE_FEED_DEBUG: "", ...env };
}

async function cliBuild(bin: string, out: string, env: Record<string, string> = {}) {
  await run(process.execPath, [bin, "build", "--no-state", "--force", "--data", DATA, "--out", out, "--now", NOW], {
    env: envOf(env),
  });
  return snapshot(out);
}

/** Every file under dir (the compile cache's entries), with its modification time. */
async function filesIn(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    if (e.isFile()) {
      const file = path.join(e.parentPath, e.name);
      out[path.relative(dir, file)] = (await fs.stat(file)).mtimeMs;
    }
  return out;
}

describe("the bundled command line", () => {
  test("builds the same bytes as the modules, unbundled and in process", async () => {
    const tmp = await tempDir("pf-bundle-");
    const inProcess = path.join(tmp, "in-process");
    await runBuild({ dataDir: DATA, outDir: inProcess, nowMs: parseInstant(NOW)!, saveState: false, force: true });
    const want = await snapshot(inProcess);
    expect(want.get("docs/index.html")).toContain('id="methodology-');
    const bin = path.resolve("dist/cli/bin.js");
    const bundled = await cliBuild(bin, path.join(tmp, "bundled"));
    const modules = await cliBuild(bin, path.join(tmp, "modules"), { PRICE_FEED_DEBUG: "1" });
    expect([...bundled.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [file, body] of want) {
      expect(bundled.get(file), file).toBe(body);
      expect(modules.get(file), file).toBe(body);
    }
  });

  test("the rulebook compiled in is used only while docs/methodology.md is its text; an edited one is rendered", async () => {
    const { bin } = await binCopy("pf-bin-");
    const root = path.resolve(path.dirname(bin), "../..");
    const tmp = await tempDir("pf-rulebook-");
    const docs = async (out: string) => (await cliBuild(bin, out)).get("docs/index.html")!;
    const compiledIn = await docs(path.join(tmp, "as-compiled"));
    expect(compiledIn).toContain('id="methodology-');
    expect(compiledIn).not.toContain("methodology-a-rule-added-after-compiling");
    // Edited after `npm run compile`: the bundle renders it with marked, loaded only for this.
    const md = path.join(root, "docs/methodology.md");
    await fs.appendFile(md, "\n## A rule added after compiling\n\nIts *text*.\n");
    const edited = await docs(path.join(tmp, "edited"));
    expect(edited).toContain('<h3 id="methodology-a-rule-added-after-compiling">A rule added after compiling</h3>');
    expect(edited).toContain("<p>Its <em>text</em>.</p>");
  });

  test("Node's compile cache: the bin turns it on; written by a run, taken by the next; off, or unwritable, it changes nothing", async () => {
    const { bin } = await binCopy("pf-bin-");
    const tmp = await tempDir("pf-cache-");
    // No NODE_COMPILE_CACHE (which would turn the cache on by itself): the bin's call puts it in
    // os.tmpdir(), here TMPDIR.
    const inTmp = async (name: string) => {
      const dir = path.join(tmp, name);
      await fs.mkdir(dir);
      return { TMPDIR: dir, cache: path.join(dir, "node-compile-cache") };
    };
    const on = await inTmp("on");
    const first = await cliBuild(bin, path.join(tmp, "1"), { TMPDIR: on.TMPDIR });
    const written = await filesIn(on.cache);
    expect(Object.keys(written).length).toBeGreaterThan(0);

    // Taken: the next run leaves it as it is, and builds the same bytes.
    expect(await cliBuild(bin, path.join(tmp, "2"), { TMPDIR: on.TMPDIR })).toEqual(first);
    expect(await filesIn(on.cache)).toEqual(written);

    // Switched off: none is read or written.
    const off = await inTmp("off");
    expect(await cliBuild(bin, path.join(tmp, "3"), { TMPDIR: off.TMPDIR, NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual(
      first,
    );
    expect(await filesIn(off.cache)).toEqual({});

    // A file where the folder would be: the run still succeeds.
    const blocked = await inTmp("blocked");
    await fs.writeFile(blocked.cache, "a file where the folder would be");
    expect(await cliBuild(bin, path.join(tmp, "4"), { TMPDIR: blocked.TMPDIR })).toEqual(first);
  });

  test("a Node older than 22.12 is refused in one line, before anything runs", async () => {
    const { bin } = await binCopy("pf-bin-");
    // What the bin reads of the Node it runs on, made older before it runs.
    const older = (version: string) =>
      `data:text/javascript,${encodeURIComponent(
        `Object.defineProperty(process, "version", { value: "v${version}" });` +
          `Object.defineProperty(process.versions, "node", { value: "${version}" });`,
      )}`;
    for (const version of ["20.19.0", "22.11.0"]) {
      const r = await run(process.execPath, ["--import", older(version), bin, "--help"], { env: envOf({}) }).catch(
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(r).toMatchObject({ code: 1, stdout: "" });
      expect(r.stderr).toBe(
        `price-feed: Node v${version} is too old: it needs Node 22.12 or later (on Linux x64, \`npm ci\` installs Node 24 and \`npx price-feed\` runs on it)\n`,
      );
    }
    const ok = await run(process.execPath, ["--import", older("22.12.0"), bin, "--help"], { env: envOf({}) });
    expect(ok.stdout).toContain("Usage: price-feed");
  });
});
