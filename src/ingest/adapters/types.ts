/** What every source adapter returns: observations in the input formats of data/, and what it skipped. */
import type { Catalog, GlobalRate, OfficialRate, Quote, Registry, Sources } from "../../schema/inputs.js";
import { sellerNamesOf, type SellerNames } from "../document/names.js";
import type { HttpOptions } from "../http.js";

export interface Observations {
  quotes: Quote[];
  official: OfficialRate[];
  global: GlobalRate[];
  /** Records read from the source, mapped or not. */
  fetched: number;
  /** Records that could not be mapped, each with the reason. */
  skipped: Array<{ reason: string; detail: string }>;
  /**
   * Seller names the records gave that the registry does not know, as the document wrote them,
   * sorted and unique. Their rows are skipped (a name the registry does not give is never a seller,
   * the rulebook's rule 1); ingest and the source health name them, so that the operator can add
   * the seller to sellers.json or the name to a seller's `aliases` (docs/operating.md).
   */
  unknownSellers: string[];
}

export interface AdapterContext {
  nowMs: number;
  http: HttpOptions;
  /** Paths in a sources file are relative to it. */
  dataDir: string;
  catalog: Catalog;
  /**
   * The registry (data/sellers.json), for sources whose records name their sellers (`fields.seller`):
   * each name is matched to it (src/ingest/document/names.ts resolveSeller). Absent: such names are
   * taken as ids, as a test that reads a page on its own does; ingest always gives it.
   */
  registry?: Registry | undefined;
  demo: Sources["demo"];
}

/**
 * Each registry's names, made once: an ingest run hands every source one registry, and an aggregator
 * with a source per currency would otherwise fold every seller's every name again for each (a fifth
 * of the CPU of a run of init's sources, measured by the rehearsal, src/rehearse).
 */
const namesOfRegistry = new WeakMap<Registry, SellerNames>();

/** The registry as names for a source whose records name their sellers; undefined when it has none to match. */
export const registryNamesOf = (ctx: AdapterContext): SellerNames | undefined => {
  if (ctx.registry === undefined) return undefined;
  let names = namesOfRegistry.get(ctx.registry);
  if (!names) namesOfRegistry.set(ctx.registry, (names = sellerNamesOf(ctx.registry)));
  return names;
};

export const emptyObservations = (): Observations => ({
  quotes: [],
  official: [],
  global: [],
  fetched: 0,
  skipped: [],
  unknownSellers: [],
});
