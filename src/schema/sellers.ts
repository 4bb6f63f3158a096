/**
 * The sellers' records (docs/methodology.md §13): `/api/v1/sellers.json`, every registered seller that
 * has quoted, and `/api/v1/sellers/{id}.json`, one seller's record per asset over the short and the
 * long window. They validate every written file and describe the paths in the OpenAPI, as archive.ts
 * does. No node:* imports: the edge runtime loads this module too.
 */
import { z } from "zod";
import { DateString } from "./inputs.js";
import { documentLinks, SellerRow } from "./outputs.js";
import { ArchiveAsset } from "./archive.js";

const Header = {
  ...documentLinks("/api/v1/sellers/national-bank-of-egypt.json"),
  schemaVersion: z.literal(1).meta({ description: "Body schema version, as the feed's." }),
};

/** Who the seller is, as the registry says (data/sellers.json). */
const SellerIdentity = {
  id: z.string().meta({ description: "The seller's id in the registry.", examples: ["national-bank-of-egypt"] }),
  name: z.string().meta({ description: "Seller's name in English." }),
  nameAr: z.string().nullable().meta({ description: "Seller's name in Arabic, when known." }),
  kind: z.enum(["bank", "exchange-house", "gold-dealer"]).meta({ description: "What kind of seller it is." }),
  licensedBy: z.string().meta({
    description:
      "Who licenses it (the central bank, for banks and exchange houses) or registers it (gold dealers), as the registry says.",
  }),
};

const Pct = z.number().min(0).nullable();

export const RecordWindow = z
  .strictObject({
    windowDays: z
      .int()
      .min(1)
      .meta({ description: "The window's length in archive days: 30 or 365.", examples: [30] }),
    days: z.int().min(0).meta({
      description:
        "The archive days of the asset the window holds: windowDays, or fewer while the data is younger. An archive day is a day with an entry (a trading day), not a calendar day.",
    }),
    from: DateString.nullable().meta({ description: "The window's first day; null when it holds none." }),
    to: DateString.nullable().meta({
      description: "The window's last day, the asset's asOf; null when it holds none.",
    }),
    daysQuoted: z
      .int()
      .min(0)
      .meta({ description: "Days of the window on which the seller has a close of the asset." }),
    daysBest: z
      .strictObject({
        sell: z.int().min(0).meta({ description: "Days on which the archive names it bestSell (the lowest sell)." }),
        buy: z.int().min(0).meta({ description: "Days on which the archive names it bestBuy (the highest buy)." }),
      })
      .meta({
        description: "Days on which it gave the day's best, each side; a tie counts for the seller the archive named.",
      }),
    medianGapPct: z
      .strictObject({
        sell: Pct.meta({
          description:
            "Median over the days it quoted a sell of (sell − sellLo) / sellLo × 100: how far above the day's lowest it asked. 0 on a day it was best; null without such a day.",
        }),
        buy: Pct.meta({
          description:
            "Median over the days it quoted a buy of (buyHi − buy) / buyHi × 100: how far below the day's highest it paid. 0 on a day it was best; null without such a day.",
        }),
      })
      .meta({ description: "How far from the day's best it usually was, in percent, 2 decimals." }),
    medianSpreadPct: Pct.meta({
      description:
        "Median over the days it quoted both sides of (sell − buy) / ((sell + buy) / 2) × 100, in percent, 2 decimals; null without such a day.",
    }),
    lastQuoted: DateString.nullable().meta({
      description: "The latest day of the window on which it quoted; null when none.",
    }),
  })
  .meta({
    id: "RecordWindow",
    description: "One seller's figures for one asset over one window (docs/methodology.md §13).",
  });
export type RecordWindow = z.infer<typeof RecordWindow>;

export const SellerAssetRecord = ArchiveAsset.omit({ retired: true })
  .extend({
    asOf: DateString.meta({ description: "The asset's business date, as the feed's: the windows end there." }),
    today: SellerRow.nullable().meta({
      description:
        "The seller's row of the asset's table on asOf, as the feed has it; null when it has no close that day.",
    }),
    short: RecordWindow.meta({ description: "The last 30 archive days of the asset up to asOf." }),
    long: RecordWindow.meta({ description: "The last 365 archive days of the asset up to asOf." }),
  })
  .meta({
    id: "SellerAssetRecord",
    description: "One asset the seller has quoted: its record over both windows, and today's row.",
  });

export const SellerRecord = z
  .strictObject({
    ...Header,
    seller: z.strictObject(SellerIdentity).meta({ description: "Who the record is of." }),
    assets: z.array(SellerAssetRecord).meta({
      description: "Every asset of today's catalog the seller has a close of in the archive, in catalog order.",
    }),
  })
  .meta({
    id: "SellerRecord",
    description:
      "One seller's record: per asset, how often it quoted and was best, and how far from the best it usually was.",
  });
export type SellerRecord = z.infer<typeof SellerRecord>;

export const Sellers = z
  .strictObject({
    ...Header,
    sellers: z
      .array(
        z
          .strictObject({
            ...SellerIdentity,
            assets: z.array(z.string()).meta({
              description: "Slugs of the assets it has quoted (a close in the archive), in catalog order.",
              examples: [["us-dollar", "euro"]],
            }),
            _self: z.string().meta({
              description: "Path of its record.",
              examples: ["/api/v1/sellers/national-bank-of-egypt.json"],
            }),
          })
          .meta({ id: "SellerListed", description: "A registered seller that has quoted, and where its record is." }),
      )
      .meta({
        description: "Every registered seller with a close of some asset of today's catalog, in the registry's order.",
      }),
  })
  .meta({ id: "Sellers", description: "The sellers that have quoted, each with a link to its record." });
export type Sellers = z.infer<typeof Sellers>;
