/**
 * The sellers' documents (docs/methodology.md §13) of a real build of the sample data: held to the
 * rule computed from scratch on the build's own archive files, to the feed's tables, and the same
 * whether the build made the archive's closed part, kept it whole (the hourly build) or took its
 * days one by one from data/state/archive/ (the first build of a day).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { assetRecords, RECORD_WINDOWS, type RecordDay } from "../../src/rules/records.js";
import { SellerRecord, Sellers } from "../../src/schema/sellers.js";
import type { Day, History } from "../../src/schema/archive.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { Registry } from "../../src/schema/inputs.js";
import { tempDir } from "../helpers/dataset.js";

const NOW = Date.parse("2026-11-19T12:30:00Z");
const HOUR = 3_600_000;
const read = async <T>(out: string, file: string) => JSON.parse(await fs.readFile(path.join(out, file), "utf8")) as T;

/** A copy of the committed sample data (a build that saves its state writes into data/state/). */
async function sampleCopy(): Promise<string> {
  const data = path.join(await tempDir("pf-sellers-"), "data");
  await fs.cp(path.resolve("data"), data, { recursive: true });
  return data;
}

/** Every file under api/v1/sellers*, by path, as text. */
async function sellerFiles(out: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set("sellers.json", await fs.readFile(path.join(out, "api/v1/sellers.json"), "utf8"));
  for (const f of (await fs.readdir(path.join(out, "api/v1/sellers"))).sort())
    files.set(f, await fs.readFile(path.join(out, "api/v1/sellers", f), "utf8"));
  return files;
}

