/**
 * What the feed must publish for each asset at a build instant, recomputed from the data folder by
 * the rulebook alone (docs/methodology.md §1–§9; /work/shared/METHODOLOGY.md with its "Peers"):
 * the business date, today's table and best sellers, the series, the verdict of each side, the
 * change since the previous close and the confidence. Compacted days are taken as kept (§10: final).
 */
import { cairoDate, daysBetween, parseInstant } from "../../core/cairo.js";
import type { ProbationState } from "../../schema/probation.js";
import type { CatalogAsset, DayClose } from "../../schema/inputs.js";
import { readConfig, readHistory, readProbation, readQuoteDays, readRefs, type Config, type QuoteDay } from "./data.js";
import { judgeDay, SIDES, type Close, type JudgedDay, type Side } from "./judge.js";
import { dailyRates, inForce, type DayRate } from "./references.js";
import { countingKey, countsAt } from "./standing.js";
import { expectReference } from "./reference-asset.js";
import { dayBest, judgeSide, priorBests, type ExpectedDirection, type SeriesEntry } from "./verdict.js";

export type { ExpectedDirection, SeriesEntry } from "./verdict.js";
export type { Expected, ExpectedApart, ExpectedAsset, ExpectedRow, ExpectOptions } from "./expected.js";
import type { AssetInputs, Expected, ExpectedApart, ExpectedAsset, ExpectedRow, ExpectOptions } from "./expected.js";
import { byCode, CHANGE_MAX_GAP_DAYS, CLOCK_SKEW_MS, roundHalf, SERIES_WINDOW_DAYS } from "./rulebook.js";

/** One asset's day as the series and the table need it. */
interface Day {
  date: string;
  closes: Close[];
  sources: string[];
  disagree: boolean;
  newestMs: number;
}

/** Judged raw days, kept while their file, the configuration, the counting and the references stand. */
const judgedCache = new Map<string, { key: string; day: JudgedDay }>();

export async function judgeRawDays(
  dataDir: string,
  nowMs: number,
  cfg: Config,
  state: ProbationState,
  quoteDays: readonly QuoteDay[],
  official: Map<string, DayRate[]>,
  global: Map<string, DayRate[]>,
  skip: (date: string) => boolean,
): Promise<Map<string, JudgedDay>> {
  const counts = countsAt(cfg.subject, state);
  const ckey = countingKey(cfg.subject, state);
  const out = new Map<string, JudgedDay>();
  for (const qd of quoteDays) {
    if (skip(qd.date)) continue;
    const refs = cfg.catalog.map((a) => [inForce(official.get(a.id), qd.date), inForce(global.get(a.id), qd.date)]);
    // A day's verdict depends on the instant only through which of its quotes lie ahead of it (test
    // 4), and that set is fixed by how many do: it is the latest ones.
    const ahead = qd.quotes.filter((q) => (parseInstant(q.observedAt) ?? 0) > nowMs + CLOCK_SKEW_MS).length;
    const key = JSON.stringify([dataDir, qd.key, cfg.key, ckey, refs, ahead]);
    const hit = judgedCache.get(`${dataDir}\0${qd.date}`);
    if (hit && hit.key === key) {
      out.set(qd.date, hit.day);
      continue;
    }
    const offOn = new Map(
      cfg.catalog.map((a, i) => [a.id, refs[i]![0] && { buy: refs[i]![0].buy, sell: refs[i]![0].sell }]),
    );
    const globOn = new Map(cfg.catalog.map((a, i) => [a.id, refs[i]![1]?.value ?? null]));
    const day = judgeDay(qd.quotes, {
      date: qd.date,
      nowMs,
      assets: cfg.assets,
      sellers: cfg.sellers,
      rank: cfg.rank,
      own: cfg.own,
      counts,
      official: (a) => offOn.get(a) ?? null,
      global: (a) => globOn.get(a) ?? null,
    });
    judgedCache.set(`${dataDir}\0${qd.date}`, { key, day });
    out.set(qd.date, day);
  }
  // A day no longer raw (compacted) is judged no more: let it go.
  const raw = new Set(quoteDays.map((qd) => `${dataDir}\0${qd.date}`));
  for (const k of judgedCache.keys()) if (k.startsWith(`${dataDir}\0`) && !raw.has(k)) judgedCache.delete(k);
  return out;
}

