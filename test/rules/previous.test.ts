/**
 * docs/methodology.md §5.4, change since the previous close, rule by rule: which day is D_prev (gaps,
 * the 7-day limit, today's own entry), a direction's `previous` (null sides, rounding of the change
 * and its percentage), a seller row's `previous` (sellers absent on D_prev, sides it did not quote),
 * and the reference asset (always null), through the whole build.
 */
import { describe, expect, test } from "vitest";
import { addDays, parseInstant } from "../../src/core/cairo.js";
import { directionPrevious, previousEntry, sellerPrevious } from "../../src/rules/previous.js";
import { buildAssets } from "../../src/feed/assets.js";
import type { SeriesEntry } from "../../src/schema/outputs.js";
import type { Quote } from "../../src/schema/inputs.js";
import { loadForBuild } from "../../src/io/load-build.js";
import { readBuffer } from "../../src/io/day-files.js";
import { runCompact } from "../../src/jobs/compact.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";

const ASOF = "2026-11-19";
const entry = (daysBefore: number, over: Partial<SeriesEntry> = {}): SeriesEntry => ({
  date: addDays(ASOF, -daysBefore),
  buyLo: 10,
  buyHi: 11,
  sellLo: 12,
  sellHi: 13,
  bench: null,
  ...over,
});

describe("D_prev: the latest day before asOf with an entry, at most CHANGE_MAX_GAP_DAYS (7) before it", () => {
  test.each([
    { name: "yesterday", days: [3, 1, 0], prev: 1 },
    { name: "a gap of a weekend: three days back", days: [5, 3, 0], prev: 3 },
    { name: "exactly 7 days back", days: [9, 7, 0], prev: 7 },
    { name: "8 days back: none, even with older entries", days: [20, 8, 0], prev: null },
    { name: "no entry today: still the latest strictly before asOf", days: [4, 2], prev: 2 },
    { name: "only today's entry", days: [0], prev: null },
    { name: "no entries at all", days: [], prev: null },
  ])("$name", ({ days, prev }) => {
    const got = previousEntry(
      days.map((d) => entry(d)),
      ASOF,
    );
    expect(got?.date ?? null).toBe(prev === null ? null : addDays(ASOF, -prev));
  });

  test("an entry after asOf (a build at an earlier --now) is never D_prev", () => {
    expect(previousEntry([entry(2), entry(0), entry(-1)], ASOF)?.date).toBe(addDays(ASOF, -2));
  });
});

describe("a direction's previous: D_prev's best on the side and the change from it", () => {
  test.each([
    // sell's best is sellLo, buy's is buyHi
    { side: "sell", v: 47.88, prev: { sellLo: 47.91 }, want: { value: 47.91, change: -0.03, changePct: -0.06 } },
    { side: "buy", v: 47.9, prev: { buyHi: 47.87 }, want: { value: 47.87, change: 0.03, changePct: 0.06 } },
    // the change is rounded to the asset's decimals, half away from zero, from the unrounded difference
    { side: "sell", v: 10.005, prev: { sellLo: 10 }, decimals: 2, want: { value: 10, change: 0.01, changePct: 0.05 } },
    { side: "sell", v: 5913, prev: { sellLo: 5915 }, decimals: 0, want: { value: 5915, change: -2, changePct: -0.03 } },
    // no change is 0, never -0
    { side: "buy", v: 11, prev: { buyHi: 11 }, want: { value: 11, change: 0, changePct: 0 } },
    // a null side on either day: null
    { side: "sell", v: null, prev: { sellLo: 12 }, want: null },
    { side: "sell", v: 12, prev: { sellLo: null }, want: null },
    { side: "buy", v: 12, prev: { buyHi: null }, want: null },
  ] as const)("$side today $v against $prev → $want", ({ side, v, prev, want, ...rest }) => {
    const decimals = "decimals" in rest ? rest.decimals : 2;
    const p = entry(1, prev);
    const got = directionPrevious(p, side, v, decimals);
    expect(got).toEqual(want === null ? null : { date: p.date, ...want });
    if (got) expect(Object.is(got.change, -0)).toBe(false);
  });

  test("no D_prev: null", () => {
    expect(directionPrevious(null, "sell", 12, 2)).toBeNull();
  });
});

