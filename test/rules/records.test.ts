/**
 * docs/methodology.md §13, seller records, on small archives worked out by hand (the arithmetic in
 * the comments), then the closed days' records plus today's (src/rules/records-part.ts, what an
 * hourly build uses) held to the direct computation on random archives.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { assetRecords, recordWindow, windowDays, type RecordDay, type RecordWindow } from "../../src/rules/records.js";
import { ClosedDays, medianWith, middleOf, recordsWithToday } from "../../src/rules/records-part.js";

/** A day of the archive: each quote [seller, sell, buy]; sellLo/buyHi and the best sellers as the archive gives them. */
function day(
  date: string,
  quotes: Array<[string, number | null, number | null]>,
  best: { sell: string | null; buy: string | null },
): RecordDay {
  const sells = quotes.map((q) => q[1]).filter((v): v is number => v !== null);
  const buys = quotes.map((q) => q[2]).filter((v): v is number => v !== null);
  return {
    date,
    sellLo: sells.length ? Math.min(...sells) : null,
    buyHi: buys.length ? Math.max(...buys) : null,
    bestSell: best.sell,
    bestBuy: best.buy,
    quotes: quotes.map(([seller, sell, buy]) => ({ seller, sell, buy })),
  };
}

// Day 1: sellLo 100.00 (B), buyHi 99.50 (A).
const D1 = day(
  "2026-11-01",
  [
    ["a", 100.5, 99.5],
    ["b", 100, 99],
    ["c", 101, null],
  ],
  { sell: "b", buy: "a" },
);
// Day 2: sellLo 100.00 (A), buyHi 99.75 (A).
const D2 = day(
  "2026-11-02",
  [
    ["a", 100, 99.75],
    ["b", 100.25, 99.25],
  ],
  { sell: "a", buy: "a" },
);
// Day 3: sellLo 199.00 (C), buyHi 198.00 (B).
const D3 = day(
  "2026-11-03",
  [
    ["b", 200, 198],
    ["c", 199, 197],
  ],
  { sell: "c", buy: "b" },
);
// Day 4: A and C both ask 199.00; the archive settled the tie for C (§5.5): A's gap is 0, yet not a best day.
const D4 = day(
  "2026-11-04",
  [
    ["a", 199, null],
    ["c", 199, 198],
  ],
  { sell: "c", buy: "c" },
);

const w = (
  days: number,
  from: string | null,
  to: string | null,
  rest: Omit<RecordWindow, "days" | "from" | "to">,
): RecordWindow => ({ days, from, to, ...rest });

