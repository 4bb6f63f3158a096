/**
 * The sources file (`data/sources.json`): which sources `price-feed ingest` runs and how each one
 * maps what it returns onto observations. One schema per adapter, so a typo in a mapping stops the
 * run with the file and the field rather than silently ingesting nothing.
 * No node:* imports: shared with the build, which reads the same file for source priority.
 */
import { z } from "zod";

const Id = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a lowercase hyphenated id");
const AssetId = z.string().regex(/^[A-Z0-9]+-[A-Z0-9]+$/, "expected an asset id <BASE>-<QUOTE>");
const Url = z.url({ protocol: /^https?$/ });
const base = {
  id: Id,
  name: z.string().min(1),
  enabled: z.boolean().default(true),
  /** How the source asks to be credited where its data is redistributed (shown on the terms page). */
  attribution: z.string().min(1).optional(),
};

/** The simulated market's next hour (src/sample): the whole hourly loop offline. */
export const DemoSource = z.strictObject({ ...base, adapter: z.literal("demo") });

/**
 * Central Bank of Egypt, official rates: the historical-data page hands out an anti-forgery token
 * and cookies; its form POST answers an XLSX workbook of buy/sell per currency and business day.
 */
export const CbeSource = z.strictObject({
  ...base,
  adapter: z.literal("cbe"),
  // The CBE asks to be cited as the source wherever its rates are redistributed.
  attribution: z.string().min(1).default("Source: Central Bank of Egypt"),
  pageUrl: Url,
  /** Business days asked for, back from today (the workbook is small; one request a run). */
  days: z.int().min(1).max(31).default(7),
  /** CBE currency name → catalog asset; `per` when the CBE quotes per that many units ("Japanese Yen 100"). */
  currencies: z.record(z.string().min(1), z.union([AssetId, z.strictObject({ asset: AssetId, per: z.number().positive() })])),
});

/** One asset derived from a global daily rates document. */
const GlobalAsset = z.union([
  z.strictObject({ asset: AssetId, currency: z.string().regex(/^[a-z0-9]+$/) }),
  z.strictObject({
    asset: AssetId,
    metal: z.string().regex(/^[a-z0-9]+$/),
    /** Fine metal content: 24k 0.999, 21k 0.875, 18k 0.750 (or as the market counts it). */
    purity: z.number().positive().max(1),
    /** Grams per unit of the asset: 1 for a gram, 8 for the gold pound. */
    grams: z.number().positive().default(1),
  }),
]);

/**
 * A free, keyless daily JSON of rates against one currency, such as the currency API published as
 * static files (`…/v1/currencies/usd.json` → `{"date": …, "usd": {"egp": …, "xau": …}}`).
 */
export const GlobalRatesSource = z.strictObject({
  ...base,
  adapter: z.literal("global-rates"),
  /** Tried in order: the first that answers a well-formed document is used. */
  urls: z.array(Url).min(1),
  /** The document's base currency code ("usd"). */
  base: z.string().regex(/^[a-z0-9]+$/),
  /** The code of the Egyptian pound in the document ("egp"). */
  quote: z.string().regex(/^[a-z0-9]+$/).default("egp"),
  assets: z.array(GlobalAsset).min(1),
});

/** Where a value is in a record: a field name, or a constant. */
const Field = z.union([z.string().min(1), z.strictObject({ const: z.string() })]);

/**
 * A licensed seller's published rates, as a JSON or CSV document at a URL or a path, mapped to
 * quotes declaratively, so that an operator adds a bank or a dealer without code.
 */
export const SellerDocumentSource = z
  .strictObject({
    ...base,
    adapter: z.literal("seller-document"),
    url: Url.optional(),
    /** A file, relative to the data folder. */
    path: z.string().min(1).optional(),
    format: z.enum(["json", "csv"]),
    /** JSON: dotted path to the array of records ("data.rates"); empty for a top-level array. */
    records: z.string().default(""),
    fields: z.strictObject({ seller: Field, asset: Field, buy: Field, sell: Field, time: Field.optional() }),
    /** The document's names for sellers and assets → registry and catalog ids (identity when absent). */
    sellers: z.record(z.string(), Id).default({}),
    assets: z.record(z.string(), AssetId).default({}),
  })
  .refine((s) => (s.url === undefined) !== (s.path === undefined), "give exactly one of url and path");

export const SourceConfig = z.discriminatedUnion("adapter", [DemoSource, CbeSource, GlobalRatesSource, SellerDocumentSource]);
export type SourceConfig = z.infer<typeof SourceConfig>;
export type CbeSource = z.infer<typeof CbeSource>;
export type GlobalRatesSource = z.infer<typeof GlobalRatesSource>;
export type SellerDocumentSource = z.infer<typeof SellerDocumentSource>;
