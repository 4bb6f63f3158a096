/**
 * The global mid-market reference, from a free daily JSON of rates against one base currency
 * (`{"date": "YYYY-MM-DD", "usd": {"egp": 47.8, "eur": 0.86, "xau": 0.00024, …}}`). A currency X is
 * worth egp / x pounds; a metal quoted per troy ounce gives per gram egp / x / 31.1034768, times
 * the purity of the karat and the grams of the asset. URLs are tried in order (a fallback when the
 * first fails).
 */
import { z } from "zod";
import type { GlobalRatesSource } from "../../schema/sources.js";
import { roundHalfAway } from "../../core/round.js";
import { ShapeError, SourceError } from "../../core/errors.js";
import { request } from "../http.js";
import { emptyObservations, type AdapterContext, type Observations } from "./types.js";

export const TROY_OUNCE_GRAMS = 31.1034768;
const DAY_MS = 86_400_000;

const RatesDocument = z.looseObject({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

/** The document → global rates. Pure: the instant to stamp them with is given. */
export function globalRates(
  doc: unknown,
  cfg: Pick<GlobalRatesSource, "id" | "base" | "quote" | "assets">,
  observedAt: string,
): Pick<Observations, "global" | "fetched" | "skipped"> {
  const head = RatesDocument.safeParse(doc);
  if (!head.success) throw new ShapeError("the document has no date YYYY-MM-DD");
  const rates = (doc as Record<string, unknown>)[cfg.base];
  if (typeof rates !== "object" || rates === null) throw new ShapeError(`the document has no "${cfg.base}" rates`);
  const r = rates as Record<string, unknown>;
  const egp = r[cfg.quote];
  if (typeof egp !== "number" || !(egp > 0)) throw new ShapeError(`the document has no "${cfg.quote}" rate`);
  const out: Pick<Observations, "global" | "fetched" | "skipped"> = { global: [], fetched: 0, skipped: [] };
  for (const a of cfg.assets) {
    out.fetched++;
    const code = "currency" in a ? a.currency : a.metal;
    // The base itself is absent from its own table: one unit of it is one unit.
    const x = code === cfg.base ? 1 : r[code];
    if (typeof x !== "number" || !(x > 0)) {
      out.skipped.push({ reason: "rate missing from the document", detail: `${a.asset}: ${code}` });
      continue;
    }
    const perUnit = egp / x;
    const value = "currency" in a ? perUnit : (perUnit / TROY_OUNCE_GRAMS) * a.purity * a.grams;
    out.global.push({ source: cfg.id, asset: a.asset, value: roundHalfAway(value, 6), observedAt });
  }
  return out;
}

export async function globalRatesAdapter(cfg: GlobalRatesSource, ctx: AdapterContext): Promise<Observations> {
  const failures: string[] = [];
  const errors: unknown[] = [];
  for (const url of cfg.urls) {
    try {
      const res = await request(url, { accept: "application/json" }, ctx.http);
      const doc = (await res.json()) as { date?: string };
      // A current document (dated today or yesterday, UTC) was observed now; an old one keeps its
      // own date, so that a source that stopped updating shows as stale rather than fresh.
      const dated = Date.parse(`${String(doc.date)}T00:00:00Z`);
      const current = Number.isFinite(dated) && ctx.nowMs - dated < 2 * DAY_MS;
      const observedAt = new Date(current ? ctx.nowMs : Number.isFinite(dated) ? dated : ctx.nowMs).toISOString();
      const rates = globalRates(doc, cfg, observedAt);
      return {
        ...emptyObservations(),
        ...rates,
        skipped: [...failures.map((f) => ({ reason: "fallback used", detail: f })), ...rates.skipped],
      };
    } catch (e) {
      if (!(e instanceof SourceError || e instanceof ShapeError || e instanceof SyntaxError)) throw e;
      failures.push(`${url}: ${e.message}`);
      errors.push(e);
    }
  }
  // The failures kept as the cause: ingest tells a machine without network from a site that answered (src/ingest/http.ts networkFailureOf).
  throw new SourceError(`every URL failed: ${failures.join("; ")}`, {
    url: cfg.urls[0]!,
    cause: new AggregateError(errors, "every URL failed"),
  });
}
