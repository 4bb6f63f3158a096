/**
 * docs/methodology.md §2.4, end to end: a new source read by `ingest` hour after hour is on
 * probation (its quotes checked, listed apart, counted in nothing) until 24 clean runs over two
 * Cairo days graduate it; from then its quotes count; two refusals in one run send it back. The
 * record lives in data/state/probation.json, and the build publishes where the source stands and
 * the events.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runIngest } from "../../src/jobs/ingest.js";
import { runBuild } from "../../src/jobs/build.js";
import { localSeller, sourcesDataset } from "../helpers/ingest.js";
import { tempDir } from "../helpers/dataset.js";

const HOUR = 3_600_000;
// 2026-11-18 09:00 Cairo (07:00Z), a Wednesday, hourly: the 24th run is Thursday 08:00 Cairo.
const START = Date.parse("2026-11-18T07:00:00Z");
const START_ISO = "2026-11-18T07:00:00Z";
const board = (dir: string, rows: object[]) => fs.writeFile(path.join(dir, "alpha.json"), JSON.stringify(rows));
const good = [{ code: "USD", buy: 47.7, sell: 47.85 }];

async function ingestAt(dir: string, ms: number) {
  return runIngest({ dataDir: dir, nowMs: ms });
}
async function state(dir: string) {
  return JSON.parse(await fs.readFile(path.join(dir, "state", "probation.json"), "utf8"));
}
async function build(dir: string, ms: number) {
  const out = path.join(await tempDir(), "public");
  await runBuild({ dataDir: dir, outDir: out, nowMs: ms, saveState: false });
  const read = async (p: string) => JSON.parse(await fs.readFile(path.join(out, p), "utf8"));
  return {
    feed: await read("api/v1/feed.json"),
    sources: await read("api/v1/sources.json"),
    events: await read("api/v1/events.json"),
  };
}

describe("a new source on probation, through ingest and the build", () => {
  test("checked and set apart, graduates after 24 clean runs over two Cairo days, then counts", async () => {
    const dir = await sourcesDataset([localSeller]);
    await board(dir, good);
    for (let i = 0; i < 23; i++) await ingestAt(dir, START + i * HOUR);
    const s23 = await state(dir);
    expect(s23.sources.local).toMatchObject({ standing: "probation", since: "2026-11-18T07:00:00Z" });
    expect(s23.sources.local.runs).toHaveLength(23);

    // On probation: the quote is listed apart with the rules' verdict, and is in nothing else.
    const before = await build(dir, START + 22 * HOUR + 60_000);
    const usd = before.feed.assets.find((a: { id: string }) => a.id === "USD-EGP");
    expect(usd.sellers).toEqual([]);
    expect(usd.directions.sell.best).toBeNull();
    expect(usd.confidence.level).toBe("none");
    expect(usd.probation).toEqual([
      expect.objectContaining({ id: "alpha", source: "local", buy: 47.7, sell: 47.85, passed: true, reason: null }),
    ]);
    expect(before.sources.sources.find((x: { id: string }) => x.id === "local").probation).toMatchObject({
      standing: "probation",
      runs: 23,
      runsNeeded: 24,
      lastChange: null,
    });

    // The 24th clean run graduates it, and says so.
    const r = await ingestAt(dir, START + 23 * HOUR);
    expect(r.probation).toEqual([
      { source: "local", change: expect.objectContaining({ at: "2026-11-19T06:00:00Z", standing: "graduated" }) },
    ]);
    // The next run's quote counts.
    await ingestAt(dir, START + 24 * HOUR);
    const after = await build(dir, START + 24 * HOUR + 60_000);
    const usd2 = after.feed.assets.find((a: { id: string }) => a.id === "USD-EGP");
    expect(usd2.sellers.map((s: { id: string; source: string }) => [s.id, s.source])).toEqual([["alpha", "local"]]);
    expect(usd2.probation).toBeUndefined();
    expect(after.sources.sources.find((x: { id: string }) => x.id === "local").probation).toMatchObject({
      standing: "graduated",
      since: "2026-11-19T06:00:00Z",
    });
    expect(after.events.events.filter((e: { kind: string }) => e.kind === "probation")).toEqual([
      expect.objectContaining({
        id: "20261119T060000Z.local.probation",
        source: "local",
        before: { standing: "probation", reason: null },
        after: expect.objectContaining({ standing: "graduated" }),
      }),
    ]);

    // Two quotes refused by rule 3 in one run: back on probation, and its quotes of that run are apart.
    await board(dir, [
      { code: "USD", buy: 48, sell: 47.85 },
      { code: "USD", buy: 49, sell: 47.9 },
    ]);
    const back = await ingestAt(dir, START + 25 * HOUR);
    expect(back.probation?.[0]?.change).toMatchObject({ standing: "probation" });
    expect(back.probation?.[0]?.change.reason).toMatch(/^2 quotes refused in one run \(2 crossed\)/);
    const s = await state(dir);
    expect(s.sources.local).toMatchObject({ standing: "probation", runs: [] });
    expect(s.sources.local.changes.map((c: { standing: string }) => c.standing)).toEqual(["graduated", "probation"]);
  });

  test("a rule-6 refusal during probation holds graduation back; a source marked probation: false counts at once", async () => {
    const dir = await sourcesDataset([localSeller]);
    // Crossed (rule 3) in the first run, then clean: 24 clean runs are needed after it.
    await board(dir, [{ code: "USD", buy: 48, sell: 47.85 }]);
    await ingestAt(dir, START);
    await board(dir, good);
    for (let i = 1; i < 24; i++) await ingestAt(dir, START + i * HOUR);
    expect((await state(dir)).sources.local.standing).toBe("probation");
    await ingestAt(dir, START + 24 * HOUR);
    expect((await state(dir)).sources.local.standing).toBe("graduated");

    const trusted = await sourcesDataset([{ ...localSeller, probation: false, note: "seen live on 2026-11-17" }]);
    await board(trusted, good);
    await ingestAt(trusted, START);
    const b = await build(trusted, START + 60_000);
    expect(b.feed.assets.find((a: { id: string }) => a.id === "USD-EGP").sellers).toHaveLength(1);
    await expect(fs.access(path.join(trusted, "state", "probation.json"))).rejects.toThrow();
  });

  test("a source that stamps its own prices graduates from its stamp, is published as graduated, and every later build succeeds", async () => {
    // Dahab Masr's DateOfRecord, five minutes before each run: the graduation carries a countsFrom
    // (src/rules/probation.ts), which the published standing once refused as an unknown key, so every
    // build after the graduation failed its own output check and the site went stale on day 2.
    const stamped = { ...localSeller, fields: { ...localSeller.fields, time: "at" } };
    const dir = await sourcesDataset([stamped]);
    const stampedBoard = (ms: number) =>
      board(dir, [{ ...good[0], at: new Date(ms - 5 * 60_000).toISOString().replace(".000Z", "Z") }]);
    for (let i = 0; i < 24; i++) {
      await stampedBoard(START + i * HOUR);
      await ingestAt(dir, START + i * HOUR);
    }
    const graduation = (await state(dir)).sources.local.changes.at(-1);
    expect(graduation).toMatchObject({ standing: "graduated", countsFrom: "2026-11-19T05:55:00Z" });
    for (const i of [23, 24, 30]) {
      if (i > 23) {
        await stampedBoard(START + i * HOUR);
        await ingestAt(dir, START + i * HOUR);
      }
      const b = await build(dir, START + i * HOUR + 60_000);
      expect(b.sources.sources.find((x: { id: string }) => x.id === "local").probation).toMatchObject({
        standing: "graduated",
        lastChange: { standing: "graduated", at: "2026-11-19T06:00:00Z", countsFrom: "2026-11-19T05:55:00Z" },
      });
      // The graduating run's own quote (stamped 05:55) already counts.
      const usd = b.feed.assets.find((a: { id: string }) => a.id === "USD-EGP");
      expect(usd.sellers.map((s: { id: string }) => s.id)).toEqual(["alpha"]);
    }
  });

  test("a clock set back does not graduate a source: the run is not counted, and ingest says so", async () => {
    const dir = await sourcesDataset([localSeller]);
    await board(dir, good);
    // 23 runs in 23 minutes, then one with --now two days earlier (issue 50).
    const late = Date.parse("2026-11-21T08:00:00Z");
    for (let i = 0; i < 23; i++) await ingestAt(dir, late + i * 60_000);
    const r = await ingestAt(dir, late - 2 * 86_400_000);
    expect(r.probation).toBeUndefined();
    expect(r.warnings).toContainEqual(
      expect.stringMatching(
        /^local: this run \(2026-11-19T08:00:00Z\) is not after its last counted run \(2026-11-21T08:22:00Z\)/,
      ),
    );
    expect((await state(dir)).sources.local).toMatchObject({ standing: "probation" });
    expect((await state(dir)).sources.local.runs).toHaveLength(23);
  });

  test("a probation record that contradicts itself stops ingest before anything is appended, and refuses the build, naming the file", async () => {
    const dir = await sourcesDataset([localSeller]);
    await board(dir, good);
    await ingestAt(dir, START);
    const file = path.join(dir, "state", "probation.json");
    const record = await state(dir);
    // Standing "probation" while the last change is a graduation.
    record.sources.local.changes = [{ at: START_ISO, standing: "graduated", reason: "by hand" }];
    record.sources.local.runs = [];
    await fs.writeFile(file, JSON.stringify(record));
    const quotesBefore = await fs.readdir(path.join(dir, "quotes"));
    const linesBefore = await Promise.all(quotesBefore.map((f) => fs.readFile(path.join(dir, "quotes", f), "utf8")));
    await expect(ingestAt(dir, START + HOUR)).rejects.toThrow(/probation\.json.*contradicts itself/);
    expect(await Promise.all(quotesBefore.map((f) => fs.readFile(path.join(dir, "quotes", f), "utf8")))).toEqual(
      linesBefore,
    );
    expect(await fs.readdir(path.join(dir, "quotes"))).toEqual(quotesBefore);
    await expect(build(dir, START + HOUR)).rejects.toThrow(/probation\.json.*contradicts itself/);
    // Corrupt (cut short): the same, before anything is appended.
    await fs.writeFile(file, '{"sources": {"local": {"standing": "prob');
    await expect(ingestAt(dir, START + HOUR)).rejects.toThrow(/probation\.json/);
    expect(await Promise.all(quotesBefore.map((f) => fs.readFile(path.join(dir, "quotes", f), "utf8")))).toEqual(
      linesBefore,
    );
  });

  test("a dry run records nothing", async () => {
    const dir = await sourcesDataset([localSeller]);
    await board(dir, good);
    await runIngest({ dataDir: dir, nowMs: START, dryRun: true });
    await expect(fs.access(path.join(dir, "state", "probation.json"))).rejects.toThrow();
  });
});
