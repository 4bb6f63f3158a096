/**
 * The fast exact checks of src/schema/fast-inputs.ts accept exactly what the zod row schemas accept
 * (parseNdjson trusts them for every hot row), on generated rows: valid ones, and ones with each
 * field swapped for an edge case (empty, too long, NaN, ±Infinity, -0, a number as a string, null,
 * an array, an object, a missing or an extra key, `__proto__`), plus arbitrary JSON values.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { z } from "zod";
import { DayClose, GlobalRate, OfficialRate, Quote } from "../../src/schema/inputs.js";
import { FLAT_ROWS, isDayClose, isGlobalRate, isOfficialRate, isQuote } from "../../src/schema/fast-inputs.js";

const MISSING = Symbol("missing");
const edge = fc.constantFrom<unknown>(
  "",
  "x",
  "a".repeat(64),
  "a".repeat(65),
  "2026-11-19",
  "2026-11-19\n",
  "２０２６-11-19",
  "2026-1-19",
  "sell",
  "buy",
  "SELL",
  0,
  -0,
  1.5,
  -3,
  NaN,
  Infinity,
  -Infinity,
  Number.MAX_VALUE,
  1e-320,
  "1.5",
  null,
  true,
  [],
  ["a", "b"],
  ["a"],
  ["a", "b", "c"],
  [1, 2],
  {},
  { a: 1 },
  MISSING,
);
/** A field's value: usually valid, sometimes an edge case, sometimes any JSON value. */
const field = (valid: fc.Arbitrary<unknown>, weight = 40) =>
  fc.oneof(
    { weight, arbitrary: valid },
    { weight: 2, arbitrary: edge },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );

/** A row; `nested` ones (inside a DayClose) are spoiled more rarely, so that whole DayCloses are often valid. */
function row(shape: Record<string, fc.Arbitrary<unknown>>, nested = false): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(shape).map(([k, a]) => [k, field(a, nested ? 300 : 40)]));
  const extra = fc.oneof(
    { weight: nested ? 60 : 8, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom("extra", "__proto__", "constructor", "Source"),
        fc.jsonValue({ maxDepth: 1 }),
      ),
    },
  );
  return fc.tuple(fc.record(fields), extra).map(([o, x]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) if (v !== MISSING) out[k] = v;
    if (x) Object.defineProperty(out, x[0], { value: x[1], enumerable: true, writable: true, configurable: true });
    return out;
  });
}

const str = fc.string({ maxLength: 70 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const price = fc.oneof(finite, fc.constant(null));
const date = fc.oneof(fc.constant("2026-11-19"), fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/));

const quote = row({ source: str, seller: str, asset: str, buy: price, sell: price, observedAt: str });
const official = row({ source: str, asset: str, buy: price, sell: price, observedAt: str });
const global = row({ source: str, asset: str, value: finite, observedAt: str });
const sellerClose = row(
  { seller: str, source: str, sources: fc.array(str, { maxLength: 3 }), buy: price, sell: price, observedAt: str },
  true,
);
const disagreement = row(
  { seller: str, sources: fc.tuple(str, str), side: fc.constantFrom("sell", "buy"), diffPct: finite },
  true,
);
const dayClose = row({
  date,
  asset: str,
  closes: fc.array(sellerClose, { maxLength: 3 }),
  sources: fc.array(str, { maxLength: 3 }),
  disagreements: fc.array(disagreement, { maxLength: 2 }),
  observedAt: fc.oneof(str, fc.constant(null)),
});

const cases: Array<[string, z.ZodType, (v: unknown) => boolean, fc.Arbitrary<unknown>]> = [
  ["Quote", Quote, isQuote, quote],
  ["OfficialRate", OfficialRate, isOfficialRate, official],
  ["GlobalRate", GlobalRate, isGlobalRate, global],
  ["DayClose", DayClose, isDayClose, dayClose],
];

describe("fast row checks agree with the zod schemas", () => {
  for (const [name, schema, fast, arb] of cases) {
    it(`${name}: accept and reject alike`, () => {
      fc.assert(
        fc.property(fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: fc.anything() }), (v) => {
          expect(fast(v)).toBe(schema.safeParse(v).success);
        }),
        { numRuns: 3000 },
      );
    });
    it(`${name}: generated rows are often valid (the generator reaches the accepting side)`, () => {
      const sample = fc.sample(arb, { numRuns: 2000, seed: 1 });
      expect(sample.filter((v) => schema.safeParse(v).success).length).toBeGreaterThan(50);
    });
  }
});

describe("FLAT_ROWS: the checks whose rows may be parsed many lines at a time (src/io/ndjson.ts flatChunk)", () => {
  it("are the checks of quotes, official and global rates, and not a day's close (it nests)", () => {
    expect([...FLAT_ROWS]).toEqual([isQuote, isOfficialRate, isGlobalRate]);
    expect(FLAT_ROWS.has(isDayClose)).toBe(false);
  });
  for (const [name, , fast, arb] of cases.filter(([, , f]) => FLAT_ROWS.has(f))) {
    it(`${name}: every row it accepts is an object whose values are strings, numbers or null`, () => {
      fc.assert(
        fc.property(fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: fc.anything() }), (v) => {
          if (!fast(v)) return;
          for (const x of Object.values(v as object))
            expect(x === null || typeof x === "string" || typeof x === "number").toBe(true);
        }),
        { numRuns: 3000 },
      );
    });
  }
});
