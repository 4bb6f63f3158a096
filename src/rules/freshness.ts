/**
 * docs/methodology.md §7: how old the newest observation is in trading time, and the state that
 * follows. Used by the build (at the build instant) and by /readyz (at the request instant), so it
 * has no node:* imports.
 */
import { DELAYED_MAX_MS, FRESH_MAX_MS } from "../core/methodology.js";
import { inSession, tradingAgeMs } from "../core/cairo.js";
import type { CategoryCalendar } from "../schema/inputs.js";

export type FreshnessState = "fresh" | "closed" | "delayed" | "stale";

export function freshnessState(observedAtMs: number | null, nowMs: number, cal: CategoryCalendar): FreshnessState {
  if (observedAtMs === null) return "stale";
  const age = tradingAgeMs(observedAtMs, nowMs, cal, DELAYED_MAX_MS);
  if (age > DELAYED_MAX_MS) return "stale";
  if (age > FRESH_MAX_MS) return "delayed";
  return inSession(nowMs, cal) ? "fresh" : "closed";
}

export function freshness(observedAtMs: number | null, nowMs: number, cal: CategoryCalendar) {
  const state = freshnessState(observedAtMs, nowMs, cal);
  return { state, stale: state === "stale" };
}
