/**
 * Fault injection, what a killed build leaves (issue 38, item 9): recovery is said, never guessed. A
 * leftover `<out>.tmp-<pid>` (a read-only folder in it) is removed and said; an `<out>.old-<pid>`
 * with no `<out>` (a swap killed between its two renames) is put back and said; a cache beside the
 * site that is a plain file is removed with a warning; a state folder of data/ that is a plain file
 * stops the build with one line naming it and the command to run. Real `price-feed build` processes
 * are killed (SIGKILL, src/io/site-writer.ts killPoint) at each step of the swap: the previous site
 * is always whole in `<out>` or `<out>.old-*`, and the next build's output is a clean build's.
 */
import { execFile } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { KILL_POINTS } from "../../src/io/site-writer.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { BIN, buildCli, runCli, type CliRun } from "../helpers/ingest-fixture.js";
import { smallRows } from "../helpers/rows.js";

const run = promisify(execFile);
const NOW = "2026-11-19T11:30:00Z";
const LATER = "2026-11-19T12:30:00Z";
const isRoot = process.getuid?.() === 0;

/** A data folder, and a copy of it to build the same way without a fault (the clean build). */
async function twoDatasets(): Promise<{ data: string; clean: string }> {
  const data = await writeDataset(await tempDir(), smallRows());
  const clean = await tempDir();
  await fs.cp(data, clean, { recursive: true });
  return { data, clean };
}

/** `diff -r` of two sites: "" when they are the same, file by file and byte by byte. */
async function diffR(a: string, b: string): Promise<string> {
  return run("diff", ["-r", a, b]).then(
    (r) => r.stdout,
    (e: { stdout: string }) => e.stdout || String(e),
  );
}

/** What is beside `out` of its own: the names `<out>.tmp-*` and `<out>.old-*`. */
async function leftovers(out: string): Promise<string[]> {
  const base = path.basename(out);
  return (await fs.readdir(path.dirname(out))).filter(
    (n) => n.startsWith(`${base}.tmp-`) || n.startsWith(`${base}.old-`),
  );
}

const reportWarnings = async (out: string) =>
  (JSON.parse(await fs.readFile(`${out}.build-report.json`, "utf8")) as { warnings: string[] }).warnings;

/** The site built from `clean` at NOW then LATER, without a fault. */
async function cleanBuild(clean: string): Promise<string> {
  const out = path.join(clean, "public");
  for (const now of [NOW, LATER]) {
    const r = await buildCli(clean, out, now);
    expect(r, r.stderr).toMatchObject({ code: 0 });
  }
  return out;
}

/** `price-feed build` with PRICE_FEED_TEST_KILL_AT=step: it kills itself at that step of the swap. */
function killedBuild(
  data: string,
  out: string,
  now: string,
  step: string,
): Promise<{ signal: string | null; pid: number }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, "build", "--data", data, "--out", out, "--now", now],
      { env: { ...process.env, PRICE_FEED_TEST_KILL_AT: step } },
      (error) => resolve({ signal: (error as { signal?: string } | null)?.signal ?? null, pid: child.pid! }),
    );
  });
}

const ok = (r: CliRun) => expect(r, r.stderr).toMatchObject({ code: 0 });

describe("leftovers of a killed build beside the site", () => {
  test("a public.tmp-<pid> holding a read-only folder: the next build removes it, says so, and builds as a clean build", async () => {
    const { data, clean } = await twoDatasets();
    const out = path.join(data, "public");
    ok(await buildCli(data, out, NOW));
    const tmp = `${out}.tmp-999999`;
    await fs.mkdir(path.join(tmp, "api", "locked"), { recursive: true });
    await fs.writeFile(path.join(tmp, "api", "locked", "x.json"), "{}");
    await fs.chmod(path.join(tmp, "api", "locked"), 0o555);

    const next = await buildCli(data, out, LATER);
    ok(next);
    expect(existsSync(tmp)).toBe(false);
    // As root, chmod does not stop rm: nothing had to be made writable. Otherwise it was, and said.
    const said = `price-feed: removed ${tmp}, left by an interrupted build (process 999999)${isRoot ? "" : "; it held read-only folders, made writable first"}`;
    expect(next.stderr.split("\n")).toContain(said);
    expect(await reportWarnings(out)).toContain(said.replace("price-feed: ", ""));
    expect(await leftovers(out)).toEqual([]);
    expect(await diffR(out, await cleanBuild(clean))).toBe("");
    // Said once: the build after it has nothing to say.
    const again = await buildCli(data, out, LATER);
    ok(again);
    expect(again.stderr).not.toContain("removed");
  }, 60_000);

  test("a public.old-<pid> and no public/ (killed between the renames): the next build puts it back, then builds as a clean build", async () => {
    const { data, clean } = await twoDatasets();
    const out = path.join(data, "public");
    ok(await buildCli(data, out, NOW));
    const before = await snapshot(out);
    const old = `${out}.old-999999`;
    await fs.rename(out, old);
    await fs.chmod(path.join(old, "api"), 0o555); // a read-only folder inside does not stop the rename

    // An older --now still refuses: the site set aside is the one published.
    const older = await buildCli(data, out, "2026-11-19T10:30:00Z");
    expect(older.code).toBe(1);
    expect(older.stderr).toContain(`(set aside as ${old} by an interrupted build) holds a build made at`);
    expect(existsSync(old)).toBe(true);
    expect(existsSync(out)).toBe(false);

    const next = await buildCli(data, out, LATER);
    ok(next);
    const said = `price-feed: put back ${out} from ${old}: a build was interrupted while it swapped the site in`;
    expect(next.stderr.split("\n")).toContain(said);
    expect(await reportWarnings(out)).toContain(said.replace("price-feed: ", ""));
    expect(await leftovers(out)).toEqual([]);
    expect(await diffR(out, await cleanBuild(clean))).toBe("");
    expect(before.size).toBeGreaterThan(0);
  }, 60_000);

  test("a public.old-<pid> and no public/, only a --force build: the site is put back first, then replaced", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const out = path.join(data, "public");
    ok(await buildCli(data, out, LATER));
    await fs.rename(out, `${out}.old-999999`);
    const r = await run(process.execPath, [BIN, "build", "--data", data, "--out", out, "--now", NOW, "--force"]);
    expect(r.stderr).toContain(`put back ${out} from ${out}.old-999999`);
    expect(await leftovers(out)).toEqual([]);
    expect(existsSync(path.join(out, "api"))).toBe(true);
  }, 60_000);
});

