/**
 * What each document source (html, seller-document, xml) of a sources file publishes at a virtual
 * instant: which sellers and assets its page or document carries, their prices from the world's
 * market, when the page says they were set, and how the value-level faults change them. Pure:
 * `(seed, source, instant, faults)` fixes the rows.
 *
 * - A seller's own page (`seller` set, kind `seller`) shows its prices of its latest publication.
 * - A relay (kind `aggregator`) shows each seller's prices one publication late (an hour, the day's
 *   first excepted), as the sample's aggregator does; its own stamp is when it relayed them.
 * - Gold dealers' boards move continuously: stamped a few minutes before the request in a session.
 * - Outside the sessions every page keeps its last prices (and its last stamp, when it has one).
 */
import { DateTime } from "luxon";
import { roundHalfAway } from "../../core/round.js";
import { parsePrice } from "../../ingest/document/numbers.js";
import { resolveAsset, namingOf, type SellerNames } from "../../ingest/document/names.js";
import type { HtmlSource, SellerDocumentSource, XmlSource } from "../../schema/document-sources.js";
import type { Quote } from "../../schema/inputs.js";
import { TROY_OUNCE_G } from "../../sample/catalog.js";
import { HOUR_MS, type WorldMarket } from "./market.js";
import {
  assetCandidates,
  assetWriting,
  perUnits,
  printed,
  RENAMED_SELLER,
  renamedBank,
  sellerSpelling,
  textPicking,
  unknownBank,
} from "./names.js";
import type { NetFaultKind } from "./types.js";

export type DocumentSource = HtmlSource | SellerDocumentSource | XmlSource;

/** One row of a page (one record's asset): the values as the page shows them, per unit of the catalog's asset. */
export interface Row {
  /** The registry id the row is about (null: a bank the registry does not know). */
  seller: string | null;
  /** The seller's name as written (aggregators naming their sellers). */
  name: string;
  asset: string;
  /** The asset's name as written, and the units one written price is for. */
  assetName: string;
  per: number;
  buy: number | null;
  sell: number | null;
  /** Dealt by transfer only: the notes columns show 0. */
  transferOnly: boolean;
  /** When the page says this row was set (ms); null: no stamp. */
  stampMs: number | null;
}

export interface Publication {
  rows: Row[];
  /** The page's one stamp (the latest row's), for a page stamped once. */
  stampMs: number | null;
}

/** How a document source is read: what its mapping writes and where. */
export interface DocumentPlan {
  id: string;
  cfg: DocumentSource;
  format: "html" | "json" | "csv" | "xml";
  /** Registry ids the source carries (one for a seller's own page). */
  sellers: string[];
  /** Catalog ids the source carries. */
  assets: string[];
  /** Its records name their sellers (`fields.seller`). */
  namesSellers: boolean;
  /** A relay: one publication late. */
  relay: boolean;
  /** Where its time is: the page once, each row, or nowhere (the run's instant). */
  stamped: "page" | "row" | "none";
  /** The written time's format (luxon tokens, or "iso"/"epoch") and zone. */
  timeFormat: string;
  timeZone: string;
  /** The site writes names in Arabic (egrates). */
  arabic: boolean;
  /** Both sides are written (neither is a constant): sides can be swapped. */
  twoSided: boolean;
  /** The mapping has transfer columns beside the notes: some currencies are dealt by transfer only. */
  transfers: boolean;
  /** Each asset's name as written and its units, per asset id. */
  writing: Map<string, { name: string; per: number }>;
  /** Each seller's name as the site writes it. */
  spelling: Map<string, string>;
  /** One record per seller holds every asset (perAsset, an XML `{name}` template): one time per record. */
  grouped: boolean;
  /** perAsset: the entry of the mapping that gives each asset. */
  entryOf: Map<string, number>;
  /** The unit name each row writes (`fields.unit`, one of `rowUnits`); null when the mapping reads none. */
  unitName: string | null;
  /** An HTML page printed as a site prints it (heading, links, flags, a change beside a price); plain when that would not read back. */
  dressed: boolean;
}

/** The reader's mapping fields, whatever the adapter. */
type AnyFields = Record<string, unknown>;

const isConst = (f: unknown): f is { const: string } => typeof f === "object" && f !== null && "const" in f;

/** A constant asset of the mapping, resolved as the reader resolves it. */
function constAsset(f: unknown, cfg: DocumentSource, known: ReadonlySet<string>): string | null {
  if (!isConst(f)) return null;
  const r = resolveAsset(f.const, namingOf(cfg), known);
  return "asset" in r ? r.asset : null;
}

