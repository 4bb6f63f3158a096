/**
 * The summaries of compacted days (data/summaries/, src/schema/inputs.ts DaySummary): a build takes a
 * past day's ranges from its summary only while the history file's bytes still hash to it; anything
 * else (missing, stale, unreadable, orphaned) is read in full, named in the report, and repaired by
 * `compact`. The built bytes never depend on whether a summary was there.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { describe, expect, test } from "vitest";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { sha256Hex } from "../../src/io/hash.js";
import { DaySummary } from "../../src/schema/inputs.js";
import { Feed } from "../../src/schema/outputs.js";
import { snapshot, tempDir } from "../helpers/dataset.js";

const NOW = Date.parse("2026-11-19T12:30:00Z");
const cfg = { nowMs: NOW, days: 40, assets: 6, sellers: 8, seed: "summaries", compact: true };

async function sampleData(): Promise<string> {
  const dir = await tempDir();
  await writeSample({ ...cfg, out: dir });
  return dir;
}

async function build(data: string) {
  const out = path.join(data, "out");
  await fs.rm(out, { recursive: true, force: true });
  const { site } = await runBuild({ dataDir: data, outDir: out, nowMs: NOW, saveState: false, force: true });
  const feed = Feed.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")));
  return { out, feed, warnings: site.report.warnings.filter((w) => w.includes("summar")) };
}

const summaryDates = async (data: string) =>
  (await fs.readdir(path.join(data, "summaries"))).map((n) => n.slice(0, 10)).sort();

/** A past day inside the series window, which a build reads from its summary. */
async function pastDay(data: string): Promise<string> {
  const dates = await summaryDates(data);
  return dates.at(-3)!;
}

describe("history summaries", () => {
  test("sample --compact writes one per history day, and a build with them equals one without", async () => {
    const data = await sampleData();
    const history = (await fs.readdir(path.join(data, "history"))).map((n) => n.slice(0, 10)).sort();
    expect(await summaryDates(data)).toEqual(history);
    const withSummaries = await build(data);
    expect(withSummaries.warnings).toEqual([]);
    const bytes = await snapshot(withSummaries.out);

    await fs.rm(path.join(data, "summaries"), { recursive: true });
    const without = await build(data);
    expect(await snapshot(without.out)).toEqual(bytes);
    expect(without.warnings).toEqual([
      expect.stringMatching(
        /summaries: no summary of \d+ history day\(s\) read .*`price-feed compact` writes the summaries/,
      ),
    ]);
    expect(await runCompact(data, NOW)).toEqual({
      days: [],
      finished: [],
      summaries: { written: history.length, removed: 0 },
    });
    expect((await build(data)).warnings).toEqual([]);
  });

  test("a build uses a summary whose hash matches: its ranges are what the series shows", async () => {
    const data = await sampleData();
    const date = await pastDay(data);
    const file = path.join(data, "summaries", `${date}.json`);
    const s = DaySummary.parse(JSON.parse(await fs.readFile(file, "utf8")));
    const row = s.ranges.find((r) => r.sellLo !== null)!;
    row.sellLo = 1234.5; // a forged range under the right hash: only a build that reads the summary shows it
    await fs.writeFile(file, JSON.stringify(s));
    const { feed, warnings } = await build(data);
    expect(warnings).toEqual([]);
    const entry = feed.assets.find((a) => a.id === row.asset)!.series.find((e) => e.date === date)!;
    expect(entry.sellLo).toBe(1234.5);
  });

  test("an edited history day is read in full, named in the report, and compact rewrites its summary", async () => {
    const data = await sampleData();
    const date = await pastDay(data);
    const historyFile = path.join(data, "history", `${date}.ndjson`);
    const lines = (await fs.readFile(historyFile, "utf8")).trimEnd().split("\n");
    const close = JSON.parse(lines[0]!) as { asset: string; closes: Array<{ sell: number | null }> };
    for (const c of close.closes) if (c.sell !== null) c.sell = 4321;
    lines[0] = JSON.stringify(close);
    await fs.writeFile(historyFile, `${lines.join("\n")}\n`);

    const edited = await build(data);
    expect(edited.warnings).toEqual([
      expect.stringContaining(`${date}.json: made from other bytes than ${historyFile}`),
    ]);
    const entry = edited.feed.assets.find((a) => a.id === close.asset)!.series.find((e) => e.date === date)!;
    expect(entry.sellLo).toBe(4321); // the history file is the record, not the stale summary
    const bytes = await snapshot(edited.out);

    expect((await runCompact(data, NOW)).summaries).toEqual({ written: 1, removed: 0 });
    const repaired = await build(data);
    expect(repaired.warnings).toEqual([]);
    expect(await snapshot(repaired.out)).toEqual(bytes);
    const summary = DaySummary.parse(
      JSON.parse(await fs.readFile(path.join(data, "summaries", `${date}.json`), "utf8")),
    );
    expect(summary.historySha256).toBe(sha256Hex(await fs.readFile(historyFile)));
  });

  test.each([
    ["not JSON", "{", /not valid JSON/],
    ["the wrong shape", '{"date":"2026-11-01"}', /historySha256/],
  ])("a summary that is %s does not stop the build: the day is read in full", async (_, text, why) => {
    const data = await sampleData();
    const clean = await snapshot((await build(data)).out);
    const date = await pastDay(data);
    await fs.writeFile(path.join(data, "summaries", `${date}.json`), text);
    const { out, warnings } = await build(data);
    expect(warnings).toEqual([expect.stringMatching(why)]);
    expect(warnings[0]).toContain(`${date}.json`);
    expect(await snapshot(out)).toEqual(clean);
  });

  test("a summary without its history day is ignored, named, and removed by compact", async () => {
    const data = await sampleData();
    const date = (await summaryDates(data))[0]!;
    await fs.rm(path.join(data, "history", `${date}.ndjson`));
    const { warnings } = await build(data);
    expect(warnings).toEqual([expect.stringContaining(`${date}.json: summary of a day with no history file`)]);
    expect((await runCompact(data, NOW)).summaries).toEqual({ written: 0, removed: 1 });
    expect(await summaryDates(data)).not.toContain(date);
  });
});

describe("history and summaries as links", () => {
  test("a history day that is a link leaving data/ is refused, though its summary would do", async () => {
    const data = await sampleData();
    const date = await pastDay(data);
    const file = path.join(data, "history", `${date}.ndjson`);
    const outside = path.join(await tempDir("pf-outside-"), "day.ndjson");
    await fs.rename(file, outside);
    await fs.symlink(outside, file);
    const err = await build(data).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `${file}: is a symbolic link to a place outside the data folder: refused (copy the file into the folder instead)`,
    );
  });

  test("a summary that is a link leaving data/ is not used: the day is read in full", async () => {
    const data = await sampleData();
    const clean = await snapshot((await build(data)).out);
    const date = await pastDay(data);
    const file = path.join(data, "summaries", `${date}.json`);
    const outside = path.join(await tempDir("pf-outside-"), "summary.json");
    await fs.rename(file, outside);
    await fs.symlink(outside, file);
    const { out, warnings } = await build(data);
    expect(warnings).toEqual([
      expect.stringContaining(`${file}: is a symbolic link to a place outside the data folder`),
    ]);
    expect(await snapshot(out)).toEqual(clean);
  });
});
