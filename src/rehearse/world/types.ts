/** The world's interface (docs: /work/notes/rehearse-common.md, issue 49): faults and options. */
import type { Sources } from "../../schema/inputs.js";

/**
 * What the network can do to a source in an hour:
 * - `outage`: the connection is reset before any answer;
 * - `timeout`: the request is held unanswered (the reader's timeout ends it);
 * - `rate-limited`: 429 with `Retry-After: 120`, longer than ingest waits (it gives up for the hour);
 * - `unavailable`: 503 with `Retry-After: 1` on every attempt (ingest waits, asks again, gives up);
 * - `challenge`: a bot wall (Cloudflare's "Just a moment...") with status 200 and no rates;
 * - `unit-per-ounce`: gold priced per troy ounce instead of per gram, nothing else changed;
 * - `unit-per-100`: every price for 100 units;
 * - `sides-swapped`: the buy and sell columns (or members) swapped;
 * - `stale-stamp`: the page stopped two days ago, its stamp and prices of then;
 * - `clock-ahead`: the source's clock three hours ahead: its stamps in the future;
 * - `unknown-bank`: an aggregator lists a bank the registry does not know;
 * - `renamed-bank`: an aggregator writes a bank under a new name (Arab Investment Bank → «بنك نكست»);
 * - `reference-down`: the global reference's every address resets its connections.
 */
export type NetFaultKind =
  | "outage"
  | "timeout"
  | "rate-limited"
  | "unavailable"
  | "challenge"
  | "unit-per-ounce"
  | "unit-per-100"
  | "sides-swapped"
  | "stale-stamp"
  | "clock-ahead"
  | "unknown-bank"
  | "renamed-bank"
  | "reference-down";

export const NET_FAULT_KINDS: readonly NetFaultKind[] = [
  "outage",
  "timeout",
  "rate-limited",
  "unavailable",
  "challenge",
  "unit-per-ounce",
  "unit-per-100",
  "sides-swapped",
  "stale-stamp",
  "clock-ahead",
  "unknown-bank",
  "renamed-bank",
  "reference-down",
];

/** A fault of one hour: on one source (its id), or on every source it can hit ("*"). */
export interface NetFault {
  kind: NetFaultKind;
  source: string;
}

/** The sources file as read (data/sources.json), raw or parsed: the world only rewrites addresses. */
export type SourcesFile = Sources;

export interface WorldOptions {
  seed: string;
  sources: SourcesFile;
  /** The copy: its catalog (assets.json), registry (sellers.json) and calendar (calendar.json). */
  dataDir: string;
  /**
   * Serve every host on 127.0.0.1 under a path of its own (`/<host>/…`), as the world does by itself
   * where the other loopback addresses cannot be bound: ingest then asks every source in one lane.
   */
  oneAddress?: boolean;
}

/** Faults the network side answers itself, whatever the source's format. */
export const NETWORK_FAULTS: ReadonlySet<NetFaultKind> = new Set([
  "outage",
  "timeout",
  "rate-limited",
  "unavailable",
  "challenge",
]);