describe("a seller row's previous: its own close on D_prev", () => {
  const close = (seller: string, buy: number | null, sell: number | null) => ({
    seller,
    source: "s",
    buy,
    sell,
    observedAt: `${ASOF}T10:00:00Z`,
  });
  const of = sellerPrevious([close("a", 10, 11), close("b", null, 12)]);
  test.each([
    { seller: "a", want: { buy: 10, sell: 11 } },
    { seller: "b", want: { buy: null, sell: 12 } },
    { seller: "c", want: null },
  ])("$seller → $want", ({ seller, want }) => expect(of(seller)).toEqual(want));
  test("no D_prev: every row's previous is null", () => expect(sellerPrevious(null)("a")).toBeNull());
});

describe("through the build: sellers absent on D_prev, compacted days, reference assets", () => {
  const NOW = "2026-11-19T12:30:00Z"; // a Thursday; Cairo is UTC+2
  const today = "2026-11-19";
  const nowMs = parseInstant(NOW)!;
  const usd = (seller: string, buy: number, sell: number, date: string): Quote => ({
    source: "s1",
    seller,
    asset: "USD-EGP",
    buy,
    sell,
    observedAt: `${date}T08:00:00Z`,
  });
  const official = (date: string) => ({
    source: "cbe",
    asset: "USD-EGP",
    buy: 49.9,
    sell: 50,
    observedAt: `${date}T07:00:00Z`,
  });
  async function feedOf(quotes: Quote[], compact = false) {
    const dates = [...new Set(quotes.map((x) => x.observedAt.slice(0, 10)))];
    const dir = await writeDataset(await tempDir(), { quotes, official: dates.map(official), global: [] });
    if (compact) await runCompact(dir, nowMs);
    const ds = await loadForBuild(dir, nowMs, readBuffer());
    return buildAssets(ds, nowMs).assets;
  }

  test("each row against its own close; a seller new today has previous null; best against yesterday's best", async () => {
    const y = addDays(today, -1);
    const assets = await feedOf([
      usd("alpha", 49.5, 49.9, y),
      usd("beta", 49.6, 49.8, y),
      usd("alpha", 49.7, 49.95, today),
      usd("gamma", 49.65, 49.85, today),
    ]);
    const a = assets.find((x) => x.id === "USD-EGP")!;
    expect(Object.fromEntries(a.sellers.map((r) => [r.id, r.previous]))).toEqual({
      alpha: { buy: 49.5, sell: 49.9 },
      gamma: null,
    });
    expect(a.directions.sell.previous).toEqual({ date: y, value: 49.8, change: 0.05, changePct: 0.1 });
    expect(a.directions.buy.previous).toEqual({ date: y, value: 49.6, change: 0.1, changePct: 0.2 });
  });

  test("D_prev and asOf both compacted into history/: the same previous as from raw days", async () => {
    // Ten and nine days back: past raw retention, so compact turns both into history days.
    const [d1, d2] = [addDays(today, -10), addDays(today, -9)];
    const quotes = [usd("alpha", 49.5, 49.9, d1), usd("beta", 49.6, 49.8, d1), usd("alpha", 49.7, 49.95, d2)];
    const raw = (await feedOf(quotes)).find((x) => x.id === "USD-EGP")!;
    const compacted = (await feedOf(quotes, true)).find((x) => x.id === "USD-EGP")!;
    expect(raw.asOf).toBe(d2);
    expect(raw.sellers.map((r) => r.previous)).toEqual([{ buy: 49.5, sell: 49.9 }]);
    expect(raw.directions.sell.previous).toEqual({ date: d1, value: 49.8, change: 0.15, changePct: 0.3 });
    expect(compacted.directions).toEqual(raw.directions);
    expect(compacted.sellers).toEqual(raw.sellers);
  });

  test("no entry within 7 days before asOf: previous is null on both sides and on every row", async () => {
    const a = (await feedOf([usd("alpha", 49.5, 49.9, addDays(today, -8)), usd("alpha", 49.7, 49.95, today)])).find(
      (x) => x.id === "USD-EGP",
    )!;
    expect(a.directions.sell.previous).toBeNull();
    expect(a.directions.buy.previous).toBeNull();
    expect(a.sellers.map((r) => r.previous)).toEqual([null]);
  });

  test("a reference asset's previous is always null", async () => {
    const y = addDays(today, -1);
    const assets = await feedOf([usd("alpha", 49.5, 49.9, y), usd("alpha", 49.7, 49.95, today)]);
    const refs = assets.filter((x) => x.market === "reference");
    expect(refs.length).toBeGreaterThan(0);
    for (const a of refs) expect([a.directions.sell.previous, a.directions.buy.previous]).toEqual([null, null]);
  });
});
