/**
 * docs/methodology.md §5.5, the archive, rule by rule: a day's entry (the series entry's values,
 * who gave each side's best and how ties go, the day's own references and none carried over, the
 * seller count), a reference asset's days, the CSV (RFC 4180), and the archive's last 30 entries
 * equal to the feed's series on the sample data.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { closeFacts, referenceEntry, referencePrices, sellerEntry } from "../../src/rules/archive.js";
import { csvField, historyCsv, CSV_HEADER } from "../../src/feed/archive/csv.js";
import { weekdayName } from "../../src/feed/archive/compose.js";
import type { DayRef } from "../../src/rules/references.js";
import type { DayClose } from "../../src/schema/inputs.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { History } from "../../src/schema/archive.js";
import { catalog, registry } from "../helpers/dataset.js";
import { builtSample } from "../helpers/site.js";

const USD = catalog.find((a) => a.id === "USD-EGP")!;
const sellers = new Map(registry.map((s) => [s.id, s]));
const close = (rows: Array<[string, number | null, number | null, string?]>): DayClose => ({
  date: "2026-11-18",
  asset: "USD-EGP",
  closes: rows.map(([seller, buy, sell, at]) => ({
    seller,
    source: "s1",
    sources: ["s1"],
    buy,
    sell,
    observedAt: at ?? "2026-11-18T10:00:00.000Z",
  })),
  sources: ["s1"],
  disagreements: [],
  observedAt: "2026-11-18T10:00:00.000Z",
});
const ref = (over: Partial<DayRef> = {}): DayRef => ({
  date: "2026-11-18",
  buy: 47.5,
  sell: 47.6,
  value: 47.55,
  lo: 47.55,
  hi: 47.55,
  observedAtMs: 0,
  sources: ["cbe"],
  ...over,
});

describe("a seller asset's day: the series entry and who gave each side's best", () => {
  test.each([
    {
      name: "the lowest sell and the highest buy, by different sellers",
      rows: [
        ["alpha", 47.5, 47.7],
        ["beta", 47.6, 47.8],
      ] as const,
      want: { sellLo: 47.7, sellHi: 47.8, buyLo: 47.5, buyHi: 47.6, bestSell: "alpha", bestBuy: "beta", count: 2 },
    },
    {
      name: "a tie on sell goes to the more recent quote",
      rows: [
        ["alpha", 47.5, 47.7, "2026-11-18T09:00:00.000Z"],
        ["beta", 47.5, 47.7, "2026-11-18T11:00:00.000Z"],
      ] as const,
      want: { sellLo: 47.7, sellHi: 47.7, buyLo: 47.5, buyHi: 47.5, bestSell: "beta", bestBuy: "beta", count: 2 },
    },
    {
      name: "a tie at the same instant goes to the name (Alpha Bank before Beta Bank)",
      rows: [
        ["beta", 47.5, 47.7],
        ["alpha", 47.5, 47.7],
      ] as const,
      want: { sellLo: 47.7, sellHi: 47.7, buyLo: 47.5, buyHi: 47.5, bestSell: "alpha", bestBuy: "alpha", count: 2 },
    },
    {
      name: "a side nobody quoted: null, and no best seller for it",
      rows: [
        ["alpha", null, 47.7],
        ["beta", null, 47.8],
      ] as const,
      want: { sellLo: 47.7, sellHi: 47.8, buyLo: null, buyHi: null, bestSell: "alpha", bestBuy: null, count: 2 },
    },
    {
      name: "one seller: it gives both bests; the count is 1",
      rows: [["gamma", 47.4, 47.9]] as const,
      want: { sellLo: 47.9, sellHi: 47.9, buyLo: 47.4, buyHi: 47.4, bestSell: "gamma", bestBuy: "gamma", count: 1 },
    },
  ])("$name", ({ rows, want }) => {
    const { facts, table } = closeFacts(close(rows.map((r) => [...r])), USD, sellers);
    expect(facts).toEqual({
      asset: "USD-EGP",
      range: { buyLo: want.buyLo, buyHi: want.buyHi, sellLo: want.sellLo, sellHi: want.sellHi },
      bestSell: want.bestSell,
      bestBuy: want.bestBuy,
      sellerCount: want.count,
    });
    // The day's table: the feed's rows without previous, best first on the asset's default side (sell).
    expect(table.map((r) => r.sell)).toEqual([...table.map((r) => r.sell)].sort((a, b) => (a ?? 1e9) - (b ?? 1e9)));
    expect(table.every((r) => !("previous" in r))).toBe(true);
    const e = sellerEntry("2026-11-18", facts, { official: ref(), global: ref({ value: 47.58 }) }, sellers);
    expect(e.bestSell?.id ?? null).toBe(want.bestSell);
    expect(e.bestBuy?.id ?? null).toBe(want.bestBuy);
    if (e.bestSell) expect(e.bestSell.seller).toBe(sellers.get(e.bestSell.id)!.name);
  });

  test.each([
    {
      name: "both references that day",
      official: ref(),
      global: ref({ value: 47.58 }),
      want: { bench: 47.55, official: { buy: 47.5, sell: 47.6 }, global: 47.58 },
    },
    {
      name: "no official rate that day: bench and official null",
      official: undefined,
      global: ref({ value: 47.58 }),
      want: { bench: null, official: null, global: 47.58 },
    },
    {
      name: "no global reference that day: global null",
      official: ref(),
      global: undefined,
      want: { bench: 47.55, official: { buy: 47.5, sell: 47.6 }, global: null },
    },
    {
      name: "an official rate with one side only",
      official: ref({ buy: null, value: null }),
      global: undefined,
      want: { bench: null, official: { buy: null, sell: 47.6 }, global: null },
    },
  ])("the day's own references: $name", ({ official, global, want }) => {
    const { facts } = closeFacts(close([["alpha", 47.5, 47.7]]), USD, sellers);
    const e = sellerEntry("2026-11-18", facts, { official, global }, sellers);
    expect({ bench: e.bench, official: e.official, global: e.global }).toEqual(want);
  });

  test("a seller the registry no longer knows is named by its id", () => {
    const { facts } = closeFacts(close([["ghost", 47.5, 47.7]]), USD, sellers);
    expect(sellerEntry("2026-11-18", facts, { official: undefined, global: undefined }, sellers).bestSell).toEqual({
      id: "ghost",
      seller: "ghost",
      sellerAr: null,
    });
  });
});

describe("a reference asset's days: its price's, no sellers", () => {
  test.each([
    {
      name: "global and official: the global value",
      official: [ref()],
      global: [ref({ value: 47.58, lo: 47.5, hi: 47.6 })],
      want: { lo: 47.5, hi: 47.6 },
    },
    { name: "official only: the official mid", official: [ref()], global: [], want: { lo: 47.55, hi: 47.55 } },
    {
      name: "a global row without a value: the official mid",
      official: [ref()],
      global: [ref({ value: null, lo: null, hi: null })],
      want: { lo: 47.55, hi: 47.55 },
    },
  ])("$name", ({ official, global, want }) => {
    const [priced] = referencePrices(official, global);
    const e = referenceEntry(priced!, { official: official[0], global: global[0] });
    expect(e).toMatchObject({
      buyLo: want.lo,
      sellLo: want.lo,
      buyHi: want.hi,
      sellHi: want.hi,
      bestSell: null,
      bestBuy: null,
      sellerCount: 0,
    });
  });

  test("a day with no reference price has no entry", () => {
    expect(referencePrices([], [])).toEqual([]);
    expect(referencePrices([ref({ buy: null, sell: 47.6, value: null })], [])).toEqual([]);
  });
});

describe("the CSV: RFC 4180", () => {
  test.each([
    { v: null, want: "" },
    { v: 47.5, want: "47.5" },
    { v: "Alpha Bank", want: "Alpha Bank" },
    { v: "Bank, Ltd", want: '"Bank, Ltd"' },
    { v: 'The "Best" Bank', want: '"The ""Best"" Bank"' },
    { v: "two\r\nlines", want: '"two\r\nlines"' },
  ])("a field $v", ({ v, want }) => expect(csvField(v)).toBe(want));

  test("one header line, CRLF after every line, empty cells for null", () => {
    const { facts } = closeFacts(close([["alpha", null, 47.7]]), USD, sellers);
    const csv = historyCsv([sellerEntry("2026-11-18", facts, { official: undefined, global: undefined }, sellers)]);
    expect(csv).toBe(`${CSV_HEADER}\r\n2026-11-18,,,47.7,47.7,,alpha,Alpha Bank,بنك ألفا,,,,,,,1\r\n`);
    expect(CSV_HEADER.split(",")).toHaveLength(16);
  });

  test("the weekday is the calendar date's", () => {
    expect(["2026-11-19", "2026-11-20", "2026-11-21", "2026-02-28"].map(weekdayName)).toEqual([
      "Thursday",
      "Friday",
      "Saturday",
      "Saturday",
    ]);
  });
});

describe("the archive on the sample data (data/)", () => {
  test("every asset's last 30 entries are its feed series, value for value; every day's file lists it", async () => {
    const out = await builtSample("pf-archive-");
    const read = async <T>(f: string) => JSON.parse(await fs.readFile(path.join(out, f), "utf8")) as T;
    const feed = await read<Feed>("api/v1/feed.json");
    const days = await read<{ days: Array<{ date: string; assets: number }> }>("api/v1/days.json");
    const perDay = new Map<string, number>();
    for (const a of feed.assets) {
      const h = await read<History>(`api/v1/history/${a.slug}.json`);
      const series = h.entries
        .slice(-30)
        .map(({ date, buyLo, buyHi, sellLo, sellHi, bench }) => ({ date, buyLo, buyHi, sellLo, sellHi, bench }));
      expect(series, a.slug).toEqual(a.series);
      expect(h.entries.length, a.slug).toBeGreaterThan(30);
      expect(h.entries.map((e) => e.date)).toEqual([...h.entries.map((e) => e.date)].sort());
      for (const e of h.entries) perDay.set(e.date, (perDay.get(e.date) ?? 0) + 1);
      // The CSV has the same days.
      const csv = await fs.readFile(path.join(out, `api/v1/history/${a.slug}.csv`), "utf8");
      expect(
        csv
          .split("\r\n")
          .slice(1, -1)
          .map((l) => l.slice(0, 10)),
      ).toEqual(h.entries.map((e) => e.date));
    }
    expect(days.days.map((d) => [d.date, d.assets])).toEqual([...perDay].sort());
  });
});
