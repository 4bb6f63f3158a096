/**
 * Fault injection, real processes racing over one data folder (issue 26, items 2, 3 and 10): three
 * `price-feed ingest` at one instant append each line once; an ingest and a compact at once lose
 * nothing; a second writer waits for the data folder's lock, then names its holder; a symbolic link
 * `data/official` leaving the folder is refused before anything in it is listed, removed or named;
 * `init`'s placeholder contact is never sent to a site.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { runIngest } from "../../src/jobs/ingest.js";
import { dataLockPath } from "../../src/io/data-lock.js";
import { UsageError } from "../../src/core/errors.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { ingestArgs } from "../helpers/ingest.js";
import {
  addAlphaSite,
  buildCli,
  documentServers,
  documentSource,
  logLines,
  quoteRecords,
  runCli,
  writeSources,
} from "../helpers/ingest-fixture.js";

const NOW = "2026-11-19T11:30:00Z";
const TODAY = "2026-11-19";
const documentServer = documentServers();

/** A process id that was alive a moment ago and is not any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

describe("writers of one data folder take turns", () => {
  test("three `ingest` processes at one instant append every line once", async () => {
    // Overlapping batches: each process finds some lines another is appending (no lock: duplicates
    // with appends in place, lost lines with whole-file replacement); with the lock, the union, once.
    const s = await documentServer((k) => quoteRecords(300, TODAY, k * 100), 3);
    const data = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
    await writeSources(data, [documentSource("alpha-site", `${s.url}/rates`)]);
    const runs = await Promise.all([1, 2, 3].map(() => runCli(ingestArgs(data, NOW))));
    for (const r of runs) expect(r, r.stderr).toMatchObject({ code: 0 });
    // All three were answered together (the barrier), so each went on to check and append at once.
    expect(s.seen).toHaveLength(3);
    const { lines, duplicates, torn } = await logLines(path.join(data, "quotes", `${TODAY}.ndjson`));
    expect(duplicates).toBe(0);
    expect(torn).toBe(false);
    const union = new Set([0, 1, 2].flatMap((k) => quoteRecords(300, TODAY, k * 100).map((r) => JSON.stringify(r))));
    expect(union.size).toBe(500);
    expect(lines).toHaveLength(500);
    // Each process appended what the ones before it had not: 500 in all, each line once.
    const appended = runs.map((r) => Number(/appended (\d+)/.exec(r.stdout)?.[1]));
    expect(appended.reduce((a, b) => a + b, 0)).toBe(500);
    expect(existsSync(dataLockPath(data))).toBe(false);
  }, 60_000);

  test("`ingest` and `compact` at once: the old days are compacted, today's lines land once, and it builds", async () => {
    const records = quoteRecords(120, TODAY);
    const s = await documentServer(() => records);
    const data = await writeDataset(await tempDir(), smallRows());
    await addAlphaSite(data, `${s.url}/rates`);
    const oldDays = (await fs.readdir(path.join(data, "quotes"))).filter((f) => f < "2026-11-12");
    expect(oldDays.length).toBeGreaterThan(0);
    const before = await logLines(path.join(data, "quotes", `${TODAY}.ndjson`));
    const [ingest, compact] = await Promise.all([
      runCli(ingestArgs(data, NOW)),
      runCli(["compact", "--data", data, "--now", NOW]),
    ]);
    expect(ingest, ingest.stderr).toMatchObject({ code: 0 });
    expect(compact, compact.stderr).toMatchObject({ code: 0 });
    for (const f of oldDays) {
      expect(existsSync(path.join(data, "quotes", f))).toBe(false);
      expect(existsSync(path.join(data, "history", f))).toBe(true);
      expect(existsSync(path.join(data, "summaries", f.replace(".ndjson", ".json")))).toBe(true);
    }
    const after = await logLines(path.join(data, "quotes", `${TODAY}.ndjson`));
    expect(after.duplicates).toBe(0);
    expect(after.lines.slice(0, before.lines.length)).toEqual(before.lines);
    expect(after.lines).toHaveLength(before.lines.length + 120);
    const out = path.join(await tempDir("pf-race-out-"), "public");
    const build = await buildCli(data, out, NOW);
    expect(build, build.stderr).toMatchObject({ code: 0 });
    expect(existsSync(dataLockPath(data))).toBe(false);
  }, 60_000);

  test("a second writer waits for the lock, then fails naming its holder; a lock whose process is gone is taken over", async () => {
    const data = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
    await fs.writeFile(path.join(data, "alpha.json"), JSON.stringify({ rates: quoteRecords(2, TODAY) }));
    await writeSources(data, [{ ...documentSource("local", ""), url: undefined, path: "alpha.json" }]);
    const holder = { pid: process.pid, command: "compact", now: NOW, startedAt: "2026-11-19T11:30:01.000Z" };
    await fs.writeFile(dataLockPath(data), JSON.stringify(holder));
    const err = await runIngest({ dataDir: data, nowMs: Date.parse(NOW), lockWaitMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(
      `another command is writing to ${data} (process ${process.pid}, price-feed compact at --now ${NOW}, since ${holder.startedAt}); waited 300 ms`,
    );
    expect((err as UsageError).hint).toContain(`if none runs, delete ${dataLockPath(data)}`);
    expect(existsSync(path.join(data, "quotes", `${TODAY}.ndjson`))).toBe(false);
    // The same lock left by a process that is gone: taken over, said on stderr, and the ingest lands.
    const dead = await deadPid();
    await fs.writeFile(dataLockPath(data), JSON.stringify({ ...holder, pid: dead }));
    const r = await runCli(ingestArgs(data, NOW));
    expect(r, r.stderr).toMatchObject({ code: 0 });
    expect(r.stderr).toContain(`removed ${dataLockPath(data)}, left by price-feed compact (process ${dead})`);
    expect((await logLines(path.join(data, "quotes", `${TODAY}.ndjson`))).lines).toHaveLength(2);
    expect(existsSync(dataLockPath(data))).toBe(false);
  }, 30_000);
});

describe("a folder of data/ that leaves it is refused before anything in it is touched", () => {
  test("data/official linked outside: build, ingest and compact refuse it; the target's *.tmp-* file survives and is never named", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const outside = await tempDir("pf-outside-");
    const dead = await deadPid();
    // What an unchecked listing would remove (our temp name of a dead process) or name (a stray file).
    const temp = path.join(outside, `2026-11-18.ndjson.tmp-${dead}`);
    await fs.writeFile(temp, "SOMEONE-ELSES-DATA\n");
    await fs.writeFile(path.join(outside, "private-ledger.txt"), "SECRET\n");
    await fs.cp(path.join(data, "official"), outside, { recursive: true });
    await fs.rm(path.join(data, "official"), { recursive: true });
    await fs.symlink(outside, path.join(data, "official"));
    const out = path.join(await tempDir("pf-link-out-"), "public");
    const refused = `${path.join(data, "official")}: is a symbolic link to a place outside the data folder: refused (move the folder into the data folder instead)`;
    for (const args of [
      ["build", "--data", data, "--out", out, "--now", NOW],
      ["compact", "--data", data, "--now", NOW],
      ingestArgs(data, NOW),
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args[0]}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(refused);
      for (const secret of ["tmp-", "private-ledger", "SECRET", "SOMEONE"]) {
        expect(r.stdout + r.stderr).not.toContain(secret);
      }
      expect(await fs.readFile(temp, "utf8")).toBe("SOMEONE-ELSES-DATA\n");
    }
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe("init's placeholder contact never reaches a site", () => {
  test("ingest refuses network sources while the contact is the placeholder, with a hint; no request is made", async () => {
    const s = await documentServer(() => quoteRecords(2, TODAY));
    const data = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
    const sourcesFile = path.join(data, "sources.json");
    await writeSources(data, [documentSource("alpha-site", `${s.url}/rates`)], "mailto:operator@your-domain.example");
    const r = await runCli(ingestArgs(data, NOW));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `price-feed: ${sourcesFile}: "contact" is still the placeholder "mailto:operator@your-domain.example"`,
    );
    expect(r.stderr).toContain(`set "contact" in ${sourcesFile} to a URL or an e-mail address`);
    expect(r.stderr).not.toContain("this is a bug");
    expect(s.seen).toHaveLength(0);
    expect(existsSync(path.join(data, "quotes", `${TODAY}.ndjson`))).toBe(false);
  });

  test("the demo sources, which read no network, still run with the placeholder", async () => {
    const data = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
    const { sampleSources } = await import("../../src/jobs/sample.js");
    const demo = sampleSources({ seed: "race", assets: 15, sellers: 14 });
    await fs.writeFile(
      path.join(data, "sources.json"),
      JSON.stringify({ ...demo, contact: "mailto:operator@your-domain.example" }),
    );
    const r = await runCli(ingestArgs(data, NOW));
    expect(r, r.stderr).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/sources succeeded/);
  });
});
