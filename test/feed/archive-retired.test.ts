/**
 * The past stays as published (issue 42 item 6): an asset marked retired in the catalog leaves
 * today's feed, variants and pages but keeps its archive — its history files, byte for byte for the
 * days before its retirement, and its rows in the past days — saying from when it is retired; an
 * asset deleted from the catalog while data/ holds its days refuses the build in one line, and the
 * published site stays as it was.
 */
import { promises as fs, existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { DataError } from "../../src/core/errors.js";
import { handle } from "../../src/edge/handler.js";
import type { Day, History } from "../../src/schema/archive.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { Manifest } from "../../src/schema/documents.js";
import { catalog, snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { depsFor } from "../helpers/site.js";

const NOW = Date.parse("2026-11-19T11:30:00Z");
const TODAY = "2026-11-19";
const GOLD = "XAU24K-EGP";

/** The small dataset, its older days compacted into history/ (the rest stays raw), built once. */
async function published(compactAt = NOW, saveState = false): Promise<{ data: string; out: string }> {
  const data = await writeDataset(await tempDir(), smallRows());
  await runCompact(data, compactAt, () => undefined);
  const out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs: NOW, saveState });
  return { data, out };
}

/** Writes the catalog as given: each asset as the test helper has it, with these changes. */
async function writeCatalog(data: string, change: (a: (typeof catalog)[number]) => object | null) {
  const assets = catalog.map(change).filter((a) => a !== null);
  await fs.writeFile(path.join(data, "assets.json"), JSON.stringify(assets));
}

const read = (out: string, p: string) => fs.readFile(path.join(out, p), "utf8");
const json = async <T>(out: string, p: string) => JSON.parse(await read(out, p)) as T;
/** The text of a history file's entries, as written: between `"entries":[` and the `]` before `"from"`. */
const entriesText = (text: string) => text.slice(text.indexOf('"entries":[') + 11, text.indexOf('],"from":'));

describe("an asset retired in the catalog", () => {
  let before: string;
  let after: string;
  let report: { warnings: string[]; rejections: Array<{ asset: string; reason: string }> };
  beforeAll(async () => {
    const site = await published();
    before = await tempDir();
    await fs.cp(site.out, before, { recursive: true });
    // Retired from today: today's quotes of it are no longer taken, the days before stay.
    await writeCatalog(site.data, (a) => (a.id === GOLD ? { ...a, retired: TODAY } : a));
    const r = await runBuild({ dataDir: site.data, outDir: site.out, nowMs: NOW, saveState: false, force: true });
    after = site.out;
    report = r.site.report;
  });

  test("its history files stay byte for byte for the days before it, and say from when it is retired", async () => {
    const [was, is] = [
      await read(before, "api/v1/history/gold-24k.json"),
      await read(after, "api/v1/history/gold-24k.json"),
    ];
    const [wasDoc, isDoc] = [JSON.parse(was) as History, JSON.parse(is) as History];
    expect(wasDoc.entries.at(-1)!.date).toBe(TODAY); // it had today's entry
    expect(isDoc.entries.map((e) => e.date)).toEqual(wasDoc.entries.filter((e) => e.date < TODAY).map((e) => e.date));
    expect(isDoc.entries.length).toBeGreaterThan(10);
    // The entries before today, as written then: the same bytes, today's entry after them gone.
    expect(entriesText(was).startsWith(`${entriesText(is)},{`)).toBe(true);
    expect(isDoc.asset).toEqual({ ...wasDoc.asset, retired: TODAY });
    expect(isDoc.to).toBe(wasDoc.entries.at(-2)!.date);
    // The CSV has no head: every line of the days before today is as it was.
    const [wasCsv, isCsv] = [
      await read(before, "api/v1/history/gold-24k.csv"),
      await read(after, "api/v1/history/gold-24k.csv"),
    ];
    expect(wasCsv.startsWith(isCsv)).toBe(true);
    expect(wasCsv.slice(isCsv.length)).toMatch(new RegExp(`^${TODAY},[^\\r\\n]*\\r\\n$`));
  });

  test("the past days still hold it, as they were, saying it is retired; today's day does not", async () => {
    const days = (await json<{ days: Array<{ date: string }> }>(after, "api/v1/days.json")).days.map((d) => d.date);
    const past = days.filter((d) => d < TODAY);
    expect(past.length).toBeGreaterThan(10);
    for (const date of past) {
      const [was, is] = [
        await json<Day>(before, `api/v1/days/${date}.json`),
        await json<Day>(after, `api/v1/days/${date}.json`),
      ];
      expect(is.assets.map((a) => a.id)).toEqual(was.assets.map((a) => a.id));
      const gold = (d: Day) => d.assets.find((a) => a.id === GOLD);
      expect(gold(is), date).toEqual({ ...gold(was)!, retired: TODAY });
      // Every other asset of the day is as it was, byte for byte.
      for (const a of is.assets.filter((x) => x.id !== GOLD))
        expect(JSON.stringify(a)).toBe(JSON.stringify(was.assets.find((x) => x.id === a.id)));
    }
    const today = await json<Day>(after, `api/v1/days/${TODAY}.json`);
    expect(today.assets.map((a) => a.id)).not.toContain(GOLD);
    expect((await json<Day>(before, `api/v1/days/${TODAY}.json`)).assets.map((a) => a.id)).toContain(GOLD);
  });

  test("it is in no feed, variant or page; today's quote of it is not taken, and said", async () => {
    const feed = await json<Feed>(after, "api/v1/feed.json");
    expect(feed.assets.map((a) => a.id)).toEqual(catalog.filter((a) => a.id !== GOLD).map((a) => a.id));
    for (const gone of [
      "api/v1/feed/asset/gold-24k.json",
      "assets/gold-24k/index.html",
      "ar/assets/gold-24k/index.html",
    ]) {
      expect(existsSync(path.join(before, gone)), gone).toBe(true);
      expect(existsSync(path.join(after, gone)), gone).toBe(false);
    }
    const index = await read(after, "api/v1/index.json");
    expect(index).not.toContain('"gold-24k"');
    expect(report.rejections.filter((r) => r.asset === GOLD)).toEqual([
      expect.objectContaining({ asset: GOLD, reason: "unknown-asset" }),
    ]);
  });

  test("the primary answers its archive by slug and by id, as the mirror serves the files", async () => {
    const m = await json<Manifest>(after, "_manifest.json");
    expect(m.retired).toEqual([{ id: GOLD, slug: "gold-24k" }]);
    expect(m.assets.map((a) => a.id)).not.toContain(GOLD);
    const file = await read(after, "api/v1/history/gold-24k.csv");
    for (const p of ["/api/v1/history/gold-24k.csv", "/api/v1/history/XAU24K-EGP.csv"]) {
      const res = await handle(new Request(`http://x${p}`), depsFor(after));
      expect(res.status, p).toBe(200);
      expect(await res.text()).toBe(file);
    }
  });
});

