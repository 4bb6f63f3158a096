/**
 * One raw day through the rulebook's seven tests (docs/methodology.md §2.1, §11) with the peers of
 * /work/shared/METHODOLOGY.md "Peers", then each seller's close (§2.3) from the quotes that count
 * (§2.4). Written for reading, not speed: a quote is an object, a peer set is a Map.
 */
import { cairoDate, parseInstant } from "../../core/cairo.js";
import type { CatalogAsset, RegistrySeller } from "../../schema/inputs.js";
import type { RawQuote } from "./data.js";
import {
  CLOCK_SKEW_MS,
  GLOBAL_BAND_ABOVE,
  GLOBAL_BAND_BELOW,
  PLAUSIBLE_BAND,
  PLAUSIBLE_MIN_PEERS,
  SOURCE_DISAGREE_PCT,
  byCode,
  median,
  roundHalf,
} from "./rulebook.js";

export type Side = "sell" | "buy";
export const SIDES: readonly Side[] = ["sell", "buy"];

export interface DayContext {
  date: string;
  nowMs: number;
  assets: ReadonlyMap<string, CatalogAsset>;
  sellers: ReadonlyMap<string, RegistrySeller>;
  rank: (source: string) => number;
  own: (source: string) => boolean;
  counts: (source: string, ms: number) => boolean;
  /** The official rate in force on the day, rounded; null when none. */
  official: (asset: string) => { buy: number | null; sell: number | null } | null;
  /** The global reference in force on the day, rounded; null when none. */
  global: (asset: string) => number | null;
}

/** One logged quote and what the rules made of it. */
export interface Judged {
  line: number;
  quote: RawQuote;
  /** The refusal's reason code, or null: accepted. */
  reason: string | null;
  ms: number;
  buy: number | null;
  sell: number | null;
  /** Its source counted at its instant (§2.4), whatever the rules said. */
  standingCounts: boolean;
  /** Accepted, and its source counted at its instant. */
  counted: boolean;
}

export interface Close {
  seller: string;
  source: string;
  sources: string[];
  buy: number | null;
  sell: number | null;
  observedAtMs: number;
}

/** One asset's day: each seller's close, the sources that saw it, whether two disagree, its newest quote. */
export interface AssetDay {
  closes: Map<string, Close>;
  sources: string[];
  disagree: boolean;
  newestMs: number;
}

export interface JudgedDay {
  quotes: Judged[];
  assets: Map<string, AssetDay>;
}

/** §2.3: the seller's own publication first, then the later quote, then the source listed first. Negative: a wins. */
function closeOrder(ctx: DayContext) {
  return (a: Judged, b: Judged) =>
    Number(ctx.own(b.quote.source)) - Number(ctx.own(a.quote.source)) ||
    b.ms - a.ms ||
    ctx.rank(a.quote.source) - ctx.rank(b.quote.source);
}

/** Tests 1 to 5 (and the input checks), in the rulebook's order: the reason, or the rounded prices. */
/** Tests 1 to 5 (and the input checks), in the rulebook's order, on a judged quote: its reason, or its rounded prices and instant. */
function firstTests(j: Judged, ctx: DayContext): void {
  const q = j.quote;
  const fail = (reason: string) => {
    j.reason = reason;
  };
  const asset = ctx.assets.get(q.asset);
  if (!asset || (asset.retired !== undefined && ctx.date >= asset.retired)) return fail("unknown-asset");
  const seller = ctx.sellers.get(q.seller);
  if (!seller) return fail("unlicensed-seller");
  if (!seller.categories.includes(asset.category)) return fail("not-licensed-for-category");
  if (q.buy === null && q.sell === null) return fail("no-price");
  // "a value that is not a finite positive number after rounding is refused before any rule"; one too
  // large to be rounded exactly (over 2^53 − 1 in the asset's smallest unit) has its own reason (§2.1).
  const positive = (v: number | null) => v === null || (Number.isFinite(v) && v > 0);
  if (!positive(q.buy) || !positive(q.sell)) return fail("non-positive-price");
  const exact = (v: number | null) => v === null || v * 10 ** asset.decimals <= Number.MAX_SAFE_INTEGER;
  if (!exact(q.buy) || !exact(q.sell)) return fail("out-of-range-price");
  const buy = q.buy === null ? null : roundHalf(q.buy, asset.decimals);
  const sell = q.sell === null ? null : roundHalf(q.sell, asset.decimals);
  if ((buy !== null && buy <= 0) || (sell !== null && sell <= 0)) return fail("non-positive-price");
  if (buy !== null && sell !== null && buy > sell) return fail("crossed");
  if (Number.isNaN(j.ms)) return fail("invalid-observedAt");
  if (j.ms > ctx.nowMs + CLOCK_SKEW_MS) return fail("observed-in-future");
  if (asset.market === "reference") return fail("reference-asset");
  if (cairoDate(j.ms) !== ctx.date) return fail("wrong-day-file");
  j.buy = buy;
  j.sell = sell;
}

