/**
 * A licensed seller's published rates, as JSON or CSV at a URL or a path, mapped to quotes by the
 * declarative mapping of the sources file: which field is the seller, the asset, buy, sell and the
 * time. Names are translated to registry and catalog ids by the mapping's tables. Whether the
 * seller is licensed, and whether the numbers are plausible, is the build's acceptance to judge.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import type { SellerDocumentSource } from "../../schema/sources.js";
import type { Quote } from "../../schema/inputs.js";
import { parseInstant } from "../../core/cairo.js";
import { request } from "../http.js";
import { ShapeError, emptyObservations, type AdapterContext, type Observations } from "./types.js";

type Field = SellerDocumentSource["fields"]["seller"];

function valueOf(rec: Record<string, unknown>, f: Field): unknown {
  if (typeof f !== "string") return f.const;
  return f.split(".").reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), rec);
}

function priceOf(v: unknown): number | null | "bad" {
  if (v === null || v === undefined || v === "") return null;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.replace(/,/g, "")) : NaN;
  return Number.isFinite(n) ? n : "bad";
}

/** The records of a document, by its format and the mapping's `records` path. */
export function recordsOf(text: string, cfg: Pick<SellerDocumentSource, "format" | "records">): Array<Record<string, unknown>> {
  if (cfg.format === "csv") {
    try {
      return parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Array<Record<string, unknown>>;
    } catch (e) {
      throw new ShapeError(`not readable CSV: ${(e as Error).message}`);
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ShapeError(`not JSON: ${(e as Error).message}`);
  }
  const list = cfg.records ? valueOf(doc as Record<string, unknown>, cfg.records) : doc;
  if (!Array.isArray(list)) throw new ShapeError(`no array of records at "${cfg.records || "(top level)"}"`);
  return list.filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null);
}

/** Records → quotes. Pure; `nowMs` stamps records that carry no time. */
export function sellerQuotes(records: Array<Record<string, unknown>>, cfg: Pick<SellerDocumentSource, "id" | "fields" | "sellers" | "assets">, nowMs: number, known: ReadonlySet<string>): Pick<Observations, "quotes" | "fetched" | "skipped"> {
  const out: Pick<Observations, "quotes" | "fetched" | "skipped"> = { quotes: [], fetched: records.length, skipped: [] };
  for (const [i, rec] of records.entries()) {
    const where = `record ${i + 1}`;
    const sellerName = String(valueOf(rec, cfg.fields.seller) ?? "").trim();
    const assetName = String(valueOf(rec, cfg.fields.asset) ?? "").trim();
    const seller = cfg.sellers[sellerName] ?? sellerName;
    const asset = cfg.assets[assetName] ?? assetName;
    const buy = priceOf(valueOf(rec, cfg.fields.buy));
    const sell = priceOf(valueOf(rec, cfg.fields.sell));
    const rawTime = cfg.fields.time ? valueOf(rec, cfg.fields.time) : undefined;
    const timeMs = rawTime === undefined ? nowMs : typeof rawTime === "number" ? (rawTime < 1e12 ? rawTime * 1000 : rawTime) : parseInstant(String(rawTime));
    if (!seller) out.skipped.push({ reason: "no seller", detail: where });
    else if (!known.has(asset)) out.skipped.push({ reason: "asset not in the catalog", detail: `${where}: ${assetName}` });
    else if (buy === "bad" || sell === "bad") out.skipped.push({ reason: "price is not a number", detail: `${where}: ${seller} ${asset}` });
    else if (timeMs === null || !Number.isFinite(timeMs)) out.skipped.push({ reason: "unreadable time", detail: `${where}: ${String(rawTime)}` });
    else out.quotes.push({ source: cfg.id, seller, asset, buy, sell, observedAt: new Date(timeMs).toISOString() } satisfies Quote);
  }
  return out;
}

export async function sellerDocumentAdapter(cfg: SellerDocumentSource, ctx: AdapterContext): Promise<Observations> {
  const accept = cfg.format === "csv" ? "text/csv" : "application/json";
  const text = cfg.url ? await (await request(cfg.url, { accept }, ctx.http)).text() : await fs.readFile(path.resolve(ctx.dataDir, cfg.path!), "utf8");
  const known = new Set(ctx.catalog.map((a) => a.id));
  return { ...emptyObservations(), ...sellerQuotes(recordsOf(text, cfg), cfg, ctx.nowMs, known) };
}
