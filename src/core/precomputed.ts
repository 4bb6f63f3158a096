/**
 * What `npm run compile` computes once, at bundle time (scripts/bundle-cli.mjs), instead of every
 * build computing it again at start: results that depend only on the code and the repository's
 * docs/methodology.md, and the fingerprint of the code itself. This module is what the unbundled
 * program (tsc's output, vitest) sees: nothing precomputed, so everything is computed as it is
 * needed. In the command line's bundle, scripts/bundle-cli.mjs puts in its place a module exporting
 * the values computed at compile time (as it does for compiled-outputs.ts). Either way the bytes are
 * the same (test/cli/bundle.test.ts builds both ways and compares).
 */

export interface Precomputed {
  /** docs/methodology.md as it was at compile time, and its HTML at the docs page's heading shift. */
  methodology: { markdown: string; html: string };
  /** componentSchemas() of src/render/openapi/schemas.ts: a function of the zod schemas alone. */
  componentSchemas: Record<string, Record<string, unknown>>;
  /** src/incremental/fingerprint.ts sourceFingerprint() of the sources the bundle was made from. */
  codeSha256: string;
}

export const precomputed: Precomputed | undefined = undefined;
