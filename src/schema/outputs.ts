/**
 * Output formats: what the build writes and the handler serves. The same definitions validate every
 * written file and generate the OpenAPI description (issue: "the API describes itself").
 * No node:* imports: the edge runtime loads this module too.
 */
import { z } from "zod";
import { Category, DateString, Market, Side } from "./inputs.js";

const NumOrNull = z.number().nullable();
const Lean = z.union([z.literal(-1), z.literal(0), z.literal(1)]).meta({
  description: "+1 favorable, 0 neutral, -1 unfavorable, always for the customer's side.",
});
export const IsoInstant = z.iso.datetime().meta({ description: "Absolute UTC ISO 8601 instant." });

export const BestSeller = z
  .strictObject({
    seller: z.string().nullable().meta({ description: "Seller's name in English." }),
    sellerAr: z.string().nullable().meta({ description: "Seller's name in Arabic, when known." }),
    value: NumOrNull.meta({ description: "Its rate for this side, EGP per unit, rounded to the asset's decimals." }),
  })
  .meta({
    id: "BestSeller",
    description: "Best licensed seller for one direction: the lowest sell or the highest buy of today's table.",
  });

export const Signals = z
  .strictObject({
    position: z.strictObject({ lean: Lean }).meta({
      description:
        "Where today's favorability sits: +1 at or above 0.75, -1 at or below 0.25, else 0 (and 0 while calibrating).",
    }),
    trend: z
      .strictObject({
        lean: Lean,
        direction: z
          .enum(["up", "down", "flat"])
          .nullable()
          .meta({ description: "flat when the change is under 0.25 % either way, else up or down." }),
        changePct: NumOrNull.meta({
          description: "Change in % from the earliest value of the trend window to today, 2 decimals.",
        }),
        volatilityPct: NumOrNull.meta({
          description: "Population standard deviation of the day-over-day % changes inside the window, 2 decimals.",
        }),
        days: NumOrNull.meta({ description: "Calendar days from the window's earliest value to the business date." }),
      })
      .nullable()
      .meta({
        description:
          "Today against the prior days of the last 7 calendar days; null when that window has fewer than 3 values.",
      }),
    official: z
      .strictObject({
        lean: Lean,
        diffPct: NumOrNull.meta({ description: "(today - official) / official x 100, 2 decimals." }),
      })
      .nullable()
      .meta({
        description: "Today against the central bank's rate for this side (tolerance 0.5 %); null when there is none.",
      }),
    global: z
      .strictObject({
        diffPct: NumOrNull.meta({ description: "(today - global) / global x 100, 2 decimals." }),
        notable: z.boolean().meta({ description: "True when the difference is 2 % or more either way." }),
      })
      .nullable()
      .meta({
        description: "Today against the global mid-market reference; carries no lean. Null when there is no reference.",
      }),
  })
  .meta({ id: "Signals", description: "Language-neutral signals behind the verdict." });
export type Signals = z.infer<typeof Signals>;

export const Verdict = z.enum(["favorable", "weak", "ordinary", "mixed", "calibrating"]).meta({
  description: "Today against recent history for this side; calibrating when history is too thin. Never a forecast.",
});
export type Verdict = z.infer<typeof Verdict>;

export const Previous = z
  .strictObject({
    date: DateString.meta({
      description: "D_prev: the latest day before asOf with a series entry, at most 7 days before it.",
    }),
    value: z.number().meta({ description: "That day's best for this side (sellLo for sell, buyHi for buy)." }),
    change: z.number().meta({ description: "Today's best minus value, EGP, rounded to the asset's decimals." }),
    changePct: z.number().meta({ description: "(today's best - value) / value x 100, 2 decimals." }),
  })
  .meta({
    id: "Previous",
    description: "This side at the previous close and today's change from it.",
  });
export type Previous = z.infer<typeof Previous>;

export const SellerPrevious = z
  .strictObject({
    buy: NumOrNull.meta({
      description: "The seller's closing buy on the previous close's date; null where it had none.",
    }),
    sell: NumOrNull.meta({
      description: "The seller's closing sell on the previous close's date; null where it had none.",
    }),
  })
  .meta({ id: "SellerPrevious", description: "One seller's close on the previous close's date." });
export type SellerPrevious = z.infer<typeof SellerPrevious>;

export const Direction = z
  .strictObject({
    best: BestSeller.nullable().meta({
      description: "Null for a reference asset or when no seller quotes this side today.",
    }),
    verdict: Verdict,
    favorability: z.number().min(0).max(1).nullable().meta({
      description:
        "0..1, 1 = the best day of the look-back for the customer, ties counted half; null while calibrating.",
    }),
    priorDays: z
      .int()
      .min(0)
      .meta({ description: "Prior days with a value (at most 90, none older than 365 days) behind the favorability." }),
    signals: Signals,
    previous: Previous.nullable().meta({
      description:
        "Change since the previous close; null when there is none within 7 days, when either day has no value for this side, and for a reference asset.",
    }),
  })
  .meta({ id: "Direction", description: "One side of the market from the customer's point of view." });
