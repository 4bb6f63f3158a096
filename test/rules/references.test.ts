/**
 * Official and global reference rates per asset and Cairo date (src/rules/references.ts dailyRefs,
 * docs/methodology.md §9): the day's latest accepted observation, rounded to the asset's decimals,
 * with the day's low and high and every source seen; bad rows become issues, rows not yet observed
 * at the build instant are left out. Day files come in date order, and dailyRefs keeps each asset's
 * days in a list for that case: a property test holds it to a plain map of days by date on rows in
 * any order.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dailyRefs, refInForce, type DayRef, type RefIssue } from "../../src/rules/references.js";
import { cairoDate, parseInstant } from "../../src/core/cairo.js";
import { roundHalfAway } from "../../src/core/round.js";
import { CLOCK_SKEW_MS, REFERENCE_MAX_AGE_DAYS } from "../../src/core/methodology.js";
import type { Located } from "../../src/core/dataset.js";
import type { CatalogAsset, GlobalRate, OfficialRate } from "../../src/schema/inputs.js";
import { catalog } from "../helpers/dataset.js";

const usd: CatalogAsset = catalog.find((a) => a.id === "USD-EGP")!;
const assets = new Map([[usd.id, usd]]);
const NOW = Date.parse("2026-11-19T12:00:00Z");

type Row = OfficialRate | GlobalRate;
const official = (observedAt: string, buy: number | null, sell: number | null, source = "cbe"): OfficialRate => ({
  source,
  asset: "USD-EGP",
  buy,
  sell,
  observedAt,
});
const global = (observedAt: string, value: number, source = "mid"): GlobalRate => ({
  source,
  asset: "USD-EGP",
  value,
  observedAt,
});
const located = (rows: Row[]): Located<Row>[] => rows.map((value, i) => ({ value, file: "f.ndjson", line: i + 1 }));

function refs(rows: Row[], nowMs = NOW) {
  const issues: RefIssue[] = [];
  const days = dailyRefs(located(rows), assets, nowMs, issues).get("USD-EGP") ?? [];
  return { days, issues };
}

describe("a day's reference (§9)", () => {
  test.each([
    {
      name: "the day's latest observation is its rate, whatever the order of the lines",
      rows: [official("2026-11-18T09:00:00Z", 47.1, 47.2), official("2026-11-18T07:00:00Z", 47.0, 47.1)],
      want: { date: "2026-11-18", buy: 47.1, sell: 47.2, value: 47.15 },
    },
    {
      name: "on equal instants the first line read stays",
      rows: [official("2026-11-18T07:00:00Z", 47.0, 47.1, "a"), official("2026-11-18T07:00:00Z", 47.5, 47.6, "b")],
      want: { buy: 47.0, sell: 47.1, sources: ["a", "b"] },
    },
    {
      name: "the mid of an exact half is rounded away from zero, not as binary arithmetic leaves it",
      rows: [official("2026-11-18T07:00:00Z", 55.8, 55.93)],
      want: { buy: 55.8, sell: 55.93, value: 55.87 },
    },
    {
      name: "prices are rounded to the asset's decimals, the mid from the rounded prices",
      rows: [official("2026-11-18T07:00:00Z", 47.005, 47.114)],
      want: { buy: roundHalfAway(47.005, 2), sell: 47.11, value: 47.06 },
    },
    {
      name: "one side only: no mid value",
      rows: [official("2026-11-18T07:00:00Z", null, 47.2)],
      want: { buy: null, sell: 47.2, value: null, lo: null, hi: null },
    },
    {
      name: "the day's low and high over every observation's value",
      rows: [
        global("2026-11-18T07:00:00Z", 47.3),
        global("2026-11-18T15:00:00Z", 47.1),
        global("2026-11-18T11:00:00Z", 47.6),
      ],
      want: { value: 47.1, lo: 47.1, hi: 47.6, buy: null, sell: null },
    },
    {
      name: "the Cairo date, not the UTC one (23:30 UTC is the next day in Cairo)",
      rows: [global("2026-11-17T23:30:00Z", 47.3)],
      want: { date: "2026-11-18" },
    },
    {
      name: "every source seen that day, sorted",
      rows: [
        global("2026-11-18T07:00:00Z", 47.3, "z"),
        global("2026-11-18T08:00:00Z", 47.3, "a"),
        global("2026-11-18T09:00:00Z", 47.3, "z"),
      ],
      want: { sources: ["a", "z"] },
    },
  ])("$name", ({ rows, want }) => {
    const { days, issues } = refs(rows);
    expect(issues).toEqual([]);
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject(want);
  });

  test.each([
    {
      name: "an unknown asset",
      row: { ...global("2026-11-18T07:00:00Z", 47), asset: "XXX-EGP" },
      reason: "unknown-asset",
    },
    { name: "an instant that is not one", row: global("2026-11-31T07:00:00Z", 47), reason: "invalid-observedAt" },
    { name: "a zero global value", row: global("2026-11-18T07:00:00Z", 0), reason: "non-positive-price" },
    {
      name: "an official rate with neither side",
      row: official("2026-11-18T07:00:00Z", null, null),
      reason: "non-positive-price",
    },
    { name: "a negative official side", row: official("2026-11-18T07:00:00Z", -1, 47), reason: "non-positive-price" },
    { name: "an official buy above its sell", row: official("2026-11-18T07:00:00Z", 47.3, 47.2), reason: "crossed" },
  ])("$name is an issue (file, line, reason), not a day", ({ row, reason }) => {
    const { days, issues } = refs([global("2026-11-18T06:00:00Z", 46), row as Row]);
    expect(days).toHaveLength(1);
    // An unknown asset is named: the build refuses it (test/feed/archive-retired.test.ts).
    const asset = reason === "unknown-asset" ? { asset: row.asset } : {};
    expect(issues).toEqual([{ file: "f.ndjson", line: 2, reason, ...asset }]);
  });

  test("a row not yet observed at the build instant (beyond the clock skew) is left out, without an issue", () => {
    const later = new Date(NOW + CLOCK_SKEW_MS + 1000).toISOString();
    const within = new Date(NOW + CLOCK_SKEW_MS).toISOString();
    const { days, issues } = refs([global(within, 47), global(later, 48)]);
    expect(issues).toEqual([]);
    expect(days.map((d) => d.value)).toEqual([47]);
  });

  test("days come out in date order, also when a file holds rows of earlier days", () => {
    const { days } = refs([
      global("2026-11-16T07:00:00Z", 46),
      global("2026-11-18T07:00:00Z", 48),
      global("2026-11-17T07:00:00Z", 47), // a day before the last one, not seen yet
      global("2026-11-18T09:00:00Z", 48.2), // the latest day again, now that the last added is not it
      global("2026-11-16T09:00:00Z", 46.5), // a day seen two days back
      global("2026-11-19T07:00:00Z", 49),
      global("2026-11-17T05:00:00Z", 46.9),
    ]);
    expect(days.map((d) => [d.date, d.value, d.lo, d.hi])).toEqual([
      ["2026-11-16", 46.5, 46, 46.5],
      ["2026-11-17", 47, 46.9, 47],
      ["2026-11-18", 48.2, 48, 48.2],
      ["2026-11-19", 49, 49, 49],
    ]);
  });

  test("days with the same sources share one frozen list, in any order read", () => {
    const { days } = refs([
      global("2026-11-16T07:00:00Z", 46, "z"),
      global("2026-11-16T08:00:00Z", 46, "a"),
      global("2026-11-17T07:00:00Z", 47, "a"),
      global("2026-11-17T08:00:00Z", 47, "z"),
      global("2026-11-18T07:00:00Z", 48, "a"),
    ]);
    expect(days.map((d) => d.sources)).toEqual([["a", "z"], ["a", "z"], ["a"]]);
    expect(days[0]!.sources).toBe(days[1]!.sources);
    expect(Object.isFrozen(days[0]!.sources)).toBe(true);
    expect(Object.isFrozen(days[2]!.sources)).toBe(true);
  });
});

describe("the rate in force on a date (§9)", () => {
  const day = (date: string, value: number): DayRef => ({
    date,
    buy: null,
    sell: null,
    value,
    lo: value,
    hi: value,
    observedAtMs: 0,
    sources: ["s"],
  });
  const days = [day("2026-11-05", 45), day("2026-11-12", 46), day("2026-11-13", 47)];
  test.each([
    { name: "the date's own rate", date: "2026-11-13", want: 47 },
    { name: "a Friday uses Thursday's rate", date: "2026-11-14", want: 47 },
    { name: `still in force ${REFERENCE_MAX_AGE_DAYS} days on`, date: "2026-11-20", want: 47 },
    { name: `no rate ${REFERENCE_MAX_AGE_DAYS + 1} days on`, date: "2026-11-21", want: null },
    { name: "the most recent earlier date, not an older one", date: "2026-11-12", want: 46 },
    { name: "before the first rate: none", date: "2026-11-04", want: null },
    { name: "six days on with no newer rate: the old one", date: "2026-11-11", want: 45 },
  ])("$name", ({ date, want }) => {
    expect(refInForce(days, date)?.value ?? null).toBe(want);
  });
  test("an asset without references has no rate in force", () => {
    expect(refInForce(undefined, "2026-11-13")).toBeNull();
  });
});

/** The same rule as one map of days by date per asset, sorted at the end: the model of dailyRefs. */
function model(rows: Row[], nowMs: number): DayRef[] {
  const days = new Map<string, DayRef & { sources: string[] }>();
  for (const r of rows) {
    const ms = parseInstant(r.observedAt)!;
    if (ms > nowMs + CLOCK_SKEW_MS) continue;
    const date = cairoDate(ms);
    if (date > cairoDate(nowMs)) continue;
    const isGlobal = "value" in r;
    const buy = isGlobal || r.buy === null ? null : roundHalfAway(r.buy, 2);
    const sell = isGlobal || r.sell === null ? null : roundHalfAway(r.sell, 2);
    const value = isGlobal
      ? roundHalfAway(r.value, 2)
      : buy !== null && sell !== null
        ? Math.floor((Math.round(buy * 100) + Math.round(sell * 100) + 1) / 2) / 100 // in piastres: exact
        : null;
    const cur = days.get(date);
    if (!cur) {
      days.set(date, { date, buy, sell, value, lo: value, hi: value, observedAtMs: ms, sources: [r.source] });
      continue;
    }
    if (!cur.sources.includes(r.source)) cur.sources.push(r.source);
    if (value !== null) {
      cur.lo = cur.lo === null ? value : Math.min(cur.lo, value);
      cur.hi = cur.hi === null ? value : Math.max(cur.hi, value);
    }
    if (ms > cur.observedAtMs) Object.assign(cur, { buy, sell, value, observedAtMs: ms });
  }
  const list = [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  for (const d of list) d.sources.sort();
  return list;
}

describe("dailyRefs against a plain map of days", () => {
  const instant = fc
    .record({
      day: fc.integer({ min: 10, max: 20 }),
      hour: fc.integer({ min: 0, max: 23 }),
      min: fc.constantFrom(0, 30),
    })
    .map(({ day, hour, min }) => `2026-11-${day}T${String(hour).padStart(2, "0")}:${String(min).padStart(2, "0")}:00Z`);
  const price = fc.integer({ min: 4600, max: 4900 }).map((n) => n / 100 + 0.001);
  const row: fc.Arbitrary<Row> = fc.oneof(
    fc
      .record({ at: instant, value: price, source: fc.constantFrom("m1", "m2") })
      .map((r) => global(r.at, r.value, r.source)),
    fc
      .record({
        at: instant,
        mid: price,
        spread: fc.integer({ min: 0, max: 20 }),
        source: fc.constantFrom("c1", "c2"),
        side: fc.constantFrom("both", "buy", "sell"),
      })
      .map((r) =>
        official(r.at, r.side === "sell" ? null : r.mid, r.side === "buy" ? null : r.mid + r.spread / 100, r.source),
      ),
  );

  test("the same days on rows in file order, nearly in order, or in any order", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 80 }), fc.constantFrom("sorted", "as drawn"), (rows, order) => {
        const input = order === "sorted" ? [...rows].sort((a, b) => (a.observedAt < b.observedAt ? -1 : 1)) : rows;
        expect(refs(input).days).toEqual(model(input, NOW));
      }),
      { numRuns: 500, seed: 20261122 },
    );
  });
});
