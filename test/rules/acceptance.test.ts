import { describe, expect, test } from "vitest";
import { acceptDay, checkQuote, type AcceptanceContext, type AcceptedQuote } from "../../src/rules/acceptance.js";
import type { LocatedQuote } from "../../src/core/dataset.js";
import { midHalfAway, roundHalfAway } from "../../src/core/round.js";
import type { CatalogAsset, Quote, RegistrySeller } from "../../src/schema/inputs.js";
import { median, medianWithout } from "../../src/core/stats.js";
import { DayQuotes, DayQuotesPicked } from "../../src/rules/day-quotes.js";
import { catalog } from "../helpers/dataset.js";
import { bank, usdQuote } from "../helpers/rules.js";
import fc from "fast-check";

const usd: CatalogAsset = catalog.find((a) => a.id === "USD-EGP")!;
// Gold as the real catalog had it before dealers were read: a reference asset, no seller list.
const refGold: CatalogAsset = { ...catalog.find((a) => a.id === "XAU24K-EGP")!, market: "reference" };
const NOW = Date.parse("2026-11-19T12:00:00Z");

function ctx(official: { buy: number | null; sell: number | null } | null = null): AcceptanceContext {
  return {
    date: "2026-11-19",
    nowMs: NOW,
    assets: new Map([
      [usd.id, usd],
      [refGold.id, refGold],
    ]),
    sellers: new Map(
      ["a", "b", "c", "d", "e"]
        .map((s) => [s, bank(s)])
        .concat([["gold", bank("gold", { categories: ["metals"] })]]) as Array<[string, RegistrySeller]>,
    ),
    official: () => official,
    sourceRank: (s) => (s === "first" ? 0 : 1),
    ownSource: (s) => s === "own",
  };
}
const q = (o: Partial<Quote>): Quote => usdQuote({ source: "first", ...o });

