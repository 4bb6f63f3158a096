/**
 * Every day up to the build date as per-asset day records: raw quote days through acceptance to
 * their closes (docs/methodology.md §2), compacted days as kept. Shared by the build, by `compact`
 * (which must keep exactly what a build computes) and by the sample writer.
 */
import { cairoDate, parseInstant } from "../core/cairo.js";
import {
  recordOf,
  type ClosedRawDay,
  type Dataset,
  type DayRecord,
  type LocatedQuote,
  type QuoteDay,
} from "../core/dataset.js";
import type { CatalogAsset, DayClose, RegistrySeller } from "../schema/inputs.js";
import { sourceKind, type SourceConfig } from "../schema/sources.js";
import type { ProbationQuote, RejectedQuote } from "../core/dataset.js";
import { acceptDay } from "./acceptance.js";
import { DayQuotesPicked } from "./day-quotes.js";
import { ALL_COUNT, type Counting } from "./probation.js";
import { roundHalfAway } from "../core/round.js";
import { closeDay, type SourceOrder } from "./closes.js";
import { refInForce, type DayRef } from "./references.js";

export type Disagreement = DayClose["disagreements"][number] & { date: string; asset: string };

/**
 * The sources file as the rules weigh it: position (the operator lists sources in order of trust)
 * and kind. A source no longer configured ranks last and counts as a relay, never as a seller's own.
 */
export function sourceOrder(sources: readonly SourceConfig[]): SourceOrder {
  const rank = new Map(sources.map((s, i) => [s.id, i]));
  const own = new Set(sources.filter((s) => sourceKind(s) === "seller").map((s) => s.id));
  return { rank: (s) => rank.get(s) ?? sources.length, own: (s) => own.has(s) };
}

/**
 * Closes of every day up to the build date, per asset, ascending; compacted days are used as kept.
 * `close` gives each raw day that counts its closes, once, in date order: closeRawDay's, or what an
 * earlier build made of the same bytes (src/feed/assets.ts).
 */
export function dailyCloses(ds: Dataset, nowMs: number, close: (day: QuoteDay) => ClosedRawDay) {
  const today = cairoDate(nowMs);
  const perAsset = new Map<string, DayRecord[]>();
  const put = (c: DayRecord) => {
    const list = perAsset.get(c.asset);
    if (list) list.push(c);
    else perAsset.set(c.asset, [c]);
  };
  const warnings: string[] = [];
  const rejections: RejectedQuote[] = [];
  const disagreements: Disagreement[] = [];
  // The raw days' quotes of sources on probation, by date (docs/methodology.md "New sources: probation").
  const probation = new Map<string, ProbationQuote[]>();
  let accepted = 0;
  let read = 0;
  const compacted = new Set<string>();
  for (const date of ds.historyDates ?? ds.historyDays.map((h) => h.date)) if (date <= today) compacted.add(date);
  const days = new Map<string, () => DayRecord[]>();
  for (const h of ds.historyDays) {
    if (h.date > today) continue;
    days.set(h.date, () => h.records);
  }
  const rawDays: string[] = [];
  for (const day of ds.quoteDays) {
    if (day.date > today) continue; // a later day has not happened yet at this build instant
    if (compacted.has(day.date)) {
      warnings.push(
        `${day.file}: raw quotes of a compacted day are ignored; its closes in history/ stand (a compact cut short: \`price-feed compact\` finishes it, removing the raw file when the history matches it)`,
      );
      continue;
    }
    rawDays.push(day.date);
    days.set(day.date, () => {
      const r = close(day);
      read += r.read;
      accepted += r.accepted;
      rejections.push(...r.rejected);
      if (r.probation.length) probation.set(day.date, r.probation);
      warnings.push(...conflictWarnings(r.rejected));
      for (const c of r.closes)
        for (const d of c.disagreements) disagreements.push({ date: c.date, asset: c.asset, ...d });
      return r.closes.map(recordOf);
    });
  }
  for (const date of [...days.keys()].sort()) for (const c of days.get(date)!()) put(c);
  return {
    perAsset,
    warnings,
    rejections,
    disagreements,
    probation,
    accepted,
    read,
    rawDays,
    compactedDays: compacted.size,
  };
}

/**
 * The build report's line for each conflict (docs/methodology.md §11), from the day's rejections —
 * so a day taken from the closed-days cache, which keeps its rejections, names them as well: the
 * quotes one source gave of one seller and asset that `conflicting-quote` rejected, by file and lines.
 */
export function conflictWarnings(rejected: readonly RejectedQuote[]): string[] {
  const groups = new Map<string, { r: RejectedQuote; lines: number[] }>();
  for (const r of rejected) {
    if (r.reason !== "conflicting-quote") continue;
    const key = JSON.stringify([r.file, r.source, r.seller, r.asset]);
    const g = groups.get(key);
    if (g) g.lines.push(r.line);
    else groups.set(key, { r, lines: [r.line] });
  }
  return [...groups.values()].map(({ r, lines }) => {
    const sorted = lines.sort((a, b) => a - b);
    const list = `${sorted.slice(0, -1).join(", ")} and ${sorted.at(-1)}`;
    return (
      `${r.file} lines ${list}: source "${r.source}" gives seller "${r.seller}" different prices for ${r.asset} ` +
      `at the same instant; none of them is used (conflicting-quote, docs/methodology.md §11)`
    );
  });
}

