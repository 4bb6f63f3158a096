/**
 * The feed's filters: `?category=` and `?asset=`, comma-separated, repeated parameters merged,
 * matched without regard to case, assets by slug or id; both ⇒ the intersection; catalog order.
 * A selection from the catalog the manifest carries, so the handler filters the feed with it
 * (src/edge/representation.ts) and the OpenAPI description's examples of a bad filter are its own
 * problems (src/render/openapi/examples.ts).
 */
import { HttpProblem } from "../core/http-problem.js";

export interface CatalogView {
  categories: readonly string[];
  assets: ReadonlyArray<{ id: string; slug: string; category: string }>;
}

function values(params: URLSearchParams, name: string): string[] | null {
  const raw = params.getAll(name);
  if (raw.length === 0) return null;
  return raw.flatMap((v) => v.split(",")).map((v) => v.trim().toLowerCase());
}

/** The slugs selected, in catalog order; null when no filter was given (the whole feed). */
export function selectAssets(params: URLSearchParams, catalog: CatalogView): string[] | null {
  const cats = values(params, "category");
  const assets = values(params, "asset");
  if (cats === null && assets === null) return null;
  const validCategories = [...catalog.categories];
  const validAssets = catalog.assets.map((a) => a.slug);
  if (cats) {
    const bad = cats.find((c) => !validCategories.includes(c));
    if (bad !== undefined) {
      const what = bad === "" ? "an empty category" : `unknown category "${bad.slice(0, 64)}"`;
      throw new HttpProblem(
        "unknown-category",
        `The category filter has ${what}. Use one of: ${validCategories.join(", ")}.`,
        what,
        { validCategories },
      );
    }
  }
  if (assets) {
    const known = new Set(catalog.assets.flatMap((a) => [a.slug, a.id.toLowerCase()]));
    const bad = assets.find((a) => !known.has(a));
    if (bad !== undefined) {
      const what = bad === "" ? "an empty asset" : `unknown asset "${bad.slice(0, 64)}"`;
      throw new HttpProblem(
        "unknown-asset",
        `The asset filter has ${what}. Use a slug or an id of: ${validAssets.join(", ")}.`,
        what,
        { validAssets },
      );
    }
  }
  return catalog.assets
    .filter(
      (a) =>
        (!cats || cats.includes(a.category)) &&
        (!assets || assets.includes(a.slug) || assets.includes(a.id.toLowerCase())),
    )
    .map((a) => a.slug);
}