describe("an asset deleted from the catalog while data/ holds its days", () => {
  // [the asset deleted, what of data/ holds it, when the raw days were compacted]
  const cases: Array<[string, string, number]> = [
    [GOLD, "compacted days in history/ and raw quotes", NOW],
    [GOLD, "compacted days in history/ only", NOW + 30 * 86_400_000],
    ["OMR-EGP", "raw quotes only", NOW],
    ["CNY-EGP", "reference rates only (a reference asset)", NOW],
  ];
  test.each(cases)("deleting %s (%s) refuses the build in one line naming it; public/ stays", async (id, _, at) => {
    const { data, out } = await published(at);
    if (at > NOW) expect(await fs.readdir(path.join(data, "quotes"))).toEqual([]);
    const site = await snapshot(out);
    await writeCatalog(data, (a) => (a.id === id ? null : a));
    const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000, saveState: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    const message = (err as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(
      new RegExp(
        `^\\S+\\.ndjson: holds asset ${id}, which the catalog \\(assets\\.json\\) no longer lists: .*"retired": "<YYYY-MM-DD>"`,
      ),
    );
    expect(await snapshot(out)).toEqual(site);
  });

  test("a compacted day holding it on or after the date it is retired from refuses the build: that day is published", async () => {
    const { data, out } = await published();
    const site = await snapshot(out);
    const history = (await fs.readdir(path.join(data, "history"))).sort();
    const last = history.at(-1)!.slice(0, 10);
    await writeCatalog(data, (a) => (a.id === GOLD ? { ...a, retired: last } : a));
    const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000, saveState: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toBe(
      `history/${last}.ndjson: holds asset ${GOLD} on ${last}, on or after the date the catalog (assets.json) retires it (${last}): a day already compacted stays as published; set its "retired" to a date after ${last}`,
    );
    expect(await snapshot(out)).toEqual(site);
  });

  test("an hourly build that keeps what earlier builds made retires it as a build from nothing does", async () => {
    const { data, out } = await published(NOW, true);
    await writeCatalog(data, (a) => (a.id === GOLD ? { ...a, retired: TODAY } : a));
    const later = NOW + 3_600_000;
    await runBuild({ dataDir: data, outDir: out, nowMs: later, saveState: false });
    const fresh = path.join(await tempDir(), "public");
    await runBuild({ dataDir: data, outDir: fresh, nowMs: later, saveState: false });
    expect(await snapshot(out)).toEqual(await snapshot(fresh));
  });
});
