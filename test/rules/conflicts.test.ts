/**
 * Conflicting quotes (docs/methodology.md §11, issue 26 item 5): one source giving one seller and
 * asset different prices at one instant. None of them is a yardstick of rule 6; those that pass all
 * six tests and still differ are every one rejected as `conflicting-quote`, in whatever order the
 * lines come; quotes that agree are kept.
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { acceptDay, type AcceptanceContext } from "../../src/rules/acceptance.js";
import { closeDay } from "../../src/rules/closes.js";
import { conflictWarnings } from "../../src/rules/days.js";
import type { LocatedQuote } from "../../src/core/dataset.js";
import type { Quote } from "../../src/schema/inputs.js";
import { catalog } from "../helpers/dataset.js";
import { bank, usdQuote } from "../helpers/rules.js";

const usd = catalog.find((a) => a.id === "USD-EGP")!;
const NOW = Date.parse("2026-11-19T12:00:00Z");
const rank = (s: string) => ["s1", "s2", "s3"].indexOf(s);
const ctx = (official: { buy: number; sell: number } | null = null): AcceptanceContext => ({
  date: "2026-11-19",
  nowMs: NOW,
  assets: new Map([[usd.id, usd]]),
  sellers: new Map(["a", "b", "c", "d"].map((s) => [s, bank(s)])),
  official: () => official,
  sourceRank: rank,
  ownSource: () => true,
});
const q = usdQuote;
const located = (quotes: Quote[]): LocatedQuote[] =>
  quotes.map((quote, i) => ({ quote, file: "quotes/2026-11-19.ndjson", line: i + 1 }));

/** What a day comes to, whatever the order: the rejected quotes (as quotes) with their reasons, and the closes. */
function outcome(quotes: Quote[]) {
  const lq = located(quotes);
  const r = acceptDay(lq, ctx());
  const rejected = r.rejected
    .map((x) => `${JSON.stringify(lq[x.line - 1]!.quote)} ${x.reason}`)
    .sort()
    .join("\n");
  return {
    rejected,
    closes: closeDay("2026-11-19", r.accepted, { rank, own: () => true }),
    accepted: r.accepted.length,
  };
}

describe("which quotes conflict", () => {
  test.each([
    { name: "two prices at one instant", quotes: [q({}), q({ sell: 47.7 })], conflicting: [1, 2] },
    { name: "one side null in one of them", quotes: [q({}), q({ buy: null })], conflicting: [1, 2] },
    {
      name: "told twice alike, then a third price: all three",
      quotes: [q({}), q({}), q({ buy: 47.4 })],
      conflicting: [1, 2, 3],
    },
    { name: "the same prices told twice", quotes: [q({}), q({})], conflicting: [] },
    // Rounded to the asset's 2 decimals (§3.1) before they are compared: 47.601 is 47.6.
    { name: "prices equal once rounded", quotes: [q({}), q({ sell: 47.601 })], conflicting: [] },
    { name: "two sources at one instant", quotes: [q({}), q({ source: "s2", sell: 47.7 })], conflicting: [] },
    { name: "two sellers at one instant", quotes: [q({}), q({ seller: "b", sell: 47.7 })], conflicting: [] },
    {
      name: "one source at two instants",
      quotes: [q({}), q({ sell: 47.7, observedAt: "2026-11-19T10:00:01Z" })],
      conflicting: [],
    },
    {
      name: "the same instant written two ways",
      quotes: [q({}), q({ sell: 47.7, observedAt: "2026-11-19T12:00:00+02:00" })],
      conflicting: [1, 2],
    },
    // A quote rejected by tests 1–4 is no party to a conflict: it was never a price of the day.
    { name: "one of them crossed", quotes: [q({}), q({ buy: 48, sell: 47.9 })], conflicting: [] },
  ])("$name", ({ quotes, conflicting }) => {
    const r = acceptDay(located(quotes), ctx());
    expect(r.rejected.filter((x) => x.reason === "conflicting-quote").map((x) => x.line)).toEqual(conflicting);
  });
});