export type Direction = z.infer<typeof Direction>;

export const SeriesEntry = z
  .strictObject({
    date: DateString,
    buyLo: NumOrNull.meta({ description: "Lowest closing buy rate across sellers that day." }),
    buyHi: NumOrNull.meta({ description: "Highest closing buy rate across sellers that day: the day's best buy." }),
    sellLo: NumOrNull.meta({ description: "Lowest closing sell rate across sellers that day: the day's best sell." }),
    sellHi: NumOrNull.meta({ description: "Highest closing sell rate across sellers that day." }),
    bench: NumOrNull.meta({ description: "Official mid rate (buy + sell) / 2 in force that day; null when none." }),
  })
  .meta({
    id: "SeriesEntry",
    description: "One day's close across sellers. Today's entry is provisional until the day ends.",
  });
export type SeriesEntry = z.infer<typeof SeriesEntry>;

export const SellerRow = z
  .strictObject({
    seller: z.string().meta({ description: "Seller's name in English." }),
    sellerAr: z.string().nullable().meta({ description: "Seller's name in Arabic, when known." }),
    buy: NumOrNull.meta({ description: "EGP the seller pays per unit (higher is better for the customer)." }),
    sell: NumOrNull.meta({ description: "EGP the seller asks per unit (lower is better for the customer)." }),
    id: z
      .string()
      .meta({ description: "The seller's id in the licensed registry.", examples: ["national-bank-of-egypt"] }),
    observedAt: IsoInstant.meta({ description: "When the quote chosen as this seller's value was observed." }),
    source: z.string().meta({
      description:
        "The id of the source whose quote was chosen: the seller's own publication when it has one that day, else an aggregator relaying it.",
    }),
    sources: z.array(z.string()).min(1).meta({
      description: "Every source with an accepted quote of this seller for the asset on the business date, sorted.",
    }),
    previous: SellerPrevious.nullable().meta({
      description:
        "This seller's close on the direction's previous-close date (D_prev); null when it had no close that day or there is no D_prev.",
    }),
  })
  .meta({
    id: "SellerRow",
    description: "One licensed seller's latest values on the business date, and where and when they were seen.",
  });
export type SellerRow = z.infer<typeof SellerRow>;

export const FreshnessState = z.enum(["fresh", "closed", "delayed", "stale"]).meta({
  description:
    "fresh: in session, newest quote within 3 trading hours; closed: out of session, within 3 trading hours; delayed: 3 to 8 trading hours; stale: older, or nothing observed.",
});
export type FreshnessState = z.infer<typeof FreshnessState>;
export const ConfidenceLevel = z.enum(["high", "medium", "low", "none"]).meta({
  description:
    "high: 3 or more sources; medium: 2; low: 1; none: 0. One step lower when two sources disagree on a seller by more than 1 %.",
});
export type ConfidenceLevel = z.infer<typeof ConfidenceLevel>;

/** The central bank's rate, each side null where it publishes none (a one-sided rate). */
export const OfficialRate = z.strictObject({
  buy: NumOrNull.meta({ description: "Official buy rate." }),
  sell: NumOrNull.meta({ description: "Official sell rate." }),
});

/** A quote of a source on probation, listed apart (docs/methodology.md "New sources: probation"). */
export const ProbationRow = z
  .strictObject({
    id: z.string().meta({ description: "The seller's id as the source gave it." }),
    seller: z.string().meta({ description: "Seller's name in English (its id when the registry does not know it)." }),
    sellerAr: z.string().nullable().meta({ description: "Seller's name in Arabic, when known." }),
    source: z.string().meta({ description: "The id of the source on probation that read the quote." }),
    buy: NumOrNull.meta({ description: "The quote's buy, rounded to the asset's decimals." }),
    sell: NumOrNull.meta({ description: "The quote's sell, rounded to the asset's decimals." }),
    observedAt: z.string().meta({ description: "When the quote was observed, as the source gave it." }),
    passed: z.boolean().meta({ description: "Whether every rule of acceptance passed it: it would have counted." }),
    reason: z
      .string()
      .nullable()
      .meta({ description: "Why a rule refused it (the build report's reason code); null when it passed." }),
  })
  .meta({ id: "ProbationRow", description: "A quote of a source on probation: checked, not counted." });