/** A map's entry, made when missing. */
function entry<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = make()));
  return v;
}

/**
 * The day judged. Peers (rules 6 and 7): for a quote of source S and seller X, every other seller Y
 * once, by the quote that would be Y's close among Y's quotes passing tests 1–5 that come from a
 * source other than S — and, when the quote counts, only Y's quotes that count themselves. A group
 * of one source's quotes of one seller and asset at one instant whose prices differ is no peer at
 * all, and if its members passing rules 6 and 7 still differ, all are `conflicting-quote` (§11).
 */
export function judgeDay(quotes: readonly RawQuote[], ctx: DayContext): JudgedDay {
  const judged: Judged[] = quotes.map((quote, i) => {
    const ms = parseInstant(quote.observedAt);
    const j: Judged = {
      line: i + 1,
      quote,
      reason: null,
      ms: ms ?? NaN,
      buy: null,
      sell: null,
      standingCounts: ms !== null && ctx.counts(quote.source, ms),
      counted: false,
    };
    firstTests(j, ctx);
    return j;
  });
  const passing = judged.filter((j) => j.reason === null);

  // asset → seller → source → instant → its quotes: a group whose rounded prices differ conflicts.
  const tree = new Map<string, Map<string, Map<string, Map<number, Judged[]>>>>();
  for (const j of passing) {
    const { asset, seller, source } = j.quote;
    const instants = entry(
      entry(
        entry(tree, asset, () => new Map()),
        seller,
        () => new Map(),
      ),
      source,
      () => new Map(),
    );
    entry(instants, j.ms, () => []).push(j);
  }
  // Each seller's latest quote per source, among all and among those that count, conflicts left out:
  // its would-be close among any set of sources is the best of these by §2.3's order.
  const order = closeOrder(ctx);
  const conflicting = new Set<Judged>();
  const bySeller = new Map<string, Map<string, Map<string, { all?: Judged; counted?: Judged }>>>();
  for (const [asset, sellers] of tree)
    for (const [seller, sources] of sellers)
      for (const [source, instants] of sources) {
        const best: { all?: Judged; counted?: Judged } = {};
        for (const g of instants.values()) {
          const j = g[0]!;
          if (g.some((x) => x.buy !== j.buy || x.sell !== j.sell)) {
            for (const x of g) conflicting.add(x);
            continue;
          }
          if (!best.all || j.ms > best.all.ms) best.all = j;
          if (j.standingCounts && (!best.counted || j.ms > best.counted.ms)) best.counted = j;
        }
        if (best.all)
          entry(
            entry(bySeller, asset, () => new Map()),
            seller,
            () => new Map(),
          ).set(source, best);
      }
  // The peer values for (asset, excluded source, counted only): each seller's would-be close.
  const peerSets = new Map<string, Map<string, Array<Map<string, Judged>>>>(); // asset → source → [all, counted]
  const peersOf = (asset: string, source: string, countedOnly: boolean): Map<string, Judged> => {
    let ofAsset = peerSets.get(asset);
    if (!ofAsset) peerSets.set(asset, (ofAsset = new Map()));
    let pair = ofAsset.get(source);
    if (!pair) ofAsset.set(source, (pair = []));
    let m = pair[Number(countedOnly)];
    if (!m) {
      m = new Map();
      for (const [seller, sources] of bySeller.get(asset) ?? []) {
        let best: Judged | undefined;
        for (const [s, c] of sources) {
          const j = countedOnly ? c.counted : c.all;
          if (s !== source && j && (!best || order(j, best) < 0)) best = j;
        }
        if (best) m.set(seller, best);
      }
      pair[Number(countedOnly)] = m;
    }
    return m;
  };
  // The other sellers' values of a side and their median, once per peer set, seller and side.
  type Yard = { n: number; median: number | null };
  const medians = new Map<Map<string, Judged>, Map<string, Partial<Record<Side, Yard>>>>();
  const others = (peers: Map<string, Judged>, seller: string, side: Side): Yard => {
    let memo = medians.get(peers);
    if (!memo) medians.set(peers, (memo = new Map()));
    let bySide = memo.get(seller);
    if (!bySide) memo.set(seller, (bySide = {}));
    let r = bySide[side];
    if (!r) {
      const values: number[] = [];
      for (const [y, j] of peers) if (y !== seller && j[side] !== null) values.push(j[side]);
      bySide[side] = r = { n: values.length, median: median(values) };
    }
    return r;
  };

  for (const j of passing) {
    const q = j.quote;
    const peers = peersOf(q.asset, q.source, j.standingCounts);
    for (const side of SIDES) {
      const v = j[side];
      if (v === null) continue;
      const o = others(peers, q.seller, side);
      const yard = o.n >= PLAUSIBLE_MIN_PEERS ? o.median : (ctx.official(q.asset)?.[side] ?? null);
      const ok =
        yard !== null
          ? Math.abs(v - yard) <= PLAUSIBLE_BAND * yard
          : (() => {
              const g = ctx.global(q.asset);
              return g === null || (v >= g * (1 - GLOBAL_BAND_BELOW) && v <= g * (1 + GLOBAL_BAND_ABOVE));
            })();
      if (!ok) {
        j.reason = `implausible-${side}`;
        break;
      }
    }
    if (j.reason !== null) continue;
    if (j.buy !== null && j.sell === null) {
      const m = others(peers, q.seller, "sell").median;
      if (m !== null && j.buy > m) j.reason = "side-doubtful";
    } else if (j.sell !== null && j.buy === null) {
      const m = others(peers, q.seller, "buy").median;
      if (m !== null && j.sell < m) j.reason = "side-doubtful";
    }
  }
  // A conflicting group whose survivors still differ: none of them is used.
  if (conflicting.size > 0)
    for (const sellers of tree.values())
      for (const sources of sellers.values())
        for (const instants of sources.values())
          for (const g of instants.values()) {
            const left = g.filter((j) => conflicting.has(j) && j.reason === null);
            if (left.some((j) => j.buy !== left[0]!.buy || j.sell !== left[0]!.sell))
              for (const j of left) j.reason = "conflicting-quote";
          }
  for (const j of judged) j.counted = j.reason === null && j.standingCounts;
  return { quotes: judged, assets: closeAssets(judged, ctx) };
}

