/**
 * The build command's heap (src/cli/heap.ts, src/cli/launch.ts runOnHeap): V8 sizes an isolate's
 * young generation when it makes it, so flags set while the process runs reach a worker made after
 * them and not the thread that set them. These tests hold V8 (the Node the tests run on, 24 under
 * `npm test`) to that, with the compiled modules the bin loads, and the bin to running `build` there.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { BUILD_SEMI_SPACE_MB, REMAKING_COLLECT_AFTER_MB, commandHeapFlags } from "../src/cli/heap.js";

const run = promisify(execFile);
const HEAP = path.resolve("dist/cli/heap.js");

/**
 * In a fresh process: sets a command's flags (or none), runs `onMain` (an expression) on the thread
 * that set them, then `onWorker` on a worker made after them (the worker's code posts its answer);
 * both answers.
 */
async function underFlags<M, W>(command: string, onMain: string, onWorker: string): Promise<{ main: M; worker: W }> {
  const script = `
    const { Worker } = require("node:worker_threads");
    import(${JSON.stringify(HEAP)}).then(({ commandHeapFlags, setHeapFlags }) => {
      setHeapFlags(commandHeapFlags(${JSON.stringify(command)}));
      const main = ${onMain};
      const w = new Worker(${JSON.stringify(onWorker)}, { eval: true });
      w.once("message", (worker) => { console.log(JSON.stringify({ main, worker })); w.terminate(); });
    });`;
  const { stdout } = await run(process.execPath, ["-e", script]);
  return JSON.parse(stdout) as { main: M; worker: W };
}

/** Churns through short-lived objects on the thread that set a command's flags and on a worker made after; each one's young generation in MB. */
async function youngGenerations(command: string): Promise<{ main: number; worker: number }> {
  const churn = `const v8 = require("node:v8"); let k = [];
    for (let i = 0; i < 3e6; i++) { k.push({ a: i, b: "x" + i }); if (k.length > 3e5) k = []; }
    v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / 1048576`;
  return underFlags(
    command,
    `require("node:vm").runInThisContext(${JSON.stringify(churn)})`,
    `require("node:worker_threads").parentPort.postMessage(require("node:vm").runInThisContext(${JSON.stringify(churn)}))`,
  );
}

describe("the build's heap", () => {
  test("only build has flags of its own", () => {
    expect(commandHeapFlags("build")).toContain(`--max-semi-space-size=${BUILD_SEMI_SPACE_MB}`);
    for (const c of ["serve", "ingest", "compact", "demo", "sample", "init", "", "--help"])
      expect(commandHeapFlags(c)).toEqual([]);
  });

  test("a worker made after the flags has the young generation they set; the thread that set them does not", async () => {
    const flagged = await youngGenerations("build");
    // Two semi-spaces of BUILD_SEMI_SPACE_MB at most.
    expect(flagged.worker).toBeLessThanOrEqual(2 * BUILD_SEMI_SPACE_MB);
    // Without flags V8 grows a churning worker's young generation past that: the flags are what held it.
    const plain = await youngGenerations("serve");
    expect(plain.worker).toBeGreaterThan(2 * BUILD_SEMI_SPACE_MB);
    // And setting them on a running thread does not shrink its own: why the build runs on a worker.
    expect(flagged.main).toBeGreaterThan(2 * BUILD_SEMI_SPACE_MB);
  }, 60_000);
});

describe("when the archive's closed part is made", () => {
  /**
   * On a worker made under build's flags: holds ~60 MB, lets it go, then tells remakingArchive the
   * closed part starts and is made; the heap V8 keeps before and after, in MB.
   */
  async function afterRemaking(): Promise<{ before: number; after: number; hasGc: boolean }> {
    const body = `
      const v8 = require("node:v8");
      import(${JSON.stringify(HEAP)}).then(({ remakingArchive }) => {
        let held = []; for (let i = 0; i < 6e5; i++) held.push({ i, s: "y" + i, t: [i, i + 1] });
        held = null;
        const size = () => v8.getHeapStatistics().total_heap_size / 1048576;
        remakingArchive(true);
        const before = size();
        remakingArchive(false);
        require("node:worker_threads").parentPort.postMessage({ before, after: size(), hasGc: typeof gc === "function" });
      });`;
    return (await underFlags<null, { before: number; after: number; hasGc: boolean }>("build", "null", body)).worker;
  }

  /**
   * On a worker made under build's flags: makes ~`mb` MB of garbage in the old generation, then tells
   * archiveDayMade a day was made, while the closed part is made or not; the heap used, in MB,
   * before and after each call.
   */
  async function daysMade(): Promise<Record<string, { before: number; after: number }>> {
    const body = `
      const v8 = require("node:v8");
      import(${JSON.stringify(HEAP)}).then(({ remakingArchive, archiveDayMade, REMAKING_COLLECT_AFTER_MB }) => {
        const used = () => v8.getHeapStatistics().used_heap_size / 1048576;
        // Held across the young generation's collections, so promoted, then dropped: old garbage.
        const garbage = (mb) => { let held = []; for (let i = 0; i < mb * 9000; i++) held.push({ i, s: "g" + i, t: [i] }); held = null; };
        const call = () => { const before = used(); archiveDayMade(); return { before, after: used() }; };
        const out = {};
        out.notRemaking = (garbage(REMAKING_COLLECT_AFTER_MB * 1.5), call());
        remakingArchive(true);
        out.first = call(); // the first day made: a collection, the heap's measure from then on
        out.small = (garbage(REMAKING_COLLECT_AFTER_MB / 4), call());
        out.large = (garbage(REMAKING_COLLECT_AFTER_MB * 1.5), call());
        remakingArchive(false);
        require("node:worker_threads").parentPort.postMessage(out);
      });`;
    return (await underFlags<null, Record<string, { before: number; after: number }>>("build", "null", body)).worker;
  }

  test("while it is made, a full collection once the heap has grown by REMAKING_COLLECT_AFTER_MB since the last, and only then", async () => {
    const d = await daysMade();
    const dropped = (k: string) => d[k]!.before - d[k]!.after;
    expect(dropped("notRemaking")).toBeLessThan(1); // not made: V8's own pace
    expect(dropped("first")).toBeGreaterThan(REMAKING_COLLECT_AFTER_MB); // what notRemaking left
    expect(dropped("small")).toBeLessThan(1); // within the budget: no collection
    expect(dropped("large")).toBeGreaterThan(REMAKING_COLLECT_AFTER_MB);
  }, 60_000);

  test("the build's worker lets go of what making it held, at once", async () => {
    const { before, after, hasGc } = await afterRemaking();
    expect(hasGc).toBe(true);
    // The ~60 MB held and dropped are given back by the collection remakingArchive(false) asks for.
    expect(before - after).toBeGreaterThan(30);
  }, 60_000);
});