export const Asset = z
  .strictObject({
    id: z.string().meta({ description: "Machine id <BASE>-<QUOTE>; accepted by ?asset=.", examples: ["USD-EGP"] }),
    slug: z.string().meta({ description: "Lowercase hyphenated slug; accepted by ?asset=.", examples: ["us-dollar"] }),
    name: z.string().meta({ description: "English name (addition to the specification)." }),
    nameAr: z.string().meta({ description: "Arabic name (addition to the specification)." }),
    category: Category,
    kind: z.string().meta({ description: "Asset kind.", examples: ["currency", "metal"] }),
    market: Market,
    unit: z.string().meta({ description: "Display unit <QUOTE>/<BASE-UNIT>.", examples: ["EGP/USD", "EGP/g"] }),
    decimals: z
      .int()
      .min(0)
      .meta({ description: "Display decimals; every value is rounded to them, half away from zero." }),
    defaultSide: Side,
    asOf: DateString.meta({
      description:
        "Business date (Africa/Cairo) of the numbers: the latest day with accepted quotes, never after the build's own date.",
    }),
    observedAt: IsoInstant.nullable().meta({
      description: "Newest accepted observation of the asset, UTC; null when there is none.",
    }),
    freshness: z
      .strictObject({
        state: FreshnessState,
        stale: z.boolean().meta({ description: "True exactly when state is stale." }),
      })
      .meta({ description: "How old the newest observation is in trading time, at the build instant." }),
    confidence: z
      .strictObject({
        level: ConfidenceLevel,
        checks: z.int().min(0).meta({ description: "Distinct sources with an accepted quote on the business date." }),
      })
      .meta({ description: "How many independent sources corroborate the day." }),
    directions: z.strictObject({ sell: Direction, buy: Direction }),
    benchmark: OfficialRate.nullable().meta({
      description: "The central bank's official rate in force on the business date; null when there is none.",
    }),
    global: z
      .strictObject({ value: NumOrNull.meta({ description: "Mid-market value, EGP per unit." }) })
      .nullable()
      .meta({ description: "Global mid-market reference in force on the business date; null when there is none." }),
    series: z.array(SeriesEntry).meta({
      description: "Daily closes, ascending, at most seriesWindowDays entries; days without quotes have no entry.",
    }),
    sellers: z.array(SellerRow).meta({
      description:
        "Today's table: every licensed seller that quoted on the business date, best first on the default side. Empty for a reference asset.",
    }),
    probation: z.array(ProbationRow).optional().meta({
      description:
        "Quotes of sources still on probation on the business date (docs/methodology.md, New sources: probation): judged by every rule and counted in nothing above. One row per source and seller, its latest quote of the day. Absent when there is none (changelog 1.7).",
    }),
  })
  .meta({ id: "Asset", description: "One tracked currency or metal." });
export type Asset = z.infer<typeof Asset>;

/**
 * The members every published document starts with (the specification's Feed header): what it is,
 * its licence, and the root-relative paths of the request, the docs, the description, the
 * changelog and the terms. `selfExample` is the document's own `_self` example in the OpenAPI.
 */
export function documentLinks(selfExample: string) {
  return {
    _about: z.string().meta({ description: "What the feed is." }),
    _disclaimer: z.string().meta({ description: "Information only, not financial advice." }),
    _license: z.string().meta({ description: "Licence of the data and attribution." }),
    _self: z.string().meta({
      description: "Path and query of the exact request that produced this body.",
      examples: [selfExample],
    }),
    _docs: z.string().meta({ description: "Path of the human documentation.", examples: ["/docs/"] }),
    _spec: z.string().meta({ description: "Path of the OpenAPI description.", examples: ["/api/v1/openapi.json"] }),
    _changelog: z.string().meta({ description: "Path of the changelog.", examples: ["/api/v1/changelog.json"] }),
    _terms: z.string().meta({ description: "Path of the terms page.", examples: ["/terms/"] }),
  };
}

export const Feed = z
  .strictObject({
    ...documentLinks("/api/v1/feed.json?category=metals"),
    _variants: z
      .strictObject({
        category: z.string().meta({ examples: ["/api/v1/feed/category/{slug}.json"] }),
        asset: z.string().meta({ examples: ["/api/v1/feed/asset/{slug}.json"] }),
      })
      .meta({
        description:
          "Path templates of the pre-filtered files, {slug} the lower-case slug. A host that serves the files only (the mirror) does not read the query string: there, ?category=metals is the category file of metals, ?asset=us-dollar the asset file of us-dollar, and several values are the whole feed filtered by the client. Like _self, the paths are root-relative: on a host that serves the site under a prefix, put its base URL before them.",
      }),
    schemaVersion: z
      .literal(1)
      .meta({ description: "Body schema version; the URL version (/api/v1) is the primary contract." }),
    seriesWindowDays: z.int().min(1).meta({ description: "Length of the history window in series (30)." }),
    generatedAt: IsoInstant.meta({
      description: "When this body was built, UTC. Not part of the ETag: unchanged data keeps its ETag.",
    }),
    assets: z
      .array(Asset)
      .meta({ description: "Every tracked asset in catalog order, or the filtered subset; same shape either way." }),
  })
  .meta({ id: "Feed", description: "The whole answer of the feed: every asset, or the subset the filters chose." });
export type Feed = z.infer<typeof Feed>;
