/**
 * The other documents the build writes and the handler serves beside the feed: problems, the
 * manifest, the index, the changelog, /readyz, and the build's own records (report, published state).
 * No node:* imports: the edge runtime loads this module too.
 */
import { z } from "zod";
import { Category, DateString, Side } from "./inputs.js";
import { Feed, FreshnessState, IsoInstant } from "./outputs.js";
import { Day, Days, History } from "./archive.js";
import { Events } from "./events.js";
import { SellerRecord, Sellers } from "./sellers.js";
import { Homes } from "./homes.js";
import { EvidenceKind } from "./source-base.js";
import { UnknownName } from "./unknown-name.js";

/** RFC 9457 problem details, with the members that fix the call. */
export const Problem = z
  .looseObject({
    type: z.string().meta({
      description: "Relative URI of the documentation's section on this problem.",
      examples: ["/docs/#problem-unknown-asset"],
    }),
    title: z.string().meta({ description: "Short summary of the problem type." }),
    status: z.int().min(400).max(599).meta({ description: "The HTTP status." }),
    detail: z.string().meta({ description: "What went wrong with this request and how to correct it." }),
    error: z.string().meta({ description: "Short machine-friendly statement of the error." }),
    instance: z.string().optional().meta({ description: "The request path." }),
    validCategories: z
      .array(z.string())
      .optional()
      .meta({ description: "On an unknown category: the accepted values." }),
    validAssets: z
      .array(z.string())
      .optional()
      .meta({ description: "On an unknown asset: the accepted slugs (ids are accepted too)." }),
    validSellers: z
      .array(z.string())
      .optional()
      .meta({ description: "On a seller without a record: the ids of the sellers with one." }),
    allow: z.array(z.string()).optional().meta({ description: "On 405: the methods the API answers." }),
    parameter: z.string().optional().meta({
      description:
        "On an invalid date: the parameter at fault: from or to, or date for the date in a /api/v1/days/ path.",
    }),
    earlier: DateString.nullable()
      .optional()
      .meta({ description: "On a date the archive does not have: the nearest earlier date it has, or null." }),
    later: DateString.nullable()
      .optional()
      .meta({ description: "On a date the archive does not have: the nearest later date it has, or null." }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details (application/problem+json)." });
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
    /**
     * The retired assets (src/feed/archive/retired.ts): in no feed, but their archive is published,
     * and the handler answers its paths by slug or id as any asset's. Absent when none is retired.
     */
    retired: z.array(z.strictObject({ id: z.string(), slug: z.string() })).optional(),
    calendar: ManifestCalendar,
    files: z.record(z.string(), ManifestFile),
    /**
     * Whether the build published a signed statement of its files (api/v1/statement.json): false
     * when no signing key was given (a local build, the demo). Absent in a site built before signing.
     */
    signed: z.boolean().optional(),
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
  /** docs/methodology.md "New sources: probation": the quotes set apart (each source, seller and asset's latest of a raw day). */
  probation: z
    .strictObject({ sources: z.array(z.string()), passed: z.int().min(0), refused: z.int().min(0) })
    .optional(),
  rejections: z.array(Rejection),
  disagreements: z.array(
    z.strictObject({
      date: DateString,
      asset: z.string(),
      seller: z.string(),
      sources: z.array(z.string()),
      side: Side,
      diffPct: z.number(),
    }),
  ),
  warnings: z.array(z.string()),
  files: z.int(),
  changedFiles: z.array(z.string()),
  /**
   * What the build's plan kept of the builds before and what it made, per kind of thing, with the
   * reasons counted (src/incremental/decisions.ts; `price-feed build --explain` lists each decision).
   */
  plan: z
    .record(
      z.string(),
      z.strictObject({ keep: z.int().min(0), make: z.int().min(0), reasons: z.record(z.string(), z.int().min(0)) }),
    )
    .optional(),
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
    endpoints: z.array(
      z.strictObject({
        method: z.literal("GET"),
        path: z.string(),
        description: z.string(),
        parameters: z.array(z.string()),
      }),
    ),
    filters: z.strictObject({
      category: z.array(z.string()),
      asset: z.array(
        z.strictObject({
          id: z.string(),
          slug: z.string(),
          name: z.string(),
          nameAr: z.string(),
          category: z.string(),
        }),
      ),
    }),
    limits: z.strictObject({
      window: z.strictObject({ limit: z.int(), seconds: z.int() }),
      daily: z.strictObject({ limit: z.int(), resetsAt: z.string() }),
      seriesWindowDays: z.int(),
      lookbackDays: z.int(),
      dataChangesAtMostEvery: z.string(),
      suggestedPollEvery: z.string(),
      anonymousWhenBusy: z
        .strictObject({
          window: z.strictObject({ limit: z.int(), seconds: z.int() }).meta({
            description: "An anonymous caller's window while the service is busy (a quarter of the burst).",
          }),
          identifyWith: z.array(z.string()).meta({
            description: "Where a caller puts a URL or an e-mail address to identify itself and keep the full window.",
          }),
          rule: z.string(),
        })
        .meta({
          description:
            "Heavy anonymous traffic is slowed first: while the total rate across all addresses is past the operator's threshold, anonymous callers get this smaller window; callers that identify themselves keep the published one.",
        }),
    }),
    homes: Homes,
  })
  .meta({ id: "Index", description: "What /api/v1 offers: endpoints, accepted filter values, limits, its homes." });
export type IndexDoc = z.infer<typeof IndexDoc>;

/** Kept in data/state/: what was last published, so Last-Modified survives rebuilds of unchanged data. */
export const PublishedState = z.strictObject({
  files: z.record(z.string(), z.strictObject({ etag: z.string(), lastModified: z.string() })),
});
export type PublishedState = z.infer<typeof PublishedState>;

/** The body of /readyz (docs/methodology.md §7.4): ready or not, and why. */
export const Readiness = z
  .strictObject({
    status: z.enum(["ready", "not-ready"]),
    checkedAt: IsoInstant.meta({ description: "The request instant the check used." }),
    generatedAt: IsoInstant.meta({ description: "When the published build was made." }),
    buildAgeSeconds: z.int().min(0),
    buildMaxAgeSeconds: z.int().meta({ description: "Oldest a build may be before the feed is not ready (2 hours)." }),
    buildTooOld: z.boolean(),
    staleAssets: z
      .array(z.string())
      .meta({ description: "Slugs of the assets that are stale at the request instant." }),
    assets: z
      .record(z.string(), FreshnessState)
      .meta({ description: "Every asset's freshness state at the request instant, by slug." }),
    staleSince: z.record(z.string(), IsoInstant.nullable()).meta({
      description:
        "For each stale asset, by slug, its newest observation (null: it has none): nothing newer has reached the feed since then.",
    }),
    action: z.string().nullable().meta({
      description: "Why the feed is not ready and what its operator does about it, in one paragraph; null when ready.",
    }),
    rateLimiting: z.enum(["enforced", "fail-open"]).meta({
      description:
        "Whether the rate limits are enforced: fail-open when the counter store did not answer in time, so requests are served without limits until it does. /readyz itself is never counted against them.",
    }),
  })
  .meta({
    id: "Readiness",
    description: "200 when the build is recent and no asset is stale; 503 otherwise, saying which.",
  });
export type Readiness = z.infer<typeof Readiness>;

/** What ingest last saw of one source: kept in data/state/sources.json, published in /api/v1/sources.json. */
export const SourceRun = z.strictObject({
  lastRunAt: IsoInstant.meta({ description: "When ingest last asked this source." }),
  lastSuccessAt: IsoInstant.nullable().meta({
    description: "When the source last answered something usable; null if never.",
  }),
  lastFailure: z
    .strictObject({ at: IsoInstant, reason: z.string().meta({ description: "Why it failed, as ingest reported it." }) })
    .nullable()
    .meta({ description: "The latest failure, kept after later successes so an operator sees what last went wrong." }),
  unknownSellers: z.array(z.string()).optional().meta({
    description:
      "Seller names its last successful run gave that the registry does not know, as written: never sellers until the operator adds the seller (or an alias) to the registry. Written by an older ingest; unknownNames replaces it.",
  }),
  unknownNames: z.array(UnknownName).optional().meta({
    description:
      "The names its last successful run gave that the registry does not know, each with how many runs in a row gave it and since when; at most 20, most runs first (src/core/unknown-names.ts).",
  }),
  unknownMore: z.number().int().min(1).optional().meta({
    description: "How many more such names that run gave, past the 20 kept.",
  }),
  failingSince: IsoInstant.optional().meta({ description: "While failing: the first failure since a success." }),
});
export type SourceRun = z.infer<typeof SourceRun>;

/** data/state/sources.json: ingest's record of every source it has run. */
export const SourceRuns = z.strictObject({ sources: z.record(z.string(), SourceRun) });
export type SourceRuns = z.infer<typeof SourceRuns>;

export const SourceKindName = z.enum(["seller", "aggregator", "official", "reference"]);

/**
 * A source's evidence as published: the sources file's (src/schema/source-base.ts `Evidence`),
 * written without string lengths so that it compiles to plain checks (scripts/output-checks.ts).
 */
const PublishedEvidence = z.strictObject({
  kind: EvidenceKind.meta({
    description:
      "recorded: a body the source answered was saved and is read by the tests; public-code: public code that reads the source shows its format; constructed: written by hand from other evidence.",
  }),
  where: z.array(z.string()).min(1).meta({
    description:
      "Where the evidence is: the saved bodies' paths (recorded), repository/path@commit or URLs (public-code), what it was made from (constructed).",
  }),
  recordedAt: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .optional()
    .meta({ description: "When the body was saved: a date, YYYY-MM-DD, or an instant; absent when not said." }),
});

/** Where a source stands on probation (docs/methodology.md "New sources: probation"), as published. */
const ProbationStanding = z
  .strictObject({
    standing: z.enum(["probation", "graduated", "counted"]).meta({
      description:
        "probation: its quotes are checked and count for nothing yet; graduated: it proved itself and its quotes count; counted: never on probation (a yardstick — official or reference — or the operator's word, probation: false).",
    }),
    since: IsoInstant.nullable().meta({
      description:
        "When the current standing began (its first run, its graduation or its return); null: no run on record, or counted.",
    }),
    runs: z.int().nonnegative().nullable().meta({
      description: "On probation: its successful runs so far that count towards graduating; null otherwise.",
    }),
    runsNeeded: z.int().positive().nullable().meta({
      description:
        "On probation: the runs it needs (PROBATION_RUNS, over at least two Cairo days, none refused); null otherwise.",
    }),
    lastChange: z
      .strictObject({
        at: IsoInstant,
        standing: z.enum(["probation", "graduated"]),
        reason: z.string(),
        countsFrom: IsoInstant.nullable().meta({
          description:
            "A graduation: the instant from which its quotes count, when earlier than `at` (the graduating run's own quotes, stamped by the source before the run); null: from `at`, and always for a return.",
        }),
      })
      .nullable()
      .meta({ description: "Its latest graduation or return, with the instant and the reason; null: none yet." }),
  })
  .meta({ id: "ProbationStanding", description: "Where a source stands on probation." });

/** A registered seller as the source health names it: who licenses or registers it, and whether the operator checked. */
const RegistryEntry = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    nameAr: z.string().nullable(),
    kind: z.enum(["bank", "exchange-house", "gold-dealer"]),
    licensedBy: z
      .string()
      .meta({ description: "Who licenses (banks, exchange houses) or registers (gold dealers) such sellers." }),
    verified: z.strictObject({ where: z.string(), at: z.string() }).nullable().meta({
      description:
        "Where and when the operator checked this seller's licence or registration; null: not verified (the pages say so).",
    }),
  })
  .meta({ id: "RegistryEntry", description: "A seller of the registry and the check of its licence or registration." });