describe("acceptance rules 1–5, one quote alone", () => {
  test.each([
    { name: "a licensed seller's ordinary quote", quote: q({}), expected: "accepted" },
    {
      name: "rule 1: a seller missing from the registry",
      quote: q({ seller: "nobody" }),
      expected: "unlicensed-seller",
    },
    {
      name: "rule 1: a seller not licensed for the category",
      quote: q({ seller: "gold" }),
      expected: "not-licensed-for-category",
    },
    { name: "an asset missing from the catalog", quote: q({ asset: "XXX-EGP" }), expected: "unknown-asset" },
    { name: "rule 2: both sides null", quote: q({ buy: null, sell: null }), expected: "no-price" },
    { name: "rule 2: one side null is fine", quote: q({ buy: null }), expected: "accepted" },
    { name: "rule 2: zero", quote: q({ buy: 0 }), expected: "non-positive-price" },
    { name: "rule 2: negative", quote: q({ sell: -47.6 }), expected: "non-positive-price" },
    {
      name: "rule 2: rounds to zero at the asset's decimals",
      quote: q({ buy: 0.004, sell: null }),
      expected: "non-positive-price",
    },
    {
      name: "rule 2: too large to round exactly (22 digits)",
      quote: q({ sell: 1e21, buy: null }),
      expected: "out-of-range-price",
    },
    {
      name: "rule 2: just inside the safe range",
      quote: q({ sell: 90_071_992_547_409.91, buy: null }),
      expected: "accepted",
    },
    { name: "rule 2: not finite", quote: q({ buy: Infinity, sell: null }), expected: "non-positive-price" },
    { name: "rule 3: crossed (buy > sell)", quote: q({ buy: 47.7, sell: 47.6 }), expected: "crossed" },
    { name: "rule 3: buy = sell is not crossed", quote: q({ buy: 47.6, sell: 47.6 }), expected: "accepted" },
    {
      name: "rule 3: equal once rounded is not crossed",
      quote: q({ buy: 47.604, sell: 47.601 }),
      expected: "accepted",
    },
    { name: "rule 4: not an instant", quote: q({ observedAt: "yesterday" }), expected: "invalid-observedAt" },
    {
      name: "rule 4: an instant without offset",
      quote: q({ observedAt: "2026-11-19T10:00:00" }),
      expected: "invalid-observedAt",
    },
    {
      name: "rule 4: impossible date",
      quote: q({ observedAt: "2026-02-30T10:00:00Z" }),
      expected: "invalid-observedAt",
    },
    {
      name: "rule 4: within the 5-minute clock skew",
      quote: q({ observedAt: "2026-11-19T12:05:00Z" }),
      expected: "accepted",
    },
    {
      name: "rule 4: past the clock skew",
      quote: q({ observedAt: "2026-11-19T12:05:01Z" }),
      expected: "observed-in-future",
    },
    {
      name: "rule 5: a licensed dealer's quote for a reference asset",
      quote: q({ seller: "gold", asset: refGold.id, buy: 5400, sell: 5450 }),
      expected: "reference-asset",
    },
    {
      name: "rule 5 after rule 1: an unlicensed seller's quote for a reference asset",
      quote: q({ seller: "nobody", asset: refGold.id, buy: 5400, sell: 5450 }),
      expected: "unlicensed-seller",
    },
    {
      name: "rule 5 after rule 3: a crossed quote for a reference asset",
      quote: q({ seller: "gold", asset: refGold.id, buy: 5460, sell: 5450 }),
      expected: "crossed",
    },
    {
      name: "a quote of another Cairo day in this day's file",
      quote: q({ observedAt: "2026-11-18T21:59:00Z" }),
      expected: "wrong-day-file",
    },
    {
      name: "Cairo midnight is the next day (UTC+2 in November)",
      quote: q({ observedAt: "2026-11-18T22:00:00Z" }),
      expected: "accepted",
    },
  ])("$name → $expected", ({ quote, expected }) => {
    const r = checkQuote(quote, ctx());
    expect(typeof r === "string" ? r : "accepted").toBe(expected);
  });

  test("accepted prices are rounded to the asset's decimals, half away from zero", () => {
    const r = checkQuote(q({ buy: 47.125, sell: 47.135 }), ctx());
    expect(r).toMatchObject({ buy: 47.13, sell: 47.14 });
  });
});

describe("acceptance rule 6, plausibility", () => {
  const day = (quotes: Quote[]): LocatedQuote[] =>
    quotes.map((quote, i) => ({ quote, file: "quotes/2026-11-19.ndjson", line: i + 1 }));
  // The peers come from another source than the quote judged: a source never vouches for itself (Peers).
  const peers = ["b", "c", "d"].map((seller) => q({ seller, buy: 47.5, sell: 47.6, source: "second" }));

  test.each([
    { name: "within 10 % of the peers' median", sell: 52.3, official: null, expected: [] },
    { name: "just past 10 % above the peers' median", sell: 52.37, official: null, expected: ["implausible-sell"] },
    { name: "just past 10 % below", sell: 42.83, official: null, expected: ["implausible-sell"] },
  ])("three peers: $name", ({ sell, official, expected }) => {
    const r = acceptDay(day([q({ sell, buy: null }), ...peers]), ctx(official));
    expect(r.rejected.map((x) => x.reason)).toEqual(expected);
  });

  test("fewer than three other sellers: the official rate of the side is the reference", () => {
    const two = peers.slice(0, 2);
    const off = { buy: 47.5, sell: 47.6 };
    expect(acceptDay(day([q({ sell: 52.37, buy: null }), ...two]), ctx(off)).rejected.map((x) => x.reason)).toEqual([
      "implausible-sell",
    ]);
    expect(acceptDay(day([q({ sell: 52.3, buy: null }), ...two]), ctx(off)).rejected).toEqual([]);
    expect(acceptDay(day([q({ buy: 42.7, sell: null }), ...two]), ctx(off)).rejected.map((x) => x.reason)).toEqual([
      "implausible-buy",
    ]);
  });

  test("with neither enough peers nor an official rate the value stands", () => {
    expect(acceptDay(day([q({ sell: 90, buy: 80 })]), ctx(null)).rejected).toEqual([]);
  });

  test("each other seller counts once, by its latest quote of the day", () => {
    // b's earlier quotes at 60 (from a third source) would drag a per-quote median up; only its latest (47.6) counts.
    const bEarly = [8, 9].map((h) =>
      q({ seller: "b", sell: 60, buy: null, observedAt: `2026-11-19T0${h}:00:00Z`, source: "third" }),
    );
    const r = acceptDay(day([...bEarly, ...peers, q({ seller: "a", sell: 47.7, buy: null })]), ctx());
    expect(r.rejected.map((x) => `${x.seller}:${x.reason}`)).toEqual(["b:implausible-sell", "b:implausible-sell"]);
  });

  test("a quote failing rules 1–4 is not a peer", () => {
    const crossed = ["b", "c", "d"].map((seller) => q({ seller, buy: 80, sell: 70 }));
    const r = acceptDay(day([q({ sell: 90, buy: null }), ...crossed]), ctx(null));
    expect([...r.accepted].map((x) => x.seller)).toEqual(["a"]);
  });
});

