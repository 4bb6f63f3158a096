/** docs/methodology.md §8: how many independent sources saw the asset today, and whether they agree. */
export type ConfidenceLevel = "high" | "medium" | "low" | "none";
const LEVELS: readonly ConfidenceLevel[] = ["none", "low", "medium", "high"];

export function confidence(checks: number, sourcesDisagree: boolean): { level: ConfidenceLevel; checks: number } {
  let i = Math.min(checks, 3);
  // A disagreement drops one step, but never below "low" while a source saw the asset.
  if (sourcesDisagree && i > 1) i -= 1;
  return { level: LEVELS[i]!, checks };
}