/** Why the world cannot serve a document source, or its plan. */
export function planDocument(
  cfg: DocumentSource,
  market: WorldMarket,
  names: SellerNames,
): DocumentPlan | { why: string } {
  if (cfg.url === undefined) return { why: "reads a file of the data folder, not the network" };
  const known = new Set(market.assets.keys());
  const fields = cfg.fields as AnyFields;
  const perAsset = "perAsset" in cfg ? cfg.perAsset : undefined;
  const format = cfg.adapter === "html" ? "html" : cfg.adapter === "xml" ? "xml" : cfg.format;
  const namesSellers = fields["seller"] !== undefined;
  if (!namesSellers && (cfg.seller === undefined || !market.sellers.has(cfg.seller)))
    return { why: `its seller "${cfg.seller ?? ""}" is not in the registry` };

  // The assets: a constant of the mapping (egrates' page of one currency, a dealer's karats), else
  // every asset of the catalog its sellers deal in.
  let assets: string[];
  const entryOf = new Map<string, number>();
  if (perAsset !== undefined) {
    const consts = perAsset.map((p) => constAsset(p.asset, cfg, known));
    if (!consts.every((a) => a !== null))
      return { why: "its perAsset entries name their assets by a field, not a constant" };
    consts.forEach((a, i) => entryOf.set(a!, i));
    assets = consts as string[];
  } else {
    const c = constAsset(fields["asset"], cfg, known);
    assets = c !== null ? [c] : [...known];
  }
  assets = assets.filter((a) => market.asset(a)?.market !== "reference");
  const sellers = namesSellers
    ? [...market.sellers.values()]
        .filter((s) => assets.some((a) => s.categories.includes(market.asset(a)!.category)))
        .map((s) => s.id)
    : [cfg.seller!];
  assets = assets.filter((a) => sellers.some((s) => market.deals(s, a)));
  if (assets.length === 0) return { why: "none of the catalog's assets is one its sellers deal in" };

  const host = new URL(cfg.url).hostname;
  const arabic = /egrates/.test(host) || /\/ar(\/|$)|lang=ar/.test(cfg.url);
  const timeSpec = cfg.time;
  const rowTime = fields["time"] !== undefined && !isConst(fields["time"]);
  const pageTime = cfg.adapter === "html" && cfg.time?.selector !== undefined;
  const formats =
    timeSpec?.format === undefined ? [] : Array.isArray(timeSpec.format) ? timeSpec.format : [timeSpec.format];
  const sides = perAsset ?? [fields];
  const twoSided = sides.every((p) => !isConst(p["buy"]) && !isConst(p["sell"]));
  const transfers = fields["transferBuy"] !== undefined && fields["transferSell"] !== undefined;

  // How each asset is written: the reader's own resolution decides the name and the units.
  // Codes where the page heads the column (or names the element) "code"; a relay's "Name (CODE)"; else names.
  const byCode = /code/i.test(JSON.stringify(fields["asset"] ?? ""));
  const style = format !== "html" || byCode ? "code" : cfg.kind === "aggregator" && !namesSellers ? "relay" : "page";
  // A name the asset field's regex picks whole ("usd" out of "usd.png"), when it has one.
  const assetField = perAsset === undefined ? fields["asset"] : undefined;
  const regex =
    typeof assetField === "object" && assetField !== null && "regex" in assetField
      ? (assetField as { regex?: string }).regex
      : undefined;
  const fits = (name: string) => regex === undefined || textPicking(regex, name, "value") !== null;
  const writing = new Map<string, { name: string; per: number }>();
  for (const a of assets) {
    const asset = market.asset(a)!;
    const w = assetWriting(a, assetCandidates(asset, style), cfg, known, fits);
    if (w === null) return { why: `no name of ${a} reads back as it through the source's naming` };
    writing.set(a, w);
  }
  // A row's own unit (`fields.unit`, looked up in `rowUnits`) replaces the one its name gives: the
  // world writes the unit worth one of the catalog's (a gram), else the first listed, and prices for it.
  const unitField =
    fields["unit"] !== undefined || (perAsset ?? []).some((e) => e.unit !== undefined)
      ? Object.entries(cfg.rowUnits ?? {})
      : [];
  const unit = unitField.find(([, v]) => v === 1) ?? unitField[0];
  if (unit !== undefined) for (const w of writing.values()) w.per = unit[1] * (cfg.divideBy ?? 1);
  const spelling = new Map(
    sellers.map((s) => [s, sellerSpelling(market.seed, host, market.sellers.get(s)!, arabic, names)] as const),
  );
  return {
    id: cfg.id,
    cfg,
    format,
    sellers,
    assets,
    namesSellers,
    relay: cfg.kind === "aggregator",
    stamped: pageTime ? "page" : rowTime ? "row" : "none",
    timeFormat: formats[0] ?? "iso",
    timeZone: timeSpec?.zone ?? "Africa/Cairo",
    arabic,
    twoSided,
    transfers,
    writing,
    spelling,
    grouped:
      perAsset !== undefined ||
      (cfg.adapter === "xml" && Object.values(cfg.fields).some((f) => typeof f === "string" && f.includes("{name}"))),
    entryOf,
    unitName: unit?.[0] ?? null,
    dressed: true,
  };
}