/** The yardsticks acceptance reads besides the quotes: the official and global references by asset and date. */
export interface Yardsticks {
  official: ReadonlyMap<string, DayRef[]>;
  global?: ReadonlyMap<string, DayRef[]>;
}

/**
 * One raw day through acceptance to its closes: what the build does (src/feed/assets.ts), and what
 * `compact` keeps. The quotes are read once, in order, so they may come as they are parsed. Every
 * quote goes through every rule; then those of a source on probation at their instant (`count`,
 * docs/methodology.md "New sources: probation") are set apart: in no close, listed with whether
 * they passed.
 */
export function closeRawDay(
  day: { date: string; quotes: Iterable<LocatedQuote> },
  nowMs: number,
  maps: Maps,
  refs: Yardsticks,
  order: SourceOrder,
  count: Counting = ALL_COUNT,
): ClosedRawDay {
  let latestObservedMs: number | null = null;
  // The latest quote of each source subject to probation, seller and asset (a later line wins a tie):
  // the feed lists it apart when it does not count (a source that graduated during the day is not
  // listed any more once its latest quote counts).
  const apart = new Map<string, LocatedQuote>();
  const quotes = (function* () {
    for (const q of day.quotes) {
      const ms = parseInstant(q.quote.observedAt);
      if (ms !== null && (latestObservedMs === null || ms > latestObservedMs)) latestObservedMs = ms;
      if (ms !== null && count.subject(q.quote.source)) {
        const key = `${q.quote.asset}\0${q.quote.seller}\0${q.quote.source}`;
        const had = apart.get(key);
        if (!had || parseInstant(had.quote.observedAt)! <= ms) apart.set(key, q);
      }
      yield q;
    }
  })();
  const r = acceptDay(quotes, {
    date: day.date,
    nowMs,
    assets: maps.assets,
    sellers: maps.sellers,
    official: (asset) => refInForce(refs.official.get(asset), day.date),
    global: (asset) => refInForce(refs.global?.get(asset), day.date)?.value ?? null,
    sourceRank: order.rank,
    ownSource: order.own,
    // Peers (docs/methodology.md §2.1): a counted quote is judged by counted quotes only.
    ...(count !== ALL_COUNT && { counts: (source: string, ms: number) => count.counts(source, ms) }),
  });
  for (const [key, lq] of apart)
    if (count.counts(lq.quote.source, parseInstant(lq.quote.observedAt)!)) apart.delete(key);
  let counted = r.accepted;
  if (count !== ALL_COUNT) {
    counted = new DayQuotesPicked(r.accepted.from);
    const q = r.accepted.from;
    for (let k = 0; k < r.accepted.length; k++) {
      const i = r.accepted.at(k);
      if (count.counts(q.source(i), q.observedAtMs(i))) counted.add(i);
    }
  }
  return {
    closes: closeDay(day.date, counted, order),
    rejected: r.rejected,
    probation: apart.size ? probationList(apart, r.rejected, maps) : [],
    accepted: counted.length,
    read: r.read,
    latestObservedMs,
  };
}

/** The quotes set apart, each with the rules' verdict (a refusal found by its file and line), values rounded as the asset's. */
function probationList(
  apart: ReadonlyMap<string, LocatedQuote>,
  rejected: readonly RejectedQuote[],
  maps: Maps,
): ProbationQuote[] {
  const why = new Map(rejected.map((x) => [`${x.file}:${x.line}`, x.reason]));
  const out: ProbationQuote[] = [];
  for (const lq of apart.values()) {
    const { quote: q } = lq;
    const asset = maps.assets.get(q.asset);
    if (!asset) continue; // an asset the catalog does not have is listed nowhere
    const round = (v: number | null) => (v === null || !Number.isFinite(v) ? null : roundHalfAway(v, asset.decimals));
    const reason = why.get(`${lq.file}:${lq.line}`) ?? null;
    out.push({
      asset: q.asset,
      seller: q.seller,
      source: q.source,
      buy: round(q.buy),
      sell: round(q.sell),
      observedAt: q.observedAt,
      passed: reason === null,
      reason,
    });
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => cmp(a.asset, b.asset) || cmp(a.seller, b.seller) || cmp(a.source, b.source));
}

export function mapsOf(ds: Pick<Dataset, "catalog" | "registry">): Maps {
  return { assets: new Map(ds.catalog.map((a) => [a.id, a])), sellers: new Map(ds.registry.map((s) => [s.id, s])) };
}

export interface Maps {
  assets: ReadonlyMap<string, CatalogAsset>;
  sellers: ReadonlyMap<string, RegistrySeller>;
}