describe("a plain file where a folder goes", () => {
  test("public.archive-cache as a file: removed with a warning, the cache made again, the site a clean build's", async () => {
    const { data, clean } = await twoDatasets();
    const out = path.join(data, "public");
    ok(await buildCli(data, out, NOW));
    const cache = `${out}.archive-cache`;
    await fs.rm(cache, { recursive: true, force: true });
    await fs.writeFile(cache, "not a folder");

    const next = await buildCli(data, out, LATER);
    ok(next);
    const said = `removed ${cache}: a file where the cache folder goes; the cache is made again`;
    expect(next.stderr.split("\n")).toContain(`price-feed: ${said}`);
    expect(await reportWarnings(out)).toContain(said);
    expect((await fs.stat(cache)).isDirectory()).toBe(true);
    expect(await diffR(out, await cleanBuild(clean))).toBe("");
  }, 60_000);

  test.each(["closed-days", "archive"])(
    "data/state/%s as a file: one line naming it and the command to run; removed, the next build publishes",
    async (name) => {
      const data = await writeDataset(await tempDir(), smallRows());
      const out = path.join(data, "public");
      // Compacted days, so that the build keeps their archive entries in data/state/archive/.
      ok(await runCli(["compact", "--data", data, "--now", NOW]));
      ok(await buildCli(data, out, NOW));
      const state = path.join(data, "state", name);
      expect((await fs.stat(state)).isDirectory()).toBe(true);
      await fs.rm(state, { recursive: true, force: true });
      await fs.writeFile(state, "not a folder");
      const before = await snapshot(out);

      const r = await buildCli(data, out, LATER);
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain("this is a bug");
      const [line, hint, ...rest] = r.stderr.trim().split("\n");
      expect(line).toBe(`price-feed: ${state}: is a file where a folder should be`);
      expect(hint).toBe(`nothing can be written under it: remove it (rm ${state}) and run the command again`);
      expect(rest).toEqual([]);
      // It stops before it begins: the published site is the one it found.
      expect(await snapshot(out)).toEqual(before);
      expect(await leftovers(out)).toEqual([]);

      // What it says to do is enough: the build after it publishes.
      await fs.rm(state);
      ok(await buildCli(data, out, LATER));
    },
    60_000,
  );
});

describe("a build killed while it swaps the new site in (PRICE_FEED_TEST_KILL_AT)", () => {
  test.each(KILL_POINTS)(
    "killed %s: the previous site is whole in public/ or public.old-*, and the next build equals a clean one",
    async (step) => {
      const { data, clean } = await twoDatasets();
      const out = path.join(data, "public");
      ok(await buildCli(data, out, NOW));
      const previous = await snapshot(out);

      const killed = await killedBuild(data, out, LATER, step);
      expect(killed.signal).toBe("SIGKILL");
      const old = `${out}.old-${killed.pid}`;
      const tmp = `${out}.tmp-${killed.pid}`;
      // Where the previous site and the new one are at each step: never a moment's guess.
      const where = {
        "before-renames": { previous: out, fresh: tmp },
        "between-renames": { previous: old, fresh: tmp },
        "after-renames": { previous: old, fresh: out },
        "before-removal": { previous: tmp, fresh: out },
      }[step];
      expect(await snapshot(where.previous)).toEqual(previous);
      expect((await snapshot(where.fresh)).size).toBe(previous.size);
      expect(existsSync(out) || existsSync(old)).toBe(true);
      if (!existsSync(out)) expect(await snapshot(old)).toEqual(previous);

      const next = await buildCli(data, out, LATER);
      ok(next);
      if (step === "between-renames") expect(next.stderr).toContain(`put back ${out} from ${old}`);
      expect(next.stderr).toContain(
        `removed ${step === "before-renames" || step === "between-renames" ? tmp : step === "after-renames" ? old : tmp}`,
      );
      expect(await leftovers(out)).toEqual([]);
      expect(await diffR(out, await cleanBuild(clean))).toBe("");
    },
    60_000,
  );
});
