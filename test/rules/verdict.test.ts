import { describe, expect, test } from "vitest";
import {
  assessDirection,
  favorability,
  globalSignal,
  officialSignal,
  positionLean,
  trendSignal,
  verdictOf,
} from "../../src/rules/verdict.js";
import { priorBests, seriesWindow } from "../../src/rules/series.js";
import { addDays } from "../../src/core/cairo.js";
import type { SeriesEntry, Signals } from "../../src/schema/outputs.js";

const ASOF = "2026-11-19";
const prior = (values: number[], step = 1) =>
  values.map((value, i) => ({ date: addDays(ASOF, -(values.length - i) * step), value }));

describe("favorability (ties count half)", () => {
  test.each([
    { side: "sell", v: 10, p: [11, 12, 13, 14], fav: 1 },
    { side: "sell", v: 15, p: [11, 12, 13, 14], fav: 0 },
    { side: "sell", v: 12, p: [11, 12, 13, 14], fav: 0.625 },
    { side: "buy", v: 12, p: [11, 12, 13, 14], fav: 0.375 },
    { side: "buy", v: 14, p: [11, 12, 13, 14], fav: 0.875 },
    { side: "sell", v: 5, p: [5, 5, 5, 5], fav: 0.5 },
  ] as const)("$side v=$v against $p → $fav", ({ side, v, p, fav }) => {
    expect(favorability(v, p, side)).toBe(fav);
  });
});

describe("position lean thresholds", () => {
  test.each([
    [0.75, 1],
    [0.749, 0],
    [0.5, 0],
    [0.251, 0],
    [0.25, -1],
    [0, -1],
    [1, 1],
  ])("favorability %d → lean %d", (f, lean) => expect(positionLean(f)).toBe(lean));
});

describe("trend signal", () => {
  test("null with fewer than 3 values in the 7-day window", () => {
    expect(trendSignal(10, prior([10]), ASOF, "sell")).toBeNull();
    expect(
      trendSignal(
        10,
        [
          { date: addDays(ASOF, -8), value: 9 },
          { date: addDays(ASOF, -1), value: 9 },
        ],
        ASOF,
        "sell",
      ),
    ).toBeNull();
  });
  test("the window is asOf−7 … asOf−1 plus today; f is its earliest value", () => {
    const t = trendSignal(
      10.5,
      [
        { date: addDays(ASOF, -9), value: 1 },
        { date: addDays(ASOF, -7), value: 10 },
        { date: addDays(ASOF, -3), value: 10.2 },
      ],
      ASOF,
      "sell",
    );
    expect(t).toEqual({ lean: -1, direction: "up", changePct: 5, days: 7, volatilityPct: expect.any(Number) });
  });
  test.each([
    { side: "sell", v: 10.0249, direction: "flat", lean: 0 },
    { side: "sell", v: 10.025, direction: "up", lean: -1 },
    { side: "sell", v: 9.975, direction: "down", lean: 1 },
    { side: "buy", v: 10.025, direction: "up", lean: 1 },
    { side: "buy", v: 9.975, direction: "down", lean: -1 },
    { side: "buy", v: 9.9751, direction: "flat", lean: 0 },
  ] as const)(
    "$side at $v: $direction, lean $lean (FLAT_PCT 0.25 on unrounded change)",
    ({ side, v, direction, lean }) => {
      const t = trendSignal(v, prior([10, 10]), ASOF, side);
      expect(t).toMatchObject({ direction, lean, days: 2 });
    },
  );
  test("volatility is the population standard deviation of day-over-day % changes", () => {
    // 100 → 110 (+10 %) → 99 (−10 %): changes ±10, population sd 10.
    const t = trendSignal(99, prior([100, 110]), ASOF, "sell");
    expect(t?.volatilityPct).toBe(10);
    expect(t?.changePct).toBe(-1);
  });
});

describe("official signal (tolerance 0.5 %)", () => {
  test.each([
    { side: "sell", v: 99.49, lean: 1 },
    { side: "sell", v: 99.5, lean: 0 },
    { side: "sell", v: 100.5, lean: 0 },
    { side: "sell", v: 100.51, lean: -1 },
    { side: "buy", v: 100.51, lean: 1 },
    { side: "buy", v: 99.49, lean: -1 },
    { side: "buy", v: 100, lean: 0 },
  ] as const)("$side $v against 100 → $lean", ({ side, v, lean }) => {
    expect(officialSignal(v, 100, side)?.lean).toBe(lean);
  });
  test("null without an official rate for the side", () => expect(officialSignal(10, null, "sell")).toBeNull());
  test("diffPct is rounded to 2 decimals", () => expect(officialSignal(100.5678, 100, "sell")?.diffPct).toBe(0.57));
});

