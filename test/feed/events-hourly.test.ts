/**
 * What changed (docs/methodology.md §12) over a whole trading day of the hourly job on the simulated
 * market: every hour of Sunday 22 November 2026 run as the job runs it (ingest the demo sources,
 * compact, build, data/state/ kept between runs, as the job's commits keep it), and the events the
 * last build publishes held to a diff, made from scratch, of each two consecutive published feeds.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { catchUp, demoPaths, hourlyRun, prepareCopy } from "../../src/jobs/demo/hourly.js";
import { runBuild } from "../../src/jobs/build.js";
import type { Events } from "../../src/schema/events.js";
import { tempDir } from "../helpers/dataset.js";
import { changeOf, changesBetween, type Change, type Published } from "../helpers/events-diff.js";

const DAY_START = Date.parse("2026-11-21T22:00:00Z"); // midnight in Cairo
const HOUR = 3_600_000;

let paths: ReturnType<typeof demoPaths>;
const published: Published[] = [];
const instants: string[] = [];

beforeAll(async () => {
  paths = demoPaths(await tempDir("pf-events-day-"));
  await prepareCopy(path.resolve("data"), paths);
  await catchUp(paths.data, DAY_START - HOUR);
  for (let h = 0; h < 24; h++) {
    const run = await hourlyRun(paths, DAY_START + h * HOUR + 5 * 60_000);
    const read = async (f: string) => JSON.parse(await fs.readFile(path.join(paths.out, f), "utf8")) as never;
    published.push({ feed: await read("api/v1/feed.json"), sources: await read("api/v1/sources.json") });
    instants.push(run.generatedAt);
  }
}, 600_000);

const eventsOf = async (dir: string) =>
  JSON.parse(await fs.readFile(path.join(dir, "api/v1/events.json"), "utf8")) as Events;

describe("a trading day of the hourly job on the sample data", () => {
  test("the published events are the from-scratch diffs of consecutive published feeds, newest first", async () => {
    const doc = await eventsOf(paths.out);
    const want: Array<Change & { at: string }> = [];
    for (let i = 1; i < published.length; i++)
      want.unshift(...changesBetween(published[i - 1]!, published[i]!).map((c) => ({ ...c, at: instants[i]! })));
    const got = doc.events.filter((e) => e.at > instants[0]!).map((e) => ({ ...changeOf(e), at: e.at }));
    expect(got).toEqual(want);
    // The day is not quiet: the market opens, best sellers change hands, verdicts move.
    expect(want.length).toBeGreaterThan(10);
    expect(new Set(want.map((c) => c.kind))).toContain("best-seller");
  });

  test("an hour that changes nothing adds no event", () => {
    const quiet = published.findIndex((x, i) => i > 0 && changesBetween(published[i - 1]!, x).length === 0);
    expect(quiet).toBeGreaterThan(0);
  });

  test("build --no-state at the last run's instant reproduces its events byte for byte", async () => {
    const again = path.join(paths.work, "again");
    await runBuild({ dataDir: paths.data, outDir: again, nowMs: Date.parse(instants.at(-1)!), saveState: false });
    for (const f of ["api/v1/events.json", "api/v1/events.atom", "api/v1/events/asset/us-dollar.json"])
      expect(await fs.readFile(path.join(again, f), "utf8"), f).toBe(
        await fs.readFile(path.join(paths.out, f), "utf8"),
      );
  });
});
