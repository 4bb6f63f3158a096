/**
 * A seller's name as a link to its page (`/sellers/<id>/`, seller-page.ts), wherever a table names
 * it: the asset page's table and its "Being checked" rows, the home page's best prices, a past day's
 * tables. Only a seller of /api/v1/sellers.json has a page, so only its name links; any other (a
 * name the registry does not know, read by a source on probation) stays plain text, never a link to
 * no page.
 */
import type { RenderContext } from "../../feed/site.js";
import { localized, sellerPagePath, type PageLang } from "../../feed/paths.js";
import type { SellerRecord } from "../../schema/sellers.js";
import type { Asset } from "../../schema/outputs.js";
import { html, type SafeHtml } from "./html.js";
import { relativePath } from "./page.js";

/** The ids of the sellers with a page, and their records per asset id, made once per build. */
export interface SellerIndex {
  pages: ReadonlySet<string>;
  /** Asset id → every seller's record of it, in the list's (the registry's) order. */
  byAsset: ReadonlyMap<
    string,
    ReadonlyArray<{ seller: SellerRecord["seller"]; record: SellerRecord["assets"][number] }>
  >;
}

const made = new WeakMap<RenderContext["sellers"], SellerIndex>();

/** The index of ctx's sellers; the pages of one build share it (the asset pages read it one asset at a time). */
export function sellerIndex(ctx: Pick<RenderContext, "sellers">): SellerIndex {
  let index = made.get(ctx.sellers);
  if (index) return index;
  const byAsset = new Map<string, Array<{ seller: SellerRecord["seller"]; record: SellerRecord["assets"][number] }>>();
  for (const doc of ctx.sellers.records.values())
    for (const record of doc.assets) {
      const list = byAsset.get(record.id) ?? [];
      list.push({ seller: doc.seller, record });
      byAsset.set(record.id, list);
    }
  index = { pages: new Set(ctx.sellers.records.keys()), byAsset };
  made.set(ctx.sellers, index);
  return index;
}

/**
 * The name, a link to the seller's page in the page's language when it has one. `from`, the page's
 * own path, makes the link relative here: for markup that goes into a page after page() has made its
 * links relative (a past day's seller tables, day.ts).
 */
export function sellerLink(
  pages: ReadonlySet<string>,
  id: string | null | undefined,
  name: SafeHtml | "",
  lang: PageLang,
  from?: string,
): SafeHtml | "" {
  if (!id || !pages.has(id)) return name;
  const to = localized(sellerPagePath(id), lang);
  return html`<a href="${from ? relativePath(from, to) : to}">${name}</a>`;
}

/**
 * The id of the seller an asset's best names (a best carries the seller's names only): the row of
 * today's table with that name and that price.
 */
export function bestSellerId(a: Asset, side: "sell" | "buy"): string | null {
  const b = a.directions[side].best;
  if (!b?.seller) return null;
  return a.sellers.find((r) => r.seller === b.seller && r[side] === b.value)?.id ?? null;
}
