/**
 * docs/methodology.md §2.1: which observations count. Pure: a day's quotes in, `{ accepted,
 * rejected }` out. Rejection is expected bad data, so it is a value with a reason, never a throw.
 */
import {
  CLOCK_SKEW_MS,
  GLOBAL_BAND_ABOVE,
  GLOBAL_BAND_BELOW,
  PLAUSIBLE_BAND,
  PLAUSIBLE_MIN_PEERS,
} from "../core/methodology.js";
import { isSafePrice, roundHalfAway } from "../core/round.js";
import { cairoDate, parseInstant } from "../core/cairo.js";
import { medianWithout } from "../core/stats.js";
import type { LocatedQuote, RejectedQuote, RejectionReason } from "../core/dataset.js";
import type { CatalogAsset, Quote, RegistrySeller } from "../schema/inputs.js";
import type { AcceptedQuote, QuoteKeys } from "./accepted-quote.js";
import { DayQuotes, DayQuotesPicked } from "./day-quotes.js";

export type { AcceptedQuote, QuoteKeys } from "./accepted-quote.js";

/**
 * An accepted quote, its prices rounded to the asset's decimals, and where it was read (the quote as
 * parsed is not kept). A day's many are kept in columns (day-quotes.ts) until its closes are made.
 */
const NOWHERE = { file: "", line: 0 };

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
  /**
   * The global reference in force on `date` for an asset, already rounded; null when there is none.
   * Rule 6 falls back to it for an asset with no official rate (gold). Absent: no global reference.
   */
  global?: (assetId: string) => number | null;
  /** Position of a source in the sources configuration (lower wins ties). */
  sourceRank: (source: string) => number;
  /** Whether a source is a seller's own publication (kind `seller`), which outranks relays (§2.3). */
  ownSource: (source: string) => boolean;
  /**
   * Whether a quote of a source at an instant counts (docs/methodology.md "New sources: probation"):
   * a counted quote is judged by counted quotes only ("Peers"). Absent: every quote counts.
   */
  counts?: (source: string, observedAtMs: number) => boolean;
}

export type Side = "buy" | "sell";
const SIDES: readonly Side[] = ["sell", "buy"];

/** Rules 1–5, which look at one quote alone. Returns the rounded quote or the reason it fails. */
export function checkQuote(
  q: Quote,
  ctx: AcceptanceContext,
  at: { file: string; line: number } = NOWHERE,
): AcceptedQuote | RejectionReason {
  const asset = ctx.assets.get(q.asset);
  if (!asset) return "unknown-asset";
  // A retired asset is out of the catalog from its `retired` date on (src/schema/inputs.ts CatalogAsset).
  if (asset.retired !== undefined && ctx.date >= asset.retired) return "unknown-asset";
  const seller = ctx.sellers.get(q.seller);
  if (!seller) return "unlicensed-seller"; // rule 1
  if (!seller.categories.includes(asset.category)) return "not-licensed-for-category"; // rule 1
  if (q.buy === null && q.sell === null) return "no-price"; // rule 2
  if (
    (q.buy !== null && !(Number.isFinite(q.buy) && q.buy > 0)) ||
    (q.sell !== null && !(Number.isFinite(q.sell) && q.sell > 0))
  )
    return "non-positive-price";
  if (
    (q.buy !== null && !isSafePrice(q.buy, asset.decimals)) ||
    (q.sell !== null && !isSafePrice(q.sell, asset.decimals))
  )
    return "out-of-range-price"; // rule 2: no NaN from rounding reaches a median, a row or a file
  const buy = q.buy === null ? null : roundHalfAway(q.buy, asset.decimals);
  const sell = q.sell === null ? null : roundHalfAway(q.sell, asset.decimals);
  if ((buy !== null && buy <= 0) || (sell !== null && sell <= 0)) return "non-positive-price";
  if (buy !== null && sell !== null && buy > sell) return "crossed"; // rule 3
  const observedAtMs = parseInstant(q.observedAt);
  if (observedAtMs === null) return "invalid-observedAt"; // rule 4
  if (observedAtMs > ctx.nowMs + CLOCK_SKEW_MS) return "observed-in-future"; // rule 4
  // Rule 5: a reference asset has no seller list, so a seller's quote for it has nowhere to go; it is
  // rejected under its own reason so that the build report says so (a dealer quoting gold while the
  // catalog still marks gold `reference` is a configuration to fix, not a quote to lose quietly).
  if (asset.market === "reference") return "reference-asset";
  if (cairoDate(observedAtMs) !== ctx.date) return "wrong-day-file";
  return { source: q.source, seller: q.seller, asset: q.asset, buy, sell, observedAtMs, file: at.file, line: at.line };
}