describe("Peers (docs/methodology.md §2.1): other sources judge, and counted quotes only by counted ones", () => {
  const day = (quotes: Quote[]): LocatedQuote[] =>
    quotes.map((quote, i) => ({ quote, file: "quotes/2026-11-19.ndjson", line: i + 1 }));
  const OFFICIAL = { buy: 47.5, sell: 47.6 };
  // A source still on probation: its quotes do not count.
  const probationOf =
    (...unproven: string[]) =>
    (source: string) =>
      !unproven.includes(source);
  const refusals = (r: ReturnType<typeof acceptDay>) => r.rejected.map((x) => `${x.source}/${x.seller}:${x.reason}`);

  test.each([
    {
      name: "an aggregator's whole page read per 100 agrees with itself, and is refused against the official rate",
      quotes: ["a", "b", "c", "d"].map((seller) => q({ seller, source: "agg", buy: 4750, sell: 4760 })),
      unproven: [],
      expected: [
        "agg/a:implausible-sell",
        "agg/b:implausible-sell",
        "agg/c:implausible-sell",
        "agg/d:implausible-sell",
      ],
    },
    {
      name: "the same page beside three banks' own pages: each row judged by the banks, and no bank by the page",
      quotes: [
        ...["a", "b", "c", "d"].map((seller) => q({ seller, source: "agg", buy: 4750, sell: 4760 })),
        ...["b", "c", "d"].map((seller) => q({ seller, source: `own-${seller}`, buy: 47.5, sell: 47.6 })),
      ],
      unproven: [],
      expected: [
        "agg/a:implausible-sell",
        "agg/b:implausible-sell",
        "agg/c:implausible-sell",
        "agg/d:implausible-sell",
      ],
    },
    {
      name: "an unproven source 15 % off never refuses a counted bank",
      quotes: [
        q({ seller: "a", source: "first", buy: 47.5, sell: 47.6 }),
        q({ seller: "b", source: "second", buy: 47.52, sell: 47.62 }),
        ...["c", "d", "e"].map((seller) => q({ seller, source: "new", buy: 54.6, sell: 54.75 })),
      ],
      unproven: ["new"],
      // a's counted peers: b alone, so the official rate is its yardstick, and it passes; the unproven
      // rows are judged by every other source, a and b (their own source is no peer of theirs): two
      // peers, so the official rate again, 15 % off it.
      expected: ["new/c:implausible-sell", "new/d:implausible-sell", "new/e:implausible-sell"],
    },
    {
      name: "the same unproven rows, counted, would have been peers of each other's sellers' banks",
      quotes: [
        q({ seller: "a", source: "first", buy: 47.5, sell: 47.6 }),
        q({ seller: "b", source: "second", buy: 47.52, sell: 47.62 }),
        ...["c", "d", "e"].map((seller) => q({ seller, source: "new", buy: 54.6, sell: 54.75 })),
      ],
      unproven: [],
      // Counted, they are peers of a and b: the median of b, c, d, e is 54.75, and a bank 13 % below it is
      // refused (the rows themselves fall to the official rate, with two peers from other sources).
      expected: [
        "first/a:implausible-sell",
        "new/c:implausible-sell",
        "new/d:implausible-sell",
        "new/e:implausible-sell",
        "second/b:implausible-sell",
      ],
    },
    {
      name: "a quote on probation is judged by counted and unproven sources alike",
      quotes: [
        q({ seller: "a", source: "first", buy: 47.5, sell: 47.6 }),
        q({ seller: "b", source: "second", buy: 47.52, sell: 47.62 }),
        q({ seller: "c", source: "third", buy: 47.51, sell: 47.61 }),
        q({ seller: "d", source: "new", buy: 52.9, sell: 53 }),
      ],
      unproven: ["third", "new"],
      expected: ["new/d:implausible-sell"],
    },
    {
      name: "rule 7 too: a lone buy is held against other sources' sells only",
      quotes: [
        q({ seller: "a", source: "agg", buy: 47.7, sell: null }),
        q({ seller: "b", source: "agg", buy: 47.5, sell: 47.6 }),
      ],
      unproven: [],
      expected: [],
    },
  ])("$name", ({ quotes, unproven, expected }) => {
    const r = acceptDay(day(quotes), {
      ...ctx(OFFICIAL),
      ownSource: (s) => s.startsWith("own"),
      counts: probationOf(...unproven),
    });
    expect(refusals(r).sort()).toEqual(expected);
  });

  test("without a count, every quote counts (the simulated market, a dataset without probation)", () => {
    const quotes = day([
      q({ seller: "a", source: "first", buy: 47.5, sell: 47.6 }),
      ...["b", "c", "d"].map((seller) => q({ seller, source: "new", buy: 54.6, sell: 54.75 })),
    ]);
    // Counted, the three rows of "new" are a's peers and refuse it (each of them falls to the official rate).
    expect(refusals(acceptDay(quotes, ctx(OFFICIAL))).sort()).toEqual([
      "first/a:implausible-sell",
      "new/b:implausible-sell",
      "new/c:implausible-sell",
      "new/d:implausible-sell",
    ]);
  });

  test("only finite, positive, safe prices are ever peers: a 22-digit price is refused before any rule", () => {
    const quotes = [
      q({ seller: "a", source: "first", buy: 47.5, sell: 47.6 }),
      ...["b", "c", "d", "e"].map((seller) => q({ seller, source: "new", buy: 1e30, sell: 1e30 })),
    ];
    const r = acceptDay(day(quotes), ctx(OFFICIAL));
    expect(refusals(r).sort()).toEqual([
      "new/b:out-of-range-price",
      "new/c:out-of-range-price",
      "new/d:out-of-range-price",
      "new/e:out-of-range-price",
    ]);
    expect([...r.accepted].map((x) => [x.seller, x.buy, x.sell])).toEqual([["a", 47.5, 47.6]]);
  });
});

