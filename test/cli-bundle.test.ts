/**
 * The bin runs the command line's bundle with V8's code cache (src/cli/launch.ts, made by
 * scripts/bundle-cli.mjs, with what src/render/precomputed.ts lists computed at compile time). It must
 * make the same bytes as the modules themselves, and its cache must never be a requirement: written
 * after a run that needed it, left alone when V8 took it, replaced when V8 refused it, keyed by the
 * bundle's content rather than its length, one per Node major (test/node-versions.test.ts runs the
 * bin on Node 20 and 24 in turn).
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { cacheFile, supersededBy } from "../src/cli/launch.js";
import { runBuild } from "../src/jobs/build.js";
import { parseInstant } from "../src/core/cairo.js";
import { snapshot, tempDir } from "./helpers/dataset.js";
import { binCopy } from "./helpers/bin-copy.js";

const run = promisify(execFile);
const NOW = "2026-11-19T12:30:00Z";
const DATA = path.resolve("data");

async function cliBuild(bin: string, out: string, env: Record<string, string> = {}) {
  await run(process.execPath, [bin, "build", "--no-state", "--force", "--data", DATA, "--out", out, "--now", NOW], {
    env: { ...process.env, PRICE_FEED_DEBUG: "", PRICE_FEED_NO_CODE_CACHE: "", ...env },
  });
  return snapshot(out);
}

const cacheFiles = async (dir: string) =>
  (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.startsWith("build-")).sort();

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

  test("the code cache: written when missing, kept when taken, replaced when refused", async () => {
    const { bin, cacheDir } = await binCopy("pf-bin-");
    const tmp = await tempDir("pf-cache-");
    const first = await cliBuild(bin, path.join(tmp, "1"));
    const [written] = await cacheFiles(cacheDir);
    expect(written).toMatch(new RegExp(`^build-${process.version.split(".")[0]}-[0-9a-f]{16}\\.v8$`));
    const file = path.join(cacheDir, written!);
    const { mtimeMs } = await fs.stat(file);

    // Taken: the next run leaves it as it is, and builds the same bytes.
    expect(await cliBuild(bin, path.join(tmp, "2"))).toEqual(first);
    expect((await fs.stat(file)).mtimeMs).toBe(mtimeMs);

    // Refused (not V8's data at all): the run still succeeds, and a good cache replaces the bad one.
    const size = (await fs.stat(file)).size;
    await fs.writeFile(file, Buffer.alloc(size, 7));
    expect(await cliBuild(bin, path.join(tmp, "3"))).toEqual(first);
    expect(await cacheFiles(cacheDir)).toEqual([written]);
    expect((await fs.readFile(file)).equals(Buffer.alloc(size, 7))).toBe(false);

    // Switched off: no cache is read or written.
    await fs.rm(cacheDir, { recursive: true });
    expect(await cliBuild(bin, path.join(tmp, "4"), { PRICE_FEED_NO_CODE_CACHE: "1" })).toEqual(first);
    expect(await cacheFiles(cacheDir)).toEqual([]);
  });

  test("a failed run writes no cache; an unwritable cache folder costs nothing", async () => {
    const { bin, cacheDir } = await binCopy("pf-bin-");
    const r = await run(process.execPath, [bin, "build", "--data", "/nonexistent/data"]).catch(
      (e: { code: number }) => e,
    );
    expect((r as { code: number }).code).toBe(1);
    expect(await cacheFiles(cacheDir)).toEqual([]);
    await fs.writeFile(cacheDir, "a file where the folder would be");
    const tmp = await tempDir("pf-cache-");
    expect((await cliBuild(bin, path.join(tmp, "o"))).size).toBeGreaterThan(10);
  });

  test("the cache is named by the bundle's bytes and the Node that runs it, not by its length", () => {
    const a = Buffer.from("module.exports = 1;");
    const b = Buffer.from("module.exports = 2;");
    expect(cacheFile(a, "build")).not.toBe(cacheFile(b, "build"));
    expect(cacheFile(a, "build")).toBe(cacheFile(Buffer.from(a), "build"));
    expect(cacheFile(a, "build", "v24.1.0")).not.toBe(cacheFile(a, "build", "v24.2.0"));
    expect(path.basename(cacheFile(a, "build", "v24.1.0"))).toMatch(/^build-v24-[0-9a-f]{16}\.v8$/);
    expect(path.basename(cacheFile(a, "--help", "v20.19.0"))).toMatch(/^other-v20-/);
  });

  test("a new cache replaces the command's older ones on the same Node major, not another major's", () => {
    const a = Buffer.from("module.exports = 1;");
    const b = Buffer.from("module.exports = 2;");
    const name = (bundle: Buffer, command: string, version: string) =>
      path.basename(cacheFile(bundle, command, version));
    const on20 = name(a, "build", "v20.19.0");
    const existing = [
      on20,
      name(a, "build", "v24.20.0"), // the same major, an older Node
      name(b, "build", "v24.21.0"), // the same Node, an older bundle
      name(a, "serve", "v24.21.0"), // another command
      "build-0123456789abcdef.v8", // named before the major was in the name
      `${name(a, "build", "v24.21.0")}.tmp-123`, // a write cut short
    ];
    const written = path.join("cache", name(a, "build", "v24.21.0"));
    expect(supersededBy(written, existing).sort()).toEqual([existing[1], existing[2], existing[4], existing[5]].sort());
    // Node 20 again: its own file is the one it would write; Node 24's stays.
    expect(supersededBy(path.join("cache", on20), [on20, path.basename(written)])).toEqual([]);
  });
});
