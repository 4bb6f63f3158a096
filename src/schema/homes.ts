/**
 * The index's `homes` (docs/api.md "Homes"): the primary, the mirror and what to ask the mirror for,
 * as src/feed/homes.ts makes them from site.json.
 */
import { z } from "zod";

export const Homes = z
  .strictObject({
    primary: z.url().nullable().meta({
      description:
        "Base URL of the primary home, which runs the edge (filters, limits, problems); null when the operator named none: the host that served this index.",
    }),
    mirror: z.url().nullable().meta({
      description:
        "Base URL of the second home, its path prefix included: the same build served as static files by another provider; null when there is none.",
    }),
    onMirror: z
      .strictObject({
        index: z.string(),
        category: z.string(),
        asset: z.string(),
        rule: z.string(),
      })
      .meta({
        description:
          "What to ask the mirror for: the index as its file, and the pre-filtered files ({slug} the lower-case slug) instead of ?category= and ?asset=, which a static host does not read.",
      }),
  })
  .meta({ description: "Where the API lives: the primary home and its mirror, and how to use the mirror." });
export type Homes = z.infer<typeof Homes>;
