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
const IsoInstant = z.iso.datetime().meta({ description: "Absolute UTC ISO 8601 instant." });

export const BestSeller = z
  .strictObject({ seller: z.string().nullable(), sellerAr: z.string().nullable(), value: NumOrNull })
  .meta({ id: "BestSeller", description: "Best licensed seller for one direction." });

export const Signals = z
  .strictObject({
    position: z.strictObject({ lean: Lean }),
    trend: z
      .strictObject({
        lean: Lean,
        direction: z.enum(["up", "down", "flat"]).nullable(),
        changePct: NumOrNull,
        volatilityPct: NumOrNull,
        days: NumOrNull,
      })
      .nullable(),
    official: z.strictObject({ lean: Lean, diffPct: NumOrNull }).nullable(),
    global: z.strictObject({ diffPct: NumOrNull, notable: z.boolean() }).nullable(),
  })
  .meta({ id: "Signals", description: "Language-neutral signals behind the verdict." });
export type Signals = z.infer<typeof Signals>;

export const Verdict = z.enum(["favorable", "weak", "ordinary", "mixed", "calibrating"]).meta({
  description: "Today against recent history for this side; calibrating when history is too thin. Never a forecast.",
});
export type Verdict = z.infer<typeof Verdict>;

export const Direction = z
  .strictObject({
    best: BestSeller.nullable(),
    verdict: Verdict,
    favorability: z.number().min(0).max(1).nullable(),
    priorDays: z.int().min(0),
    signals: Signals,
  })
  .meta({ id: "Direction" });
export type Direction = z.infer<typeof Direction>;

export const SeriesEntry = z
  .strictObject({
    date: DateString,
    buyLo: NumOrNull,
    buyHi: NumOrNull,
    sellLo: NumOrNull,
    sellHi: NumOrNull,
    bench: NumOrNull,
  })
  .meta({ id: "SeriesEntry", description: "One day's close across sellers." });
export type SeriesEntry = z.infer<typeof SeriesEntry>;

export const SellerRow = z
  .strictObject({ seller: z.string(), sellerAr: z.string().nullable(), buy: NumOrNull, sell: NumOrNull })
  .meta({ id: "SellerRow", description: "One licensed seller's latest values on the business date." });
export type SellerRow = z.infer<typeof SellerRow>;

export const FreshnessState = z.enum(["fresh", "closed", "delayed", "stale"]);
export const ConfidenceLevel = z.enum(["high", "medium", "low", "none"]);

export const Asset = z
  .strictObject({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    nameAr: z.string(),
    category: Category,
    kind: z.string(),
    market: Market,
    unit: z.string(),
    decimals: z.int().min(0),
    defaultSide: Side,
    asOf: DateString,
    observedAt: IsoInstant.nullable(),
    freshness: z.strictObject({ state: FreshnessState, stale: z.boolean() }),
    confidence: z.strictObject({ level: ConfidenceLevel, checks: z.int().min(0) }),
    directions: z.strictObject({ sell: Direction, buy: Direction }),
    benchmark: z.strictObject({ buy: NumOrNull, sell: NumOrNull }).nullable(),
    global: z.strictObject({ value: NumOrNull }).nullable(),
    series: z.array(SeriesEntry),
    sellers: z.array(SellerRow),
  })
  .meta({ id: "Asset" });
export type Asset = z.infer<typeof Asset>;

export const Feed = z
  .strictObject({
    _about: z.string(),
    _disclaimer: z.string(),
    _license: z.string(),
    _self: z.string(),
    _docs: z.string(),
    _spec: z.string(),
    _changelog: z.string(),
    _terms: z.string(),
    schemaVersion: z.literal(1),
    seriesWindowDays: z.int().min(1),
    generatedAt: IsoInstant,
    assets: z.array(Asset),
  })
  .meta({ id: "Feed" });
export type Feed = z.infer<typeof Feed>;

/** RFC 9457 problem details, with the members that fix the call. */
export const Problem = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    error: z.string(),
    instance: z.string().optional(),
    validCategories: z.array(z.string()).optional(),
    validAssets: z.array(z.string()).optional(),
    allow: z.array(z.string()).optional(),
  })
  .meta({ id: "Problem" });
