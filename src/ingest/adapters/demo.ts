/**
 * The simulated market's current hour (src/sample/market.ts) as one source would publish it, so
 * that the whole hourly loop — ingest, build, commit, publish — runs offline on the sample data.
 * The market is a pure function of (seed, hour): the same hour gives the same observations.
 */
import { SampleMarket, type HourObservations } from "../../sample/market.js";
import type { SourceConfig } from "../../schema/sources.js";
import { ShapeError } from "../../core/errors.js";
import type { AdapterContext, Observations } from "./types.js";

const HOUR_MS = 3_600_000;
const hours = new Map<string, HourObservations>();

/** Every source of the demo reads one market hour: it is computed once per run and instant. */
function marketHour(ctx: AdapterContext): HourObservations {
  if (!ctx.demo) throw new ShapeError('the sources file has no "demo" market configuration');
  const top = Math.floor(ctx.nowMs / HOUR_MS) * HOUR_MS;
  const key = `${JSON.stringify(ctx.demo)}@${top}`;
  let h = hours.get(key);
  if (!h) {
    hours.clear();
    hours.set(key, (h = new SampleMarket(ctx.demo).hour(top)));
  }
  return h;
}

export async function demoAdapter(
  cfg: Extract<SourceConfig, { adapter: "demo" }>,
  ctx: AdapterContext,
): Promise<Observations> {
  const h = marketHour(ctx);
  const quotes = h.quotes.filter((q) => q.source === cfg.id);
  const official = h.official.filter((q) => q.source === cfg.id);
  const global = h.global.filter((q) => q.source === cfg.id);
  return {
    quotes,
    official,
    global,
    fetched: quotes.length + official.length + global.length,
    skipped: [],
    unknownSellers: [],
  };
}