describe("global signal (notable at 2 %)", () => {
  test.each([
    [102, true],
    [101.99, false],
    [98, true],
    [98.01, false],
  ])("%d against 100 → notable %s", (v, notable) => expect(globalSignal(v, 100)?.notable).toBe(notable));
  test("null without a global reference", () => expect(globalSignal(10, null)).toBeNull());
});

describe("verdict", () => {
  const s = (position: -1 | 0 | 1, trend: -1 | 0 | 1 | null, official: -1 | 0 | 1 | null): Signals => ({
    position: { lean: position },
    trend: trend === null ? null : { lean: trend, direction: "flat", changePct: 0, volatilityPct: 0, days: 7 },
    official: official === null ? null : { lean: official, diffPct: 0 },
    global: null,
  });
  test.each([
    [s(1, 0, 0), "favorable"],
    [s(1, 1, null), "favorable"],
    [s(-1, null, null), "weak"],
    [s(0, 0, 0), "ordinary"],
    [s(0, 1, 1), "ordinary"],
    [s(1, -1, null), "mixed"],
    [s(0, 1, -1), "mixed"],
    [s(-1, null, 1), "mixed"],
  ])("%j → %s", (signals, verdict) => expect(verdictOf(signals)).toBe(verdict));

  test("calibrating below 10 prior days, signals still computed", () => {
    const d = assessDirection({
      side: "sell",
      asOf: ASOF,
      v: 10,
      prior: prior([10, 10, 10, 10, 10, 10, 10, 10, 10]),
      official: 11,
      global: 10,
    });
    expect(d).toMatchObject({
      verdict: "calibrating",
      favorability: null,
      priorDays: 9,
      signals: { position: { lean: 0 }, official: { lean: 1 } },
    });
    expect(d.signals.trend).not.toBeNull();
  });
  test("ten prior days are enough", () => {
    const d = assessDirection({
      side: "sell",
      asOf: ASOF,
      v: 9,
      prior: prior(Array(10).fill(10)),
      official: null,
      global: null,
    });
    expect(d).toMatchObject({ verdict: "favorable", favorability: 1, priorDays: 10 });
  });
  test("calibrating when today has no value on the side", () => {
    const d = assessDirection({
      side: "buy",
      asOf: ASOF,
      v: null,
      prior: prior(Array(20).fill(10)),
      official: 10,
      global: 10,
    });
    expect(d).toEqual({
      verdict: "calibrating",
      favorability: null,
      priorDays: 20,
      signals: { position: { lean: 0 }, trend: null, official: null, global: null },
    });
  });
  test("favorability is published with 3 decimals", () => {
    const d = assessDirection({
      side: "sell",
      asOf: ASOF,
      v: 10,
      prior: prior([11, 11, 11, 11, 11, 11, 11, 9, 9, 9, 9]),
      official: null,
      global: null,
    });
    expect(d.favorability).toBe(0.636);
  });
});

describe("series and the prior window", () => {
  const entry = (date: string, v: number | null): SeriesEntry => ({
    date,
    buyLo: v,
    buyHi: v,
    sellLo: v,
    sellHi: v,
    bench: null,
  });
  test("the series holds the last 30 entries up to asOf, ascending", () => {
    const entries = Array.from({ length: 40 }, (_, i) => entry(addDays(ASOF, i - 38), i));
    const w = seriesWindow(entries, ASOF);
    expect(w).toHaveLength(30);
    expect(w.at(-1)!.date).toBe(ASOF);
    expect(w[0]!.date).toBe(addDays(ASOF, -29));
  });
  test("P: at most 90 days with a value, strictly before asOf, not older than 365 days", () => {
    const entries = [
      entry(addDays(ASOF, -366), 1),
      entry(addDays(ASOF, -365), 2),
      entry(addDays(ASOF, -5), null),
      entry(ASOF, 3),
    ];
    expect(priorBests(entries, ASOF, "sell").map((p) => p.value)).toEqual([2]);
    const many = Array.from({ length: 120 }, (_, i) => entry(addDays(ASOF, i - 120), i));
    const p = priorBests(many, ASOF, "buy");
    expect(p).toHaveLength(90);
    expect(p[0]!.value).toBe(30);
  });
  test("the day's best is sellLo for sell and buyHi for buy", () => {
    const e: SeriesEntry = { date: addDays(ASOF, -1), buyLo: 1, buyHi: 2, sellLo: 3, sellHi: 4, bench: null };
    expect(priorBests([e], ASOF, "sell")[0]!.value).toBe(3);
    expect(priorBests([e], ASOF, "buy")[0]!.value).toBe(2);
  });
});
