/**
 * Retired assets (src/schema/inputs.ts CatalogAsset `retired`; docs/operating.md "Retiring an
 * asset"): the past stays as published. A retired asset leaves today's feed, its variants, the
 * filters and the pages, and keeps its archive; an asset that leaves the catalog while data/ still
 * holds its days refuses the build, in one line naming it and what to do, rather than silently
 * rewriting every past day it was in.
 */
import { DataError } from "../../core/errors.js";
import type { CatalogAsset } from "../../schema/inputs.js";
import { catalogOn, retiredOn } from "../../core/retired.js";

export { catalogOn, retiredOn } from "../../core/retired.js";

/** The assets the catalog keeps only for their archive on a Cairo date, as the manifest names them. */
export function retiredAssets(catalog: readonly CatalogAsset[], date: string): Array<{ id: string; slug: string }> {
  return catalog.filter((a) => retiredOn(a, date)).map((a) => ({ id: a.id, slug: a.slug }));
}

/** The catalog as the refusals name it (data/assets.json, in whatever data folder is built). */
export const CATALOG_FILE = "the catalog (assets.json)";

/**
 * The refusal when data/ holds days of an asset the catalog no longer has: deleting it would drop
 * its history file and its rows from every past day already published, so the build stops and says
 * to mark it retired instead. `where`: the file that holds it.
 */
export function droppedAsset(asset: string, where: string): DataError {
  return new DataError(
    where,
    `holds asset ${asset}, which ${CATALOG_FILE} no longer lists: an asset is retired, never deleted, so that its published archive stays as it is; put it back in the catalog with "retired": "<YYYY-MM-DD>", the first Cairo date it is no longer quoted (docs/operating.md "Retiring an asset")`,
  );
}

/**
 * The refusal when a compacted day holds an asset on or after its retirement: that day was published
 * with it, and retiring it from then would rewrite the day. `where`: the history file.
 */
export function closeAfterRetirement(a: Pick<CatalogAsset, "id" | "retired">, date: string, where: string): DataError {
  return new DataError(
    where,
    `holds asset ${a.id} on ${date}, on or after the date ${CATALOG_FILE} retires it (${a.retired}): a day already compacted stays as published; set its "retired" to a date after ${date}`,
  );
}

/**
 * The first asset of `held` the catalog lacks, as the refusal: `held` names each asset data/ holds
 * and the file that holds it (a compacted day's assets, the raw quotes the rules found no asset for).
 */
export function assertCatalogHolds(
  catalog: readonly Pick<CatalogAsset, "id">[],
  held: Iterable<{ asset: string; where: string }>,
): void {
  const ids = new Set(catalog.map((a) => a.id));
  for (const h of held) if (!ids.has(h.asset)) throw droppedAsset(h.asset, h.where);
}

/**
 * The dataset of a build's Cairo date, once data/ is known to hold no asset the catalog lost (the
 * quotes and reference rows the rules found no asset for; history/ is checked as the archive is
 * made, src/feed/archive/compose.ts): the catalog without the assets retired by then, and those.
 */
export function catalogToday<D extends { catalog: CatalogAsset[] }>(
  full: D,
  today: string,
  rules: {
    rejections: ReadonlyArray<{ asset: string; reason: string; file: string }>;
    refIssues: ReadonlyArray<{ asset?: string; file: string }>;
  },
): { ds: D; retired: Array<{ id: string; slug: string }> } {
  assertCatalogHolds(full.catalog, [
    ...rules.rejections.filter((r) => r.reason === "unknown-asset").map((r) => ({ asset: r.asset, where: r.file })),
    ...rules.refIssues.flatMap((i) => (i.asset === undefined ? [] : [{ asset: i.asset, where: i.file }])),
  ]);
  return { ds: { ...full, catalog: catalogOn(full.catalog, today) }, retired: retiredAssets(full.catalog, today) };
}
