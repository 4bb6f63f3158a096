/**
 * Whether a catalog asset is retired on a Cairo date (src/schema/inputs.ts CatalogAsset `retired`,
 * the first date it is no longer quoted), for every layer that lists today's assets: the build's
 * loader (src/io/load-build.ts), the feed and the archive (src/feed/archive/retired.ts).
 */
import type { CatalogAsset } from "../schema/inputs.js";

/** Whether the asset is out of the catalog on a Cairo date: retired on or before it. */
export const retiredOn = (a: Pick<CatalogAsset, "retired">, date: string): boolean =>
  a.retired !== undefined && date >= a.retired;

/** The catalog of a Cairo date: the assets quoted on it, in catalog order (what the feed and the pages list). */
export function catalogOn<A extends Pick<CatalogAsset, "retired">>(catalog: readonly A[], date: string): A[] {
  return catalog.filter((a) => !retiredOn(a, date));
}