export async function expectFeed(dataDir: string, nowMs: number, o: ExpectOptions = {}): Promise<Expected> {
  const cfg = await readConfig(dataDir);
  const state = o.probation ?? (await readProbation(dataDir));
  const today = cairoDate(nowMs);
  const history = await readHistory(dataDir);
  const official = dailyRates(await readRefs(dataDir, "official"), cfg.assets, nowMs);
  const global = dailyRates(await readRefs(dataDir, "global"), cfg.assets, nowMs);
  // §10: a compacted day is final; raw quotes of it are ignored.
  const days = await judgeRawDays(
    dataDir,
    nowMs,
    cfg,
    state,
    await readQuoteDays(dataDir),
    official,
    global,
    (date) => date > today || history.has(date),
  );
  const perAsset = new Map<string, Day[]>();
  const put = (asset: string, d: Day) => {
    if (d.closes.length > 0) perAsset.set(asset, [...(perAsset.get(asset) ?? []), d]);
  };
  const dates = [...new Set([...history.keys(), ...days.keys()])].filter((d) => d <= today).sort();
  for (const date of dates) {
    for (const h of history.get(date) ?? []) put(h.asset, fromHistory(h));
    for (const [asset, a] of days.get(date)?.assets ?? []) {
      const closes = [...a.closes.values()].sort((x, y) => byCode(x.seller, y.seller));
      put(asset, { date, closes, sources: a.sources, disagree: a.disagree, newestMs: a.newestMs });
    }
  }
  const assets: Record<string, ExpectedAsset> = {};
  for (const asset of cfg.catalog) {
    if (asset.retired !== undefined && today >= asset.retired) continue;
    assets[asset.slug] = expectAsset(asset, perAsset.get(asset.id) ?? [], {
      today,
      cfg,
      official: official.get(asset.id),
      global: global.get(asset.id),
      days,
    });
  }
  return { nowMs, assets, days };
}

function fromHistory(h: DayClose): Day {
  return {
    date: h.date,
    closes: h.closes.map((c) => ({
      seller: c.seller,
      source: c.source,
      sources: c.sources ?? [c.source],
      buy: c.buy,
      sell: c.sell,
      observedAtMs: Date.parse(c.observedAt),
    })),
    sources: h.sources,
    disagree: h.disagreements.length > 0,
    newestMs: h.observedAt === null ? NaN : Date.parse(h.observedAt),
  };
}

const name = (cfg: Config, id: string) => cfg.sellers.get(id)?.name ?? id;

