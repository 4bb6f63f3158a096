/**
 * What the mirror is asked instead of a filtered request. The mirror serves the build's files and
 * reads no query string (the index's `homes.onMirror`, the feed's `_variants`): one category or one
 * asset slug is its pre-filtered file; anything else (several values, both filters, an id, another
 * letter case that has no file) is the whole feed, filtered here as the edge would filter it: an
 * intersection, in catalog order, values matched without regard to case, assets by slug or id.
 */
import type { components } from "./openapi.js";

type Feed = components["schemas"]["Feed"];

export interface FeedFilter {
  category?: readonly string[];
  asset?: readonly string[];
}

/** The feed's path and the pre-filtered files' templates, as every feed's `_variants` names them. */
export const FEED_PATH = "/api/v1/feed.json";
export const VARIANTS: Feed["_variants"] = {
  category: "/api/v1/feed/category/{slug}.json",
  asset: "/api/v1/feed/asset/{slug}.json",
};

const norm = (values: readonly string[] | undefined) => (values ?? []).map((v) => v.trim().toLowerCase());

/** The pre-filtered file that answers this filter on the mirror, or null when the whole feed is needed. */
export function variantPath(filter: FeedFilter): string | null {
  const category = norm(filter.category);
  const asset = norm(filter.asset);
  if (category.length === 1 && asset.length === 0) return VARIANTS.category.replace("{slug}", category[0]!);
  if (asset.length === 1 && category.length === 0) return VARIANTS.asset.replace("{slug}", asset[0]!);
  return null;
}

/** A filter value the feed does not know: the edge's 400 (validCategories, validAssets), said here. */
export class UnknownFilterValue extends Error {
  constructor(
    readonly parameter: "category" | "asset",
    readonly value: string,
    readonly valid: string[],
  ) {
    super(`Unknown ${parameter}: ${value}. Use one of: ${valid.join(", ")}.`);
    this.name = "UnknownFilterValue";
  }
}

/** The whole feed filtered as the edge would filter it; an unknown value throws UnknownFilterValue. */
export function filterFeed(feed: Feed, filter: FeedFilter): Feed {
  const category = norm(filter.category);
  const asset = norm(filter.asset);
  const categories = [...new Set(feed.assets.map((a) => a.category))];
  for (const c of category) if (!categories.includes(c)) throw new UnknownFilterValue("category", c, categories);
  const known = (v: string) => feed.assets.some((a) => a.slug === v || a.id.toLowerCase() === v);
  for (const v of asset)
    if (!known(v))
      throw new UnknownFilterValue(
        "asset",
        v,
        feed.assets.map((a) => a.slug),
      );
  const assets = feed.assets.filter(
    (a) =>
      (category.length === 0 || category.includes(a.category)) &&
      (asset.length === 0 || asset.includes(a.slug) || asset.includes(a.id.toLowerCase())),
  );
  return { ...feed, assets };
}
