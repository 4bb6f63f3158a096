/**
 * Input formats of `data/`: the catalog, the licensed registry, the calendar, the site texts, the
 * sources list and the three observation logs, plus the compacted daily closes in `history/`.
 * Every file is validated with these on load; a failure names the file, the line and the reason.
 * No node:* imports: the edge runtime loads this module too.
 */
import { z } from "zod";
import { SourceConfig } from "./sources.js";

export const DateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD")
  .meta({ description: "A calendar date, YYYY-MM-DD (Africa/Cairo)." });

/** An instant as written by sources; validity of the instant itself is acceptance rule 4. */
export const InstantString = z.string().min(1).max(64);

export const Category = z
  .string()
  .regex(/^[a-z][a-z0-9-]*$/, "expected a lowercase slug")
  .meta({ description: "Public taxonomy slug of a category.", examples: ["currencies", "metals"] });

export const Market = z.enum(["competitive", "sole", "reference"]).meta({
  description:
    "competitive: two or more licensed sellers quote it; sole: exactly one does; reference: no sellers, a reference price only.",
});
export const Side = z.enum(["sell", "buy"]).meta({
  description:
    "sell: the seller sells to the customer (lower is better); buy: the seller buys from the customer (higher is better).",
});

export const CatalogAsset = z.strictObject({
  id: z.string().regex(/^[A-Z0-9]+-[A-Z0-9]+$/, "expected <BASE>-<QUOTE> in capitals"),
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a lowercase hyphenated slug"),
  category: Category,
  kind: z.string().regex(/^[a-z][a-z0-9-]*$/),
  market: Market,
  unit: z.string().regex(/^[A-Z]{3}\/[A-Za-z0-9]+$/, "expected <QUOTE>/<BASE-UNIT>"),
  decimals: z.int().min(0).max(8),
  defaultSide: Side,
  name: z.string().min(1),
  nameAr: z.string().min(1),
  /**
   * The first Cairo date the asset is no longer quoted (docs/operating.md "Retiring an asset"). From
   * that date it is in no feed, variant, filter or page, and its quotes are not accepted; its archive
   * (its history files, its rows in past days) stays as published, saying from when it is retired.
   * An asset is retired, never deleted, while data/ holds any of its days: the build refuses that.
   */
  retired: DateString.optional(),
});
export type CatalogAsset = z.infer<typeof CatalogAsset>;

export const Catalog = z
  .array(CatalogAsset)
  .min(1)
  .superRefine((assets, ctx) => {
    const seen = new Set<string>();
    for (const [i, a] of assets.entries()) {
      for (const key of [a.id.toLowerCase(), a.slug]) {
        if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i], message: `duplicate asset id or slug "${key}"` });
        seen.add(key);
      }
    }
  });
export type Catalog = z.infer<typeof Catalog>;

export const RegistrySeller = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  name: z.string().min(1),
  nameAr: z.string().min(1).nullable(),
  kind: z.enum(["bank", "exchange-house", "gold-dealer"]),
  licensedBy: z.string().min(1),
  /**
   * The same body's name in Arabic, as the Arabic pages say it («البنك المركزي المصري»); without it
   * they give the English name, marked as English (issue 53).
   */
  licensedByAr: z.string().min(1).optional(),
  categories: z.array(Category).min(1),
  /**
   * Other names sources give the seller, where they differ from `name` and `nameAr` by more than
   * the folds: short names ("NBE", "FABMISR", «كريدي»), other wordings («بنك قطر الوطني» for QNB Alahli). Names
   * match whatever their case, punctuation, Arabic letter forms, diacritics, a bracketed abbreviation,
   * a leading «بنك» or "Bank", a country suffix or a trailing "Bank" (src/ingest/document/seller-names.ts
   * foldSeller); a name no seller gives is never a seller.
   */
  aliases: z.array(z.string().min(1)).optional(),
  /**
   * Names the seller had before (a bank renamed: «بنك مصر إيران للتنمية» for midbank), and the names
   * of banks it absorbed: each resolves to this seller, as its aliases do (issue 51). `until`: when the
   * name stopped being the bank's (YYYY, YYYY-MM or YYYY-MM-DD); `evidence`: where that was read (URLs
   * or repository/path), one at least.
   */
  formerNames: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        until: z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, "expected YYYY, YYYY-MM or YYYY-MM-DD"),
        evidence: z.array(z.string().min(1)).min(1),
      }),
    )
    .optional(),
  /**
   * Where the seller's names (name, nameAr, aliases) were seen written so: URLs or repository/path of
   * rate tables, the bank's own pages, lists of banks (docs/operating.md "The registry's names").
   */
  nameEvidence: z.array(z.string().min(1)).optional(),
  /**
   * Where and when the operator checked the seller's licence or registration (a URL or the name of
   * a register, and the date), or null: not checked. `licensedBy` says who licenses or registers
   * such sellers; this says whether this one was seen on that body's list (issue 41, item 6).
   */
  verified: z
    .strictObject({ where: z.string().min(1), at: DateString })
    .nullable()
    .optional(),
});
export type RegistrySeller = z.infer<typeof RegistrySeller>;

export const Registry = z.array(RegistrySeller).superRefine((sellers, ctx) => {
  const seen = new Set<string>();
  for (const [i, s] of sellers.entries()) {
    if (seen.has(s.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `duplicate seller id "${s.id}"` });
    seen.add(s.id);
  }
});
export type Registry = z.infer<typeof Registry>;

const Clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "expected HH:MM");
export const Weekday = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
export type Weekday = z.infer<typeof Weekday>;

export const Session = z
  .strictObject({ days: z.array(Weekday).min(1), open: Clock, close: Clock })
  .refine((s) => s.open < s.close, "a session must open before it closes");
export type Session = z.infer<typeof Session>;