describe("one seller over a window (§13), by hand", () => {
  const cases: Array<{ name: string; days: RecordDay[]; seller: string; want: RecordWindow }> = [
    {
      // A: day 1 sell gap (100.50 − 100.00) / 100.00 × 100 = 0.5, day 2: 0 → median (0.5 + 0) / 2 = 0.25.
      // buy gap: day 1 (99.50 − 99.50) / 99.50 = 0, day 2 0 → 0. spread: day 1 (100.50 − 99.50) / 100.00 × 100 = 1,
      // day 2 (100 − 99.75) / 99.875 × 100 = 0.25031… → median (1 + 0.25031) / 2 = 0.62516 → 0.63.
      // Best sell on day 2 only; best buy on days 1 and 2.
      name: "a seller absent on one day of three",
      days: [D1, D2, D3],
      seller: "a",
      want: w(3, "2026-11-01", "2026-11-03", {
        daysQuoted: 2,
        daysBest: { sell: 1, buy: 2 },
        medianGapPct: { sell: 0.25, buy: 0 },
        medianSpreadPct: 0.63,
        lastQuoted: "2026-11-02",
      }),
    },
    {
      // B: sell gaps 0, (100.25 − 100) / 100 × 100 = 0.25, (200 − 199) / 199 × 100 = 0.50251 → median 0.25.
      // buy gaps (99.50 − 99) / 99.50 × 100 = 0.50251, (99.75 − 99.25) / 99.75 × 100 = 0.50125, 0 → 0.50125 → 0.5.
      // spreads 1 / 99.5 × 100 = 1.00503, 1 / 99.75 × 100 = 1.00251, 2 / 199 × 100 = 1.00503 → 1.00503 → 1.01.
      name: "a seller on every day",
      days: [D1, D2, D3],
      seller: "b",
      want: w(3, "2026-11-01", "2026-11-03", {
        daysQuoted: 3,
        daysBest: { sell: 1, buy: 1 },
        medianGapPct: { sell: 0.25, buy: 0.5 },
        medianSpreadPct: 1.01,
        lastQuoted: "2026-11-03",
      }),
    },
    {
      // C: sell gaps (101 − 100) / 100 × 100 = 1 and 0 → 0.5; one buy, day 3: (198 − 197) / 198 × 100 = 0.50505 → 0.51;
      // one spread, day 3: 2 / 198 × 100 = 1.0101 → 1.01. Day 1 quoted a sell alone: no buy gap, no spread that day.
      name: "a seller quoting one side on one day",
      days: [D1, D2, D3],
      seller: "c",
      want: w(3, "2026-11-01", "2026-11-03", {
        daysQuoted: 2,
        daysBest: { sell: 1, buy: 0 },
        medianGapPct: { sell: 0.5, buy: 0.51 },
        medianSpreadPct: 1.01,
        lastQuoted: "2026-11-03",
      }),
    },
    {
      // B over days 1–2: sell gaps 0 and 0.25 → (0 + 0.25) / 2 = 0.125, half away from zero → 0.13.
      // buy gaps 0.50251 and 0.50125 → 0.50188 → 0.5; spreads 1.00503 and 1.00251 → 1.00377 → 1.
      name: "an even count: the mean of the two middle values, rounded half away from zero",
      days: [D1, D2],
      seller: "b",
      want: w(2, "2026-11-01", "2026-11-02", {
        daysQuoted: 2,
        daysBest: { sell: 1, buy: 0 },
        medianGapPct: { sell: 0.13, buy: 0.5 },
        medianSpreadPct: 1,
        lastQuoted: "2026-11-02",
      }),
    },
    {
      // A on day 4 asks 199, as does C, whom the archive named best: gap 0, but no best day. No buy: no buy gap, no spread.
      name: "a tie on the best price counts for the seller the archive named only",
      days: [D4],
      seller: "a",
      want: w(1, "2026-11-04", "2026-11-04", {
        daysQuoted: 1,
        daysBest: { sell: 0, buy: 0 },
        medianGapPct: { sell: 0, buy: null },
        medianSpreadPct: null,
        lastQuoted: "2026-11-04",
      }),
    },
    {
      name: "a seller with no day in the window: zeros and nulls",
      days: [D3],
      seller: "a",
      want: w(1, "2026-11-03", "2026-11-03", {
        daysQuoted: 0,
        daysBest: { sell: 0, buy: 0 },
        medianGapPct: { sell: null, buy: null },
        medianSpreadPct: null,
        lastQuoted: null,
      }),
    },
    {
      name: "an empty window",
      days: [],
      seller: "a",
      want: w(0, null, null, {
        daysQuoted: 0,
        daysBest: { sell: 0, buy: 0 },
        medianGapPct: { sell: null, buy: null },
        medianSpreadPct: null,
        lastQuoted: null,
      }),
    },
  ];
  test.each(cases)("$name", ({ days, seller, want }) => {
    expect(recordWindow(days, seller)).toEqual(want);
  });
});

/** 32 archive days from 2026-10-01: Y quotes every day (and is best), X only on the first two, 1 % above Y. */
function month(): RecordDay[] {
  const out: RecordDay[] = [];
  for (let i = 0; i < 32; i++) {
    const date = new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10);
    const quotes: Array<[string, number | null, number | null]> = [["y", 100, 99]];
    if (i < 2) quotes.push(["x", 101, 98]);
    out.push(day(date, quotes, { sell: "y", buy: "y" }));
  }
  return out;
}

describe("the two windows: the last 30 and 365 archive days up to asOf (§13)", () => {
  const days = month();
  const records = assetRecords(days, "2026-11-01");

  test("every seller that quoted, in id order", () => {
    expect([...records.keys()]).toEqual(["x", "y"]);
  });

  test("the short window holds the last 30 days: X's two days fell out of it", () => {
    // Days 3 to 32: 2026-10-03 … 2026-11-01.
    expect(records.get("x")!.short).toEqual(
      w(30, "2026-10-03", "2026-11-01", {
        daysQuoted: 0,
        daysBest: { sell: 0, buy: 0 },
        medianGapPct: { sell: null, buy: null },
        medianSpreadPct: null,
        lastQuoted: null,
      }),
    );
  });

  test("the long window holds all 32 (the data is younger than 365 days)", () => {
    // X: sell gap (101 − 100) / 100 × 100 = 1 twice; buy gap (99 − 98) / 99 × 100 = 1.0101 → 1.01;
    // spread (101 − 98) / 99.5 × 100 = 3.01508 → 3.02.
    expect(records.get("x")!.long).toEqual(
      w(32, "2026-10-01", "2026-11-01", {
        daysQuoted: 2,
        daysBest: { sell: 0, buy: 0 },
        medianGapPct: { sell: 1, buy: 1.01 },
        medianSpreadPct: 3.02,
        lastQuoted: "2026-10-02",
      }),
    );
    // Y: best on both sides every day; spread 1 / 99.5 × 100 = 1.00503 → 1.01.
    expect(records.get("y")!.long).toEqual(
      w(32, "2026-10-01", "2026-11-01", {
        daysQuoted: 32,
        daysBest: { sell: 32, buy: 32 },
        medianGapPct: { sell: 0, buy: 0 },
        medianSpreadPct: 1.01,
        lastQuoted: "2026-11-01",
      }),
    );
  });

  test("days after asOf are not in any window", () => {
    expect(windowDays(days, "2026-10-05", 30).map((d) => d.date)).toEqual([
      "2026-10-01",
      "2026-10-02",
      "2026-10-03",
      "2026-10-04",
      "2026-10-05",
    ]);
    expect(assetRecords(days, "2026-10-05").get("y")!.short.daysQuoted).toBe(5);
    expect(assetRecords(days, "2026-09-30").size).toBe(0);
  });
});