const FIELDS: QuoteKeys<AcceptedQuote> = { observedAtMs: (q) => q.observedAtMs, source: (q) => q.source };

/** Latest first; on equal instants the source listed first in the configuration wins. */
export function newerFirst(rank: (s: string) => number): (a: AcceptedQuote, b: AcceptedQuote) => number;
export function newerFirst<Q>(rank: (s: string) => number, keys: QuoteKeys<Q>): (a: Q, b: Q) => number;
export function newerFirst<Q>(rank: (s: string) => number, keys: QuoteKeys<Q> = FIELDS as QuoteKeys<never>) {
  return (a: Q, b: Q): number =>
    keys.observedAtMs(b) - keys.observedAtMs(a) || rank(keys.source(a)) - rank(keys.source(b));
}

/**
 * The order in which one seller's quotes of a day compete to be its value (docs/methodology.md §2.3):
 * the seller's own publication first — a relay of it counts only on a day when no own quote was
 * accepted — then the latest, then the source listed first. Negative: `a` wins.
 */
export function sellerValueOrder(
  rank: (s: string) => number,
  own: (s: string) => boolean,
): (a: AcceptedQuote, b: AcceptedQuote) => number;
export function sellerValueOrder<Q>(
  rank: (s: string) => number,
  own: (s: string) => boolean,
  keys: QuoteKeys<Q>,
): (a: Q, b: Q) => number;
export function sellerValueOrder<Q>(
  rank: (s: string) => number,
  own: (s: string) => boolean,
  keys: QuoteKeys<Q> = FIELDS as QuoteKeys<never>,
) {
  const newer = newerFirst(rank, keys);
  return (a: Q, b: Q): number => Number(own(keys.source(b))) - Number(own(keys.source(a))) || newer(a, b);
}

/**
 * Rule 6, plausibility: each present value within PLAUSIBLE_BAND of the median of its peers' values
 * of the day for that side, or of the official rate when fewer than PLAUSIBLE_MIN_PEERS other
 * sellers are peers, or, with no official rate either (gold), of the global reference in its own
 * asymmetric band. With no yardstick at all there is nothing to compare with: the value stands.
 * Rule 7 then checks a value quoted alone against its peers' opposite side (`side-doubtful`).
 *
 * Peers (docs/methodology.md §2.1, "Peers"): a quote's peers are the other sellers' values of the
 * day taken from other sources — a source never vouches for itself, so an aggregator that misreads a
 * whole page cannot agree with itself — and, for a quote that counts (`ctx.counts`), from quotes
 * that count only: a source on probation is judged by every other source, and never judges a
 * counted one. Each other seller is one peer, its value chosen among its quotes from the allowed
 * sources as its close would be (§2.3: its own publication first, then the latest, then the source
 * listed first).
 *
 * Conflicts (docs/methodology.md §11): quotes of one source, seller and asset at one instant whose
 * rounded prices differ. Such a group's quotes are no seller's value for the yardsticks (the seller's
 * value comes from its other quotes); each quote of it is still judged by rule 6, and those that pass
 * are accepted when their prices agree, else every one rejected as `conflicting-quote`. So an
 * obvious outlier is rejected as implausible and does not take the source's good quote with it, and
 * neither the yardsticks nor the outcome depend on the order of the file's lines.
 */
