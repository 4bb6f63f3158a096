/**
 * docs/methodology.md "Accepting quotes", rule 6's fallback to the global reference (an asset with no
 * official rate: gold) and rule 7 (a value quoted alone on the wrong side), table-driven, each row
 * worked out by hand.
 */
import { describe, expect, test } from "vitest";
import { acceptDay, plausible, type AcceptanceContext } from "../../src/rules/acceptance.js";
import type { LocatedQuote } from "../../src/core/dataset.js";
import type { CatalogAsset, Quote, RegistrySeller } from "../../src/schema/inputs.js";
import { catalog } from "../helpers/dataset.js";
import { bank } from "../helpers/rules.js";

const gold: CatalogAsset = catalog.find((a) => a.id === "XAU24K-EGP")!;
const usd: CatalogAsset = catalog.find((a) => a.id === "USD-EGP")!;
const NOW = Date.parse("2026-11-19T12:00:00Z");
const dealers = ["d1", "d2", "d3", "d4", "d5"];

function ctx(o: {
  official?: { buy: number | null; sell: number | null } | null;
  global?: number | null;
}): AcceptanceContext {
  return {
    date: "2026-11-19",
    nowMs: NOW,
    assets: new Map([
      [gold.id, gold],
      [usd.id, usd],
    ]),
    sellers: new Map(
      dealers.map((s): [string, RegistrySeller] => [
        s,
        bank(s, { kind: "gold-dealer", categories: ["metals", "currencies"] }),
      ]),
    ),
    official: () => o.official ?? null,
    global: () => o.global ?? null,
    sourceRank: () => 0,
    ownSource: () => true,
  };
}

const quote = (seller: string, buy: number | null, sell: number | null, asset = gold.id): LocatedQuote => ({
  quote: { source: `src-${seller}`, seller, asset, buy, sell, observedAt: "2026-11-19T10:00:00Z" } satisfies Quote,
  file: "quotes/2026-11-19.ndjson",
  line: dealers.indexOf(seller) + 1,
});

/** The reason each seller's quote got, or "accepted". */
function verdicts(quotes: LocatedQuote[], c: AcceptanceContext): Record<string, string> {
  const r = acceptDay(quotes, c);
  const out: Record<string, string> = {};
  for (const a of r.accepted) out[a.seller] = "accepted";
  for (const x of r.rejected) out[x.seller] = x.reason;
  return out;
}

