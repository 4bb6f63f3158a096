/** What every source of the sources file has: its id, name, kind and credit; and the shared value types. */
import { z } from "zod";

export const Id = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a lowercase hyphenated id");
export const AssetId = z.string().regex(/^[A-Z0-9]+-[A-Z0-9]+$/, "expected an asset id <BASE>-<QUOTE>");
export const Url = z.url({ protocol: /^https?$/ });
export const base = {
  id: Id,
  name: z.string().min(1),
  enabled: z.boolean().default(true),
  /** How the source asks to be credited where its data is redistributed (shown on the terms page). */
  attribution: z.string().min(1).optional(),
  /** The operator's remark (why a source is disabled, what to check when it breaks); not used by the feed. */
  note: z.string().min(1).optional(),
};

/**
 * What a source is, which the rules weigh: `seller`, a licensed seller's own publication (its page,
 * its file); `aggregator`, a site that relays many sellers' prices (the quotes are the sellers',
 * the source is the aggregator); `official`, the central bank; `reference`, a global mid-market
 * rate.
 */
export const SourceKind = z.enum(["seller", "aggregator", "official", "reference"]);
export type SourceKind = z.infer<typeof SourceKind>;
export const kind = (d: SourceKind) => ({ kind: SourceKind.default(d) });