describe("the sellers' documents of the sample", () => {
  let out = "";
  let data = "";
  beforeAll(async () => {
    data = await sampleCopy();
    out = path.join(data, "..", "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW, saveState: false });
  });

  test("the list: every registered seller with a close, in the registry's order, each linked to its record", async () => {
    const list = Sellers.parse(await read(out, "api/v1/sellers.json"));
    const registry = await read<Registry>(data, "sellers.json");
    const feed = await read<Feed>(out, "api/v1/feed.json");
    const quoted = new Set<string>();
    for (const a of feed.assets) {
      if (a.market === "reference") continue;
      const h = await read<History>(out, `api/v1/history/${a.slug}.json`);
      const d = await read<Day>(out, `api/v1/days/${h.entries.at(-1)!.date}.json`);
      for (const s of d.assets.find((x) => x.id === a.id)!.sellers) quoted.add(s.id);
    }
    expect(list._self).toBe("/api/v1/sellers.json");
    // The sample's sellers each quote on the last day of every asset they deal in.
    expect(list.sellers.map((s) => s.id)).toEqual(registry.filter((r) => quoted.has(r.id)).map((r) => r.id));
    expect(list.sellers.length).toBeGreaterThan(3);
    const manifest = await read<{ files: Record<string, unknown> }>(out, "_manifest.json");
    for (const s of list.sellers) {
      expect(s._self).toBe(`/api/v1/sellers/${s.id}.json`);
      expect(Object.hasOwn(manifest.files, s._self.slice(1))).toBe(true);
      const r = registry.find((x) => x.id === s.id)!;
      expect(s).toMatchObject({ name: r.name, nameAr: r.nameAr, kind: r.kind, licensedBy: r.licensedBy });
    }
  });

  test("each record is the rule computed from scratch on the build's archive, and today's row is the feed's", async () => {
    const feed = await read<Feed>(out, "api/v1/feed.json");
    const list = Sellers.parse(await read(out, "api/v1/sellers.json"));
    // Every seller asset's archive days as the records read them: its history entries and each day's table.
    const days = new Map<string, RecordDay[]>();
    const dayDocs = new Map<string, Day>();
    for (const a of feed.assets) {
      if (a.market === "reference") continue;
      const h = await read<History>(out, `api/v1/history/${a.slug}.json`);
      const list: RecordDay[] = [];
      for (const e of h.entries) {
        const doc = dayDocs.get(e.date) ?? (await read<Day>(out, `api/v1/days/${e.date}.json`));
        dayDocs.set(e.date, doc);
        const table = doc.assets.find((x) => x.id === a.id)!.sellers;
        list.push({
          date: e.date,
          sellLo: e.sellLo,
          buyHi: e.buyHi,
          bestSell: e.bestSell?.id ?? null,
          bestBuy: e.bestBuy?.id ?? null,
          quotes: table.map((r) => ({ seller: r.id, sell: r.sell, buy: r.buy })),
        });
      }
      days.set(a.id, list);
    }
    let checked = 0;
    for (const s of list.sellers) {
      const doc = SellerRecord.parse(await read(out, `api/v1/sellers/${s.id}.json`));
      expect(doc.assets.map((a) => a.slug)).toEqual(s.assets);
      const expected = feed.assets.filter(
        (a) => a.market !== "reference" && assetRecords(days.get(a.id)!, a.asOf).has(s.id),
      );
      expect(doc.assets.map((a) => a.id)).toEqual(expected.map((a) => a.id));
      for (const r of doc.assets) {
        const a = feed.assets.find((x) => x.id === r.id)!;
        const want = assetRecords(days.get(a.id)!, a.asOf).get(s.id)!;
        expect(r.short).toEqual({ windowDays: RECORD_WINDOWS.short, ...want.short });
        expect(r.long).toEqual({ windowDays: RECORD_WINDOWS.long, ...want.long });
        expect(r.asOf).toBe(a.asOf);
        expect(r.today).toEqual(a.sellers.find((row) => row.id === s.id) ?? null);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  test("a window is cut at 30 archive days, and some seller was best on some days and not on others", async () => {
    const list = Sellers.parse(await read(out, "api/v1/sellers.json"));
    const docs = await Promise.all(list.sellers.map(async (s) => SellerRecord.parse(await read(out, s._self))));
    const windows = docs.flatMap((d) => d.assets);
    expect(windows.some((w) => w.short.days === 30 && w.long.days > 30)).toBe(true);
    expect(windows.some((w) => w.short.daysBest.sell > 0 && w.short.daysBest.sell < w.short.daysQuoted)).toBe(true);
  });

  test("a reference asset is in no record", async () => {
    const feed = await read<Feed>(out, "api/v1/feed.json");
    const reference = feed.assets.filter((a) => a.market === "reference").map((a) => a.slug);
    expect(reference.length).toBeGreaterThan(0);
    const list = Sellers.parse(await read(out, "api/v1/sellers.json"));
    expect(list.sellers.flatMap((s) => s.assets).filter((slug) => reference.includes(slug))).toEqual([]);
  });
});

describe("the same records whatever earlier builds left", () => {
  test("an hourly build that keeps the closed part whole, and the first of the next day that takes its days one by one", async () => {
    const data = await sampleCopy();
    const out = path.join(data, "..", "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW });
    // An hour later: the archive's closed part is kept whole, with its records.
    const hourly = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + HOUR });
    expect(hourly.site.made.part).toBeNull();
    const fresh = path.join(data, "..", "fresh");
    await runBuild({ dataDir: await sampleCopy(), outDir: fresh, nowMs: NOW + HOUR, saveState: false });
    expect(await sellerFiles(out)).toEqual(await sellerFiles(fresh));
    // The next day: a new closed day, so the part is made again, the compacted days from data/state/archive/.
    const next = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 24 * HOUR });
    expect(next.archiveDaysKept).toBeGreaterThan(100);
    expect(next.site.made.part).not.toBeNull();
    const freshNext = path.join(data, "..", "fresh-next");
    await runBuild({ dataDir: await sampleCopy(), outDir: freshNext, nowMs: NOW + 24 * HOUR, saveState: false });
    expect(await sellerFiles(out)).toEqual(await sellerFiles(freshNext));
  });
});
