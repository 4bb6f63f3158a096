/**
 * docs/methodology.md §2.1: which observations count. Pure: a day's quotes in, `{ accepted,
 * rejected }` out. Rejection is expected bad data, so it is a value with a reason, never a throw.
 */
import { CLOCK_SKEW_MS, PLAUSIBLE_BAND, PLAUSIBLE_MIN_PEERS } from "../core/methodology.js";
import { roundHalfAway } from "../core/round.js";
import { cairoDate, parseInstant } from "../core/cairo.js";
import { median } from "../core/stats.js";
import type { LocatedQuote } from "../core/dataset.js";
import type { CatalogAsset, Quote, RegistrySeller } from "../schema/inputs.js";

export type { LocatedQuote };

/** An accepted quote, its prices rounded to the asset's decimals. */
export interface AcceptedQuote {
  source: string;
  seller: string;
  asset: string;
  buy: number | null;
  sell: number | null;
  observedAtMs: number;
}

/**
 * Why a quote is not used, one code per rule of docs/methodology.md §2 (the build report counts them).
 * `unknown-asset` and `wrong-day-file` guard the data itself: a quote of an asset the catalog does
 * not have, or filed under another Cairo date than its own.
 */
export const REJECTION_REASONS = [
  "unknown-asset",
  "unlicensed-seller",
  "not-licensed-for-category",
  "no-price",
  "non-positive-price",
  "crossed",
  "invalid-observedAt",
  "observed-in-future",
  "wrong-day-file",
  "implausible-sell",
  "implausible-buy",
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface RejectedQuote extends LocatedQuote {
  reason: RejectionReason;
}

export interface OfficialRef {
  buy: number | null;
  sell: number | null;
}

export interface AcceptanceContext {
  date: string; // the Cairo date the quotes belong to
  nowMs: number;
  assets: ReadonlyMap<string, CatalogAsset>;
  sellers: ReadonlyMap<string, RegistrySeller>;
  /** The official rate in force on `date` for an asset, already rounded; null when there is none. */
  official: (assetId: string) => OfficialRef | null;
  /** Position of a source in the sources configuration (lower wins ties). */
  sourceRank: (source: string) => number;
  /** Whether a source is a seller's own publication (kind `seller`), which outranks relays (§2.3). */
  ownSource: (source: string) => boolean;
}

export type Side = "buy" | "sell";
const SIDES: readonly Side[] = ["sell", "buy"];

/** Rules 1–4, which look at one quote alone. Returns the rounded quote or the reason it fails. */
export function checkQuote(q: Quote, ctx: AcceptanceContext): AcceptedQuote | RejectionReason {
  const asset = ctx.assets.get(q.asset);
  if (!asset) return "unknown-asset";
  const seller = ctx.sellers.get(q.seller);
  if (!seller) return "unlicensed-seller"; // rule 1
  if (!seller.categories.includes(asset.category)) return "not-licensed-for-category"; // rule 1
  if (q.buy === null && q.sell === null) return "no-price"; // rule 2
  for (const v of [q.buy, q.sell]) if (v !== null && !(Number.isFinite(v) && v > 0)) return "non-positive-price";
  const buy = q.buy === null ? null : roundHalfAway(q.buy, asset.decimals);
  const sell = q.sell === null ? null : roundHalfAway(q.sell, asset.decimals);
  if ((buy !== null && buy <= 0) || (sell !== null && sell <= 0)) return "non-positive-price";
  if (buy !== null && sell !== null && buy > sell) return "crossed"; // rule 3
  const observedAtMs = parseInstant(q.observedAt);
  if (observedAtMs === null) return "invalid-observedAt"; // rule 4
  if (observedAtMs > ctx.nowMs + CLOCK_SKEW_MS) return "observed-in-future"; // rule 4
  if (cairoDate(observedAtMs) !== ctx.date) return "wrong-day-file";
  return { source: q.source, seller: q.seller, asset: q.asset, buy, sell, observedAtMs };
}

/** Latest first; on equal instants the source listed first in the configuration wins. */
export function newerFirst(rank: (s: string) => number) {
  return (a: AcceptedQuote, b: AcceptedQuote): number =>
    b.observedAtMs - a.observedAtMs || rank(a.source) - rank(b.source);
}

/**
 * The order in which one seller's quotes of a day compete to be its value (docs/methodology.md §2.3):
 * the seller's own publication first — a relay of it counts only on a day when no own quote was
 * accepted — then the latest, then the source listed first. Negative: `a` wins.
 */
export function sellerValueOrder(rank: (s: string) => number, own: (s: string) => boolean) {
  const newer = newerFirst(rank);
  return (a: AcceptedQuote, b: AcceptedQuote): number => Number(own(b.source)) - Number(own(a.source)) || newer(a, b);
}

/**
 * Rule 5, plausibility: each present value within PLAUSIBLE_BAND of the median of the other sellers'
 * values of the day for that side (each other seller counted once, by the quote passing rules 1–4
 * that would be its close), or of the official rate when fewer than PLAUSIBLE_MIN_PEERS other sellers quote.
 * With neither a peer median nor an official rate there is nothing to compare with: the value stands.
 */
export function acceptDay(quotes: readonly LocatedQuote[], ctx: AcceptanceContext) {
  const accepted: AcceptedQuote[] = [];
  const rejected: RejectedQuote[] = [];
  const passing: Array<{ lq: LocatedQuote; q: AcceptedQuote }> = [];
  for (const lq of quotes) {
    const r = checkQuote(lq.quote, ctx);
    if (typeof r === "string") rejected.push({ ...lq, reason: r });
    else passing.push({ lq, q: r });
  }
  // Each seller's value per asset (its own publication first, then the latest passing quote): the
  // "values of the other sellers" of rule 5, chosen as the seller's close is (§2.3).
  const latest = new Map<string, Map<string, AcceptedQuote>>();
  const order = sellerValueOrder(ctx.sourceRank, ctx.ownSource);
  for (const { q } of passing) {
    let bySeller = latest.get(q.asset);
    if (!bySeller) latest.set(q.asset, (bySeller = new Map()));
    const cur = bySeller.get(q.seller);
    if (!cur || order(q, cur) < 0) bySeller.set(q.seller, q);
  }
  const medians = new Map<string, number | null>(); // key: asset|side|excluded seller
  const peerMedian = (asset: string, side: Side, seller: string): number | null => {
    const key = `${asset}|${side}|${seller}`;
    let m = medians.get(key);
    if (m === undefined) {
      const values: number[] = [];
      for (const [other, q] of latest.get(asset) ?? []) if (other !== seller && q[side] !== null) values.push(q[side]);
      m = values.length >= PLAUSIBLE_MIN_PEERS ? median(values) : null;
      medians.set(key, m);
    }
    return m;
  };
  for (const { lq, q } of passing) {
    let reason: RejectionReason | null = null;
    for (const side of SIDES) {
      const v = q[side];
      if (v === null) continue;
      const ref = peerMedian(q.asset, side, q.seller) ?? ctx.official(q.asset)?.[side] ?? null;
      if (ref !== null && Math.abs(v - ref) > PLAUSIBLE_BAND * ref) {
        reason = `implausible-${side}`;
        break;
      }
    }
    if (reason) rejected.push({ ...lq, reason });
    else accepted.push(q);
  }
  return { accepted, rejected };
}
