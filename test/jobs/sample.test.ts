import path from "node:path";
import { describe, expect, test } from "vitest";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { loadFull } from "../../src/io/load-full.js";
import { Feed } from "../../src/schema/outputs.js";
import { snapshot, tempDir } from "../helpers/dataset.js";
import { promises as fs } from "node:fs";

const NOW = Date.parse("2026-11-19T12:30:00Z");
const cfg = { nowMs: NOW, days: 20, assets: 15, sellers: 14, seed: "test" };

describe("the sample market", () => {
  test("is deterministic, and --compact equals sample + compact, down to the built bytes", async () => {
    const [raw, raw2, compacted] = [await tempDir(), await tempDir(), await tempDir()];
    await writeSample({ ...cfg, out: raw, compact: false });
    await writeSample({ ...cfg, out: raw2, compact: false });
    expect(await snapshot(raw2)).toEqual(await snapshot(raw));
    await writeSample({ ...cfg, out: compacted, compact: true });
    await runCompact(raw, NOW);
    expect(await snapshot(compacted)).toEqual(await snapshot(raw));
  });

  test("looks like the market it simulates, with every kind of bad quote and varied confidence", async () => {
    const data = await tempDir();
    await writeSample({ ...cfg, out: data, compact: true });
    const ds = await loadFull(data);
    expect(ds.catalog.filter((a) => a.category === "currencies").length).toBeGreaterThanOrEqual(8);
    expect(new Set(ds.catalog.map((a) => a.market))).toEqual(new Set(["competitive", "sole", "reference"]));
    expect(ds.registry.length).toBeGreaterThanOrEqual(12);
    const out = path.join(data, "public");
    const { site } = await runBuild({ dataDir: data, outDir: out, nowMs: NOW });
    expect(Object.keys(site.report.rejectedByReason).sort()).toEqual([
      "crossed",
      "implausible-sell",
      "unlicensed-seller",
    ]);
    const feed = Feed.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")));
    expect(feed._about).toContain("SIMULATED");
    const usd = feed.assets.find((a) => a.id === "USD-EGP")!;
    expect(usd.benchmark!.sell!).toBeGreaterThan(40);
    expect(usd.benchmark!.sell!).toBeLessThan(60);
    const spread = (usd.directions.sell.best!.value! - usd.directions.buy.best!.value!) / usd.benchmark!.sell!;
    expect(spread).toBeLessThan(0.01); // bank spreads of a few tenths of a percent
    const g24 = feed.assets.find((a) => a.id === "XAU24K-EGP")!.global!.value!;
    const g21 = feed.assets.find((a) => a.id === "XAU21K-EGP")!.global!.value!;
    expect(g21 / g24).toBeCloseTo(0.875 / 0.999, 2); // gold follows the global price times purity
    expect(new Set(feed.assets.map((a) => a.confidence.level)).size).toBeGreaterThan(1);
    // Currencies trade Sunday to Thursday: no series entry on a Friday or a Saturday, none invented.
    for (const a of feed.assets.filter((x) => x.category === "currencies"))
      for (const e of a.series)
        expect([5, 6], `${a.id} ${e.date}`).not.toContain(new Date(`${e.date}T12:00:00Z`).getUTCDay());
  });

  test("observations are hourly and inside trading sessions only", async () => {
    const data = await tempDir();
    await writeSample({ ...cfg, days: 3, out: data, compact: false });
    const ds = await loadFull(data);
    for (const day of ds.quoteDays)
      for (const { quote } of day.read().quotes) {
        const local = new Date(Date.parse(quote.observedAt) + 2 * 3_600_000);
        const hour = local.getUTCHours();
        expect(local.getUTCMinutes()).toBe(0);
        const metal = quote.asset.startsWith("XAU") || quote.asset.startsWith("GOLD");
        expect(hour >= (metal ? 10 : 9) && hour < (metal ? 22 : 17), `${quote.asset} at ${quote.observedAt}`).toBe(
          true,
        );
      }
  });
});
