/**
 * Fault injection, bad data and races (issue 11): the data folder is trusted only as far as it is
 * checked — impossible dates, symbolic links leaving the folder and stray
 * temporary files are clear errors, or, for our own leftovers, cleaned safely — and builds into one
 * --out take a lock, with the later --now never losing to an earlier one (two real processes).
 */
import { promises as fs, existsSync } from "node:fs";
import path from "node:path";
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, test, vi } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { lockPath } from "../../src/io/build-lock.js";
import { DataError, UsageError } from "../../src/core/errors.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { localSeller, sourcesDataset, writeAlphaBoard } from "../helpers/ingest.js";
import { smallRows } from "../helpers/rows.js";

const run = promisify(execFile);
const BIN = path.resolve("dist/cli/bin.js");
const NOW = Date.parse("2026-11-19T11:30:00Z");
/** As the CLI's --now and the messages write an instant; the manifest keeps milliseconds. */
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const isoMs = (ms: number) => new Date(ms).toISOString();

async function built(): Promise<{ data: string; out: string }> {
  const data = await writeDataset(await tempDir(), smallRows());
  const out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs: NOW });
  return { data, out };
}

/** A process id that was alive a moment ago and is not any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

const manifestAt = async (out: string) =>
  (JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")) as { generatedAt: string }).generatedAt;

describe("the data folder is checked, not trusted", () => {
  // An empty quotes, official or global day is read as no records, with a warning (issue 42 item 6):
  // test/io/empty-day.test.ts.

  test("an empty history day is a compacted day whose quotes were all rejected: it builds, adding nothing", async () => {
    const { data, out } = await built();
    await fs.mkdir(path.join(data, "history"), { recursive: true });
    await fs.writeFile(path.join(data, "history", "2026-10-01.ndjson"), "");
    const { site } = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 });
    const withEmpty = await snapshot(out);
    expect(await manifestAt(out)).toBe(isoMs(NOW + 3_600_000));
    // The same build without the file: the same site, byte for byte; the report only notes the day was read in full.
    await fs.rm(path.join(data, "history", "2026-10-01.ndjson"));
    const without = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 });
    expect(await snapshot(out)).toEqual(withEmpty);
    expect(site.report.warnings).toEqual([
      `${path.join(data, "summaries")}: no summary of 1 history day(s) read (2026-10-01); they were read in full (\`price-feed compact\` writes the summaries)`,
      ...without.site.report.warnings,
    ]);
  });

  test.each(["2026-02-30", "2026-13-01", "2026-04-31", "2025-02-29"])(
    "a day file named %s (no such day) is an error",
    async (date) => {
      const { data, out } = await built();
      await fs.writeFile(path.join(data, "quotes", `${date}.ndjson`), `${JSON.stringify(smallRows().quotes[0])}\n`);
      const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataError);
      expect((err as Error).message).toContain(`${date} is not a day of the calendar`);
    },
  );

  test("a symbolic link leaving data/ is refused, and nothing of its target is echoed", async () => {
    const { data, out } = await built();
    const outside = await tempDir("pf-outside-");
    const secret = path.join(outside, "secret.txt");
    await fs.writeFile(secret, "root:SECRET-PASSWORD-HASH:0:0\n");
    for (const [link, target] of [
      ["quotes/2026-11-18.ndjson", secret],
      ["sellers.json", secret],
    ] as const) {
      const file = path.join(data, link);
      const saved = path.join(data, `saved-${path.basename(file)}`);
      await fs.rename(file, saved);
      await fs.symlink(target, file);
      const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataError);
      expect((err as Error).message).toBe(
        `${file}: is a symbolic link to a place outside the data folder: refused (copy the file into the folder instead)`,
      );
      expect((err as Error).message).not.toContain("SECRET");
      await fs.rm(file);
      await fs.rename(saved, file);
    }
    // A folder linked from outside is refused the same way, file by file.
    await fs.mkdir(path.join(outside, "global"));
    await fs.writeFile(path.join(outside, "global", "2026-11-18.ndjson"), "SECRET\n");
    await fs.rename(path.join(data, "global"), path.join(data, "global.saved"));
    await fs.symlink(path.join(outside, "global"), path.join(data, "global"));
    const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /global: is a symbolic link to a place outside the data folder: refused \(move the folder into the data folder instead\)/,
    );
    expect((err as Error).message).not.toContain("SECRET");
    await fs.rm(path.join(data, "global"));
    await fs.rename(path.join(data, "global.saved"), path.join(data, "global"));
    // A link that stays inside the folder is fine.
    await fs.rename(path.join(data, "quotes", "2026-11-18.ndjson"), path.join(data, "moved.ndjson"));
    await fs.symlink(path.join(data, "moved.ndjson"), path.join(data, "quotes", "2026-11-18.ndjson"));
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 });
  });

  test("ingest never appends through a link leaving data/", async () => {
    const { runIngest } = await import("../../src/jobs/ingest.js");
    const data = await sourcesDataset([localSeller]);
    const outside = path.join(await tempDir("pf-outside-"), "target.ndjson");
    await fs.writeFile(outside, "");
    await writeAlphaBoard(data);
    await fs.mkdir(path.join(data, "quotes"), { recursive: true });
    await fs.symlink(outside, path.join(data, "quotes", "2026-11-19.ndjson"));
    const { reports } = await runIngest({ dataDir: data, nowMs: Date.parse("2026-11-19T10:30:00Z") });
    expect(reports[0]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/symbolic link to a place outside the data folder/),
    });
    expect(await fs.readFile(outside, "utf8")).toBe("");
  });

  test("a leftover <day>.ndjson.tmp-PID of a process that is gone is removed; one of a running process is an error", async () => {
    const { data, out } = await built();
    await fs.mkdir(path.join(data, "history"), { recursive: true });
    const dead = await deadPid();
    const stale = path.join(data, "history", `2026-10-02.ndjson.tmp-${dead}`);
    await fs.writeFile(stale, "half a wri");
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 });
    } finally {
      console.error = error;
    }
    expect(existsSync(stale)).toBe(false);
    expect(errors).toContain(`price-feed: removed ${stale}, left by an interrupted write of process ${dead}`);

    const live = path.join(data, "quotes", `2026-11-18.ndjson.tmp-${process.pid}`);
    await fs.writeFile(live, "in progress");
    const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 7_200_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toContain(`a temporary file of process ${process.pid}, which is still running`);
    expect(existsSync(live)).toBe(true);
    // Anything else that merely looks temporary is not ours to delete.
    await fs.rm(live);
    await fs.writeFile(path.join(data, "quotes", "2026-11-18.ndjson.tmp-x"), "?");
    await expect(runBuild({ dataDir: data, outDir: out, nowMs: NOW + 7_200_000 })).rejects.toThrow(/unexpected file/);
  });

  test("a publish interrupted half-way (<out>.tmp-PID, <out>.old-PID of a dead process) is cleaned by the next build", async () => {
    const { data, out } = await built();
    const dead = await deadPid();
    for (const kind of ["tmp", "old"]) {
      await fs.mkdir(`${out}.${kind}-${dead}/api`, { recursive: true });
      await fs.writeFile(`${out}.${kind}-${dead}/api/x.json`, "{}");
    }
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 });
    expect(existsSync(`${out}.tmp-${dead}`)).toBe(false);
    expect(existsSync(`${out}.old-${dead}`)).toBe(false);
  });
});

describe("builds into one --out", () => {
  test("two concurrent `price-feed build` processes: one at a time, and the later --now is what is published, report included", async () => {
    const { data, out } = await built();
    const early = iso(NOW + 3_600_000);
    const late = iso(NOW + 7_200_000);
    for (const order of [
      [early, late],
      [late, early],
    ]) {
      const runs = order.map((now) =>
        run(process.execPath, [BIN, "build", "--data", data, "--out", out, "--now", now]).then(
          (r) => ({ now, code: 0, stderr: r.stderr }),
          (e: { code: number; stderr: string }) => ({ now, code: e.code, stderr: e.stderr }),
        ),
      );
      const results = await Promise.all(runs);
      const lateRun = results.find((r) => r.now === late)!;
      const earlyRun = results.find((r) => r.now === early)!;
      expect(lateRun).toMatchObject({ code: 0 });
      // The early one either ran first (and was replaced) or came second and refused.
      if (earlyRun.code !== 0)
        expect(earlyRun.stderr).toContain(`holds a build made at ${late}, later than this build's --now ${early}`);
      expect(await manifestAt(out)).toBe(isoMs(Date.parse(late)));
      const report = JSON.parse(await fs.readFile(`${out}.build-report.json`, "utf8")) as { generatedAt: string };
      expect(report.generatedAt).toBe(isoMs(Date.parse(late)));
      expect(existsSync(lockPath(out))).toBe(false);
      expect((await fs.readdir(data)).filter((f) => /\.(tmp|old)-\d+$/.test(f))).toEqual([]);
    }
  }, 60_000);

  test("an earlier --now refuses to replace a later build (exit 1, nothing changes) unless --force", async () => {
    const { data, out } = await built();
    const before = await snapshot(out);
    const err = (await run(process.execPath, [
      BIN,
      "build",
      "--data",
      data,
      "--out",
      out,
      "--now",
      iso(NOW - 3_600_000),
    ]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(1);
    expect(err.stderr).toContain(
      `holds a build made at ${iso(NOW)}, later than this build's --now ${iso(NOW - 3_600_000)}: an older build never replaces a newer one`,
    );
    expect(err.stderr).toContain("--force");
    expect(await snapshot(out)).toEqual(before);
    await run(process.execPath, [BIN, "build", "--data", data, "--out", out, "--now", iso(NOW - 3_600_000), "--force"]);
    expect(await manifestAt(out)).toBe(isoMs(NOW - 3_600_000));
    // The same --now again rebuilds (byte-identical inputs, byte-identical files).
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW - 3_600_000 });
  }, 30_000);

  test("a lock held by a running build is waited for, then a clear error; a lock of a process that is gone is taken over", async () => {
    const { data, out } = await built();
    await fs.writeFile(
      lockPath(out),
      JSON.stringify({ pid: process.pid, now: iso(NOW), startedAt: new Date().toISOString() }),
    );
    // The wait runs on the clock the lock reads, faked here: the build polls the held lock until
    // lockWaitMs has passed on that clock, then gives up. (Real I/O goes on between the polls.)
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let err: unknown;
    let waited: number;
    let polls = 0;
    try {
      const started = Date.now();
      let settled = false;
      const attempt = runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000, lockWaitMs: 300 })
        .then(
          () => null,
          (e: unknown) => e,
        )
        .finally(() => (settled = true));
      while (!settled) {
        await new Promise((r) => setImmediate(r));
        if (vi.getTimerCount() === 0) continue;
        vi.advanceTimersToNextTimer();
        polls++;
      }
      err = await attempt;
      waited = Date.now() - started;
    } finally {
      vi.useRealTimers();
    }
    expect(waited).toBe(300);
    expect(polls).toBeGreaterThan(1);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain(
      `another build is writing into ${out} (process ${process.pid}, building at --now ${iso(NOW)}`,
    );
    expect((err as UsageError).hint).toContain(lockPath(out));

    await fs.writeFile(
      lockPath(out),
      JSON.stringify({ pid: await deadPid(), now: iso(NOW), startedAt: new Date().toISOString() }),
    );
    const error = console.error;
    console.error = () => {};
    try {
      await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000, lockWaitMs: 300 });
    } finally {
      console.error = error;
    }
    expect(await manifestAt(out)).toBe(isoMs(NOW + 3_600_000));
    expect(existsSync(lockPath(out))).toBe(false);
  });
});