export function acceptDay(quotes: Iterable<LocatedQuote>, ctx: AcceptanceContext) {
  const rejected: RejectedQuote[] = [];
  // The quotes passing rules 1–5, in columns (day-quotes.ts: as objects they were the build's largest
  // garbage). The quotes are read once, in order, so they may come as they are parsed (src/io/load-build.ts).
  const passing = new DayQuotes();
  const byAsset = new Map<string, AssetPeers>();
  const order = sellerValueOrder(ctx.sourceRank, ctx.ownSource);
  const counts = ctx.counts ?? (() => true);
  // Quotes sharing a source, seller, asset and instant: by the first one's position, all their
  // positions; and the groups whose prices differ. Both stay undefined on a day without any.
  let groups: Map<number, number[]> | undefined;
  let conflicted: Set<number> | undefined;
  let read = 0;
  for (const lq of quotes) {
    read++;
    const q = lq.quote;
    const r = checkQuote(q, ctx, lq);
    if (typeof r === "string") {
      rejected.push({ file: lq.file, line: lq.line, source: q.source, seller: q.seller, asset: q.asset, reason: r });
      continue;
    }
    const i = passing.length;
    passing.push(r);
    let peers = byAsset.get(r.asset);
    if (!peers) byAsset.set(r.asset, (peers = { sellers: new Map(), instants: new Map(), filtered: new Map() }));
    // The first quote of each source, seller and instant; a later one joins its group.
    let bySource = peers.instants.get(r.seller);
    if (!bySource) peers.instants.set(r.seller, (bySource = new Map()));
    let instants = bySource.get(r.source);
    if (!instants) bySource.set(r.source, (instants = new Map()));
    const first = instants.get(r.observedAtMs);
    if (first === undefined) instants.set(r.observedAtMs, i);
    else {
      const group = (groups ??= new Map()).get(first);
      if (group) group.push(i);
      else groups.set(first, [first, i]);
      if (passing.price(first, "buy") !== r.buy || passing.price(first, "sell") !== r.sell)
        (conflicted ??= new Set()).add(first);
    }
  }
  // A conflicting group's quotes are no seller's value in rules 6 and 7, whichever came first.
  let conflicting: Set<number> | undefined;
  if (conflicted) {
    conflicting = new Set();
    for (const first of conflicted) for (const i of groups!.get(first)!) conflicting.add(i);
  }
  // Each seller's candidate values per source: the quote that would be its value from that source,
  // among all its quotes and among those that count.
  const counted = new Uint8Array(passing.length);
  for (let i = 0; i < passing.length; i++) {
    const r = passing.get(i);
    if (counts(r.source, r.observedAtMs)) counted[i] = 1;
    if (conflicting?.has(i)) continue;
    const sellers = byAsset.get(r.asset)!.sellers;
    let bySource = sellers.get(r.seller);
    if (!bySource) sellers.set(r.seller, (bySource = new Map()));
    const cur = bySource.get(r.source);
    if (!cur) bySource.set(r.source, { any: r, counted: counted[i] ? r : undefined });
    else {
      if (order(r, cur.any) < 0) cur.any = r;
      if (counted[i] && (!cur.counted || order(r, cur.counted) < 0)) cur.counted = r;
    }
  }
  // The peers of quotes from `source` (that count, or not): each seller's value from the other
  // sources allowed, made once per asset, source and standing when first asked.
  const peersFor = (peers: AssetPeers, source: string, countsToo: boolean): Filtered => {
    let both = peers.filtered.get(source);
    if (!both) peers.filtered.set(source, (both = [undefined, undefined]));
    const k = countsToo ? 1 : 0;
    let f = both[k];
    if (!f) {
      const values = new Map<string, AcceptedQuote>();
      for (const [seller, bySource] of peers.sellers) {
        let best: AcceptedQuote | undefined;
        for (const [src, c] of bySource) {
          if (src === source) continue; // a source never vouches for itself
          const q = countsToo ? c.counted : c.any; // a counted quote is judged by counted quotes only
          if (q && (!best || order(q, best) < 0)) best = q;
        }
        if (best) values.set(seller, best);
      }
      both[k] = f = { values, sorted: {}, medians: new Map() };
    }
    return f;
  };
  // Per side, every peer's value, ascending: made once, when first asked.
  const sortedValues = (f: Filtered, side: Side): number[] => {
    let sorted = f.sorted[side];
    if (!sorted) {
      sorted = [];
      for (const q of f.values.values()) if (q[side] !== null) sorted.push(q[side]);
      sorted.sort((a, b) => a - b);
      f.sorted[side] = sorted;
    }
    return sorted;
  };
  // The median of the other sellers' values of a side, once per seller: the sorted list read without
  // the seller's own value (same numbers as sorting the others' values). `min`: fewer others than this
  // ⇒ null (rule 6 wants PLAUSIBLE_MIN_PEERS; rule 7 one).
  const othersMedian = (f: Filtered, side: Side, seller: string, min: number): number | null => {
    const key = `${side}\0${min}\0${seller}`;
    let m = f.medians.get(key);
    if (m === undefined) {
      const sorted = sortedValues(f, side);
      const own = f.values.get(seller)?.[side] ?? null;
      const others = sorted.length - (own === null ? 0 : 1);
      m = others >= min ? medianWithout(sorted, own) : null;
      f.medians.set(key, m);
    }
    return m;
  };
  const accepted = new DayQuotesPicked(passing);
  // With conflicts, the quotes passing rule 6 are noted here and picked, in reading order, once the
  // groups are settled.
  const passed = conflicting ? new Uint8Array(passing.length) : undefined;
  for (let i = 0; i < passing.length; i++) {
    const asset = passing.asset(i);
    const seller = passing.seller(i);
    const f = peersFor(byAsset.get(asset)!, passing.source(i), counted[i] === 1);
    let reason: RejectionReason | null = null;
    for (const side of SIDES) {
      const v = passing.price(i, side);
      if (v === null) continue;
      // Each yardstick is looked up only when the one before it is missing (most quotes have peers).
      const peer = othersMedian(f, side, seller, PLAUSIBLE_MIN_PEERS);
      const official = peer === null ? (ctx.official(asset)?.[side] ?? null) : null;
      const global = peer === null && official === null ? (ctx.global?.(asset) ?? null) : null;
      if (!plausible(v, peer, official, global)) {
        reason = `implausible-${side}`;
        break;
      }
    }
    // Rule 7: a value quoted alone must lie on its side of the peers' opposite side. A lone buy (what
    // the customer receives) above the median of the others' sells, or a lone sell below the median of
    // their buys, was most likely read the wrong way round. No peer's value: no check.
    if (!reason) {
      const buy = passing.price(i, "buy");
      const sell = passing.price(i, "sell");
      if (buy !== null && sell === null) {
        const m = othersMedian(f, "sell", seller, 1);
        if (m !== null && buy > m) reason = "side-doubtful";
      } else if (sell !== null && buy === null) {
        const m = othersMedian(f, "buy", seller, 1);
        if (m !== null && sell < m) reason = "side-doubtful";
      }
    }
    if (reason) {
      const q = passing.get(i);
      rejected.push({ file: q.file, line: q.line, source: q.source, seller, asset, reason });
    } else if (passed) passed[i] = 1;
    else accepted.add(i);
  }
  if (passed) {
    // A group whose quotes passing rule 6 still disagree: every one of them is rejected.
    const out: number[] = [];
    for (const first of conflicted!) {
      const left = groups!.get(first)!.filter((i) => passed[i] === 1);
      const a = left[0];
      if (a === undefined) continue;
      const agree = left.every(
        (i) =>
          passing.price(i, "buy") === passing.price(a, "buy") && passing.price(i, "sell") === passing.price(a, "sell"),
      );
      if (agree) continue;
      for (const i of left) {
        passed[i] = 0;
        out.push(i);
      }
    }
    for (const i of out.sort((x, y) => x - y)) {
      const q = passing.get(i);
      rejected.push({
        file: q.file,
        line: q.line,
        source: q.source,
        seller: q.seller,
        asset: q.asset,
        reason: "conflicting-quote",
      });
    }
    for (let i = 0; i < passing.length; i++) if (passed[i] === 1) accepted.add(i);
  }
  return { accepted, rejected, read };
}

