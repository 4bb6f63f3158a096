/**
 * Fault injection, a real full disk (issue 26, item 1): a data folder on a small tmpfs, filled, and
 * `price-feed ingest` (the compiled CLI) run against a loopback source. The append lands whole or
 * not at all: the exit status and one line name the file, every line landed before is there, no
 * line is torn; with the space back, the next ingest and build publish. A log torn the old way (an
 * append in place on the full disk) is read without its torn line, said in the build report, and cut
 * by the next ingest.
 *
 * Mounting needs root (or CAP_SYS_ADMIN), as in CI and in this project's container; elsewhere the
 * tests are skipped, and the reason is the suite's title.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { dataLockPath } from "../../src/io/data-lock.js";
import { lineOf } from "../../src/ingest/log.js";
import { writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { ingestArgs } from "../helpers/ingest.js";
import { addAlphaSite, buildCli, documentServers, logLines, quoteRecords, runCli } from "../helpers/ingest-fixture.js";

const NOW = "2026-11-19T15:00:00Z";
const TODAY = "2026-11-19";

/** A 4 MB tmpfs of its own, or why there cannot be one here. */
const disk = path.join(os.tmpdir(), `pf-disk-${process.pid}`);
let cannotMount: string | null = null;
try {
  mkdirSync(disk, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk], { stdio: "pipe" });
} catch (e) {
  const err = e as { stderr?: Buffer; message: string };
  cannotMount = (err.stderr?.toString().trim() || err.message).split("\n")[0]!;
}
afterAll(() => {
  if (cannotMount === null) execFileSync("umount", [disk]);
  return fs.rm(disk, { recursive: true, force: true });
});

const documentServer = documentServers();
afterEach(async () => {
  if (cannotMount === null)
    for (const name of await fs.readdir(disk)) await fs.rm(path.join(disk, name), { recursive: true, force: true });
});

const FILLER_CHUNK = Buffer.alloc(64 * 1024, 0x78);

