/**
 * Sources that read a document — a seller's or an aggregator's rate page (HTML), its JSON or CSV
 * file, an XML rates file — mapped to quotes by configuration only: where the rows and fields are,
 * how names become registry and catalog ids, how prices are scaled and how the time is written.
 * No node:* imports.
 */
import { RE2JS } from "re2js";
import { z } from "zod";
import { AssetId, Id, Url, base, kind, timeFormatProblem } from "./source-base.js";

/**
 * A regular expression in RE2 syntax (https://github.com/google/re2/wiki/Syntax). Ingest runs it
 * with re2js on text a source sent (src/ingest/document/regex.ts), in time linear in the text:
 * RE2 refuses what would need backtracking (backreferences `\1`, lookahead `(?=`, lookbehind
 * `(?<=`). Each pattern is compiled when the sources file is read (`re2Patterns`, below), so a
 * pattern RE2 refuses stops the file there, naming the source and the field, not the first hour
 * a page's text meets it.
 */
const Regex = z.string().min(1);

/** Why RE2 refuses a pattern, or null when it compiles. */
export function regexProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (e) {
    const why = (e as Error).message.replace(/^error parsing regexp: /, "");
    return /\\[1-9]|\(\?<?[=!]|\\k</.test(pattern)
      ? `${why}: backreferences and lookaround need a backtracking engine, which a hostile page can keep busy for hours; RE2 runs in time linear in the text`
      : why;
  }
}

/** Every `regex` a source's fields and time give, with where it is (`fields.buy.regex`). */
function regexesOf(s: {
  fields?: Record<string, unknown>;
  perAsset?: Array<Record<string, unknown>> | undefined;
  time?: { regex?: string | undefined } | undefined;
}): Array<[Array<string | number>, string]> {
  const out: Array<[Array<string | number>, string]> = [];
  const inFields = (fields: Record<string, unknown>, at: Array<string | number>) => {
    for (const [k, f] of Object.entries(fields))
      if (typeof f === "object" && f !== null && typeof (f as { regex?: unknown }).regex === "string")
        out.push([[...at, k, "regex"], (f as { regex: string }).regex]);
  };
  if (s.fields) inFields(s.fields, ["fields"]);
  s.perAsset?.forEach((p, i) => inFields(p, ["perAsset", i]));
  if (s.time?.regex !== undefined) out.push([["time", "regex"], s.time.regex]);
  return out;
}

/** Every regex of a source compiles in RE2, checked when the sources file is read; the message names the source and the field. */
const re2Patterns = (s: Parameters<typeof regexesOf>[0] & { id: string }, ctx: z.RefinementCtx) => {
  for (const [where, pattern] of regexesOf(s)) {
    const problem = regexProblem(pattern);
    if (problem !== null)
      ctx.addIssue({
        code: "custom",
        path: where,
        message: `source "${s.id}": ${where.join(".")} ${JSON.stringify(pattern)} is not a valid regular expression in RE2 syntax (${problem})`,
      });
  }
};

/** An IANA time zone ("Africa/Cairo"). */
const Zone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, "not a known time zone");

/**
 * A header's name, as HTTP writes it (RFC 9110 §5.1, a token): anything else would be refused by
 * the HTTP client only when the request is made, naming neither the source nor the header.
 */
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "not an HTTP header name (RFC 9110 §5.1)");

/** The request a document source makes: a URL (GET unless said otherwise) with headers and a body, or a file beside the sources file. */
const request = {
  url: Url.optional(),
  /** A file, relative to the sources file's folder. */
  path: z.string().min(1).optional(),
  method: z.enum(["GET", "POST"]).default("GET"),
  headers: z.record(HeaderName, z.string()).default({}),
  /** Sent as is when a string; as JSON (Content-Type application/json) when an object. */
  body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  /**
   * A first request whose JSON answer holds a token the rates request must carry, as a page's own
   * script does (Dahab Masr: `GET /api/price/auth` → `{"nonce": …}`, then the rates with
   * `X-Price-Nonce`): the token at `path` goes in the `header`, and the cookies it set go along.
   * Asked again before every attempt of the rates request (a nonce is for one use). The token
   * request carries only its own `headers`, never the source's; the token and the cookies go only to
   * the origin they came from (`tokenAtOrigin`, below; src/ingest/document/fetch.ts).
   */
  token: z
    .strictObject({
      url: Url,
      method: z.enum(["GET", "POST"]).default("GET"),
      /** Dotted path of the token in the JSON answer ("nonce"). */
      path: z.string().min(1),
      /** The header the rates request carries it in ("X-Price-Nonce"). */
      header: HeaderName,
      /** The token request's own headers (the source's `headers` are not sent with it). */
      headers: z.record(HeaderName, z.string()).default({}),
    })
    .optional(),
};
const oneOfUrlAndPath = [
  (s: { url?: string | undefined; path?: string | undefined }) => (s.url === undefined) !== (s.path === undefined),
  "give exactly one of url and path",
] as const;