describe("rounding half away from zero", () => {
  test.each([
    [1.005, 2, 1.01],
    [1.004, 2, 1],
    [-1.005, 2, -1.01],
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [47.125, 2, 47.13],
    [0.0005, 3, 0.001],
    [1234567.5, 0, 1234568],
    [-0.0001, 2, 0],
    [1e-7, 2, 0],
  ])("%d to %i decimals is %d", (x, d, out) => {
    expect(roundHalfAway(x, d)).toBe(out);
    expect(Object.is(roundHalfAway(x, d), -0)).toBe(false);
  });
});

describe("the official mid (bench), half away from zero in the smallest unit (core/round.ts midHalfAway)", () => {
  test.each([
    [55.8, 55.93, 2, 55.87], // binary (55.80 + 55.93) / 2 is 55.864999…: it once gave 55.86
    [47.5, 47.6, 2, 47.55],
    [47.51, 47.6, 2, 47.56],
    [47.5, 47.5, 2, 47.5],
    [0.01, 0.02, 2, 0.02],
    [100, 101, 0, 101],
    [4050.125, 4050.126, 3, 4050.126],
  ])("(%d + %d) / 2 to %i decimals is %d", (a, b, d, out) => {
    expect(midHalfAway(a, b, d)).toBe(out);
  });
});

