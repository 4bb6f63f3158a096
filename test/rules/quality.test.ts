import { describe, expect, test } from "vitest";
import { freshnessState } from "../../src/rules/freshness.js";
import { confidence } from "../../src/rules/confidence.js";
import { DateTime } from "luxon";
import { cairoDate, daysBetween, tradingAgeMs } from "../../src/core/cairo.js";
import fc from "fast-check";
import { bestOf, sellerTable } from "../../src/rules/table.js";
import type { CategoryCalendar, CatalogAsset, RegistrySeller } from "../../src/schema/inputs.js";
import { catalog } from "../helpers/dataset.js";

const currencies: CategoryCalendar = {
  sessions: [{ days: ["sun", "mon", "tue", "wed", "thu"], open: "09:00", close: "17:00" }],
  holidays: ["2026-10-06"],
};
const metals: CategoryCalendar = {
  sessions: [{ days: ["sat", "sun", "mon", "tue", "wed", "thu"], open: "10:00", close: "22:00" }],
  holidays: [],
};
const H = 3_600_000;
const t = (s: string) => Date.parse(s);

describe("the Cairo date of an instant", () => {
  // cairoDate asks the time-zone database twice a UTC day and derives the hours from that offset;
  // here every hour from 2010 to 2031 (Egypt's clock changed rules in 2011, 2014–2015 and 2023) is
  // held to the database's own answer for that hour, and a few minutes either side of each hour.
  test("agrees with the time-zone database at every hour, 2010–2031", () => {
    const from = t("2010-01-01T00:00:00Z");
    const to = t("2031-12-31T23:00:00Z");
    const wrong: string[] = [];
    for (let ms = from; ms <= to; ms += H)
      for (const at of [ms, ms + 59 * 60_000]) {
        const want = DateTime.fromMillis(at, { zone: "Africa/Cairo" }).toISODate();
        if (cairoDate(at) !== want) wrong.push(`${new Date(at).toISOString()}: ${cairoDate(at)} ≠ ${want}`);
      }
    expect(wrong).toEqual([]);
  });

  test.each([
    // Summer time began at local midnight on Friday 24 April 2026 (00:00 → 01:00) and ended at local
    // midnight after Thursday 29 October 2026 (24:00 → 23:00).
    { at: "2026-04-23T21:59:59Z", date: "2026-04-23" },
    { at: "2026-04-23T22:00:00Z", date: "2026-04-24" },
    { at: "2026-10-29T20:59:59Z", date: "2026-10-29" },
    { at: "2026-10-29T21:00:00Z", date: "2026-10-29" },
    { at: "2026-10-29T21:59:59Z", date: "2026-10-29" },
    { at: "2026-10-29T22:00:00Z", date: "2026-10-30" },
    { at: "2026-11-19T21:59:59Z", date: "2026-11-19" },
    { at: "2026-11-19T22:00:00Z", date: "2026-11-20" },
  ])("$at is $date in Cairo", ({ at, date }) => {
    expect(cairoDate(t(at))).toBe(date);
  });
});