/** How far back a stale page's prices and stamp are: two days. */
export const STALE_MS = 50 * HOUR_MS;
/** How far ahead a dealer's wrong clock is. */
export const CLOCK_AHEAD_MS = 3 * HOUR_MS;

/** Value-level faults a document source can show, given its plan. */
export function documentFaults(p: DocumentPlan, market: WorldMarket): NetFaultKind[] {
  const out: NetFaultKind[] = ["unit-per-100"];
  if (p.assets.some((a) => market.asset(a)?.goldGrams !== undefined)) out.push("unit-per-ounce");
  if (p.twoSided) out.push("sides-swapped");
  if (p.stamped !== "none") out.push("stale-stamp", "clock-ahead");
  if (p.namesSellers) out.push("unknown-bank", "renamed-bank");
  return out;
}

/** The rows the source shows at `nowMs` under the value-level faults `faults`. */
export function publish(
  p: DocumentPlan,
  market: WorldMarket,
  names: SellerNames,
  nowMs: number,
  faults: ReadonlySet<NetFaultKind>,
): Publication {
  const at = faults.has("stale-stamp") ? nowMs - STALE_MS : nowMs;
  const rows: Row[] = [];
  const delay = (h: number) => market.delay(p.id, h, 5);
  // When the source last published, once per calendar (every currency shares one): [stamp, values' instant].
  const times = new Map<string, [number | null, number]>();
  const timesOf = (asset: string, gold: boolean): [number | null, number] => {
    const cal = market.calendarOf(asset);
    const key = `${market.asset(asset)!.category}|${gold}`;
    let t = times.get(key);
    if (!t) {
      const stamp = gold ? market.lastBoard(cal, at, p.id) : market.lastPublication(cal, at, delay);
      const values = stamp === null ? 0 : gold || !p.relay ? stamp : market.previousPublication(cal, stamp, delay);
      times.set(key, (t = [stamp, values]));
    }
    return t;
  };
  for (const seller of p.sellers)
    for (const asset of p.assets) {
      if (!market.deals(seller, asset)) continue;
      const a = market.asset(asset)!;
      const [stamp, valuesAt] = timesOf(asset, a.category === "metals" || a.goldGrams !== undefined);
      if (stamp === null) continue;
      let { buy, sell } = market.quote(seller, asset, valuesAt) as { buy: number | null; sell: number | null };
      if (faults.has("unit-per-ounce") && a.goldGrams !== undefined) {
        buy = buy === null ? null : roundHalfAway(buy * TROY_OUNCE_G, 2);
        sell = sell === null ? null : roundHalfAway(sell * TROY_OUNCE_G, 2);
      }
      if (faults.has("unit-per-100")) {
        buy = buy === null ? null : perUnits(buy, 100);
        sell = sell === null ? null : perUnits(sell, 100);
      }
      if (faults.has("sides-swapped")) [buy, sell] = [sell, buy];
      const transferOnly =
        p.transfers && !/^(USD|EUR|GBP|SAR)-/.test(asset) && market.u("transfer-only", p.id, asset) < 0.12;
      const w = p.writing.get(asset)!;
      rows.push({
        seller,
        name: p.spelling.get(seller)!,
        asset,
        assetName: w.name,
        per: w.per,
        buy,
        sell,
        transferOnly,
        stampMs: stamp + (faults.has("clock-ahead") ? CLOCK_AHEAD_MS : 0),
      });
    }
  if (p.namesSellers && rows.length > 0) {
    if (faults.has("renamed-bank")) {
      // Arab Investment Bank when on the page, else a bank the source takes, chosen by the seed.
      const skip = new Set("skipSellers" in p.cfg ? (p.cfg.skipSellers ?? []) : []);
      const taken = [...new Set(rows.map((r) => r.seller!).filter((s) => !skip.has(s)))];
      const target = taken.includes(RENAMED_SELLER)
        ? RENAMED_SELLER
        : (taken[Math.floor(market.u("renamed", p.id) * taken.length)] ?? rows[0]!.seller!);
      const name = renamedBank(market.sellers.get(target)!, p.arabic, names);
      for (const r of rows) if (r.seller === target) Object.assign(r, { seller: null, name });
    }
    if (faults.has("unknown-bank")) {
      // A bank the registry does not list, between the others, quoting near the first row's prices.
      const like = rows[0]!;
      const name = unknownBank(p.arabic, names);
      for (const r of rows.filter((x) => x.seller === like.seller))
        rows.splice(Math.min(rows.length, 2), 0, { ...r, seller: null, name, transferOnly: false });
    }
  }
  const stamps = rows.map((r) => r.stampMs ?? 0);
  return { rows, stampMs: rows.length ? Math.max(...stamps) : null };
}