describe("rule 6's median of the others, read from one sorted list (core/stats.ts medianWithout)", () => {
  test.each([
    [[], null, null],
    [[5], 5, null],
    [[5], null, 5],
    [[1, 2, 3], 2, 2],
    [[1, 2, 3], 1, 2.5],
    [[1, 2, 3], 3, 1.5],
    [[1, 2, 2, 3], 2, 2],
    [[1, 2, 3, 4], 9, 2.5], // a value not in the list: nothing is left out
    [[47.8, 47.85, 47.9, 48.1], 47.85, 47.9],
  ])("%j without %j: %j", (sorted, v, want) => {
    expect(medianWithout(sorted, v)).toBe(want);
  });

  test("equals the median of the others' values, sorted afresh", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.nat(),
        (values, pick) => {
          const own = values[pick % values.length]!;
          const sorted = [...values].sort((a, b) => a - b);
          const others = [...values];
          others.splice(pick % values.length, 1);
          expect(medianWithout(sorted, own)).toBe(others.length ? median(others) : null);
          expect(medianWithout(sorted, null)).toBe(median(values));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("a day's passing quotes in columns (src/rules/day-quotes.ts)", () => {
  const price = fc.option(fc.double({ min: 0.0001, max: 1e7, noNaN: true }), { nil: null });
  const quote = fc.record({
    source: fc.constantFrom("bank-sites", "rates-aggregator", "market-watch"),
    seller: fc.stringMatching(/^[a-z]{1,6}$/),
    asset: fc.constantFrom("USD-EGP", "EUR-EGP", "GOLD-21K"),
    buy: price,
    sell: price,
    observedAtMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    file: fc.constantFrom("data/quotes/2026-11-19.ndjson", "elsewhere.ndjson"),
    line: fc.nat({ max: 2 ** 32 - 1 }),
  });

  /** The store and a pick of it give back exactly the quotes pushed and picked, in order. */
  function check(quotes: AcceptedQuote[], picks: number[]) {
    const store = new DayQuotes();
    for (const q of quotes) store.push(q);
    expect(store.length).toBe(quotes.length);
    expect([...store]).toEqual(quotes);
    quotes.forEach((q, i) => {
      expect([store.seller(i), store.asset(i), store.price(i, "buy"), store.price(i, "sell")]).toEqual([
        q.seller,
        q.asset,
        q.buy,
        q.sell,
      ]);
    });
    const chosen = quotes.length ? picks.map((p) => p % quotes.length) : [];
    const picked = new DayQuotesPicked(store);
    for (const i of chosen) picked.add(i);
    expect(picked.length).toBe(chosen.length);
    expect([...picked]).toEqual(chosen.map((i) => quotes[i]));
  }

  test("give back every quote as pushed, in order; a pick reads its quotes in its order", () => {
    fc.assert(fc.property(fc.array(quote, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 60 }), check));
  });

  test("past their first growths (a day of 5 000 quotes, a pick of 3 000)", () => {
    const day = fc.sample(quote, { numRuns: 5000, seed: 19 });
    check(
      day,
      Array.from({ length: 3000 }, (_, k) => (k * 7919) % 5000),
    );
  });
});
