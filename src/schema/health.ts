/**
 * data/state/build.json: the last build's outcome, so that `price-feed health` (src/feed/health.ts)
 * can tell a refused build from a good one. A refused build publishes nothing and leaves the site
 * and the other state as they were; this record is the one trace it leaves (src/io/build-outcome.ts).
 * No node:* imports: the schema is shared.
 */
import { z } from "zod";
import { IsoInstant } from "./outputs.js";

export const BuildOutcome = z.strictObject({
  /** The build's instant (its --now). */
  at: IsoInstant,
  outcome: z.enum(["built", "refused"]),
  /** Why it was refused, in one line with every URL's userinfo, query and fragment removed; null when built. */
  reason: z.string().nullable(),
  /** The instant of the last build that was published: this one when built; null when none is on record. */
  lastBuiltAt: IsoInstant.nullable(),
});
export type BuildOutcome = z.infer<typeof BuildOutcome>;
