/** The small dataset of the end-to-end tests: 15 prior days of USD, today, bad quotes, references. */
import { addDays } from "../../src/core/cairo.js";
import type { Quote } from "../../src/schema/inputs.js";
import type { Rows } from "./dataset.js";

export const TODAY = "2026-11-19"; // a Thursday; Cairo is UTC+2
const at = (date: string, utc: string) => `${date}T${utc}Z`;

/** A quote of the US dollar. */
export const usdQuote = (source: string, seller: string, buy: number, sell: number, observedAt: string): Quote => ({
  source,
  seller,
  asset: "USD-EGP",
  buy,
  sell,
  observedAt,
});

/** 15 prior days of USD at a steady level, then today's quotes, bad quotes and references. */
export function smallRows(): Rows {
  const quotes: Quote[] = [];
  const official: Rows["official"] = [];
  const global: Rows["global"] = [];
  for (let k = 15; k >= 1; k--) {
    const d = addDays(TODAY, -k);
    quotes.push({
      source: "s1",
      seller: "alpha",
      asset: "USD-EGP",
      buy: 49.7,
      sell: 50,
      observedAt: at(d, "10:00:00"),
    });
    quotes.push({
      source: "s1",
      seller: "beta",
      asset: "USD-EGP",
      buy: 49.8,
      sell: 50.1,
      observedAt: at(d, "10:00:00"),
    });
    quotes.push({
      source: "s1",
      seller: "dahab",
      asset: "XAU24K-EGP",
      buy: 6000,
      sell: 6050,
      observedAt: at(d, "10:00:00"),
    });
    quotes.push({
      source: "s2",
      seller: "sagha",
      asset: "XAU24K-EGP",
      buy: 5990,
      sell: 6060,
      observedAt: at(d, "10:00:00"),
    });
    official.push({ source: "cbe", asset: "USD-EGP", buy: 49.9, sell: 50, observedAt: at(d, "08:00:00") });
    global.push({ source: "glob", asset: "CNY-EGP", value: 6.7 + k / 1000, observedAt: at(d, "08:00:00") });
    global.push({ source: "glob", asset: "USD-EGP", value: 49.95, observedAt: at(d, "08:00:00") });
  }
  // Today: alpha improves its sell; s2 sees alpha 1.4 % higher at the same instant (a disagreement,
  // and a tie that the source listed first wins); an earlier alpha quote is superseded.
  quotes.push(
    { source: "s1", seller: "alpha", asset: "USD-EGP", buy: 49.6, sell: 50.2, observedAt: at(TODAY, "08:00:00") },
    { source: "s1", seller: "alpha", asset: "USD-EGP", buy: 49.7, sell: 49.9, observedAt: at(TODAY, "11:00:00") },
    { source: "s2", seller: "alpha", asset: "USD-EGP", buy: 49.7, sell: 50.6, observedAt: at(TODAY, "11:00:00") },
    { source: "s1", seller: "beta", asset: "USD-EGP", buy: 49.8, sell: 50.1, observedAt: at(TODAY, "10:00:00") },
    { source: "s1", seller: "gamma", asset: "USD-EGP", buy: 50.5, sell: 50.3, observedAt: at(TODAY, "10:00:00") }, // crossed
    { source: "s1", seller: "street", asset: "USD-EGP", buy: 49, sell: 50, observedAt: at(TODAY, "10:00:00") }, // unlicensed
    { source: "s1", seller: "gamma", asset: "USD-EGP", buy: 60, sell: 61, observedAt: at(TODAY, "10:30:00") }, // outlier vs official
    { source: "s1", seller: "alpha", asset: "OMR-EGP", buy: 123.1, sell: 123.9, observedAt: at(TODAY, "09:00:00") },
    { source: "s1", seller: "dahab", asset: "XAU24K-EGP", buy: 6010, sell: 6040, observedAt: at(TODAY, "09:00:00") },
  );
  official.push({ source: "cbe", asset: "USD-EGP", buy: 49.9, sell: 50.01, observedAt: at(TODAY, "08:00:00") });
  official.push({ source: "cbe", asset: "CNY-EGP", buy: 6.69, sell: 6.71, observedAt: at(TODAY, "08:00:00") });
  global.push({ source: "glob", asset: "CNY-EGP", value: 6.7101, observedAt: at(TODAY, "08:00:00") });
  global.push({ source: "glob", asset: "CNY-EGP", value: 6.7205, observedAt: at(TODAY, "09:00:00") });
  global.push({ source: "glob", asset: "USD-EGP", value: 49.95, observedAt: at(TODAY, "08:00:00") });
  return { quotes, official, global };
}