export type Problem = z.infer<typeof Problem>;

export const ManifestFile = z.strictObject({
  etag: z.string().regex(/^"[^"]+"$/),
  lastModified: IsoInstant,
  contentType: z.string(),
  bytes: z.int().min(0),
});
export type ManifestFile = z.infer<typeof ManifestFile>;

export const ManifestAsset = z.strictObject({
  id: z.string(),
  slug: z.string(),
  category: Category,
  observedAt: IsoInstant.nullable(),
});

export const ManifestCalendar = z.record(
  z.string(),
  z.strictObject({
    sessions: z.array(z.strictObject({ days: z.array(z.string()), open: z.string(), close: z.string() })),
    holidays: z.array(z.string()),
  }),
);

/** What the handler needs to answer without re-reading the data: one entry per published file. */
export const Manifest = z
  .strictObject({
    schemaVersion: z.literal(1),
    generatedAt: IsoInstant,
    categories: z.array(z.string()),
    assets: z.array(ManifestAsset),
    calendar: ManifestCalendar,
    files: z.record(z.string(), ManifestFile),
  })
  .meta({ id: "Manifest" });
export type Manifest = z.infer<typeof Manifest>;

export const Rejection = z.strictObject({
  file: z.string(),
  line: z.int(),
  source: z.string(),
  seller: z.string(),
  asset: z.string(),
  reason: z.string(),
});
export type Rejection = z.infer<typeof Rejection>;

export const BuildReport = z.strictObject({
  generatedAt: IsoInstant,
  rawDays: z.array(DateString),
  compactedDays: z.int().min(0),
  quotes: z.strictObject({ read: z.int(), accepted: z.int(), rejected: z.int() }),
  rejectedByReason: z.record(z.string(), z.int()),
  rejections: z.array(Rejection),
  disagreements: z.array(
    z.strictObject({ date: DateString, asset: z.string(), seller: z.string(), sources: z.array(z.string()), side: Side, diffPct: z.number() }),
  ),
  warnings: z.array(z.string()),
  files: z.int(),
  changedFiles: z.array(z.string()),
});
export type BuildReport = z.infer<typeof BuildReport>;

export const ChangeKind = z.enum(["added", "changed", "deprecated", "removed", "fixed"]);

export const Changelog = z
  .strictObject({
    versions: z
      .array(
        z.strictObject({
          version: z.string().regex(/^\d+\.\d+(\.\d+)?$/),
          date: DateString,
          summary: z.string(),
          changes: z.partialRecord(ChangeKind, z.array(z.string()).min(1)),
        }),
      )
      .min(1),
  })
  .meta({ id: "Changelog", description: "One entry per release of the API, newest first." });
export type Changelog = z.infer<typeof Changelog>;

export const IndexDoc = z
  .strictObject({
    _self: z.string(),
    _docs: z.string(),
    _spec: z.string(),
    _changelog: z.string(),
    _terms: z.string(),
    version: z.literal("v1"),
    schemaVersion: z.literal(1),
    endpoints: z.array(z.strictObject({ method: z.literal("GET"), path: z.string(), description: z.string(), parameters: z.array(z.string()) })),
    filters: z.strictObject({
      category: z.array(z.string()),
      asset: z.array(z.strictObject({ id: z.string(), slug: z.string(), name: z.string(), nameAr: z.string(), category: z.string() })),
    }),
    limits: z.strictObject({
      window: z.strictObject({ limit: z.int(), seconds: z.int() }),
      daily: z.strictObject({ limit: z.int(), resetsAt: z.string() }),
      seriesWindowDays: z.int(),
      lookbackDays: z.int(),
      dataChangesAtMostEvery: z.string(),
      suggestedPollEvery: z.string(),
    }),
  })
  .meta({ id: "Index", description: "What /api/v1 offers: endpoints, accepted filter values, limits." });
export type IndexDoc = z.infer<typeof IndexDoc>;

/** Kept in data/state/: what was last published, so Last-Modified survives rebuilds of unchanged data. */
export const PublishedState = z.strictObject({
  files: z.record(z.string(), z.strictObject({ etag: z.string(), lastModified: z.string() })),
});
export type PublishedState = z.infer<typeof PublishedState>;
