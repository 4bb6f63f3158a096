/**
 * docs/methodology.md §2.3 (a seller's close between its own publication and the aggregators that
 * relay it) and §8 (confidence lowered by an inverted market), as tables.
 */
import { describe, expect, test } from "vitest";
import { closeDay, type SourceOrder } from "../../src/rules/closes.js";
import { confidence, isInverted } from "../../src/rules/confidence.js";
import { sourceOrder } from "../../src/rules/days.js";
import type { AcceptedQuote } from "../../src/rules/acceptance.js";
import { SourceConfig } from "../../src/schema/sources.js";

const at = (hhmm: string) => Date.parse(`2026-11-19T${hhmm}:00Z`);
const quote = (source: string, sell: number, hhmm: string, seller = "alpha"): AcceptedQuote => ({
  source,
  seller,
  asset: "USD-EGP",
  buy: sell - 0.1,
  sell,
  observedAtMs: at(hhmm),
  file: "quotes/2026-11-19.ndjson",
  line: 1,
});

// Listed in this order: an aggregator first on purpose, so that kind and not position decides.
const ORDER: SourceOrder = sourceOrder(
  [
    { id: "relay-a", name: "A", adapter: "demo", kind: "aggregator" },
    { id: "own-page", name: "Own", adapter: "demo", kind: "seller" },
    { id: "relay-b", name: "B", adapter: "demo", kind: "aggregator" },
    { id: "own-file", name: "Own file", adapter: "demo", kind: "seller" },
  ].map((s) => SourceConfig.parse(s)),
);

describe("a seller's close between its own publication and relays (§2.3)", () => {
  test.each([
    {
      name: "its own publication wins over a later relay",
      quotes: [quote("own-page", 47.6, "10:00"), quote("relay-a", 47.7, "12:00")],
      source: "own-page",
      sell: 47.6,
    },
    {
      name: "a relay counts on a day without an own quote",
      quotes: [quote("relay-b", 47.7, "12:00"), quote("relay-a", 47.65, "11:00")],
      source: "relay-b",
      sell: 47.7,
    },
    {
      name: "among relays the latest wins",
      quotes: [quote("relay-a", 47.65, "11:00"), quote("relay-b", 47.7, "12:00")],
      source: "relay-b",
      sell: 47.7,
    },
    {
      name: "among own publications the latest wins",
      quotes: [quote("own-page", 47.6, "10:00"), quote("own-file", 47.62, "11:00")],
      source: "own-file",
      sell: 47.62,
    },
    {
      name: "equal instants: the source listed first wins",
      quotes: [quote("own-file", 47.62, "10:00"), quote("own-page", 47.6, "10:00")],
      source: "own-page",
      sell: 47.6,
    },
    {
      name: "a source no longer configured is a relay, listed last",
      quotes: [quote("gone", 47.5, "13:00"), quote("relay-b", 47.7, "13:00")],
      source: "relay-b",
      sell: 47.7,
    },
  ])("$name", ({ quotes, source, sell }) => {
    const [day] = closeDay("2026-11-19", quotes, ORDER);
    expect(day!.closes).toHaveLength(1);
    expect(day!.closes[0]).toMatchObject({ seller: "alpha", source, sell });
  });

  test("every source that reported the seller is kept, and the asset's newest observation is any source's", () => {
    const [day] = closeDay(
      "2026-11-19",
      [quote("own-page", 47.6, "10:00"), quote("relay-a", 47.7, "12:00"), quote("relay-b", 47.6, "09:00")],
      ORDER,
    );
    expect(day!.closes[0]!.sources).toEqual(["own-page", "relay-a", "relay-b"]);
    expect(day!.sources).toEqual(["own-page", "relay-a", "relay-b"]);
    expect(day!.observedAt).toBe("2026-11-19T12:00:00Z");
  });
});

describe("confidence and an inverted market (§8)", () => {
  test.each([
    { name: "ordinary market", buy: 47.5, sell: 47.6, inverted: false },
    { name: "equal best prices are not inverted", buy: 47.6, sell: 47.6, inverted: false },
    { name: "best buy above best sell", buy: 47.7, sell: 47.6, inverted: true },
    { name: "one side missing", buy: null, sell: 47.6, inverted: false },
  ])("$name → inverted $inverted", ({ buy, sell, inverted }) => {
    expect(isInverted(buy, sell)).toBe(inverted);
  });

  test.each([
    { checks: 3, disagree: false, inverted: true, level: "medium" },
    { checks: 3, disagree: true, inverted: true, level: "low" },
    { checks: 5, disagree: true, inverted: true, level: "low" },
    { checks: 2, disagree: false, inverted: true, level: "low" },
    { checks: 1, disagree: true, inverted: true, level: "low" },
    { checks: 0, disagree: false, inverted: true, level: "none" },
  ] as const)(
    "$checks sources, disagreement $disagree, inverted $inverted → $level",
    ({ checks, disagree, inverted, level }) => {
      expect(confidence(checks, disagree, inverted)).toEqual({ level, checks });
    },
  );
});
