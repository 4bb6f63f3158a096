/**
 * The archive's hand-written JSON (src/feed/archive/json.ts) is canonical(): the same bytes for any
 * entry, seller row and day asset (property tests over random values, strings with quotes, escapes
 * and Arabic included), and every archive file of a real build is its own canonical form.
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { promises as fs } from "node:fs";
import path from "node:path";
import { canonical } from "../../src/core/canonical.js";
import { dayAssetJson, daySellerJson, entryJson, withItems } from "../../src/feed/archive/json.js";
import type { ArchiveEntry } from "../../src/schema/archive.js";
import type { DaySeller } from "../../src/rules/archive.js";
import { builtSample } from "../helpers/site.js";

const text = fc.oneof(fc.string(), fc.constantFrom('Bank "Misr"', "بنك مصر", "a\\b\nc", "\u2028", "</script>"));
const price = fc.oneof(
  fc.constant(null),
  fc.double({ min: 0.0001, max: 1e7, noNaN: true }),
  fc.integer({ min: 0, max: 1e6 }),
);
const seller = fc.option(fc.record({ id: text, seller: text, sellerAr: fc.option(text, { nil: null }) }), {
  nil: null,
});
const entry: fc.Arbitrary<ArchiveEntry> = fc.record({
  date: fc.constantFrom("2026-11-19", "2025-01-01"),
  buyLo: price,
  buyHi: price,
  sellLo: price,
  sellHi: price,
  bench: price,
  bestSell: seller,
  bestBuy: seller,
  official: fc.option(fc.record({ buy: price, sell: price }), { nil: null }),
  global: price,
  sellerCount: fc.nat(),
});
const row: fc.Arbitrary<DaySeller> = fc.record({
  id: text,
  seller: text,
  sellerAr: fc.option(text, { nil: null }),
  buy: price,
  sell: price,
  observedAt: fc.constant("2026-11-19T10:00:00.000Z"),
  source: text,
  sources: fc.array(text, { minLength: 1, maxLength: 3 }),
});

describe("hand-written canonical JSON", () => {
  test("an entry", () =>
    fc.assert(
      fc.property(entry, (e) => entryJson(e) === canonical(e)),
      { numRuns: 2000 },
    ));
  test("a seller row", () =>
    fc.assert(
      fc.property(row, (r) => daySellerJson(r) === canonical(r)),
      { numRuns: 2000 },
    ));
  test("a day's asset and a document around its items", () =>
    fc.assert(
      fc.property(entry, fc.array(row, { maxLength: 4 }), text, (e, rows, name) => {
        const head = {
          category: "currencies",
          decimals: 2,
          id: "USD-EGP",
          kind: "currency",
          market: "competitive",
          name,
          nameAr: name,
          slug: "us-dollar",
          unit: "EGP/USD",
        };
        const asset = dayAssetJson(head, entryJson(e), rows);
        const whole = { ...head, entry: e, sellers: rows };
        return (
          asset === canonical(whole) &&
          withItems({ _about: name, date: "2026-11-19" }, "assets", [asset]) ===
            canonical({ _about: name, date: "2026-11-19", assets: [whole] })
        );
      }),
      { numRuns: 500 },
    ));
});

test("every archive file of a build of the sample is canonical", async () => {
  const out = await builtSample("pf-archive-json-");
  let n = 0;
  for (const dir of ["api/v1/days", "api/v1/history"])
    for (const f of await fs.readdir(path.join(out, dir))) {
      if (!f.endsWith(".json")) continue;
      const body = await fs.readFile(path.join(out, dir, f), "utf8");
      expect(canonical(JSON.parse(body)), f).toBe(body);
      n++;
    }
  expect(n).toBeGreaterThan(100);
});
