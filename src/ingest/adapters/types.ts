/** What every source adapter returns: observations in the input formats of data/, and what it skipped. */
import type { Catalog, GlobalRate, OfficialRate, Quote, Sources } from "../../schema/inputs.js";
import type { HttpOptions } from "../http.js";

export interface Observations {
  quotes: Quote[];
  official: OfficialRate[];
  global: GlobalRate[];
  /** Records read from the source, mapped or not. */
  fetched: number;
  /** Records that could not be mapped, each with the reason. */
  skipped: Array<{ reason: string; detail: string }>;
}

export interface AdapterContext {
  nowMs: number;
  http: HttpOptions;
  /** Paths in a sources file are relative to it. */
  dataDir: string;
  catalog: Catalog;
  demo: Sources["demo"];
}

export const emptyObservations = (): Observations => ({
  quotes: [],
  official: [],
  global: [],
  fetched: 0,
  skipped: [],
});