/** A time as the source writes it: its format's tokens in its zone (English names), ISO, or epoch seconds. */
export function writtenTime(ms: number, format: string, zone: string): string {
  if (format === "epoch") return String(Math.floor(ms / 1000));
  const dt = DateTime.fromMillis(ms, { zone }).setLocale("en-US");
  if (format === "iso") return dt.toISO({ suppressMilliseconds: true })!;
  return dt.toFormat(format);
}

/** The instant the reader takes a written time for (src/ingest/document/time.ts): truncated to what the format writes. */
export function readTime(ms: number, format: string, zone: string, nowMs: number): number {
  if (format === "iso") return Math.floor(ms / 1000) * 1000;
  if (format === "epoch") return Math.floor(ms / 1000) * 1000;
  const tokens = format.replace(/'[^']*'/g, "");
  if (!/[Hhkm]/.test(tokens)) {
    const day = DateTime.fromMillis(ms, { zone });
    return day.toISODate() === DateTime.fromMillis(nowMs, { zone }).toISODate() ? nowMs : day.startOf("day").toMillis();
  }
  return /s/.test(tokens) ? Math.floor(ms / 1000) * 1000 : Math.floor(ms / 60_000) * 60_000;
}

/** What the reader of the source gives for these rows: the world's own account of its body, in catalog units. */
export function expectedQuotes(p: DocumentPlan, pub: Publication, nowMs: number): Quote[] {
  const cfg = p.cfg;
  const skip = new Set("skipSellers" in cfg ? (cfg.skipSellers ?? []) : []);
  const fields = cfg.fields as AnyFields;
  const take = cfg.take ?? "cash";
  const out: Quote[] = [];
  const perAsset = "perAsset" in cfg ? cfg.perAsset : undefined;
  for (const r of pub.rows) {
    if (r.seller === null || skip.has(r.seller)) continue;
    if (r.transferOnly && take === "cash") continue;
    const sides = perAsset ? (perAsset[p.entryOf.get(r.asset)!] as AnyFields) : fields;
    const side = (key: "buy" | "sell", v: number | null): number | null => {
      const f = sides[key];
      if (isConst(f)) {
        const c = parsePrice(f.const);
        return typeof c === "number" ? c : null;
      }
      if (v === null) return null;
      return r.per === 1 ? Number(printed(v)) : roundHalfAway(Number(printed(perUnits(v, r.per))) / r.per, 8);
    };
    const buy = side("buy", r.buy);
    const sell = side("sell", r.sell);
    if (buy === null && sell === null) continue;
    const stamp = p.stamped === "page" ? pub.stampMs : p.grouped ? recordStamp(pub, r) : r.stampMs;
    const observed = p.stamped === "none" || stamp === null ? nowMs : readTime(stamp, p.timeFormat, p.timeZone, nowMs);
    out.push({
      source: p.id,
      seller: r.seller,
      asset: r.asset,
      buy,
      sell,
      observedAt: new Date(observed).toISOString(),
    });
  }
  return out;
}

/** The one time of a record that holds all of a seller's assets: its latest row's. */
export const recordStamp = (pub: Publication, r: Row): number | null =>
  Math.max(...pub.rows.filter((x) => x.name === r.name).map((x) => x.stampMs ?? 0));

/** The names the reader will list as unknown: the rows whose bank the registry does not give. */
export const unknownNames = (pub: Publication): string[] =>
  [...new Set(pub.rows.filter((r) => r.seller === null).map((r) => r.name))].sort();