/**
 * A token, and the cookies its answer sets, are sent only to the origin they came from (RFC 6454:
 * scheme, host and port), as a browser keeps a site's credentials to that site; a rates `url` at
 * another origin would never get them, so the file is refused when read, naming both origins.
 */
const tokenAtOrigin = (
  s: { id: string; url?: string | undefined; token?: { url: string } | undefined },
  ctx: z.RefinementCtx,
) => {
  if (s.token === undefined || s.url === undefined) return;
  const [from, to] = [new URL(s.token.url).origin, new URL(s.url).origin];
  if (from !== to)
    ctx.addIssue({
      code: "custom",
      path: ["token", "url"],
      message: `source "${s.id}": token.url is at ${from} and url at ${to}: a token and its cookies are sent only to the origin they came from (scheme, host and port, RFC 6454)`,
    });
};

/** How a document's names become registry and catalog ids, and how its prices are scaled. */
const mapping = {
  /** The registry id of the seller whose rates these are (a bank's own page). An aggregator gives `fields.seller` instead. */
  seller: Id.optional(),
  /**
   * The document's names of sellers → registry ids, before the registry's own names and aliases
   * (src/ingest/document/names.ts resolveSeller). A name neither gives is never a seller: the row is
   * skipped and the name listed in ingest's `unknownSellers`.
   */
  sellers: z.record(z.string(), Id).default({}),
  /**
   * Registry ids whose rows this source does not take: a relay known to lag for those sellers
   * (egrates' currency pages, as the public code that reads them excludes some banks as stale). The
   * source's `note` says why. Skipped as "seller not taken from this source".
   */
  skipSellers: z.array(Id).default([]),
  /**
   * The document's names or codes → catalog ids, before the built-in names (English and Arabic,
   * src/ingest/document/names.ts). Names match whatever their case, punctuation or Arabic spelling.
   */
  assets: z.record(z.string(), AssetId).default({}),
  /** Units one price is for, by ISO code or asset id (`{"JPY": 100}`: the price is per 100 yen, and is divided by 100). */
  units: z.record(z.string().min(1), z.number().positive()).default({}),
  /** Every price is divided by this (100 for a page that writes piastres). */
  divideBy: z.number().positive().default(1),
  /** Which prices to take when the document has both: bank notes (`buy`, `sell`) or transfers (`transferBuy`, `transferSell`). */
  take: z.enum(["cash", "transfer"]).default("cash"),
  /**
   * What a row's own unit (`fields.unit`) means: its name → how many of the asset's units one price
   * is for (`{"gram": 1, "ounce": 31.1034768}`), matched as names are (case, Arabic spelling). A row
   * whose unit is not listed is skipped as "unit not taken": a page with per-gram and per-ounce rows
   * of one asset lists only the unit it wants, so the two rows never compete as one seller's price.
   */
  rowUnits: z.record(z.string().min(1), z.number().positive()).default({}),
};
const rowUnitsGiven = [
  (s: { rowUnits: Record<string, number>; fields: { unit?: unknown } }) =>
    s.fields.unit === undefined || Object.keys(s.rowUnits).length > 0,
  "fields.unit needs rowUnits: the unit names a row may give and what each is worth",
] as const;

/** How the time of the rates is written. */
const timeFormat = {
  /**
   * luxon format tokens ("dd/MM/yyyy HH:mm:ss", "M/d/yyyy h:mm:ss a"), tried in order; or "iso",
   * "epoch". Absent: ISO 8601 with an offset, or epoch seconds or milliseconds.
   */
  format: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** The zone of a time written without one. */
  zone: Zone.default("Africa/Cairo"),
  /** Pulls the time out of a longer text ("Latest update at : (.+)"): the group named `time`, else the first group. */
  regex: Regex.optional(),
};
const TimeFormat = z.strictObject(timeFormat);

/**
 * Every entry of `time.format` is one luxon can use (timeFormatProblem), checked when the sources
 * file is read: a format luxon refuses would otherwise fail the source only on the day a page's text
 * matches it, naming neither the source nor the format (issue 26, item 11).
 */
