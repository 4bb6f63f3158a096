/**
 * Every constant of docs/methodology.md (§13 lists them), in one place, under the same names.
 * Changing one of these changes what the published numbers mean: change the changelog with it.
 */
export const CLOCK_SKEW_MS = 5 * 60 * 1000; // Accepting quotes, rule 4
export const PLAUSIBLE_BAND = 0.1; // Accepting quotes, rule 6: ±10 %
export const PLAUSIBLE_MIN_PEERS = 3; // rule 6: fewer other sellers ⇒ compare with the official rate
/**
 * Rule 6 for an asset with no official rate that day (gold): the band around the global reference,
 * wider above than below because the local price of gold stands well above the world price when the
 * pound is under pressure (2023), yet narrow enough to catch an ounce read as a gram, a price per 10
 * or 100 grams, or one karat read as another far from it.
 */
export const GLOBAL_BAND_BELOW = 0.25; // 25 % below the global reference
export const GLOBAL_BAND_ABOVE = 0.6; // 60 % above it
/** New sources: probation. A source graduates after this many successful runs (over ≥ 2 Cairo days, none refused by rules 3, 5, 6 or 7). */
export const PROBATION_RUNS = 24;
/** New sources: probation. The Cairo days the graduating runs must span at least. */
export const PROBATION_MIN_DAYS = 2;
/**
 * New sources: probation. The least real time from the first graduating run to the last: two Cairo
 * dates alone are two runs either side of midnight, and a clock set back made 23 runs in 23 minutes
 * plus one "two days earlier" look like two days (issue 50).
 */
export const PROBATION_MIN_SPAN_MS = 23 * 3_600_000;
/** New sources: probation. A graduated source with this many quotes refused by rules 3, 6 or 7 in one run goes back. */
export const PROBATION_RETURN_REFUSALS = 2;
export const SERIES_WINDOW_DAYS = 30; // History
export const LOOKBACK_DAYS = 90; // The verdict: prior days used
export const LOOKBACK_MAX_AGE_DAYS = 365; // The verdict: prior days not older than this
export const MIN_PRIOR_DAYS = 10; // Calibrating below this
export const HIGH_POSITION = 0.75;
export const LOW_POSITION = 0.25;
export const TREND_DAYS = 7;
export const TREND_MIN_VALUES = 3;
export const FLAT_PCT = 0.25;
export const OFFICIAL_TOL_PCT = 0.5;
export const GLOBAL_NOTABLE_PCT = 2;
export const FRESH_MAX_MS = 3 * 3600 * 1000; // Freshness
export const DELAYED_MAX_MS = 8 * 3600 * 1000;
export const BUILD_MAX_AGE_MS = 2 * 3600 * 1000; // /readyz
export const SOURCE_DISAGREE_PCT = 1; // Confidence
export const FAVORABILITY_DECIMALS = 3;
export const PCT_DECIMALS = 2;
export const CHANGE_MAX_GAP_DAYS = 7; // Change since the previous close: D_prev at most this many days before asOf

/** Raw quotes are kept this many Cairo days back from the build date; older days are compacted. */
export const RAW_RETENTION_DAYS = 7;

/**
 * The official and global rates are published on business days; the last one stays in force on the
 * days after it (a Friday uses Thursday's official rate) for at most this many days.
 */
export const REFERENCE_MAX_AGE_DAYS = 7;

/** What changed (§12): an event is kept, and published, this many days after the build that saw it. */
export const EVENTS_RETENTION_DAYS = 30;
/** What changed (§12): the pages show this many of the latest events. */
export const EVENTS_ON_PAGES = 5;

/** Seller records (§13): the short and the long window, in archive days of the asset up to its asOf. */
export const RECORD_SHORT_DAYS = 30;
export const RECORD_LONG_DAYS = 365;
