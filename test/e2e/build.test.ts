import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { addDays } from "../../src/core/cairo.js";
import { Feed } from "../../src/schema/outputs.js";
import { Manifest } from "../../src/schema/documents.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows as rows, TODAY } from "../helpers/rows.js";

const NOW = Date.parse("2026-11-19T11:30:00Z");

async function feedOf(out: string, file = "api/v1/feed.json"): Promise<Feed> {
  return Feed.parse(JSON.parse(await fs.readFile(path.join(out, file), "utf8")));
}

describe("an end-to-end build of a small dataset", () => {
  let out: string;
  let data: string;
  let feed: Feed;
  beforeAll(async () => {
    data = await writeDataset(await tempDir(), rows());
    out = path.join(await tempDir(), "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW });
    feed = await feedOf(out);
  });
  const asset = (id: string) => feed.assets.find((a) => a.id === id)!;

  test("the feed's links and header", () => {
    expect(feed).toMatchObject({
      _self: "/api/v1/feed.json",
      _docs: "/docs/",
      _spec: "/api/v1/openapi.json",
      _changelog: "/api/v1/changelog.json",
      _terms: "/terms/",
      schemaVersion: 1,
      seriesWindowDays: 30,
      generatedAt: "2026-11-19T11:30:00.000Z",
      _about: "Test feed (simulated).",
    });
    expect(feed.assets.map((a) => a.id)).toEqual(["USD-EGP", "OMR-EGP", "CNY-EGP", "XAU24K-EGP"]);
  });

  test("USD: table, best sellers, references, confidence, freshness", () => {
    const usd = asset("USD-EGP");
    expect(usd).toMatchObject({
      asOf: TODAY,
      observedAt: "2026-11-19T11:00:00.000Z",
      market: "competitive",
      freshness: { state: "fresh", stale: false },
      // s1 and s2 saw USD today: medium; s1 and s2 disagree on alpha by 1.4 %: one step down.
      confidence: { level: "low", checks: 2 },
      benchmark: { buy: 49.9, sell: 50.01 },
      global: { value: 49.95 },
    });
    expect(usd.sellers).toEqual([
      // Where and when each value was seen: alpha's close is s1's 11:00 quote (s1 is listed first), s2 saw it too.
      {
        id: "alpha",
        seller: "Alpha Bank",
        sellerAr: "بنك ألفا",
        buy: 49.7,
        sell: 49.9,
        observedAt: "2026-11-19T11:00:00Z",
        source: "s1",
        sources: ["s1", "s2"],
        // Its close of the day before (docs/methodology.md §5.4).
        previous: { buy: 49.7, sell: 50 },
      },
      {
        id: "beta",
        seller: "Beta Bank",
        sellerAr: "بنك بيتا",
        buy: 49.8,
        sell: 50.1,
        observedAt: "2026-11-19T10:00:00Z",
        source: "s1",
        sources: ["s1"],
        previous: { buy: 49.8, sell: 50.1 },
      },
    ]);
    expect(usd.directions.sell.best).toEqual({ seller: "Alpha Bank", sellerAr: "بنك ألفا", value: 49.9 });
    // Against the day before's best: sell 50 (alpha) → 49.9, buy 49.8 (beta) → 49.8.
    expect(usd.directions.sell.previous).toEqual({ date: "2026-11-18", value: 50, change: -0.1, changePct: -0.2 });
    expect(usd.directions.buy.previous).toEqual({ date: "2026-11-18", value: 49.8, change: 0, changePct: 0 });
    expect(usd.directions.buy.best).toEqual({ seller: "Beta Bank", sellerAr: "بنك بيتا", value: 49.8 });
  });

  test("USD: verdicts and signals computed by hand", () => {
    const { sell, buy } = asset("USD-EGP").directions;
    // sell: 49.90 below all 15 prior days at 50.00 → favorability 1, position +1.
    expect(sell).toMatchObject({
      verdict: "favorable",
      favorability: 1,
      priorDays: 15,
      signals: {
        position: { lean: 1 },
        trend: { lean: 0, direction: "flat", changePct: -0.2, volatilityPct: 0.07, days: 7 },
        official: { lean: 0, diffPct: -0.22 },
        global: { diffPct: -0.1, notable: false },
      },
    });
    // buy: 49.80 equals every prior day → ties count half → 0.5.
    expect(buy).toMatchObject({
      verdict: "ordinary",
      favorability: 0.5,
      priorDays: 15,
      signals: {
        position: { lean: 0 },
        trend: { lean: 0, direction: "flat", changePct: 0, volatilityPct: 0, days: 7 },
        official: { lean: 0, diffPct: -0.2 },
        global: { diffPct: -0.3, notable: false },
      },
    });
  });

  test("USD: series of daily closes, ascending, today last", () => {
    const s = asset("USD-EGP").series;
    expect(s).toHaveLength(16);
    expect(s[0]).toEqual({
      date: addDays(TODAY, -15),
      buyLo: 49.7,
      buyHi: 49.8,
      sellLo: 50,
      sellHi: 50.1,
      bench: 49.95,
    });
    expect(s.at(-1)).toEqual({ date: TODAY, buyLo: 49.7, buyHi: 49.8, sellLo: 49.9, sellHi: 50.1, bench: 49.96 });
  });

  test("the sole market has one seller and calibrates without history", () => {
    const omr = asset("OMR-EGP");
    expect(omr.sellers).toEqual([
      {
        id: "alpha",
        seller: "Alpha Bank",
        sellerAr: "بنك ألفا",
        buy: 123.1,
        sell: 123.9,
        observedAt: "2026-11-19T09:00:00Z",
        source: "s1",
        sources: ["s1"],
        previous: null, // OMR has no earlier day
      },
    ]);
    expect(omr.directions.sell).toMatchObject({
      verdict: "calibrating",
      favorability: null,
      priorDays: 0,
      signals: { trend: null, official: null },
    });
    expect(omr.benchmark).toBeNull();
    expect(omr.confidence).toEqual({ level: "low", checks: 1 });
  });

  test("the reference market: the global price on both sides, no sellers, daily low and high", () => {
    const cny = asset("CNY-EGP");
    expect(cny.sellers).toEqual([]);
    expect(cny.directions.sell.best).toBeNull();
    expect(cny.series.at(-1)).toEqual({
      date: TODAY,
      buyLo: 6.7101,
      buyHi: 6.7205,
      sellLo: 6.7101,
      sellHi: 6.7205,
      bench: 6.7,
    });
    expect(cny.series).toHaveLength(16);
    expect(cny.directions.sell).toMatchObject({ priorDays: 15, signals: { official: null, global: null } });
    // 6.7205 is above every prior day (6.701 … 6.715): the worst day to pay, the best to receive.
    expect(cny.directions.sell).toMatchObject({ favorability: 0, verdict: "weak" });
    expect(cny.directions.buy).toMatchObject({ favorability: 1, verdict: "favorable" });
    expect(cny.observedAt).toBe("2026-11-19T09:00:00.000Z");
    expect(cny.benchmark).toEqual({ buy: 6.69, sell: 6.71 });
  });

  test("metals: integer decimals, no official rate, one source today", () => {
    const gold = asset("XAU24K-EGP");
    expect(gold).toMatchObject({ benchmark: null, global: null, confidence: { level: "low", checks: 1 }, asOf: TODAY });
    expect(gold.directions.sell.best).toEqual({ seller: "Dahab Gold", sellerAr: "ذهب", value: 6040 });
  });

  test("every variant is the full feed with the other assets removed", async () => {
    const strip = ({ _self: _s, ...rest }: Feed) => rest;
    const metals = await feedOf(out, "api/v1/feed/category/metals.json");
    expect(metals._self).toBe("/api/v1/feed/category/metals.json");
    expect(strip(metals)).toEqual(strip({ ...feed, assets: feed.assets.filter((a) => a.category === "metals") }));
    for (const a of feed.assets)
      expect(strip(await feedOf(out, `api/v1/feed/asset/${a.slug}.json`))).toEqual(strip({ ...feed, assets: [a] }));
  });

  test("the build report lists each rejected quote with its reason, file and line", async () => {
    const report = JSON.parse(await fs.readFile(`${out}.build-report.json`, "utf8"));
    expect(report.rejectedByReason).toEqual({ crossed: 1, "unlicensed-seller": 1, "implausible-sell": 1 });
    expect(report.rejections).toContainEqual({
      file: path.join(data, "quotes", `${TODAY}.ndjson`),
      line: 5,
      source: "s1",
      seller: "gamma",
      asset: "USD-EGP",
      reason: "crossed",
    });
    expect(report.disagreements).toEqual([
      { date: TODAY, asset: "USD-EGP", seller: "alpha", sources: ["s1", "s2"], side: "sell", diffPct: 1.4 },
    ]);
    expect(report.warnings).toEqual(["XAU24K-EGP: declared competitive but 1 seller quotes it on 2026-11-19"]);
  });

  test("the manifest gives every file a strong ETag and Last-Modified", async () => {
    const m = Manifest.parse(JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")));
    const files = await snapshot(out);
    for (const f of files.keys())
      if (f !== "_manifest.json")
        expect(m.files[f], f).toMatchObject({
          etag: expect.stringMatching(/^"[A-Za-z0-9_-]{43}"$/),
          lastModified: "2026-11-19T11:30:00.000Z",
        });
    expect(Object.keys(m.files).sort()).toEqual([...files.keys()].filter((f) => f !== "_manifest.json").sort());
  });
});

describe("reproducibility, ETags and Last-Modified", () => {
  test("the same inputs and --now give byte-identical files", async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    await writeDataset(a, rows());
    await writeDataset(b, rows());
    await runBuild({ dataDir: a, outDir: path.join(a, "out"), nowMs: NOW });
    await runBuild({ dataDir: b, outDir: path.join(b, "out"), nowMs: NOW });
    expect(await snapshot(path.join(a, "out"))).toEqual(await snapshot(path.join(b, "out")));
  });

  // After both sessions close (22:00 Cairo = 20:00 UTC) no freshness state moves between these instants.
  test("an hour later on unchanged data only generatedAt moves; a change moves exactly the files that show it", async () => {
    const data = await writeDataset(await tempDir(), rows());
    const out = path.join(data, "public");
    const manifest = async () =>
      Manifest.parse(JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")));
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse("2026-11-19T20:10:00Z") });
    const first = await manifest();
    const firstFeed = await feedOf(out);
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse("2026-11-19T21:10:00Z") });
    const second = await manifest();
    expect(second.files).toEqual(first.files);
    const secondFeed = await feedOf(out);
    expect(secondFeed.generatedAt).toBe("2026-11-19T21:10:00.000Z");
    expect({ ...secondFeed, generatedAt: "" }).toEqual({ ...firstFeed, generatedAt: "" });

    // A new gold quote: the metals files change, the currency ones keep ETag and Last-Modified.
    await fs.appendFile(
      path.join(data, "quotes", `${TODAY}.ndjson`),
      `${JSON.stringify({ source: "s1", seller: "sagha", asset: "XAU24K-EGP", buy: 6005, sell: 6045, observedAt: "2026-11-19T21:30:00Z" })}\n`,
    );
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse("2026-11-19T22:10:00Z") });
    const third = await manifest();
    const changed = Object.keys(third.files)
      .filter((f) => third.files[f]!.etag !== second.files[f]?.etag)
      .sort();
    // The home page shows every asset, and the OpenAPI's /readyz example every asset's freshness,
    // so both move with any asset; the docs and terms pages do not. 22:10 UTC is past midnight in
    // Cairo: every market page now says "Thursday's prices" where it said "today", in both languages.
    const pages = ["chinese-yuan", "gold-24k", "omani-riyal", "us-dollar"].flatMap((s) => [
      `ar/assets/${s}/index.html`,
      `assets/${s}/index.html`,
    ]);
    // The archive moves with it: gold's history and today's by-day file, no other (docs/methodology.md §5.5).
    // Thursday is over in Cairo: it is a past day now, with its pages, and Wednesday's pages link
    // to it as the day after (docs/pages.md "Any past day"); no other day's page moves.
    // So do the events, with gold's change (§12): the whole list and gold's own, JSON and Atom; and
    // gold's card (its og:image), which shows its price: no other card, since a card names the day.
    expect(changed).toEqual(
      [
        "api/v1/days/2026-11-19.json",
        "days/2026-11-19/index.html",
        "ar/days/2026-11-19/index.html",
        "days/2026-11-18/index.html",
        "ar/days/2026-11-18/index.html",
        "days/index.html",
        "ar/days/index.html",
        "api/v1/events.atom",
        "api/v1/events.json",
        "api/v1/events/asset/gold-24k.atom",
        "api/v1/events/asset/gold-24k.json",
        "api/v1/history/gold-24k.csv",
        "api/v1/history/gold-24k.json",
        "api/v1/feed.json",
        "api/v1/feed/asset/gold-24k.json",
        "api/v1/feed/category/metals.json",
        "api/v1/openapi.json",
        // The dealer's record and its pages: its closes' figures and today's prices (docs/methodology.md §13).
        "api/v1/sellers/sagha.json",
        "sellers/sagha/index.html",
        "ar/sellers/sagha/index.html",
        ...pages,
        "ar/index.html",
        "index.html",
      ].sort(),
    );
    for (const f of changed) expect(third.files[f]!.lastModified).toBe("2026-11-19T22:10:00.000Z");
    expect(third.files["api/v1/feed/asset/us-dollar.json"]).toEqual(first.files["api/v1/feed/asset/us-dollar.json"]);
  });

  test("a build on compacted data is byte-identical to a build on the raw data", async () => {
    const later = Date.parse("2026-11-19T11:30:00Z");
    const [raw, compacted] = [await writeDataset(await tempDir(), rows()), await writeDataset(await tempDir(), rows())];
    const { days } = await runCompact(compacted, later);
    expect(days.map((d) => d.date)).toEqual(Array.from({ length: 8 }, (_, i) => addDays(TODAY, i - 15)));
    expect((await fs.readdir(path.join(compacted, "quotes"))).sort()[0]).toBe(`${addDays(TODAY, -7)}.ndjson`);
    await runBuild({ dataDir: raw, outDir: path.join(raw, "out"), nowMs: later });
    await runBuild({ dataDir: compacted, outDir: path.join(compacted, "out"), nowMs: later });
    expect(await snapshot(path.join(compacted, "out"))).toEqual(await snapshot(path.join(raw, "out")));
    expect(await runCompact(compacted, later)).toEqual({
      days: [],
      summaries: { written: 0, removed: 0 },
      finished: [],
    }); // idempotent
  });
});
