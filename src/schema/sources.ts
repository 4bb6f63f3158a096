/**
 * The sources file (`data/sources.json`): which sources `price-feed ingest` runs and how each one
 * maps what it returns onto observations. One schema per adapter, so a typo in a mapping stops the
 * run with the file and the field rather than silently ingesting nothing.
 * No node:* imports: shared with the build, which reads the same file for source priority.
 */
import { z } from "zod";

import { AssetId, Url, base, kind, SourceKind } from "./source-base.js";
import { HtmlSource, SellerDocumentSource, XmlSource } from "./document-sources.js";

/**
 * The demo's sources (src/sample) by their roles in the simulated market, for a sources file that
 * does not say: the banks' and the dealers' own pages and board, two aggregators, the central bank
 * and the global reference.
 */
export const DEMO_SOURCE_KINDS: Readonly<Record<string, SourceKind>> = {
  "bank-sites": "seller",
  "dealers-board": "seller",
  "rates-aggregator": "aggregator",
  "market-watch": "aggregator",
  "cbe-official": "official",
  "global-mid": "reference",
};

/** The simulated market's next hour (src/sample): the whole hourly loop offline. */
export const DemoSource = z.strictObject({
  ...base,
  adapter: z.literal("demo"),
  /** Absent: the role the source plays in the simulated market (DEMO_SOURCE_KINDS), else aggregator; see sourceKinds. */
  kind: SourceKind.optional(),
});

/**
 * Central Bank of Egypt, official rates: the historical-data page hands out an anti-forgery token
 * and cookies; its form POST answers an XLSX workbook of buy/sell per currency and business day.
 */
export const CbeSource = z.strictObject({
  ...base,
  ...kind("official"),
  adapter: z.literal("cbe"),
  // The CBE asks to be cited as the source wherever its rates are redistributed.
  attribution: z.string().min(1).default("Source: Central Bank of Egypt"),
  pageUrl: Url,
  /** Business days asked for, back from today (the workbook is small; one request a run). */
  days: z.int().min(1).max(31).default(7),
  /** CBE currency name → catalog asset; `per` when the CBE quotes per that many units ("Japanese Yen 100"). */
  currencies: z.record(
    z.string().min(1),
    z.union([AssetId, z.strictObject({ asset: AssetId, per: z.number().positive() })]),
  ),
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
  ...kind("reference"),
  adapter: z.literal("global-rates"),
  /** Tried in order: the first that answers a well-formed document is used. */
  urls: z.array(Url).min(1),
  /** The document's base currency code ("usd"). */
  base: z.string().regex(/^[a-z0-9]+$/),
  /** The code of the Egyptian pound in the document ("egp"). */
  quote: z
    .string()
    .regex(/^[a-z0-9]+$/)
    .default("egp"),
  assets: z.array(GlobalAsset).min(1),
});

export const SourceConfig = z.discriminatedUnion("adapter", [
  DemoSource,
  CbeSource,
  GlobalRatesSource,
  SellerDocumentSource,
  HtmlSource,
  XmlSource,
]);
export type SourceConfig = z.infer<typeof SourceConfig>;
export type CbeSource = z.infer<typeof CbeSource>;
export type GlobalRatesSource = z.infer<typeof GlobalRatesSource>;

/** A source's kind: as configured, or (the demo) its role in the simulated market, else aggregator. */
export function sourceKind(s: SourceConfig): SourceKind {
  return s.kind ?? DEMO_SOURCE_KINDS[s.id] ?? "aggregator";
}

/** Every source's kind by its id, for the rules that weigh a seller's own publication against relays. */
export function sourceKinds(
  sources: readonly SourceConfig[] | { sources: readonly SourceConfig[] },
): Map<string, SourceKind> {
  const list = "sources" in sources ? sources.sources : sources;
  return new Map(list.map((s) => [s.id, sourceKind(s)]));
}
