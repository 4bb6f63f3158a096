/**
 * docs/methodology.md §8: how many independent sources saw the asset on its business date, lowered
 * one step for each sign that the numbers may be wrong: two sources disagreeing about one seller,
 * and an inverted market (the best buy above the best sell).
 */
import type { ConfidenceLevel } from "../schema/outputs.js";

const LEVELS: readonly ConfidenceLevel[] = ["none", "low", "medium", "high"];

export function confidence(
  checks: number,
  sourcesDisagree: boolean,
  inverted = false,
): { level: ConfidenceLevel; checks: number } {
  let i = Math.min(checks, 3);
  // Each cause drops one step, but never below "low" while a source saw the asset.
  for (const cause of [sourcesDisagree, inverted]) if (cause && i > 1) i -= 1;
  return { level: LEVELS[i]!, checks };
}

/**
 * An inverted market: a customer could buy from one seller and sell to another at a profit. Values
 * are compared as published (rounded); equal best prices are not inverted.
 */
export function isInverted(bestBuy: number | null, bestSell: number | null): boolean {
  return bestBuy !== null && bestSell !== null && bestBuy > bestSell;
}
