/** The words the pages use for the feed's codes; the API itself stays language-neutral. */
import type { Site } from "../../schema/inputs.js";
import type { ConfidenceLevel, FreshnessState, Verdict } from "../../schema/outputs.js";

/** Descriptions of today against the past, never advice: no "buy now", no "wait" (METHODOLOGY). */
export const VERDICT_LABELS: Record<Verdict, string> = {
  favorable: "Favorable day",
  weak: "Weak day",
  ordinary: "Ordinary day",
  mixed: "Mixed signals",
  calibrating: "Calibrating: too little history",
};

export const FRESHNESS_LABELS: Record<FreshnessState, string> = {
  fresh: "Fresh",
  closed: "Market closed, last prices current",
  delayed: "Delayed",
  stale: "Stale",
};

export const CONFIDENCE_LABELS: Record<ConfidenceLevel, string> = {
  high: "High confidence",
  medium: "Medium confidence",
  low: "Low confidence",
  none: "No confidence",
};

const CATEGORY_TITLES: Record<string, string> = { currencies: "Currencies", metals: "Gold and metals" };

export function categoryTitle(slug: string): string {
  return CATEGORY_TITLES[slug] ?? slug.charAt(0).toUpperCase() + slug.slice(1).replace(/-/g, " ");
}

const cairo = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Cairo",
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** An instant as a Cairo wall-clock time, daylight saving included. */
export function cairoTime(iso: string): string {
  return `${cairo.format(new Date(iso))} Cairo`;
}

export function simulatedBanner(site: Site): { banner?: string } {
  return site.simulated ? { banner: "<strong>Simulated sample data.</strong> The sellers are fictional and every number is generated; nothing here is a real rate." } : {};
}