export const CategoryCalendar = z.strictObject({
  sessions: z.array(Session),
  holidays: z.array(DateString),
});
export type CategoryCalendar = z.infer<typeof CategoryCalendar>;

export const Calendar = z.strictObject({
  timezone: z.literal("Africa/Cairo"),
  categories: z.record(Category, CategoryCalendar),
});
export type Calendar = z.infer<typeof Calendar>;

export const Site = z.strictObject({
  about: z.string().min(1),
  disclaimer: z.string().min(1),
  license: z.string().min(1),
  simulated: z.boolean(),
  /**
   * The public base URL of the deployment (`https://prices.example.org`, no trailing slash needed):
   * the docs' copy-paste examples and the pages' hreflang links use it. Unset: http://127.0.0.1:8888.
   */
  baseUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).optional(),
  /**
   * The second home (docs/deployment.md "The second home"): the base URL, path prefix included, of
   * the same build served as static files by another provider (`https://owner.github.io/price-feed`).
   * The index and the OpenAPI description name it beside `baseUrl`. Unset: no mirror is announced.
   */
  mirrorUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).optional(),
  /**
   * Who answers for the deployment, for the people whose programs read the feed: the OpenAPI
   * description's `info.contact`. A page (`url`, e.g. the repository's issues), an `email`, or both,
   * with an optional `name`. Unset: the description points at the docs page under `baseUrl`, or,
   * without one, names no contact (its URL must be absolute).
   */
  contact: z
    .strictObject({
      name: z.string().min(1).optional(),
      url: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).optional(),
      email: z.email().optional(),
    })
    .refine((c) => c.url !== undefined || c.email !== undefined, "give a url, an email, or both")
    .optional(),
});
export type Site = z.infer<typeof Site>;

/** The sources, in priority order: on equal `observedAt` the source listed first wins. */
export const Sources = z.strictObject({
  /** How `ingest` identifies itself to sources: a URL or an e-mail address (required for network sources). */
  contact: z.string().min(3).optional(),
  /**
   * Each id once: a source is asked once a run, its quotes are told apart by it, and its rank is its
   * place in this list, so an id listed twice would be asked twice and ranked by whichever came first.
   */
  sources: z.array(SourceConfig).superRefine((sources, ctx) => {
    const first = new Map<string, number>();
    for (const [i, s] of sources.entries()) {
      const at = first.get(s.id);
      if (at === undefined) first.set(s.id, i);
      else
        ctx.addIssue({
          code: "custom",
          path: [i, "id"],
          message: `sources[${at}].id and sources[${i}].id are both "${s.id}"`,
        });
    }
  }),
  /** The simulated market behind the `demo` adapter, when the dataset is the sample. */
  demo: z.strictObject({ seed: z.string(), assets: z.int().min(1), sellers: z.int().min(1) }).optional(),
});
export type Sources = z.infer<typeof Sources>;

const Price = z.number().nullable();

export const Quote = z.strictObject({
  source: z.string().min(1),
  seller: z.string().min(1),
  asset: z.string().min(1),
  buy: Price,
  sell: Price,
  observedAt: InstantString,
});
export type Quote = z.infer<typeof Quote>;

export const OfficialRate = z.strictObject({
  source: z.string().min(1),
  asset: z.string().min(1),
  buy: Price,
  sell: Price,
  observedAt: InstantString,
});
export type OfficialRate = z.infer<typeof OfficialRate>;

export const GlobalRate = z.strictObject({
  source: z.string().min(1),
  asset: z.string().min(1),
  value: z.number(),
  observedAt: InstantString,
});
export type GlobalRate = z.infer<typeof GlobalRate>;

/** One seller's close of a day: its chosen accepted quote (docs/methodology.md §2.3), already rounded. */
export const SellerClose = z.strictObject({
  seller: z.string(),
  /** The source whose quote is the close. */
  source: z.string(),
  /** Every source with an accepted quote of this seller that day (absent in days compacted before it was kept). */
  sources: z.array(z.string()).optional(),
  buy: z.number().nullable(),
  sell: z.number().nullable(),
  observedAt: z.string(),
});
export type SellerClose = z.infer<typeof SellerClose>;

/**
 * A compacted day of one asset (`history/<date>.ndjson`): everything a build needs from that day's
 * raw quotes, so that a build on compacted data is byte-identical to one on the raw quotes.
 */
export const DayClose = z.strictObject({
  date: DateString,
  asset: z.string(),
  closes: z.array(SellerClose),
  sources: z.array(z.string()),
  disagreements: z.array(
    z.strictObject({ seller: z.string(), sources: z.tuple([z.string(), z.string()]), side: Side, diffPct: z.number() }),
  ),
  observedAt: z.string().nullable(),
});
export type DayClose = z.infer<typeof DayClose>;

/**
 * The summary of one compacted day (`summaries/<date>.json`), written by `compact` beside
 * `history/<date>.ndjson`: per history line, in its order, the asset and the day's low and high per
 * side, which is all a past day gives the series and the verdict (src/core/dataset.ts DayRange). It is
 * a cache, never the record: it names the SHA-256 of the history file it was made from, and a build
 * uses it only while that file's bytes still hash to it (src/io/load-build.ts).
 */
export const DaySummary = z.strictObject({
  date: DateString,
  /** Lower-case hex SHA-256 of the bytes of `history/<date>.ndjson`. */
  historySha256: z.string().regex(/^[0-9a-f]{64}$/),
  ranges: z.array(
    z.strictObject({
      asset: z.string(),
      buyLo: z.number().nullable(),
      buyHi: z.number().nullable(),
      sellLo: z.number().nullable(),
      sellHi: z.number().nullable(),
    }),
  ),
});
export type DaySummary = z.infer<typeof DaySummary>;
