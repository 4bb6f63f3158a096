/** The index served at /api/v1 (endpoints, accepted filter values, limits, links). */
import {
  CHANGELOG_PATH,
  DAYS_PATH,
  DAYS_PREFIX,
  HISTORY_PREFIX,
  DOCS_PATH,
  EVENTS_ASSET_PREFIX,
  EVENTS_ATOM_PATH,
  EVENTS_PATH,
  FEED_PATH,
  INDEX_PATH,
  OPENAPI_PATH,
  READYZ_PATH,
  SELLERS_PATH,
  SELLERS_PREFIX,
  TERMS_PATH,
} from "./paths.js";
import { EVENTS_RETENTION_DAYS, LOOKBACK_DAYS, SERIES_WINDOW_DAYS } from "../core/methodology.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import type { Catalog, Site } from "../schema/inputs.js";
import { homesOf } from "./homes.js";

/**
 * While the service is busy, an anonymous caller gets 1/ANONYMOUS_BUSY_SHARE of the burst
 * (specification, Authentication 3 and Limits: heavy anonymous traffic is slowed first). Defined
 * here, with the index that publishes the rule; src/edge/policy.ts, which enforces it, reads it.
 */
export const ANONYMOUS_BUSY_SHARE = 4;

/** An anonymous caller's window while the service is busy: a quarter of the burst, at least one request. */
export const anonymousWindow = (window: number): number => Math.max(1, Math.floor(window / ANONYMOUS_BUSY_SHARE));
import type { IndexDoc } from "../schema/documents.js";

export function buildIndex(catalog: Catalog, site: Site): IndexDoc {
  return {
    _self: INDEX_PATH,
    _docs: DOCS_PATH,
    _spec: OPENAPI_PATH,
    _changelog: CHANGELOG_PATH,
    _terms: TERMS_PATH,
    version: "v1",
    schemaVersion: 1,
    endpoints: [
      {
        method: "GET",
        path: FEED_PATH,
        description: "Every asset, or the subset chosen by the filters.",
        parameters: ["category", "asset"],
      },
      {
        method: "GET",
        path: `${HISTORY_PREFIX}{asset}.json`,
        description:
          "One asset's every day since the data begins ({asset}: a slug or an id, any letter case); ?from= and ?to= narrow it to inclusive Cairo dates.",
        parameters: ["from", "to"],
      },
      {
        method: "GET",
        path: `${HISTORY_PREFIX}{asset}.csv`,
        description: "The same as CSV (RFC 4180, one header line, empty cells for null).",
        parameters: ["from", "to"],
      },
      {
        method: "GET",
        path: `${DAYS_PREFIX}{date}.json`,
        description: "The whole market as it closed on one Cairo date (YYYY-MM-DD).",
        parameters: [],
      },
      { method: "GET", path: DAYS_PATH, description: "The dates the archive has.", parameters: [] },
      {
        method: "GET",
        path: SELLERS_PATH,
        description: "Every registered seller that has quoted, with the assets it quotes and the path of its record.",
        parameters: [],
      },
      {
        method: "GET",
        path: `${SELLERS_PREFIX}{id}.json`,
        description:
          "One seller's record, per asset: over the last 30 and 365 archive days, how often it quoted and was best on each side, how far from the best it usually was, its usual spread, when it last quoted; and today's row ({id}: as the list gives it, any letter case).",
        parameters: [],
      },
      {
        method: "GET",
        path: EVENTS_PATH,
        description: `What changed in the last ${EVENTS_RETENTION_DAYS} days, newest first: best sellers, verdicts, official rates, stale assets, failing sources, confidence.`,
        parameters: [],
      },
      {
        method: "GET",
        path: EVENTS_ATOM_PATH,
        description: "The same events as an Atom feed (RFC 4287).",
        parameters: [],
      },
      {
        method: "GET",
        path: `${EVENTS_ASSET_PREFIX}{slug}.json`,
        description: "One asset's events ({slug}: the asset's slug, lower case); .atom for the same as Atom.",
        parameters: [],
      },
      {
        method: "GET",
        path: `${EVENTS_ASSET_PREFIX}{slug}.atom`,
        description: "One asset's events as an Atom feed.",
        parameters: [],
      },
      { method: "GET", path: INDEX_PATH, description: "This index.", parameters: [] },
      {
        method: "GET",
        path: OPENAPI_PATH,
        description: "OpenAPI 3.1 description of every field and response.",
        parameters: [],
      },
      { method: "GET", path: CHANGELOG_PATH, description: "Changelog of the API.", parameters: [] },
      {
        method: "GET",
        path: READYZ_PATH,
        description: "200 when the data is fresh, 503 when it is not.",
        parameters: [],
      },
    ],
    filters: {
      category: [...new Set(catalog.map((a) => a.category))],
      asset: catalog.map((a) => ({ id: a.id, slug: a.slug, name: a.name, nameAr: a.nameAr, category: a.category })),
    },
    limits: {
      window: { limit: WINDOW_LIMIT, seconds: WINDOW_SECONDS },
      daily: { limit: DAILY_LIMIT, resetsAt: "00:00 Africa/Cairo" },
      seriesWindowDays: SERIES_WINDOW_DAYS,
      lookbackDays: LOOKBACK_DAYS,
      dataChangesAtMostEvery: "PT1H",
      suggestedPollEvery: "PT5M",
      // Specification, Authentication 3 and Limits: heavy anonymous traffic is slowed first (src/edge/policy.ts).
      anonymousWhenBusy: {
        window: { limit: anonymousWindow(WINDOW_LIMIT), seconds: WINDOW_SECONDS },
        identifyWith: ["X-Contact", "User-Agent"],
        rule:
          `While total traffic is ordinary, every caller gets ${WINDOW_LIMIT} requests per ${WINDOW_SECONDS} s. ` +
          `When the total rate across all addresses passes the operator's threshold, anonymous callers are limited first, to ${anonymousWindow(WINDOW_LIMIT)} per ${WINDOW_SECONDS} s (their RateLimit-Policy says so); ` +
          "a caller that puts a URL or an e-mail address in X-Contact or in User-Agent keeps the full window.",
      },
    },
    homes: homesOf(site),
  };
}