describe("rule 6 with no official rate: the global reference, 25 % below and 60 % above", () => {
  // The global reference of 24k gold: 4,000 EGP a gram. The band is [3,000, 6,400].
  test.each([
    { name: "a price at the reference", sell: 4000, expected: "accepted" },
    { name: "the local premium of a squeeze (+45 %)", sell: 5800, expected: "accepted" },
    { name: "exactly 60 % above", sell: 6400, expected: "accepted" },
    { name: "6,400.4 rounds to 6,400 first (values are compared rounded)", sell: 6400.4, expected: "accepted" },
    { name: "just over 60 % above (gold has 0 decimals)", sell: 6401, expected: "implausible-sell" },
    { name: "exactly 25 % below", sell: 3000, expected: "accepted" },
    { name: "just under 25 % below", sell: 2999, expected: "implausible-sell" },
    { name: "an ounce read as a gram (×31.1)", sell: 124_400, expected: "implausible-sell" },
    { name: "a price per 10 grams", sell: 40_000, expected: "implausible-sell" },
    { name: "18k's price read as 24k's (×0.75, inside the band)", sell: 3000, expected: "accepted" },
    { name: "a price per 100 grams read as per gram", sell: 400_000, expected: "implausible-sell" },
  ])("$name: $sell → $expected", ({ sell, expected }) => {
    // One dealer alone (fewer than 3 peers) and no official rate: only the global reference judges.
    expect(verdicts([quote("d1", null, sell)], ctx({ global: 4000 }))).toEqual({ d1: expected });
  });

  test.each([
    { name: "the buy side too", buy: 6500, sell: null, expected: "implausible-buy" },
    {
      name: "no global reference: nothing to compare with, the value stands",
      buy: null,
      sell: 124_400,
      global: null,
      expected: "accepted",
    },
  ])("$name", ({ buy, sell, global, expected }) => {
    expect(verdicts([quote("d1", buy, sell)], ctx({ global: global === undefined ? 4000 : global }))).toEqual({
      d1: expected,
    });
  });

  test("an official rate, where there is one, comes before the global reference (±10 %)", () => {
    // 4,500 is within the global band but 12.5 % above an official 4,000.
    expect(verdicts([quote("d1", null, 4500)], ctx({ official: { buy: 4000, sell: 4000 }, global: 4000 }))).toEqual({
      d1: "implausible-sell",
    });
  });

  test("three peers or more: their median, not the global reference", () => {
    // Peers at 5,900 (48 % above the global 4,000): the fourth at 5,950 is within 10 % of them.
    const qs = [quote("d1", null, 5900), quote("d2", null, 5900), quote("d3", null, 5900), quote("d4", null, 5950)];
    expect(verdicts(qs, ctx({ global: 4000 }))).toEqual({
      d1: "accepted",
      d2: "accepted",
      d3: "accepted",
      d4: "accepted",
    });
  });

  test.each([
    // peer median, official, global, value → plausible?
    { peer: 100, official: null, global: null, v: 110, expected: true },
    { peer: 100, official: null, global: null, v: 110.01, expected: false },
    { peer: null, official: 100, global: 1, v: 91, expected: true },
    { peer: null, official: null, global: 100, v: 160, expected: true },
    { peer: null, official: null, global: 100, v: 74.99, expected: false },
    { peer: null, official: null, global: null, v: 1e9, expected: true },
  ])(
    "plausible(v=$v; peers $peer, official $official, global $global) = $expected",
    ({ peer, official, global, v, expected }) => {
      expect(plausible(v, peer, official, global)).toBe(expected);
    },
  );
});

describe("rule 7: a value quoted alone on its side", () => {
  // The others quote both sides: buys 3,950 / 3,960 / 3,970 (median 3,960), sells 4,040 / 4,050 / 4,060 (median 4,050).
  const others = [quote("d1", 3950, 4040), quote("d2", 3960, 4050), quote("d3", 3970, 4060)];
  test.each([
    { name: "a lone sell above the others' buys", buy: null, sell: 4055, expected: "accepted" },
    { name: "a lone sell at the others' median buy", buy: null, sell: 3960, expected: "accepted" },
    {
      name: "a lone sell below the others' median buy (an asking price read as a bid?)",
      buy: null,
      sell: 3959,
      expected: "side-doubtful",
    },
    { name: "a lone buy below the others' sells", buy: 3965, sell: null, expected: "accepted" },
    { name: "a lone buy at the others' median sell", buy: 4050, sell: null, expected: "accepted" },
    {
      name: "a lone buy above the others' median sell (what the dealer asks, read as what it pays)",
      buy: 4051,
      sell: null,
      expected: "side-doubtful",
    },
    { name: "both sides quoted: rule 7 does not apply", buy: 3900, sell: 4100, expected: "accepted" },
  ])("$name → $expected", ({ buy, sell, expected }) => {
    const v = verdicts([...others, quote("d4", buy, sell)], ctx({ global: 4000 }));
    expect(v["d4"]).toBe(expected);
  });

  test("no other seller quoting that day: no side check", () => {
    expect(verdicts([quote("d1", 4051, null)], ctx({ global: 4000 }))).toEqual({ d1: "accepted" });
  });

  test("one other seller is enough for rule 7 (rule 6 needs three)", () => {
    // d1 quotes both sides at 3,960 / 4,050; d2's lone buy of 4,100 is above d1's sell.
    const v = verdicts([quote("d1", 3960, 4050), quote("d2", 4100, null)], ctx({ global: 4000 }));
    expect(v).toEqual({ d1: "accepted", d2: "side-doubtful" });
  });

  test("others quoting only the same side: nothing to compare a lone buy with", () => {
    const v = verdicts([quote("d1", 3960, null), quote("d2", 4100, null)], ctx({ global: 4000 }));
    expect(v).toEqual({ d1: "accepted", d2: "accepted" });
  });
});
