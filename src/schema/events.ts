/**
 * What changed (docs/methodology.md §12): the events the build derives by comparing what it
 * publishes with what the previous build published, the documents that serve them, and the record
 * kept in data/state/events.json from which the next build goes on. No node:* imports: the edge
 * runtime loads this module too.
 */
import { z } from "zod";
import { DateString, Side } from "./inputs.js";
import {
  BestSeller,
  ConfidenceLevel,
  FreshnessState,
  IsoInstant,
  OfficialRate,
  Verdict,
  documentLinks,
} from "./outputs.js";

export const EventKind = z
  .enum(["best-seller", "verdict", "official-rate", "freshness", "confidence", "source", "probation"])
  .meta({
    description:
      "best-seller: who gives a side's best, and at what price, changed; verdict: a side's verdict changed; official-rate: the central bank's rate in force changed; freshness: the asset turned stale or stopped being stale; confidence: the confidence level changed; source: a source started failing or recovered; probation: a new source graduated from probation, or went back on it (changelog 1.7).",
  });
export type EventKind = z.infer<typeof EventKind>;

/** The official rate as an event gives it (outputs.ts OfficialRate, the feed's `benchmark`). */
export type OfficialRateValue = z.infer<typeof OfficialRate>;

export const SourceState = z
  .strictObject({
    state: z.enum(["ok", "failing"]).meta({
      description: "failing: the source's latest run failed (its last failure is newer than its last success).",
    }),
    reason: z.string().nullable().meta({ description: "While failing: why, as ingest reported it; else null." }),
  })
  .meta({ id: "SourceState", description: "Whether a source's latest run failed, and why." });
export type SourceState = z.infer<typeof SourceState>;

/** A source's standing on probation as an event gives it (docs/methodology.md "New sources: probation"). */
export const ProbationStandingValue = z
  .strictObject({
    standing: z.enum(["probation", "graduated"]).meta({
      description: "probation: its quotes are checked and count for nothing; graduated: its quotes count.",
    }),
    reason: z
      .string()
      .nullable()
      .meta({ description: "After: why it graduated or went back (as the record says); before: null." }),
  })
  .meta({ id: "ProbationStandingValue", description: "A source's standing on probation, and why." });

const common = {
  id: z.string().meta({
    description:
      "Stable id: the build instant, the asset slug or source id, the kind and the side. A rebuild with the same inputs gives the same id.",
    examples: ["20261119T100000Z.us-dollar.best-seller.sell"],
  }),
  date: DateString.meta({ description: "The Cairo date of the build that saw the change." }),
  at: IsoInstant.meta({ description: "The instant of the build that saw the change (its generatedAt), UTC." }),
  asset: z.string().nullable().meta({ description: "The asset's slug; null for a source event." }),
  source: z.string().nullable().meta({ description: "The source's id; null for an asset event." }),
  side: Side.nullable().meta({ description: "The side, for best-seller and verdict events; else null." }),
};

const variant = <K extends EventKind, T extends z.ZodType>(kind: K, value: T, id: string, description: string) =>
  z
    .strictObject({
      ...common,
      kind: z.literal(kind),
      before: value.meta({ description: "As the previous build published it." }),
      after: value.meta({ description: "As this build publishes it." }),
    })
    .meta({ id, description });

export const Event = z
  .discriminatedUnion("kind", [
    variant(
      "best-seller",
      BestSeller.nullable(),
      "BestSellerEvent",
      "Another seller now gives a side's best: before and after say who and at what price (null: nobody quotes the side).",
    ),
    variant("verdict", Verdict, "VerdictEvent", "A side's verdict changed."),
    variant(
      "official-rate",
      OfficialRate.nullable(),
      "OfficialRateEvent",
      "The central bank's rate in force changed (null: none in force).",
    ),
    variant("freshness", FreshnessState, "FreshnessEvent", "The asset turned stale, or stopped being stale."),
    variant("confidence", ConfidenceLevel, "ConfidenceEvent", "The asset's confidence level changed."),
    variant("source", SourceState, "SourceEvent", "A source started failing, or recovered."),
    variant(
      "probation",
      ProbationStandingValue,
      "ProbationEvent",
      "A new source graduated from probation (its quotes count from `at` on), or went back on it. `at` is the instant of the ingest run that decided it, as data/state/probation.json records it.",
    ),
  ])
  .meta({ id: "Event", description: "One change between two consecutive published builds." });
export type Event = z.infer<typeof Event>;

export const Events = z
  .strictObject({
    // The links and licence of every API document (src/feed/header.ts), as the feed's and the archive's.
    ...documentLinks("/api/v1/events.json"),
    schemaVersion: z.literal(1).meta({ description: "Body schema version, as the feed's." }),
    _atom: z.string().meta({ description: "Path of the same events as an Atom feed (RFC 4287)." }),
    asset: z.string().nullable().meta({ description: "The asset's slug for an asset's events; null for all events." }),
    retentionDays: z
      .int()
      .min(1)
      .meta({ description: "Events are kept this many days after the build that saw them." }),
    generatedAt: IsoInstant.meta({ description: "When this body was built. Not part of the ETag." }),
    events: z.array(Event).meta({ description: "Newest first; within a build, in catalog order, then sources." }),
  })
  .meta({ id: "Events", description: "What changed in the last retentionDays days, newest first." });
export type Events = z.infer<typeof Events>;

/** One side of an asset as the events compare it. */
export const SideSummary = z.strictObject({ best: BestSeller.nullable(), verdict: Verdict });

/** What the events compare of one published asset. */
export const AssetSummary = z.strictObject({
  sell: SideSummary,
  buy: SideSummary,
  official: OfficialRate.nullable(),
  freshness: FreshnessState,
  confidence: ConfidenceLevel,
});
export type AssetSummary = z.infer<typeof AssetSummary>;

/** What the events compare of a published build: its assets by slug, its sources by id. */
export const BuildSummary = z.strictObject({
  assets: z.record(z.string(), AssetSummary),
  sources: z.record(z.string(), SourceState),
});
export type BuildSummary = z.infer<typeof BuildSummary>;

/** data/state/events.json: the summary of the last published build and the events still kept. */
export const EventsState = z.strictObject({
  summary: BuildSummary.nullable(),
  events: z.array(Event),
  /** The instant of the build that wrote it (absent in records written before it was kept). */
  builtAt: z.iso.datetime({ offset: true }).optional(),
});
export type EventsState = z.infer<typeof EventsState>;
