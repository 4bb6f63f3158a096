/**
 * What `npm run compile` computes once, at bundle time (scripts/bundle-cli.mjs), instead of every
 * build computing it again at start: results that depend only on the code and the repository's
 * docs/methodology.md, and the fingerprint of the code itself. esbuild writes them in as the
 * constant below; where it has not (the modules run unbundled, under tsc's output or vitest), the
 * constant is absent and everything is computed as before. Either way the bytes are the same
 * (test/cli-bundle.test.ts builds both ways and compares).
 */
import type { Json } from "./openapi-parts.js";

export interface Precomputed {
  /** docs/methodology.md as it was at compile time, and its HTML at the docs page's heading shift. */
  methodology: { markdown: string; html: string };
  /** componentSchemas() of src/api/openapi.ts: a function of the zod schemas alone. */
  componentSchemas: Record<string, Json>;
  /** src/io/closed-days.ts sourceFingerprint() of the sources the bundle was made from. */
  codeSha256: string;
}

declare const PRICE_FEED_PRECOMPUTED: Precomputed | undefined;

export const precomputed: Precomputed | undefined =
  typeof PRICE_FEED_PRECOMPUTED === "undefined" ? undefined : PRICE_FEED_PRECOMPUTED;