export const SourceHealth = z
  .strictObject({
    generatedAt: IsoInstant,
    sources: z.array(
      z
        .strictObject({
          id: z.string(),
          name: z.string(),
          kind: SourceKindName.meta({
            description:
              "seller: a licensed seller's own publication; aggregator: relays many sellers (the quotes are the sellers'); official: the central bank; reference: the global mid-market rate.",
          }),
          enabled: z.boolean(),
          assets: z
            .array(z.string())
            .meta({ description: "Ids of the assets whose published values this source fed on their business dates." }),
          lastRunAt: IsoInstant.nullable().meta({
            description: "When ingest last asked this source; null: no run of it is on record.",
          }),
          lastSuccessAt: IsoInstant.nullable().meta({
            description:
              "When the source last answered something usable (ingest keeps it, so a success is never forgotten); null: it never has, or, when lastRunAt is null too, no run of it is on record.",
          }),
          lastFailure: SourceRun.shape.lastFailure,
          unknownSellers: z.array(z.string()).meta({
            description:
              "Seller names its last successful run gave that the registry does not know, as written: never sellers; the operator adds the seller or an alias to the registry (changelog 1.7). At most 20, each cut to 120 characters (changelog 1.8): the names of unknownNames.",
          }),
          unknownNames: z.array(UnknownName).meta({
            description:
              "The same names, each with how many successful runs in a row gave it and since when, most runs first (changelog 1.8).",
          }),
          unknownNamesMore: z.number().int().min(0).meta({
            description: 'How many more unknown names that run gave, past the 20 listed: "and N more" (changelog 1.8).',
          }),
          evidence: PublishedEvidence.nullable().meta({
            description: "How the source's format is known, as the sources file says; null when it does not say.",
          }),
          probation: ProbationStanding,
        })
        .meta({
          id: "SourceStatus",
          description:
            "One source: what it feeds, when it last succeeded, why it last failed, how its format is known, and where it stands on probation.",
        }),
    ),
    sellers: z.array(RegistryEntry).meta({
      description:
        "Every seller of the registry: who licenses or registers it, and whether the operator verified it (changelog 1.7).",
    }),
  })
  .meta({
    id: "SourceHealth",
    description:
      "Which sources fed which assets, when each last succeeded and why it last failed, and how each one's format is known.",
  });
export type SourceHealth = z.infer<typeof SourceHealth>;

/**
 * The published JSON documents the build checks before publishing, by name (src/feed/validate.ts),
 * and compiles to plain checks at bundle time (scripts/output-checks.ts).
 */
export const CHECKED_DOCUMENTS = {
  Feed,
  IndexDoc,
  Changelog,
  SourceHealth,
  Manifest,
  History,
  Day,
  Days,
  Events,
  Sellers,
  SellerRecord,
} as const;
export type CheckedDocument = keyof typeof CHECKED_DOCUMENTS;