function expectAsset(asset: CatalogAsset, days: Day[], x: AssetInputs): ExpectedAsset {
  if (asset.market === "reference") return expectReference(asset, x);
  const todayDay = days.at(-1) ?? null;
  const asOf = todayDay?.date ?? x.today;
  const off = inForce(x.official, asOf);
  const glob = inForce(x.global, asOf);
  const base = {
    id: asset.id,
    slug: asset.slug,
    asOf,
    benchmark: off && { buy: off.buy, sell: off.sell },
    global: glob && { value: glob.value },
    probation: apart(asset.id, x.days.get(asOf), x.cfg),
  };
  // §5.1: one entry per day with a close; the bench is that day's own official mid.
  const series: SeriesEntry[] = days.map((d) => {
    const side = (s: Side) => d.closes.map((c) => c[s]).filter((v): v is number => v !== null);
    const lohi = (v: number[]) => (v.length ? [Math.min(...v), Math.max(...v)] : [null, null]);
    const [buyLo, buyHi] = lohi(side("buy"));
    const [sellLo, sellHi] = lohi(side("sell"));
    const bench = x.official?.find((r) => r.date === d.date)?.value ?? null;
    return { date: d.date, buyLo: buyLo!, buyHi: buyHi!, sellLo: sellLo!, sellHi: sellHi!, bench };
  });
  // §5.4: the previous close, at most 7 calendar days before asOf.
  const prevIndex = days.length - 2;
  const prevDay =
    prevIndex >= 0 && daysBetween(days[prevIndex]!.date, asOf) <= CHANGE_MAX_GAP_DAYS ? days[prevIndex]! : null;
  const prevEntry = prevDay ? series[prevIndex]! : null;
  const rows: ExpectedRow[] = (todayDay?.closes ?? []).map((c) => {
    const p = prevDay?.closes.find((pc) => pc.seller === c.seller);
    return {
      id: c.seller,
      seller: name(x.cfg, c.seller),
      buy: c.buy,
      sell: c.sell,
      source: c.source,
      sources: c.sources,
      observedAtMs: c.observedAtMs,
      previous: p ? { buy: p.buy, sell: p.sell } : null,
    };
  });
  const ds = asset.defaultSide;
  rows.sort((a, b) => {
    const va = a[ds];
    const vb = b[ds];
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return ds === "sell" ? va - vb : vb - va;
    }
    return byCode(a.seller, b.seller);
  });
  const best = (side: Side) => {
    const withSide = rows.filter((r) => r[side] !== null);
    withSide.sort(
      (a, b) =>
        (side === "sell" ? a.sell! - b.sell! : b.buy! - a.buy!) ||
        b.observedAtMs - a.observedAtMs ||
        byCode(a.seller, b.seller),
    );
    const r = withSide[0];
    return r ? { id: r.id, seller: r.seller, value: r[side]! } : null;
  };
  const bests = { sell: best("sell"), buy: best("buy") };
  const directions = {} as Record<Side, ExpectedDirection>;
  for (const side of SIDES) {
    const v = bests[side]?.value ?? null;
    const prior = priorBests(series, asOf, side);
    const sideRef = off?.[side] ?? null;
    const prevValue = prevEntry ? dayBest(prevEntry, side) : null;
    directions[side] = {
      best: bests[side],
      ...judgeSide(side, v, prior, asOf, sideRef, glob?.value ?? null),
      previous:
        prevEntry && v !== null && prevValue !== null
          ? {
              date: prevEntry.date,
              value: prevValue,
              change: roundHalf(v - prevValue, asset.decimals),
              changePct: roundHalf(((v - prevValue) / prevValue) * 100, 2),
            }
          : null,
    };
  }
  // §8: distinct sources with a counted quote on asOf; a step down for disagreement and for an inverted market.
  const checks = todayDay?.sources.length ?? 0;
  const levels = ["none", "low", "medium", "high"] as const;
  let level = Math.min(checks, 3);
  const inverted = bests.buy !== null && bests.sell !== null && bests.buy.value > bests.sell.value;
  level -= Number(todayDay?.disagree ?? false) + Number(inverted);
  if (checks >= 1) level = Math.max(level, 1);
  return {
    ...base,
    reference: false,
    observedAtMs: todayDay ? todayDay.newestMs : null,
    confidence: { level: levels[level]!, checks },
    sellers: rows,
    directions,
    series: series.slice(-SERIES_WINDOW_DAYS),
  };
}

/**
 * §2.4: the quotes of `asOf` of sources on probation at their instant, one per source and seller (its
 * latest; a later line wins a tie; listed only when that latest does not count), with whether the
 * rules passed it. Made for every asset of the day in one pass, once per judged day.
 */
const apartByDay = new WeakMap<JudgedDay, Map<string, ExpectedApart[]>>();
function apart(asset: string, day: JudgedDay | undefined, cfg: Config): ExpectedApart[] {
  if (!day) return [];
  let byAsset = apartByDay.get(day);
  if (!byAsset) {
    const latest = new Map<string, { j: (typeof day.quotes)[number]; ms: number }>();
    for (const j of day.quotes) {
      const q = j.quote;
      if (!cfg.subject.has(q.source)) continue;
      const ms = parseInstant(q.observedAt);
      if (ms === null) continue;
      const k = `${q.asset}\0${q.source}\0${q.seller}`;
      const had = latest.get(k);
      if (!had || had.ms <= ms) latest.set(k, { j, ms });
    }
    byAsset = new Map();
    for (const { j } of latest.values()) {
      if (j.standingCounts) continue;
      const list = byAsset.get(j.quote.asset) ?? [];
      byAsset.set(j.quote.asset, list);
      list.push({ source: j.quote.source, id: j.quote.seller, passed: j.reason === null, reason: j.reason });
    }
    for (const list of byAsset.values()) list.sort((a, b) => byCode(a.id, b.id) || byCode(a.source, b.source));
    apartByDay.set(day, byAsset);
  }
  return byAsset.get(asset) ?? [];
}
