/**
 * The component schemas of the OpenAPI description, from the zod output schemas the build validates
 * with (zod 4 emits JSON Schema draft 2020-12, the dialect of OpenAPI 3.1).
 */
import { z } from "zod";
import * as documents from "../../schema/documents.js";
import * as outputs from "../../schema/outputs.js";
import * as archive from "../../schema/archive.js";
import * as events from "../../schema/events.js";
import * as sellers from "../../schema/sellers.js";
import type { Json } from "./parts.js";
import { precomputed } from "../../core/precomputed.js";

/** The public documents of the API, in the order they appear in `components.schemas`. */
export const PUBLIC_SCHEMAS = [
  "Feed",
  "Asset",
  "Direction",
  "BestSeller",
  "Signals",
  "SeriesEntry",
  "SellerRow",
  "ProbationRow",
  "Previous",
  "SellerPrevious",
  "History",
  "ArchiveEntry",
  "ArchiveSeller",
  "ArchiveAsset",
  "Day",
  "DayAsset",
  "DaySellerRow",
  "Days",
  "Events",
  "Event",
  "BestSellerEvent",
  "VerdictEvent",
  "OfficialRateEvent",
  "FreshnessEvent",
  "ConfidenceEvent",
  "SourceEvent",
  "SourceState",
  "ProbationEvent",
  "ProbationStandingValue",
  "Sellers",
  "SellerListed",
  "SellerRecord",
  "SellerAssetRecord",
  "RecordWindow",
  "Problem",
  "Index",
  "Changelog",
  "Readiness",
  "SourceHealth",
  "SourceStatus",
  "UnknownName",
  "ProbationStanding",
  "RegistryEntry",
];

let schemasMemo: Record<string, Json> | undefined;

/**
 * Component schemas from the zod registry: `$ref`s between them point into components. They depend
 * on the code alone, so they are made once per process (the OpenAPI document and the docs page's
 * field tables both read them; neither changes them), or taken from the bundle (precomputed.ts).
 */
export function componentSchemas(): Record<string, Json> {
  return (schemasMemo ??= precomputed?.componentSchemas ?? schemasFromZod());
}

/** componentSchemas() computed: what the bundle step stores. */
export function schemasFromZod(): Record<string, Json> {
  // Importing outputs registers every schema with an id in zod's global registry.
  void outputs;
  void archive;
  void events;
  void sellers;
  void documents;
  const all = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const name of PUBLIC_SCHEMAS) {
    const s = all[name];
    if (!s) throw new Error(`schema ${name} is not registered`);
    // $schema and $id belong to standalone documents; inside OpenAPI the dialect is the document's.
    const { $schema: _s, $id: _i, ...rest } = s;
    out[name] = rest;
  }
  const dangling = JSON.stringify(out)
    .match(/#\/components\/schemas\/(\w+)/g)
    ?.map((r) => r.split("/").pop()!)
    .filter((n) => !out[n]);
  if (dangling?.length) throw new Error(`public schemas refer to unlisted ones: ${[...new Set(dangling)].join(", ")}`);
  return out;
}
