/**
 * The output documents' checks compiled to plain JavaScript, or undefined. This module is what the
 * unbundled program (tsc's output, vitest) sees: no compiled checks, so src/feed/validate.ts runs
 * zod itself. In the command line's bundle, scripts/bundle-cli.mjs puts in its place the code that
 * scripts/output-checks.ts generates from the same zod schemas, which exports the checks here (as it
 * does for src/core/precomputed.ts).
 */
import type { CheckedDocument } from "./documents.js";

/** A compiled check: true when the value (as JSON.parse gives it) is a valid document. */
export type OutputCheck = (value: unknown) => boolean;

export const compiledOutputs: Readonly<Record<CheckedDocument, OutputCheck>> | undefined = undefined;