/** One asset's quotes of a day as rule 6 and 7 see them. */
interface AssetPeers {
  /** seller → source → the quote that would be its value from that source: among all, and among those that count. */
  sellers: Map<string, Map<string, { any: AcceptedQuote; counted: AcceptedQuote | undefined }>>;
  /** seller → source → observedAtMs → the position of its first quote passing rules 1–5: where conflicts are found. */
  instants: Map<string, Map<string, Map<number, number>>>;
  /** Per source judged, the peers of its quotes that do not count [0] and that count [1]. */
  filtered: Map<string, [Filtered | undefined, Filtered | undefined]>;
}

/** The peers of one source's quotes (of one standing): each other seller's value, sorted lists and medians made so far. */
interface Filtered {
  values: Map<string, AcceptedQuote>;
  sorted: Partial<Record<Side, number[]>>;
  medians: Map<string, number | null>;
}

/**
 * Rule 6 for one value: within PLAUSIBLE_BAND of the peers' median when at least PLAUSIBLE_MIN_PEERS
 * other sellers quote the side, else of the official rate; with neither, within GLOBAL_BAND_BELOW
 * below and GLOBAL_BAND_ABOVE above the global reference (an asset with no official rate: gold).
 * With no yardstick at all the value stands.
 */
export function plausible(
  v: number,
  peerMedian: number | null,
  official: number | null,
  global: number | null,
): boolean {
  const ref = peerMedian ?? official;
  if (ref !== null) return Math.abs(v - ref) <= PLAUSIBLE_BAND * ref;
  if (global !== null) return v >= global * (1 - GLOBAL_BAND_BELOW) && v <= global * (1 + GLOBAL_BAND_ABOVE);
  return true;
}