describe("the rule does not depend on the order of the lines", () => {
  test("any order of a day with conflicts rejects the same quotes and makes the same closes", () => {
    const day = [
      q({ observedAt: "2026-11-19T09:00:00Z", buy: 47.45, sell: 47.55 }),
      q({}),
      q({ buy: 47.55, sell: 47.7 }),
      q({ seller: "b", buy: 47.4, sell: 47.6 }),
      q({ seller: "b", source: "s2", buy: 47.4, sell: 47.6 }),
      q({ seller: "b", source: "s2", buy: 47.3, sell: 47.6 }),
      q({ seller: "c", buy: 47.5, sell: 47.65 }),
      q({ seller: "c", buy: 47.5, sell: 47.65 }),
    ];
    const first = outcome(day);
    expect(first.accepted).toBe(4);
    // a's close is its 09:00 quote: both of 10:00 are out.
    expect(first.closes[0]!.closes.find((c) => c.seller === "a")).toMatchObject({
      buy: 47.45,
      sell: 47.55,
      observedAt: "2026-11-19T09:00:00Z",
    });
    fc.assert(
      fc.property(fc.shuffledSubarray(day, { minLength: day.length, maxLength: day.length }), (order) => {
        expect(outcome(order)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  test("a conflicting quote is no peer of test 6: the yardstick is made without it", () => {
    // b and c sell at 47.6, d at 53, the official rate is 50. Were a's first 10:00 price (52) a's
    // value, d would have three peers, their median 47.6, and 53 would be implausible (> 10 %); with
    // a's conflicting quotes out, d has two peers, fewer than 3, and is judged against 50: it stands.
    const sell = (seller: string, price: number) => q({ seller, buy: null, sell: price });
    const quotes = [sell("a", 52), sell("a", 47.6), sell("b", 47.6), sell("c", 47.6), sell("d", 53)];
    const r = acceptDay(located(quotes), ctx({ buy: 49.9, sell: 50 }));
    expect(r.rejected.map((x) => [x.line, x.reason])).toEqual([
      [1, "conflicting-quote"],
      [2, "conflicting-quote"],
    ]);
    expect(r.accepted.length).toBe(3);
  });
});

describe("rule 6 first", () => {
  test("an outlier told at the same instant as the good quote is implausible, and the good quote stays", () => {
    // The sample market's wild outlier (src/sample/market.ts badQuotes) is such a row.
    const quotes = [q({}), q({ buy: 75.55, sell: 76.5 }), q({ seller: "b" }), q({ seller: "c" }), q({ seller: "d" })];
    for (const order of [quotes, [...quotes].reverse()]) {
      const r = acceptDay(located(order), ctx({ buy: 47.5, sell: 47.6 }));
      expect(r.rejected.map((x) => [order[x.line - 1], x.reason])).toEqual([[quotes[1], "implausible-sell"]]);
      expect(r.accepted.length).toBe(4);
    }
  });

  test("two plausible prices and an outlier: the outlier is implausible, the two are conflicting", () => {
    const quotes = [q({}), q({ buy: 75.55, sell: 76.5 }), q({ sell: 47.65 }), q({ seller: "b" }), q({ seller: "c" })];
    const r = acceptDay(located(quotes), ctx({ buy: 47.5, sell: 47.6 }));
    expect(r.rejected.map((x) => [x.line, x.reason])).toEqual([
      [2, "implausible-sell"],
      [1, "conflicting-quote"],
      [3, "conflicting-quote"],
    ]);
  });
});

describe("the report's line per conflict", () => {
  test("grouped by file, source, seller and asset, lines ascending", () => {
    const r = acceptDay(
      located([q({ sell: 47.7 }), q({ seller: "b" }), q({}), q({ seller: "b", buy: 47.4 }), q({ buy: 47.3 })]),
      ctx(),
    );
    expect(conflictWarnings(r.rejected)).toEqual([
      'quotes/2026-11-19.ndjson lines 1, 3 and 5: source "s1" gives seller "a" different prices for USD-EGP at the same instant; none of them is used (conflicting-quote, docs/methodology.md §11)',
      'quotes/2026-11-19.ndjson lines 2 and 4: source "s1" gives seller "b" different prices for USD-EGP at the same instant; none of them is used (conflicting-quote, docs/methodology.md §11)',
    ]);
    expect(conflictWarnings([])).toEqual([]);
  });
});