describe("a median from the middle of a sorted list, with one value added", () => {
  // [1, 2, 3, 4, 5]: middle items 1..3 (2, 3, 4). Alone: 3. With 0: [0,1,2,3,4,5] → (2 + 3) / 2 = 2.5;
  // with 10: → (3 + 4) / 2 = 3.5; with 3.5: [1,2,3,3.5,4,5] → (3 + 3.5) / 2 = 3.25.
  const m = middleOf([1, 2, 3, 4, 5]);
  test.each([
    [NaN, 3],
    [0, 2.5],
    [10, 3.5],
    [3.5, 3.25],
  ])("with %d: %d", (x, want) => {
    expect(medianWith(m, x)).toBe(want);
  });
  test("of nothing: null; of nothing and one value: that value", () => {
    expect(medianWith(middleOf([]), NaN)).toBeNull();
    expect(medianWith(middleOf([]), 7)).toBe(7);
  });
  test("any list and value: the median of the whole", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 })),
        fc.option(fc.integer({ min: -60, max: 60 })),
        (xs, x) => {
          const all = x === null ? xs : [...xs, x];
          const s = [...all].sort((a, b) => a - b);
          const want = s.length === 0 ? null : (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
          expect(medianWith(middleOf([...xs].sort((a, b) => a - b)), x ?? NaN)).toBe(want);
        },
      ),
    );
  });
});

describe("the closed days' records and today's give the direct records", () => {
  const sellers = ["a", "b", "c", "d"];
  /** A random archive: up to 400 days, each seller quoting with some chance, prices on a grid of 0.25. */
  const archive = fc
    .array(
      fc.array(
        fc.tuple(
          fc.boolean(),
          fc.option(fc.integer({ min: 396, max: 404 })),
          fc.option(fc.integer({ min: 390, max: 396 })),
        ),
        {
          minLength: sellers.length,
          maxLength: sellers.length,
        },
      ),
      { minLength: 0, maxLength: 400, size: "max" },
    )
    .map((ds) =>
      ds
        .map((qs, i) => {
          const date = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
          const quotes = qs
            .map(([on, s, b], k) => [sellers[k]!, s === null ? null : s / 4, b === null ? null : b / 4, on] as const)
            .filter(([, s, b, on]) => on && (s !== null || b !== null))
            .map(([id, s, b]) => [id, s, b] as [string, number | null, number | null]);
          const bySell = quotes.filter((q) => q[1] !== null).sort((x, y) => x[1]! - y[1]!);
          const byBuy = quotes.filter((q) => q[2] !== null).sort((x, y) => y[2]! - x[2]!);
          return day(date, quotes, { sell: bySell[0]?.[0] ?? null, buy: byBuy[0]?.[0] ?? null });
        })
        .filter((d) => d.quotes.length > 0),
    );

  test("over more days than the closed days keep (twice the long window): the oldest let go, the same records", () => {
    // 800 days: A every day at 100 + (i mod 7) / 4, B on even days at 101, C only in the first 10 days.
    const days: RecordDay[] = [];
    for (let i = 0; i < 800; i++) {
      const date = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
      const quotes: Array<[string, number | null, number | null]> = [["a", 100 + (i % 7) / 4, 99]];
      if (i % 2 === 0) quotes.push(["b", 101, 99.5]);
      if (i < 10) quotes.push(["c", 100, null]);
      const best = quotes.reduce((x, y) => (y[1]! < x[1]! ? y : x));
      days.push(day(date, quotes, { sell: best[0], buy: i % 2 === 0 ? "b" : "a" }));
    }
    for (const upTo of [799, 800]) {
      const closed = new ClosedDays();
      for (const d of days.slice(0, upTo)) closed.add(d);
      const today = upTo === 799 ? days[799]! : null;
      expect(recordsWithToday(closed.part(), today)).toEqual(assetRecords(days, days[799]!.date));
    }
  });

  test("with an entry today and without one, after a round trip through JSON", () => {
    fc.assert(
      fc.property(archive, fc.boolean(), (days, hasToday) => {
        if (days.length === 0) return;
        const closed = new ClosedDays();
        const upTo = hasToday ? days.length - 1 : days.length;
        for (const d of days.slice(0, upTo)) closed.add(d);
        const kept = JSON.parse(JSON.stringify(closed.part())) as ReturnType<ClosedDays["part"]>;
        const asOf = days.at(-1)!.date;
        const today = hasToday ? days.at(-1)! : null;
        expect(recordsWithToday(kept, today)).toEqual(assetRecords(days, asOf));
      }),
      { numRuns: 60 },
    );
  });
});