/** Fills the disk with a file until it is full, then frees `leave` bytes of it (0: full). */
async function fill(leave: number): Promise<string> {
  const filler = path.join(disk, `filler-${Date.now()}`);
  const handle = await fs.open(filler, "w");
  try {
    for (;;) await handle.write(FILLER_CHUNK);
  } catch (e) {
    expect((e as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    await handle.close();
  }
  if (leave > 0) {
    const { size } = await fs.stat(filler);
    await fs.truncate(filler, Math.max(0, size - leave));
  }
  return filler;
}

/** A data folder on the disk, its sources the dataset's own (disabled) and a seller document on loopback. */
async function dataOnDisk(records: () => object[]) {
  const s = await documentServer(records);
  const data = await writeDataset(path.join(disk, "data"), smallRows());
  await addAlphaSite(data, `${s.url}/rates`);
  return { data, day: path.join(data, "quotes", `${TODAY}.ndjson`), server: s };
}

describe.skipIf(cannotMount !== null)(
  cannotMount === null ? "a real full disk (a 4 MB tmpfs)" : `skipped: no tmpfs can be mounted here (${cannotMount})`,
  () => {
    test("ingest on a full disk: exit 1, one line naming the file, nothing torn or lost; with space back, ingest and build publish", async () => {
      let batch = quoteRecords(1000, TODAY);
      const { data, day } = await dataOnDisk(() => batch);
      const first = await runCli(ingestArgs(data, NOW));
      expect(first, first.stderr).toMatchObject({ code: 0 });
      const landed = await fs.readFile(day, "utf8");
      const before = await logLines(day);

      // Room for the lock, none for the day file's next version (its lines and 1000 more).
      batch = quoteRecords(2000, TODAY);
      const filler = await fill(32 * 1024);
      const full = await runCli(ingestArgs(data, NOW));
      expect(full.code).toBe(1);
      const [line, ...rest] = full.stderr.trim().split("\n");
      expect(line).toBe(`price-feed: ${day}: cannot be written: the disk is full (ENOSPC)`);
      expect(rest).toEqual(["free space on the disk that holds it, then run the command again"]);
      expect(full.stderr).not.toContain("this is a bug");
      expect(await fs.readFile(day, "utf8")).toBe(landed);
      expect((await fs.readdir(path.dirname(day))).filter((n) => n.includes(".tmp-"))).toEqual([]);
      expect(existsSync(dataLockPath(data))).toBe(false);

      // No room at all, not even for the lock: it says so, naming the lock, and leaves none behind.
      const filler2 = await fill(0);
      const none = await runCli(ingestArgs(data, NOW));
      expect(none.code).toBe(1);
      expect(none.stderr.split("\n")[0]).toBe(
        `price-feed: ${dataLockPath(data)}: cannot be written: the disk is full (ENOSPC)`,
      );
      expect(existsSync(dataLockPath(data))).toBe(false);
      expect(await fs.readFile(day, "utf8")).toBe(landed);

      // Space back: the next hourly run lands the new lines once, and the build publishes.
      await fs.rm(filler);
      await fs.rm(filler2);
      const next = await runCli(ingestArgs(data, NOW));
      expect(next, next.stderr).toMatchObject({ code: 0 });
      expect(next.stdout).toContain("appended 1000, already logged 1000");
      const after = await logLines(day);
      expect(after).toMatchObject({ duplicates: 0, torn: false });
      expect(after.lines.slice(0, before.lines.length)).toEqual(before.lines);
      expect(after.lines).toHaveLength(before.lines.length + 1000);
      const out = path.join(disk, "public");
      const build = await buildCli(data, out, NOW);
      expect(build, build.stderr).toMatchObject({ code: 0 });
      expect(existsSync(path.join(out, "api/v1/feed.json"))).toBe(true);
    }, 60_000);

    test("a log torn by an in-place append on the full disk: the build drops the torn line and says where; the next ingest cuts it", async () => {
      let batch = quoteRecords(500, TODAY);
      const { data, day } = await dataOnDisk(() => batch);
      expect((await runCli(ingestArgs(data, NOW))).code).toBe(0);
      const before = await logLines(day);

      // What ingest did before its appends were atomic: an append in place, cut short by the disk.
      const filler = await fill(8 * 1024);
      // The next 500 lines as ingest writes them (src/ingest/log.ts lineOf).
      const more = (quoteRecords(500, TODAY, 500) as Array<Record<string, string>>)
        .map((r) => {
          const q = { source: "alpha-site", seller: "alpha", asset: "USD-EGP", observedAt: r["updated"]! };
          return `${lineOf("quotes", { ...q, buy: Number(r["buy"]), sell: Number(r["sell"]) })}\n`;
        })
        .join("");
      const err = await fs.appendFile(day, more).catch((e: NodeJS.ErrnoException) => e);
      expect((err as NodeJS.ErrnoException).code).toBe("ENOSPC");
      const torn = await logLines(day);
      expect(torn.torn).toBe(true); // a real tear: the disk stopped the write inside a line
      await fs.rm(filler);

      const out = path.join(disk, "public");
      const build = await buildCli(data, out, NOW);
      expect(build, build.stderr).toMatchObject({ code: 0 });
      const report = JSON.parse(await fs.readFile(`${out}.build-report.json`, "utf8")) as { warnings: string[] };
      const tornLine = torn.lines.length;
      expect(report.warnings).toContain(
        `${day}:${tornLine}: a torn last line (no newline at its end, not valid JSON: a write cut short) was dropped; the next ingest into this day cuts it from the file`,
      );

      // The next ingest cuts the fragment, so no newline is glued after it, and appends whole lines.
      batch = quoteRecords(1000, TODAY);
      const next = await runCli(ingestArgs(data, NOW));
      expect(next, next.stderr).toMatchObject({ code: 0 });
      expect(next.stdout).toContain(`warning: ${day}:${tornLine}: a torn last line`);
      const after = await logLines(day);
      expect(after).toMatchObject({ duplicates: 0, torn: false });
      expect(after.lines.slice(0, before.lines.length)).toEqual(before.lines);
      for (const l of after.lines) expect(() => JSON.parse(l) as unknown).not.toThrow();
      expect(after.lines).toHaveLength(1000 + smallRowsToday());
      const again = await buildCli(data, out, NOW);
      expect(again, again.stderr).toMatchObject({ code: 0 });
      const report2 = JSON.parse(await fs.readFile(`${out}.build-report.json`, "utf8")) as { warnings: string[] };
      expect(report2.warnings.filter((w) => w.includes("torn"))).toEqual([]);
    }, 60_000);
  },
);

/** How many of the small dataset's quotes fall on today (they are in the day file before any ingest). */
function smallRowsToday(): number {
  return smallRows().quotes.filter(
    (q) => new Date(Date.parse(q.observedAt) + 2 * 3_600_000).toISOString().slice(0, 10) === TODAY,
  ).length;
}
