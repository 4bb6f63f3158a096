/**
 * The archive's documents (docs/methodology.md §5.5): every day the feed has seen, by asset
 * (`/api/v1/history/{slug}.json`, and the same rows as CSV) and by day (`/api/v1/days/{date}.json`,
 * `/api/v1/days.json`). They validate every written file and describe the paths in the OpenAPI, as
 * outputs.ts does for the feed. No node:* imports: the edge runtime loads this module too.
 */
import { z } from "zod";
import { DateString } from "./inputs.js";
import { Asset, documentLinks, OfficialRate, SellerRow, SeriesEntry } from "./outputs.js";

const NumOrNull = z.number().nullable();

/** The links every archive document starts with, as the feed's: what it is, its licence, where its description is. */
export const ArchiveHeader = {
  ...documentLinks("/api/v1/history/us-dollar.json?from=2026-11-01"),
  schemaVersion: z.literal(1).meta({ description: "Body schema version, as the feed's." }),
};

export const ArchiveSeller = z
  .strictObject({
    id: z.string().meta({ description: "The seller's id in the licensed registry." }),
    seller: z.string().meta({ description: "Seller's name in English." }),
    sellerAr: z.string().nullable().meta({ description: "Seller's name in Arabic, when known." }),
  })
  .meta({
    id: "ArchiveSeller",
    description:
      "The seller of that day's close that gave the side's best (sellLo or buyHi); ties go to the more recent quote, then the name.",
  });
export type ArchiveSeller = z.infer<typeof ArchiveSeller>;

export const ArchiveEntry = SeriesEntry.extend({
  bestSell: ArchiveSeller.nullable().meta({
    description: "Who gave sellLo that day; null for a reference asset or when no seller quoted a sell.",
  }),
  bestBuy: ArchiveSeller.nullable().meta({
    description: "Who gave buyHi that day; null for a reference asset or when no seller quoted a buy.",
  }),
  official: OfficialRate.nullable().meta({
    description: "The central bank's rate of that day, rounded to the asset's decimals; null on a day without one.",
  }),
  global: NumOrNull.meta({
    description:
      "The global mid-market reference of that day, rounded to the asset's decimals; null on a day without one.",
  }),
  sellerCount: z.int().min(0).meta({ description: "Sellers with a close that day (0 for a reference asset)." }),
}).meta({
  id: "ArchiveEntry",
  description:
    "One day of an asset: the same values as its series entry, plus who gave the best of each side, the day's references and how many sellers closed.",
});
export type ArchiveEntry = z.infer<typeof ArchiveEntry>;

export const ArchiveAsset = Asset.pick({
  id: true,
  slug: true,
  name: true,
  nameAr: true,
  category: true,
  kind: true,
  market: true,
  unit: true,
  decimals: true,
})
  .extend({
    // Present only for a retired asset, so that the archive of every other asset keeps its bytes.
    retired: DateString.optional().meta({
      description:
        "Present when the asset is retired: the first Cairo date it is no longer quoted. It is then in no feed, variant or page; its archive stays as published, with no entry on or after this date.",
      examples: ["2026-11-20"],
    }),
  })
  .meta({ id: "ArchiveAsset", description: "Which asset the archive rows are of." });
export type ArchiveAsset = z.infer<typeof ArchiveAsset>;

export const History = z
  .strictObject({
    ...ArchiveHeader,
    asset: ArchiveAsset,
    from: DateString.nullable().meta({ description: "Date of the first entry; null when there is none." }),
    to: DateString.nullable().meta({ description: "Date of the last entry; null when there is none." }),
    entries: z.array(ArchiveEntry).meta({
      description:
        "Every day with a series entry since the data begins (or within ?from= and ?to=), ascending. The last 30 equal the feed's series of the same build; today's is provisional.",
    }),
  })
  .meta({ id: "History", description: "One asset's archive: every day the feed has seen." });
export type History = z.infer<typeof History>;

export const DaySellerRow = SellerRow.omit({ previous: true }).meta({
  id: "DaySellerRow",
  description: "One licensed seller's close on that day: the feed's seller row without previous.",
});

export const DayAsset = ArchiveAsset.extend({
  entry: ArchiveEntry,
  sellers: z.array(DaySellerRow).meta({
    description:
      "Every seller's close that day, best first on the asset's default side, as the feed's sellers. Empty for a reference asset.",
  }),
}).meta({ id: "DayAsset", description: "One asset as it closed that day." });

export const Day = z
  .strictObject({
    ...ArchiveHeader,
    date: DateString.meta({ description: "The Cairo business date." }),
    weekday: z.string().meta({ description: "Its day of the week in Cairo, in English.", examples: ["Thursday"] }),
    assets: z.array(DayAsset).meta({ description: "Every asset with an entry that day, in catalog order." }),
  })
  .meta({ id: "Day", description: "The whole market as it closed on one date." });
export type Day = z.infer<typeof Day>;

export const Days = z
  .strictObject({
    ...ArchiveHeader,
    days: z
      .array(
        z.strictObject({
          date: DateString,
          weekday: z.string().meta({ description: "Day of the week in Cairo, in English." }),
          assets: z.int().min(1).meta({ description: "Assets with an entry that day." }),
          _self: z
            .string()
            .meta({ description: "Path of that day's document.", examples: ["/api/v1/days/2026-11-19.json"] }),
        }),
      )
      .meta({ description: "Every date with an entry for some asset, ascending." }),
  })
  .meta({ id: "Days", description: "The dates the archive has." });
export type Days = z.infer<typeof Days>;
