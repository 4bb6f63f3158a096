/**
 * What changed over the last 30 days, day by day, from the archive's closes (docs/methodology.md
 * §5.5): for each trading day of the window, each side's best price, its move since the trading day
 * before, who gave it and whether that seller is new, and whether the official rate changed. Every
 * build has these, a build from `data/` alone included: they come from the history of the asset,
 * which the asset page reads for its charts (periods.ts) anyway; the home page takes what its asset
 * pages made (recentOf remembers it per build).
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset } from "../../schema/outputs.js";
import type { ArchiveEntry, ArchiveSeller } from "../../schema/archive.js";
import { addDays } from "../../core/cairo.js";
import { roundHalfAway } from "../../core/round.js";
import { EVENTS_RETENTION_DAYS } from "../../core/methodology.js";
import { buildDay } from "./words.js";

/** The window: the build's Cairo date and the days before it, as long as the events keep theirs. */
export const RECENT_DAYS = EVENTS_RETENTION_DAYS;

type Side = "sell" | "buy";

/** One side of one trading day. */
export interface SideDay {
  /** The day's best: the lowest asked (sellLo) or the highest paid (buyHi); the reference price for a reference asset. */
  value: number | null;
  /** Its move since the trading day before (null on the first day known, or when either has none). */
  move: number | null;
  seller: ArchiveSeller | null;
  /** Another seller (or none) gave the best the trading day before. */
  changed: boolean;
  /** Who that was, when it changed (null: no seller quoted the side). */
  was: ArchiveSeller | null;
}

export interface RecentDay {
  date: string;
  sell: SideDay;
  buy: SideDay;
}

export interface SideSummary {
  /** The first price of the window's comparison (the close before the window, else its first day) and its date. */
  from: { date: string; value: number } | null;
  /** The latest price and its date. */
  to: { date: string; value: number } | null;
  /** to − from, rounded to the asset's decimals. */
  move: number | null;
  /** How many times the best changed hands from one trading day to the next. */
  sellerChanges: number;
  /** The sellers that gave the best on some day of the window, latest first. */
  sellers: ArchiveSeller[];
}

export interface RecentChanges {
  /** The window: its first calendar day and the build's Cairo date. */
  from: string;
  to: string;
  /** Its trading days, oldest first. */
  days: RecentDay[];
  sell: SideSummary;
  buy: SideSummary;
  /** The central bank's official mid (`bench`), from the first to the latest day that has one. */
  official: Pick<SideSummary, "from" | "to" | "move">;
}

const valueOf = (a: Pick<Asset, "market">, e: ArchiveEntry, side: Side): number | null =>
  a.market === "reference" ? (e.global ?? e.sellLo) : side === "sell" ? e.sellLo : e.buyHi;
const sellerOf = (e: ArchiveEntry, side: Side) => (side === "sell" ? e.bestSell : e.bestBuy);

/**
 * The window's changes of an asset from its archive entries (ascending): the entries of the window
 * and the one before it, which the first day's moves are measured from.
 */
export function recentChanges(
  a: Pick<Asset, "market" | "decimals">,
  entries: readonly ArchiveEntry[],
  today: string,
): RecentChanges {
  const from = addDays(today, -(RECENT_DAYS - 1));
  let first = entries.length;
  while (first > 0 && entries[first - 1]!.date >= from) first--;
  let last = entries.length;
  while (last > first && entries[last - 1]!.date > today) last--;
  const before = first > 0 ? entries[first - 1]! : null;
  const within = entries.slice(first, last);
  const days: RecentDay[] = [];
  let prev = before;
  for (const e of within) {
    const side = (s: Side): SideDay => {
      const value = valueOf(a, e, s);
      const was = prev === null ? null : valueOf(a, prev, s);
      const seller = sellerOf(e, s);
      const wasSeller = prev === null ? null : sellerOf(prev, s);
      const changed = prev !== null && a.market !== "reference" && (wasSeller?.id ?? null) !== (seller?.id ?? null);
      return {
        value,
        move: value === null || was === null ? null : roundHalfAway(value - was, a.decimals),
        seller,
        changed,
        was: changed ? wasSeller : null,
      };
    };
    days.push({ date: e.date, sell: side("sell"), buy: side("buy") });
    prev = e;
  }
  /** From the first value (the close before the window, else its first day's) to the latest of the window. */
  const span = (value: (e: ArchiveEntry) => number | null): Pick<SideSummary, "from" | "to" | "move"> => {
    const priced = [...(before ? [before] : []), ...within].filter((e) => value(e) !== null);
    const head = priced[0];
    const tail = priced.at(-1);
    const fromV = head ? { date: head.date, value: value(head)! } : null;
    const toV = tail && within.includes(tail) ? { date: tail.date, value: value(tail)! } : null;
    return {
      from: fromV,
      to: toV,
      move: fromV && toV && fromV.date !== toV.date ? roundHalfAway(toV.value - fromV.value, a.decimals) : null,
    };
  };
  const summary = (s: Side): SideSummary => {
    const sellers: ArchiveSeller[] = [];
    for (let i = within.length - 1; i >= 0; i--) {
      const x = sellerOf(within[i]!, s);
      if (x && !sellers.some((y) => y.id === x.id)) sellers.push(x);
    }
    return { ...span((e) => valueOf(a, e, s)), sellerChanges: days.filter((d) => d[s].changed).length, sellers };
  };
  return { from, to: today, days, sell: summary("sell"), buy: summary("buy"), official: span((e) => e.bench) };
}

/**
 * The entries of the asset whose pages are being rendered: read once for its two pages, its charts
 * (periods.ts) and its changes, and let go when the next asset's are read (docs/performance.md
 * "Memory": the build never holds every asset's history).
 */
let entriesOf: { feed: object; slug: string; entries: readonly ArchiveEntry[] } | null = null;
export function assetEntries(ctx: RenderContext, slug: string): readonly ArchiveEntry[] {
  if (entriesOf?.feed === ctx.feed && entriesOf.slug === slug) return entriesOf.entries;
  entriesOf = null;
  const entries = ctx.archive.history(slug).entries;
  entriesOf = { feed: ctx.feed, slug, entries };
  return entries;
}

/** Each build's changes by asset, as its asset pages made them: the home page lists them all. */
const made = new WeakMap<object, Map<string, RecentChanges>>();

/** An asset's changes over the window, made once a build (from its history, read once with its charts). */
export function recentOf(ctx: RenderContext, a: Asset): RecentChanges {
  let byAsset = made.get(ctx.feed);
  if (!byAsset) made.set(ctx.feed, (byAsset = new Map()));
  let r = byAsset.get(a.slug);
  if (!r) byAsset.set(a.slug, (r = recentChanges(a, assetEntries(ctx, a.slug), buildDay(ctx.feed))));
  return r;
}
