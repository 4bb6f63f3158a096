/**
 * A licensed seller's published rates, as JSON or CSV at a URL (any method, headers and body) or a
 * path, mapped to quotes by the declarative mapping of the sources file: which field is the seller,
 * the asset, buy, sell (and the transfer rates) and the time. JSON may come wrapped in a string or
 * in ASP.NET's `{"d": …}`. Names, numbers and times are read as every document adapter reads them
 * (src/ingest/document). Whether the seller is licensed, and whether the numbers are plausible, is
 * the build's acceptance to judge.
 */
import { parse as parseCsv } from "csv-parse/sync";
import type { DocumentField, SellerDocumentSource } from "../../schema/document-sources.js";
import { challengeMessage, challengeOf, parseJsonDocument } from "../document/body.js";
import { readDocument } from "../document/fetch.js";
import { pick } from "../document/regex.js";
import { quoteMappingOf, quotesOf, type RawRecord } from "../document/quotes.js";
import { parseTime } from "../document/time.js";
import { ShapeError } from "../../core/errors.js";
import type { SellerNames } from "../document/names.js";
import { emptyObservations, registryNamesOf, type AdapterContext, type Observations } from "./types.js";

const at = (rec: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), rec);

/**
 * A field's value in a record: at its dotted path, through its regex when it has one (the group
 * named `value`, else the first, else the whole match; null when it does not match), or a constant.
 */
export function valueOf(rec: unknown, f: DocumentField | undefined): unknown {
  if (f === undefined) return undefined;
  if (typeof f === "string") return at(rec, f);
  if ("const" in f) return f.const;
  const v = at(rec, f.path);
  if (f.regex === undefined || v === undefined || v === null) return v;
  // RE2, linear in the text (src/ingest/document/regex.ts): the value is the source's to write.
  return pick(f.regex, String(v), "value");
}

/** The records of a document, by its format and the mapping's `records` path. */
export function recordsOf(
  text: string,
  cfg: Pick<SellerDocumentSource, "format" | "records">,
): Array<Record<string, unknown>> {
  if (cfg.format === "csv") {
    try {
      return parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Array<
        Record<string, unknown>
      >;
    } catch (e) {
      const challenge = challengeOf(text, { contentMissing: true });
      throw new ShapeError(challenge ? challengeMessage(challenge) : `not readable CSV: ${(e as Error).message}`);
    }
  }
  let doc: unknown;
  try {
    doc = parseJsonDocument(text);
  } catch (e) {
    const challenge = challengeOf(text, { contentMissing: true });
    throw challenge ? new ShapeError(challengeMessage(challenge)) : e;
  }
  const found = cfg.records ? at(doc, cfg.records) : doc;
  // One record on its own (a dealer's single object of today's prices) is a list of one.
  const list = found !== null && typeof found === "object" && !Array.isArray(found) ? [found] : found;
  if (!Array.isArray(list)) throw new ShapeError(`no array of records at "${cfg.records || "(top level)"}"`);
  return list.filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null);
}

/** Records → quotes. Pure; `nowMs` stamps records that carry no time. */
export function sellerQuotes(
  records: Array<Record<string, unknown>>,
  cfg: Pick<SellerDocumentSource, "id" | "fields"> &
    Partial<
      Pick<
        SellerDocumentSource,
        | "seller"
        | "sellers"
        | "assets"
        | "units"
        | "divideBy"
        | "take"
        | "time"
        | "perAsset"
        | "rowUnits"
        | "skipSellers"
      >
    >,
  nowMs: number,
  known: ReadonlySet<string>,
  registry?: SellerNames,
): Pick<Observations, "quotes" | "fetched" | "skipped" | "unknownSellers"> {
  const timeSpec = { format: cfg.time?.format, zone: cfg.time?.zone ?? "Africa/Cairo", regex: cfg.time?.regex };
  // Each record gives one asset (its `fields`), or one per `perAsset` entry (a record of every karat).
  const parts = cfg.perAsset ?? [cfg.fields];
  const raw: RawRecord[] = records.flatMap((rec, i) => {
    let timeMs: number | null | undefined;
    const rawTime = valueOf(rec, cfg.fields.time);
    // A record without the field is stamped with the run's instant; one whose time does not read is skipped.
    if (cfg.fields.time !== undefined && rawTime !== undefined) timeMs = parseTime(rawTime, timeSpec, nowMs);
    return parts.map((p, j) => {
      const r: RawRecord = {
        where: cfg.perAsset ? `record ${i + 1}, asset ${j + 1}` : `record ${i + 1}`,
        seller: valueOf(rec, cfg.fields.seller),
        asset: valueOf(rec, p.asset),
        buy: valueOf(rec, p.buy),
        sell: valueOf(rec, p.sell),
        transferBuy: valueOf(rec, p.transferBuy),
        transferSell: valueOf(rec, p.transferSell),
      };
      const unit = valueOf(rec, ("unit" in p ? p.unit : undefined) ?? cfg.fields.unit);
      if (unit !== undefined) r.unit = unit;
      if (cfg.fields.time !== undefined) {
        r.rawTime = rawTime;
        if (timeMs !== undefined) r.timeMs = timeMs;
      }
      return r;
    });
  });
  return quotesOf(raw, quoteMappingOf(cfg, registry), known, nowMs);
}

export async function sellerDocumentAdapter(cfg: SellerDocumentSource, ctx: AdapterContext): Promise<Observations> {
  const text = await readDocument(cfg, cfg.format === "csv" ? "text/csv" : "application/json", ctx);
  const known = new Set(ctx.catalog.map((a) => a.id));
  return { ...emptyObservations(), ...documentQuotes(text, cfg, ctx.nowMs, known, registryNamesOf(ctx)) };
}

/**
 * The document → quotes, or the source's failure: a document without records, or whose records
 * none gives a price, has changed shape (or is a challenge page read as CSV) — never an empty day.
 */
export function documentQuotes(
  text: string,
  cfg: SellerDocumentSource,
  nowMs: number,
  known: ReadonlySet<string>,
  registry?: SellerNames,
): Pick<Observations, "quotes" | "fetched" | "skipped" | "unknownSellers"> {
  const records = recordsOf(text, cfg);
  const out = records.length === 0 ? null : sellerQuotes(records, cfg, nowMs, known, registry);
  if (out === null || out.quotes.length === 0) {
    const challenge = challengeOf(text, { contentMissing: true });
    if (challenge) throw new ShapeError(challengeMessage(challenge));
    if (out === null) throw new ShapeError(`the document has no records${cfg.records ? ` at "${cfg.records}"` : ""}`);
    const reasons = [...new Set(out.skipped.map((s) => s.reason))].join("; ");
    throw new ShapeError(
      `none of the ${records.length} records gives a price (${reasons}; first: ${out.skipped[0]!.detail})`,
    );
  }
  return out;
}
