/**
 * The append-only observation logs of data/: `quotes/`, `official/` and `global/`, one NDJSON file
 * per Cairo date of `observedAt`. A line once written is never changed (an append replaces the file
 * with what it held and the new lines, src/jobs/ingest.ts); a line already present is not written
 * again, so running ingest twice for the same instant adds nothing twice.
 */
import { cairoDate, parseInstant } from "../core/cairo.js";
import { isSafePrice } from "../core/round.js";
import { dayLogName, LOG_FOLDERS } from "../core/data-layout.js";
import { GlobalRate, OfficialRate, Quote } from "../schema/inputs.js";
import type { Observations } from "./adapters/types.js";

export type LogKind = "quotes" | "official" | "global";

/** One observation as its log line, fields in the order the formats document. */
export function lineOf(kind: LogKind, o: Quote | OfficialRate | GlobalRate): string {
  if (kind === "quotes") {
    const q = o as Quote;
    return JSON.stringify({
      source: q.source,
      seller: q.seller,
      asset: q.asset,
      buy: q.buy,
      sell: q.sell,
      observedAt: q.observedAt,
    });
  }
  if (kind === "official") {
    const r = o as OfficialRate;
    return JSON.stringify({ source: r.source, asset: r.asset, buy: r.buy, sell: r.sell, observedAt: r.observedAt });
  }
  const g = o as GlobalRate;
  return JSON.stringify({ source: g.source, asset: g.asset, value: g.value, observedAt: g.observedAt });
}

const SCHEMAS = { quotes: Quote, official: OfficialRate, global: GlobalRate } as const;
export const LOG_KINDS = ["quotes", "official", "global"] as const;

/** The log file an observation belongs to, and its Cairo date; null when its instant is not valid. */
export function logPlace(kind: LogKind, o: { observedAt: string }): { file: string; date: string } | null {
  const ms = parseInstant(o.observedAt);
  if (ms === null) return null;
  const date = cairoDate(ms);
  return { file: dayLogName(LOG_FOLDERS[kind], date), date };
}

/**
 * The first price of an observation that is not one the feed can keep (docs/methodology.md §2.1,
 * test 2: finite, above zero, small enough to round exactly), as "sell 1e+30"; null when all are.
 */
function unsafePrice(o: Quote | OfficialRate | GlobalRate, decimals: number): string | null {
  const sides: Array<[string, number | null]> =
    "value" in o
      ? [["value", o.value]]
      : [
          ["buy", o.buy],
          ["sell", o.sell],
        ];
  for (const [side, v] of sides) if (v !== null && !isSafePrice(v, decimals)) return `${side} ${v}`;
  return null;
}

export interface Planned {
  /** New lines per file (`quotes/2026-11-21.ndjson`), in observation order. */
  appends: Map<string, string[]>;
  appended: number;
  duplicates: number;
  skipped: Array<{ reason: string; detail: string }>;
}

/**
 * What to append: each observation valid by its format, with prices the feed can keep (finite,
 * above zero, safe to round: src/core/round.ts isSafePrice), on its Cairo date, not already logged.
 * `known` are the catalog's asset ids and each one's decimals; `existing(file)` gives the lines a file holds;
 * `compacted(date)` says a quote day is compacted (its raw log is gone). `keepFrom`, the first Cairo
 * date of the raw days kept at the run's instant (src/rules/compact.ts retentionStart): a quote of an
 * earlier day is skipped (docs/methodology.md §2.1, test 4): that day is closed or about to be, so only
 * a wrong clock or a misread date gives one, and appended it would be compacted and published forever.
 */
export function planAppends(
  obs: Pick<Observations, LogKind>,
  known: ReadonlyMap<string, number>,
  existing: (file: string) => ReadonlySet<string>,
  compacted: (date: string) => boolean,
  keepFrom?: string,
): Planned {
  const plan: Planned = { appends: new Map(), appended: 0, duplicates: 0, skipped: [] };
  const planned = new Map<string, Set<string>>();
  for (const kind of LOG_KINDS) {
    for (const o of obs[kind]) {
      const parsed = SCHEMAS[kind].safeParse(o);
      const place = logPlace(kind, o);
      if (!parsed.success || place === null) {
        plan.skipped.push({
          reason: `not a valid ${kind === "quotes" ? "quote" : `${kind} rate`}`,
          detail: parsed.success ? `observedAt ${o.observedAt}` : parsed.error.issues[0]!.message,
        });
        continue;
      }
      const decimals = known.get(o.asset);
      if (decimals === undefined) {
        plan.skipped.push({ reason: "asset not in the catalog", detail: o.asset });
        continue;
      }
      const bad = unsafePrice(o, decimals);
      if (bad !== null) {
        plan.skipped.push({ reason: "not a price the feed can keep", detail: `${o.asset}: ${bad}` });
        continue;
      }
      const { file, date } = place;
      if (kind === "quotes" && keepFrom !== undefined && date < keepFrom) {
        const q = o as Quote;
        plan.skipped.push({
          reason: "observed before the compaction horizon",
          detail: `${q.seller} ${q.asset} observed at ${q.observedAt}: its Cairo day ${date} is before ${keepFrom}, the first day kept raw (a wrong clock or a misread date)`,
        });
        continue;
      }
      if (kind === "quotes" && compacted(date)) {
        plan.skipped.push({ reason: "day already compacted", detail: `${date}: ${o.asset}` });
        continue;
      }
      const line = lineOf(kind, o);
      let seen = planned.get(file);
      if (!seen) planned.set(file, (seen = new Set()));
      if (existing(file).has(line) || seen.has(line)) {
        plan.duplicates++;
        continue;
      }
      seen.add(line);
      const lines = plan.appends.get(file);
      if (lines) lines.push(line);
      else plan.appends.set(file, [line]);
      plan.appended++;
    }
  }
  return plan;
}