describe("whole calendar days between two dates", () => {
  test.each([
    { a: "2026-11-19", b: "2026-11-19", want: 0 },
    { a: "2026-11-19", b: "2026-11-20", want: 1 },
    { a: "2026-11-20", b: "2026-11-19", want: -1 },
    { a: "2024-02-28", b: "2024-03-01", want: 2 },
    { a: "2026-03-28", b: "2026-04-25", want: 28 },
    { a: "2025-11-19", b: "2026-11-19", want: 365 },
  ])("$a → $b: $want", ({ a, b, want }) => {
    expect(daysBetween(a, b)).toBe(want);
  });

  test("the same answer as parsing both dates at every call, from memory or not, valid or not", () => {
    const date = fc.oneof(
      fc
        .date({ min: new Date("1990-01-01"), max: new Date("2060-12-31"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom("2026-02-30", "2026-13-01", "", "not a date"),
    );
    fc.assert(
      fc.property(date, date, (a, b) => {
        const want = Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
        expect(daysBetween(a, b)).toBe(want);
        expect(daysBetween(a, b)).toBe(want); // the second time from the remembered day numbers
      }),
      { numRuns: 2000, seed: 20261122 },
    );
  });
});

describe("freshness across sessions, weekends, holidays and daylight saving (Cairo)", () => {
  test.each([
    // November: Cairo is UTC+2. Currencies trade 09:00–17:00 Sun–Thu.
    {
      name: "inside the session, 1 h old",
      obs: "2026-11-19T08:00:00Z",
      now: "2026-11-19T09:00:00Z",
      cal: currencies,
      state: "fresh",
    },
    {
      name: "inside, exactly 3 h old",
      obs: "2026-11-19T08:00:00Z",
      now: "2026-11-19T11:00:00Z",
      cal: currencies,
      state: "fresh",
    },
    {
      name: "inside, 3 h 1 min old",
      obs: "2026-11-19T08:00:00Z",
      now: "2026-11-19T11:01:00Z",
      cal: currencies,
      state: "delayed",
    },
    {
      name: "inside, exactly 8 h of session",
      obs: "2026-11-18T11:00:00Z",
      now: "2026-11-19T11:00:00Z",
      cal: currencies,
      state: "delayed",
    },
    {
      name: "inside, 8 h 1 min of session",
      obs: "2026-11-18T10:59:00Z",
      now: "2026-11-19T11:00:00Z",
      cal: currencies,
      state: "stale",
    },
    {
      name: "Thursday's close on Saturday: closed, not old",
      obs: "2026-11-19T14:55:00Z",
      now: "2026-11-21T10:00:00Z",
      cal: currencies,
      state: "closed",
    },
    {
      name: "Thursday's close at 09:30 Sunday: 30 min of session",
      obs: "2026-11-19T14:55:00Z",
      now: "2026-11-22T07:30:00Z",
      cal: currencies,
      state: "fresh",
    },
    {
      name: "Thursday 14:00 at 09:30 Sunday: 3.5 h of session",
      obs: "2026-11-19T12:00:00Z",
      now: "2026-11-22T07:30:00Z",
      cal: currencies,
      state: "delayed",
    },
    {
      name: "evening after a fresh close",
      obs: "2026-11-19T14:00:00Z",
      now: "2026-11-19T20:00:00Z",
      cal: currencies,
      state: "closed",
    },
    {
      name: "a holiday does not age the data (Tuesday 6 October 2026)",
      obs: "2026-10-05T13:00:00Z",
      now: "2026-10-07T06:30:00Z",
      cal: currencies,
      state: "fresh",
    },
    {
      name: "without the holiday it would be stale",
      obs: "2026-10-05T13:00:00Z",
      now: "2026-10-07T06:30:00Z",
      cal: { ...currencies, holidays: [] },
      state: "stale",
    },
    { name: "no observation at all", obs: null, now: "2026-11-19T09:00:00Z", cal: currencies, state: "stale" },
    {
      name: "observed a little after the build instant (clock skew)",
      obs: "2026-11-19T09:03:00Z",
      now: "2026-11-19T09:00:00Z",
      cal: currencies,
      state: "fresh",
    },
    // Metals trade Saturday 10:00–22:00 Cairo.
    {
      name: "metals on Saturday morning after Thursday night",
      obs: "2026-11-19T19:30:00Z",
      now: "2026-11-21T09:00:00Z",
      cal: metals,
      state: "fresh",
    },
  ])("$name → $state", ({ obs, now, cal, state }) => {
    expect(freshnessState(obs === null ? null : t(obs), t(now), cal)).toBe(state);
  });

  test("spring forward: the session of Thursday 23 April 2026 opens at 07:00 UTC (UTC+2) and Sunday 26 April at 06:00 UTC (UTC+3)", () => {
    // Egypt's DST began on Friday 24 April 2026 at 00:00 local time.
    expect(tradingAgeMs(t("2026-04-23T07:00:00Z"), t("2026-04-23T15:00:00Z"), currencies)).toBe(8 * H);
    expect(tradingAgeMs(t("2026-04-26T06:00:00Z"), t("2026-04-26T14:00:00Z"), currencies)).toBe(8 * H);
    // Thursday close (15:00 UTC, 17:00 UTC+2) to Sunday 10:00 local (07:00 UTC, UTC+3): one hour of session.
    expect(tradingAgeMs(t("2026-04-23T15:00:00Z"), t("2026-04-26T07:00:00Z"), currencies)).toBe(1 * H);
    expect(freshnessState(t("2026-04-23T14:59:00Z"), t("2026-04-26T07:00:00Z"), currencies)).toBe("fresh");
  });

  test("fall back: Thursday 29 October 2026 is the last day on UTC+3", () => {
    expect(tradingAgeMs(t("2026-10-29T05:00:00Z"), t("2026-10-29T14:00:00Z"), currencies)).toBe(8 * H);
    // Sunday 1 November opens at 07:00 UTC (UTC+2).
    expect(tradingAgeMs(t("2026-10-29T13:00:00Z"), t("2026-11-01T08:00:00Z"), currencies)).toBe(2 * H);
    expect(freshnessState(t("2026-10-29T13:00:00Z"), t("2026-11-01T06:59:00Z"), currencies)).toBe("closed");
  });
});

describe("confidence", () => {
  test.each([
    [0, false, "none"],
    [1, false, "low"],
    [2, false, "medium"],
    [3, false, "high"],
    [5, false, "high"],
    [3, true, "medium"],
    [2, true, "low"],
    [1, true, "low"],
    [0, true, "none"],
    [4, true, "medium"],
  ] as const)("%i sources, disagreement %s → %s", (checks, disagree, level) => {
    expect(confidence(checks, disagree)).toEqual({ level, checks });
  });
});

describe("today's table and best sellers", () => {
  const asset = (defaultSide: "sell" | "buy"): CatalogAsset => ({
    ...catalog.find((a) => a.id === "USD-EGP")!,
    defaultSide,
  });
  const registry = new Map<string, RegistrySeller>(
    ["alpha", "beta", "gamma", "delta"].map((id) => [
      id,
      {
        id,
        name: id[0]!.toUpperCase() + id.slice(1),
        nameAr: `ع-${id}`,
        kind: "bank",
        licensedBy: "CBE",
        categories: ["currencies"],
      },
    ]),
  );
  const close = (seller: string, buy: number | null, sell: number | null, observedAt = "2026-11-19T10:00:00Z") => ({
    seller,
    source: "s",
    buy,
    sell,
    observedAt,
  });

  test("sorted by the default side best first, then by name; missing values last", () => {
    const rows = sellerTable(
      [close("gamma", 47.5, 47.6), close("alpha", 47.4, 47.6), close("beta", 47.5, null), close("delta", 47.3, 47.55)],
      asset("sell"),
      registry,
    );
    expect(rows.map((r) => r.seller)).toEqual(["Delta", "Alpha", "Gamma", "Beta"]);
    const byBuy = sellerTable(
      [close("gamma", 47.5, 47.6), close("alpha", 47.4, 47.6), close("beta", null, 47.7), close("delta", 47.5, 47.55)],
      asset("buy"),
      registry,
    );
    expect(byBuy.map((r) => r.seller)).toEqual(["Delta", "Gamma", "Alpha", "Beta"]);
  });

  test.each([
    { name: "lowest sell wins", rows: [close("alpha", 1, 47.6), close("beta", 1, 47.5)], side: "sell", best: "Beta" },
    { name: "highest buy wins", rows: [close("alpha", 47.4, 48), close("beta", 47.3, 48)], side: "buy", best: "Alpha" },
    {
      name: "a tie goes to the most recent quote",
      rows: [close("alpha", 1, 47.5, "2026-11-19T09:00:00Z"), close("beta", 1, 47.5, "2026-11-19T10:00:00Z")],
      side: "sell",
      best: "Beta",
    },
    { name: "then by name", rows: [close("beta", 1, 47.5), close("alpha", 1, 47.5)], side: "sell", best: "Alpha" },
    { name: "null when nobody quotes the side", rows: [close("alpha", null, 47.5)], side: "buy", best: null },
  ] as const)("$name", ({ rows, side, best }) => {
    expect(bestOf(sellerTable(rows, asset("sell"), registry), side)?.seller ?? null).toBe(best);
  });
});