const usableTimeFormats = (
  s: { id: string; time?: { format?: string | string[] | undefined } | undefined },
  ctx: z.RefinementCtx,
) => {
  const format = s.time?.format;
  if (format === undefined) return;
  for (const [i, f] of (Array.isArray(format) ? format : [format]).entries()) {
    const problem = timeFormatProblem(f);
    if (problem !== null)
      ctx.addIssue({
        code: "custom",
        path: Array.isArray(format) ? ["time", "format", i] : ["time", "format"],
        message: `source "${s.id}": luxon cannot use the time format "${f}": ${problem}`,
      });
  }
};

/**
 * Where a value is in a record: a field name (a dotted path); the same as `{"path", "regex"}`, read
 * through a regular expression as the HTML fields are (the group named `value`, else the first
 * group, else the whole match; no match: the record has no such value); or a constant.
 */
const Field = z.union([
  z.string().min(1),
  z.strictObject({ const: z.string() }),
  z.strictObject({ path: z.string().min(1), regex: Regex.optional() }),
]);
export type DocumentField = z.infer<typeof Field>;

/** One asset of a record that holds several, each with fields of its own (one gold dealer's record, every karat). */
const PerAsset = z.strictObject({
  asset: Field,
  buy: Field,
  sell: Field,
  transferBuy: Field.optional(),
  transferSell: Field.optional(),
  unit: Field.optional(),
});

const exactlyOneSeller = [
  (s: { seller?: string | undefined; fields: { seller?: unknown } }) =>
    (s.seller === undefined) !== (s.fields.seller === undefined),
  "give exactly one of seller (a registry id) and fields.seller",
] as const;
const transferMapped = [
  (s: { take: string; fields: { transferBuy?: unknown; transferSell?: unknown } }) =>
    s.take !== "transfer" || (s.fields.transferBuy !== undefined && s.fields.transferSell !== undefined),
  'take "transfer" needs fields.transferBuy and fields.transferSell',
] as const;

/**
 * A licensed seller's published rates, as a JSON or CSV document at a URL or a path, mapped to
 * quotes declaratively, so that an operator adds a bank or a dealer without code.
 */
export const SellerDocumentSource = z
  .strictObject({
    ...base,
    ...kind("seller"),
    adapter: z.literal("seller-document"),
    ...request,
    format: z.enum(["json", "csv"]),
    /** JSON: dotted path to the array of records ("data.rates"), or to one record; empty for the top level (or the `d` of an ASP.NET answer). */
    records: z.string().default(""),
    /** What every record gives. `asset`, `buy` and `sell` (and the transfer rates) here, or in `perAsset`. */
    fields: z.strictObject({
      seller: Field.optional(),
      asset: Field.optional(),
      buy: Field.optional(),
      sell: Field.optional(),
      transferBuy: Field.optional(),
      transferSell: Field.optional(),
      time: Field.optional(),
      unit: Field.optional(),
    }),
    /**
     * A record that holds several assets, each in fields of its own (`LocalPrice24`/`LocalSellPrice24`
     * for 24 karat, `Buy`/`Sell` for 21): one entry per asset, read from every record, with the
     * record's shared `fields` (seller, time, unit).
     */
    perAsset: z.array(PerAsset).min(1).optional(),
    ...mapping,
    time: TimeFormat.optional(),
  })
  .refine(...oneOfUrlAndPath)
  .refine(...exactlyOneSeller)
  .refine(
    (s) =>
      s.perAsset === undefined
        ? s.fields.asset !== undefined && s.fields.buy !== undefined && s.fields.sell !== undefined
        : [s.fields.asset, s.fields.buy, s.fields.sell, s.fields.transferBuy, s.fields.transferSell].every(
            (f) => f === undefined,
          ),
    "give fields.asset, fields.buy and fields.sell, or perAsset (one entry per asset of a record), not both",
  )
  .refine(
    (s) =>
      s.take !== "transfer" ||
      (s.perAsset === undefined
        ? s.fields.transferBuy !== undefined && s.fields.transferSell !== undefined
        : s.perAsset.every((p) => p.transferBuy !== undefined && p.transferSell !== undefined)),
    'take "transfer" needs transferBuy and transferSell',
  )
  .refine(...rowUnitsGiven)
  .superRefine(usableTimeFormats)
  .superRefine(re2Patterns)
  .superRefine(tokenAtOrigin);

/**
 * Where a value is in one row of an HTML page. A string is a CSS selector inside the row (its
 * text). An object picks the element — `cell` (the row's n-th cell, from 0), `column` (the cell
 * under the header with that text; `["Notes", "Buy"]` or "Notes Buy" for two header rows),
 * `selector` (inside that cell, or inside the row), or none (the row itself) — then reads its
 * `attr` or its text, optionally through `regex`; or is a `const`.
 */
