/** The schema of an unknown seller name as ingest keeps it and sources.json publishes it (src/core/unknown-names.ts). */
import { z } from "zod";
import { IsoInstant } from "./outputs.js";

/** A seller name a source gave that the registry does not know, with how often and since when (issue 51). */
export const UnknownName = z
  .strictObject({
    name: z.string().meta({
      description: "As the source wrote it, cut to 120 characters (then ending with …).",
    }),
    runs: z.number().int().min(1).meta({
      description: "How many successful runs in a row have given it, up to and including the last.",
    }),
    firstSeenAt: IsoInstant.meta({ description: "The first run of those." }),
    lastSeenAt: IsoInstant.meta({ description: "The last run that gave it: the source's last success." }),
  })
  .meta({
    id: "UnknownName",
    description:
      "A seller name the registry does not know: never a seller (rule 1); the operator adds the bank, or the name as an alias (docs/operating.md).",
  });
