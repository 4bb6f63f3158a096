/**
 * One record of a document — whatever its format — as a quote: the seller (the source's own, or
 * the record's name through the `sellers` map), the asset (names and units, see names.ts), the cash
 * or transfer prices the source takes (see numbers.ts), divided by the units they are for, and the
 * time. A record that cannot be mapped is skipped with its reason, never guessed.
 */
import { roundHalfAway } from "../../core/round.js";
import { keptName } from "../../core/unknown-names.js";
import type { Quote } from "../../schema/inputs.js";
import type { Observations } from "../adapters/types.js";
import { foldName, namingOf, resolveAsset, resolveSeller, type AssetNaming, type SellerNames } from "./names.js";
import { parsePrice } from "./numbers.js";

export interface QuoteMapping {
  /** The source's id, written on every quote. */
  id: string;
  /** The registry id of the seller every record is from (a bank's own page). */
  seller?: string | undefined;
  /** Document names of sellers → registry ids (an aggregator's records). */
  sellers: Record<string, string>;
  /**
   * The registry's names, when the records name their sellers (`fields.seller`): a name it does not
   * give is skipped and listed in `unknownSellers`, never a seller (rule 1). Absent (a pure reading
   * without a registry, as some tests do): a name is the `sellers` map's id, else taken as an id.
   */
  registry?: SellerNames | undefined;
  /** Registry ids whose records this source does not take (`skipSellers`: a relay known to lag for them). */
  skipSellers: ReadonlySet<string>;
  naming: AssetNaming;
  /** Every price is divided by this (100 for a page that shows piastres). */
  divideBy: number;
  /** Which prices the source takes when the record has both. */
  take: "cash" | "transfer";
  /** A row's own unit name (folded) → units one price is for; see `rowUnits` in the sources schema. */
  rowUnits: ReadonlyMap<string, number>;
}

/** A document source's mapping from its configuration (the schema's defaults where one is absent). */
export function quoteMappingOf(
  cfg: {
    id: string;
    seller?: string | undefined;
    sellers?: Record<string, string> | undefined;
    assets?: Record<string, string>;
    units?: Record<string, number>;
    divideBy?: number | undefined;
    take?: "cash" | "transfer" | undefined;
    rowUnits?: Record<string, number> | undefined;
    skipSellers?: readonly string[] | undefined;
  },
  registry?: SellerNames,
): QuoteMapping {
  return {
    id: cfg.id,
    seller: cfg.seller,
    sellers: cfg.sellers ?? {},
    registry,
    skipSellers: new Set(cfg.skipSellers ?? []),
    naming: namingOf(cfg),
    divideBy: cfg.divideBy ?? 1,
    take: cfg.take ?? "cash",
    rowUnits: new Map(Object.entries(cfg.rowUnits ?? {}).map(([k, v]) => [foldName(k), v])),
  };
}

/** What one record says, as raw values. `timeMs` undefined: the record has no time (the run's instant); null: it has one that could not be read. */
export interface RawRecord {
  where: string;
  seller?: unknown;
  asset: unknown;
  buy: unknown;
  sell: unknown;
  transferBuy?: unknown;
  transferSell?: unknown;
  timeMs?: number | null;
  rawTime?: unknown;
  /** The row's own unit ("gram", "ounce"), when the source reads one (`fields.unit`). */
  unit?: unknown;
}

export type Skip = { reason: string; detail: string };

const str = (v: unknown) => (v === null || v === undefined ? "" : String(v).replace(/\s+/g, " ").trim());

/**
 * The record's seller: the source's own, or the record's name through the `sellers` map and the
 * registry (resolveSeller). `{unknown}`: a name the registry does not give; `{ambiguous}`: one it
 * gives two sellers. Without a registry, the old reading: the map's id, else the name as an id.
 */
export function sellerOf(
  raw: unknown,
  m: Pick<QuoteMapping, "seller" | "sellers" | "registry">,
): string | { unknown: string } | { ambiguous: readonly string[]; name: string } {
  if (m.seller !== undefined) return m.seller;
  const name = str(raw);
  if (!name) return "";
  if (m.registry !== undefined) {
    const r = resolveSeller(name, m.registry, m.sellers);
    return "seller" in r ? r.seller : "unknown" in r ? r : { ambiguous: r.ambiguous, name };
  }
  if (name in m.sellers) return m.sellers[name]!;
  const folded = foldName(name);
  for (const [k, v] of Object.entries(m.sellers)) if (foldName(k) === folded) return v;
  return name;
}