const HtmlField = z.union([
  z.string().min(1),
  z
    .strictObject({
      selector: z.string().min(1).optional(),
      cell: z.int().min(0).optional(),
      column: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
      attr: z.string().min(1).optional(),
      regex: Regex.optional(),
      const: z.string().optional(),
    })
    .refine((f) => !(f.cell !== undefined && f.column !== undefined), "give at most one of cell and column")
    .refine((f) => f.const === undefined || Object.keys(f).length === 1, "const stands alone"),
]);
export type HtmlField = z.infer<typeof HtmlField>;

const usesColumn = (f: unknown) => typeof f === "object" && f !== null && "column" in f;

/**
 * A seller's (or an aggregator's) rate page, read declaratively with CSS selectors: where the rows
 * are, where each field is in a row, which rates to take, when they were set. A redesigned page is
 * a change of selectors here, never code.
 */
export const HtmlSource = z
  .strictObject({
    ...base,
    ...kind("seller"),
    adapter: z.literal("html"),
    ...request,
    /** CSS selector of the rows, one asset each (`#dgPrices tr`). Header rows it also matches are left out. */
    rows: z.string().min(1),
    /** CSS selector of the header row(s) that name the columns; needed by fields found by `column`. */
    header: z.string().min(1).optional(),
    /** CSS selector of a row's cells, inside the row (default: the row's child elements). */
    cells: z.string().min(1).optional(),
    fields: z.strictObject({
      seller: HtmlField.optional(),
      asset: HtmlField,
      buy: HtmlField,
      sell: HtmlField,
      transferBuy: HtmlField.optional(),
      transferSell: HtmlField.optional(),
      time: HtmlField.optional(),
      /** The row's own unit ("gram", "ounce"), looked up in `rowUnits`. */
      unit: HtmlField.optional(),
    }),
    ...mapping,
    /**
     * When the rates were set: `selector` (and `attr`) of the page's one time element, or per row
     * from `fields.time`; read with `format` in `zone`. Absent, and no `fields.time`: the run's instant.
     */
    time: z
      .strictObject({ selector: z.string().min(1).optional(), attr: z.string().min(1).optional(), ...timeFormat })
      .optional(),
  })
  .refine(...oneOfUrlAndPath)
  .refine(...exactlyOneSeller)
  .refine(...transferMapped)
  .refine(...rowUnitsGiven)
  .refine(
    (s) => s.header !== undefined || !Object.values(s.fields).some(usesColumn),
    "fields found by column need a header selector",
  )
  .refine(
    (s) => !(s.time?.selector !== undefined && s.fields.time !== undefined),
    "give the time either by time.selector (the page) or by fields.time (each row)",
  )
  .superRefine(usableTimeFormats)
  .superRefine(re2Patterns)
  .superRefine(tokenAtOrigin);

/**
 * Where a value is in an XML record: `@name` an attribute, `name` a child element's text, dotted
 * for deeper (`rate.@buy`), or a constant. `{name}` in a field expands the record into one row per
 * attribute or child that fits: `"buy": "@{name}Bbuy"` reads `USDBbuy="17.72"` as USD's buy.
 */
const XmlField = z.union([z.string().min(1), z.strictObject({ const: z.string() })]);

/** A document of rates in XML (a bank's static rates file), elements or attributes mapped to quotes. */
export const XmlSource = z
  .strictObject({
    ...base,
    ...kind("seller"),
    adapter: z.literal("xml"),
    ...request,
    /** Dotted path of the record elements from the root ("Details.rates"). */
    records: z.string().min(1),
    fields: z.strictObject({
      seller: XmlField.optional(),
      asset: XmlField,
      buy: XmlField,
      sell: XmlField,
      transferBuy: XmlField.optional(),
      transferSell: XmlField.optional(),
      time: XmlField.optional(),
      /** The record's own unit, looked up in `rowUnits`. */
      unit: XmlField.optional(),
    }),
    ...mapping,
    time: TimeFormat.optional(),
  })
  .refine(...oneOfUrlAndPath)
  .refine(...exactlyOneSeller)
  .refine(...transferMapped)
  .refine(...rowUnitsGiven)
  .superRefine(usableTimeFormats)
  .superRefine(re2Patterns)
  .superRefine(tokenAtOrigin);

export type SellerDocumentSource = z.infer<typeof SellerDocumentSource>;
export type HtmlSource = z.infer<typeof HtmlSource>;
export type XmlSource = z.infer<typeof XmlSource>;