/** §2.3 and §8: per asset, each seller's close from the counted quotes, the sources, and disagreements. */
function closeAssets(judged: readonly Judged[], ctx: DayContext): Map<string, AssetDay> {
  const order = closeOrder(ctx);
  const latest = (a: Judged, b: Judged) => b.ms - a.ms || ctx.rank(a.quote.source) - ctx.rank(b.quote.source);
  const perAsset = new Map<
    string,
    { best: Map<string, Judged>; bySource: Map<string, Map<string, Judged>>; newest: Judged }
  >();
  for (const j of judged) {
    if (!j.counted) continue;
    const { asset, seller, source } = j.quote;
    let a = perAsset.get(asset);
    if (!a) perAsset.set(asset, (a = { best: new Map(), bySource: new Map(), newest: j }));
    if (latest(j, a.newest) < 0) a.newest = j;
    const cur = a.best.get(seller);
    if (!cur || order(j, cur) < 0) a.best.set(seller, j);
    const s = a.bySource.get(seller) ?? new Map<string, Judged>();
    a.bySource.set(seller, s);
    const had = s.get(source);
    if (!had || latest(j, had) < 0) s.set(source, j);
  }
  const out = new Map<string, AssetDay>();
  for (const [asset, a] of perAsset) {
    const closes = new Map<string, Close>();
    const sources = new Set<string>();
    let disagree = false;
    for (const [seller, j] of a.best) {
      const bySource = a.bySource.get(seller)!;
      for (const s of bySource.keys()) sources.add(s);
      closes.set(seller, {
        seller,
        source: j.quote.source,
        sources: [...bySource.keys()].sort(byCode),
        buy: j.buy,
        sell: j.sell,
        observedAtMs: j.ms,
      });
      // §11: two sources disagree when their latest values of a side differ by more than 1 % of the lower.
      const list = [...bySource.values()];
      for (let x = 0; x < list.length; x++)
        for (let y = x + 1; y < list.length; y++)
          for (const side of SIDES) {
            const p = list[x]![side];
            const r = list[y]![side];
            if (p !== null && r !== null && (Math.abs(p - r) / Math.min(p, r)) * 100 > SOURCE_DISAGREE_PCT)
              disagree = true;
          }
    }
    out.set(asset, { closes, sources: [...sources].sort(byCode), disagree, newestMs: a.newest.ms });
  }
  return out;
}