/** A record skipped because the registry does not know its seller's name: the name, for `unknownSellers`. */
export type UnknownSeller = Skip & { unknownSeller: string };

export function quoteOf(
  r: RawRecord,
  m: QuoteMapping,
  known: ReadonlySet<string>,
  nowMs: number,
): Quote | Skip | UnknownSeller {
  const who = sellerOf(r.seller, m);
  if (typeof who !== "string")
    return "unknown" in who
      ? {
          reason: "seller not in the registry",
          // Cut as sources.json cuts it: the detail reaches ingest's output and, when every row is a
          // stranger, the source's failure reason, which is published (issue 50, item 8).
          detail: `${r.where}: "${keptName(who.unknown)}" (add the seller to sellers.json, or the name to its aliases)`,
          unknownSeller: who.unknown,
        }
      : {
          reason: "seller name ambiguous",
          detail: `${r.where}: "${who.name}" is a name of ${who.ambiguous.join(" and ")} in sellers.json (make their names or aliases differ)`,
        };
  const seller = who;
  const name = str(r.asset);
  if (!seller) return { reason: "no seller", detail: r.where };
  // The source's configuration says this relay's rows for that seller are not to be trusted (its note says why).
  if (m.skipSellers.has(seller))
    return { reason: "seller not taken from this source", detail: `${r.where}: ${seller}` };
  const resolved = resolveAsset(name, m.naming, known);
  if ("reason" in resolved) {
    if (resolved.reason === "no asset name") return { reason: "no asset name", detail: r.where };
    // One reason for the count; the detail says when the name itself was not understood.
    return {
      reason: "asset not in the catalog",
      detail: `${r.where}: ${name}${resolved.reason === "name not recognised" ? " (name not recognised: map it in the source's assets)" : ""}`,
    };
  }
  // A row's own unit replaces the one its name or `units` gives; one not listed is not taken (a
  // page's per-ounce row beside its per-gram row of the same asset would otherwise compete with it).
  let unit = resolved.unit;
  if (r.unit !== undefined) {
    const given = m.rowUnits.get(foldName(str(r.unit)));
    if (given === undefined)
      return { reason: "unit not taken", detail: `${r.where}: ${seller} ${resolved.asset} per "${str(r.unit)}"` };
    unit = given;
  }
  const [rawBuy, rawSell] = m.take === "transfer" ? [r.transferBuy, r.transferSell] : [r.buy, r.sell];
  const buy = parsePrice(rawBuy);
  const sell = parsePrice(rawSell);
  if (buy === "bad" || sell === "bad")
    return {
      reason: "price is not a number",
      detail: `${r.where}: ${seller} ${resolved.asset} ${JSON.stringify(buy === "bad" ? rawBuy : rawSell)}`,
    };
  if (buy === null && sell === null)
    return { reason: `not dealt (${m.take})`, detail: `${r.where}: ${seller} ${resolved.asset}` };
  const timeMs = r.timeMs === undefined ? nowMs : r.timeMs;
  if (timeMs === null || !Number.isFinite(timeMs))
    return { reason: "unreadable time", detail: `${r.where}: ${str(r.rawTime)}` };
  const per = unit * m.divideBy;
  const scale = (p: number | null) => (p === null || per === 1 ? p : roundHalfAway(p / per, 8));
  return {
    source: m.id,
    seller,
    asset: resolved.asset,
    buy: scale(buy),
    sell: scale(sell),
    observedAt: new Date(timeMs).toISOString(),
  };
}

/** Records → the quotes part of the observations. */
export function quotesOf(
  records: RawRecord[],
  m: QuoteMapping,
  known: ReadonlySet<string>,
  nowMs: number,
): Pick<Observations, "quotes" | "fetched" | "skipped" | "unknownSellers"> {
  const out: Pick<Observations, "quotes" | "fetched" | "skipped"> = {
    quotes: [],
    fetched: records.length,
    skipped: [],
  };
  const unknown = new Set<string>();
  for (const r of records) {
    const q = quoteOf(r, m, known, nowMs);
    if ("unknownSeller" in q) {
      unknown.add(q.unknownSeller);
      out.skipped.push({ reason: q.reason, detail: q.detail });
    } else if ("reason" in q) out.skipped.push(q);
    else out.quotes.push(q);
  }
  return { ...out, unknownSellers: [...unknown].sort() };
}
