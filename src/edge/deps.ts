/** What the handler is given by its adapter (the Netlify function, the local server): files, clock, counters, limits. */
import type { Manifest } from "../schema/documents.js";
import type { CounterStore } from "./counters.js";
import type { FeedCache } from "./feed-cache.js";

export interface Limits {
  window: number;
  windowSeconds: number;
  daily: number;
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
  manifest(): Promise<Manifest>;
  counters: CounterStore;
  now(): number;
  /** The client's address as the adapter knows it (client.ts clientAddress); the handler keys it by clientKey. */
  clientAddress: string;
  limits: Limits;
  /** Deprecated API versions, by path prefix ("v1"). */
  deprecations?: Readonly<Record<string, Deprecation>>;
  /** The local server also serves the pages; on Netlify the CDN does. */
  serveSite?: boolean;
  /** Parsed documents reused across requests of one build. */
  cache?: FeedCache;
}
