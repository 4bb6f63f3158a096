/**
 * docs/methodology.md §2.1 test 2 and "Peers": a price that is not a finite, positive number small
 * enough to round exactly is refused before any rule, at ingest and at build, so no NaN reaches a
 * median, a row or a file (issue 50: a 22-digit price rounded to NaN, mis-sorted rule 6's median and
 * refused every genuine quote judged against it). Property tests over arbitrary strings and numbers.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { acceptDay, type AcceptanceContext } from "../../src/rules/acceptance.js";
import { parsePrice } from "../../src/ingest/document/numbers.js";
import { planAppends } from "../../src/ingest/log.js";
import { isSafePrice } from "../../src/core/round.js";
import type { LocatedQuote } from "../../src/core/dataset.js";
import type { Quote, RegistrySeller } from "../../src/schema/inputs.js";
import { catalog } from "../helpers/dataset.js";
import { bank, usdQuote } from "../helpers/rules.js";

const usd = catalog.find((a) => a.id === "USD-EGP")!;
const ctx: AcceptanceContext = {
  date: "2026-11-19",
  nowMs: Date.parse("2026-11-19T12:00:00Z"),
  assets: new Map([[usd.id, usd]]),
  sellers: new Map(["a", "b", "c", "d", "e", "f"].map((s) => [s, bank(s)]) as Array<[string, RegistrySeller]>),
  official: () => ({ buy: 47.5, sell: 47.6 }),
  sourceRank: () => 0,
  ownSource: () => false,
};

/** Any number a page or a log could give: ordinary prices, huge ones, tiny ones, non-finite ones. */
const anyPrice = fc.oneof(
  fc.double({ min: 40, max: 55, noNaN: true }),
  fc.double(),
  fc.constantFrom(1e21, 1e30, -1, 0, Number.MAX_VALUE, Infinity, NaN, 9_007_199_254_740_991),
  fc.constant(null),
);

describe("every number is finite and bounded before it is kept", () => {
  test("the build: whatever the quotes' numbers, every accepted price is finite, positive and safe, and the genuine ones stand", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("b", "c", "d", "e", "f"), anyPrice, anyPrice), { maxLength: 12 }),
        (rows) => {
          // Three genuine banks from their own sources, and a hostile source's rows among them.
          const genuine: Quote[] = ["a", "b", "c"].map((seller) =>
            usdQuote({ seller, source: `own-${seller}`, buy: 47.5, sell: 47.6 }),
          );
          const hostile = rows.map(([seller, buy, sell]) => usdQuote({ seller, source: "hostile", buy, sell }));
          const quotes: LocatedQuote[] = [...genuine, ...hostile].map((quote, i) => ({
            quote,
            file: "q",
            line: i + 1,
          }));
          const r = acceptDay(quotes, { ...ctx, counts: (s) => s !== "hostile" });
          for (const q of r.accepted)
            for (const v of [q.buy, q.sell]) if (v !== null) expect(isSafePrice(v, usd.decimals)).toBe(true);
          // An unproven source never refuses a counted bank, whatever it sends.
          expect(r.rejected.filter((x) => x.source !== "hostile")).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("ingest: whatever a page's text, a price read is null, 'bad' or a finite positive number", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9]{1,40}(\.[0-9]{1,30})?$/), fc.double()), (text) => {
        const p = parsePrice(text);
        if (p !== null && p !== "bad") expect(Number.isFinite(p) && p > 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test("ingest: an observation with a price too large to round exactly is skipped, named, and nothing of it is appended", () => {
    fc.assert(
      fc.property(anyPrice, anyPrice, (buy, sell) => {
        const q = usdQuote({ buy, sell });
        const plan = planAppends(
          {
            quotes: [q],
            official: [],
            global: [{ source: "g", asset: usd.id, value: buy ?? 1, observedAt: q.observedAt }],
          },
          new Map([[usd.id, usd.decimals]]),
          () => new Set(),
          () => false,
        );
        for (const lines of plan.appends.values())
          for (const line of lines) {
            const o = JSON.parse(line) as Record<string, unknown>;
            for (const k of ["buy", "sell", "value"])
              if (typeof o[k] === "number") expect(isSafePrice(o[k] as number, usd.decimals)).toBe(true);
          }
      }),
      { numRuns: 300 },
    );
    const plan = planAppends(
      { quotes: [usdQuote({ buy: 1e22, sell: 1e22 })], official: [], global: [] },
      new Map([[usd.id, usd.decimals]]),
      () => new Set(),
      () => false,
    );
    expect(plan.appended).toBe(0);
    expect(plan.skipped).toEqual([{ reason: "not a price the feed can keep", detail: "USD-EGP: buy 1e+22" }]);
  });
});
