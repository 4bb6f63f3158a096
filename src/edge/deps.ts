/** What the handler is given by its adapter (the Netlify function, the local server): files, clock, counters, limits. */
import type { Manifest } from "../schema/documents.js";
import type { LocalCommands } from "../feed/readiness.js";
import type { CounterStore } from "./counters.js";
import type { FeedCache } from "./feed-cache.js";

export interface Limits {
  window: number;
  windowSeconds: number;
  daily: number;
  /**
   * The service is busy while more than `limit` requests per `seconds` arrive from all addresses
   * together; anonymous callers are then limited first (policy.ts). Absent: never busy.
   */
  busy?: { limit: number; seconds: number } | undefined;
}

export interface Deprecation {
  /** When the version was deprecated (RFC 9745 `Deprecation: @<seconds>`). */
  deprecatedAt: string;
  /** When it goes away (RFC 8594 `Sunset: <HTTP-date>`). */
  sunset: string;
}

export interface HandlerDeps {
  /** A file of the published site, by its path relative to the site's root; null when absent. */
  readFile(path: string): Promise<string | null>;
  /**
   * A file that is not text (a page's picture: its content type has no charset), as bytes; null when
   * absent. The local server has it; the edge function serves no such file (the CDN does).
   */
  readBytes?(path: string): Promise<Uint8Array<ArrayBuffer> | null>;
  manifest(): Promise<Manifest>;
  counters: CounterStore;
  /** The data clock: freshness, /readyz, If-Modified-Since. Pinned by `serve --now`. */
  now(): number;
  /**
   * The wall clock the rate limiter runs on (windows, Retry-After, RateLimit-Reset, the Cairo day of
   * the daily allowance); defaults to now(). Never pinned: a client that waits out Retry-After must get
   * through (RFC 9110 §10.2.3, RFC 6585 §4), whatever instant the data is served at.
   */
  limiterNow?(): number;
  /** The client's address as the adapter knows it (client.ts clientAddress); the handler keys it by clientKey. */
  clientAddress: string;
  limits: Limits;
  /** Deprecated API versions, by path prefix ("v1"). */
  deprecations?: Readonly<Record<string, Deprecation>>;
  /** The local server also serves the pages; on Netlify the CDN does. */
  serveSite?: boolean;
  /**
   * The local server's own command lines (`npx price-feed serve --dir public` and the build into that
   * folder, without --now), so that /readyz's action can end with what shows this build's data ready
   * (src/feed/readiness.ts localHint).
   */
  local?: LocalCommands;
  /** Parsed documents reused across requests of one build. */
  cache?: FeedCache;
}
