/**
 * docs/methodology.md §3: the seller table of the business date and the best
 * seller of each side.
 */
import type { CatalogAsset, RegistrySeller, SellerClose } from "../schema/inputs.js";
import type { SellerPrevious, SellerRow } from "../schema/outputs.js";
import type { Side } from "./acceptance.js";

const byName = (a: SellerRow, b: SellerRow) => (a.seller < b.seller ? -1 : a.seller > b.seller ? 1 : 0);

/** Better for the customer first: lower `sell`, higher `buy`; a missing value ranks last. */
export function betterFirst(side: Side) {
  return (a: SellerRow, b: SellerRow): number => {
    const x = a[side];
    const y = b[side];
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    return side === "sell" ? x - y : y - x;
  };
}

/** A seller as every published row names it: its id, and the registry's names (its id when the registry does not know it). */
export function sellerNames(
  id: string,
  sellers: ReadonlyMap<string, RegistrySeller>,
): { id: string; seller: string; sellerAr: string | null } {
  const s = sellers.get(id);
  return { id, seller: s?.name ?? id, sellerAr: s?.nameAr ?? null };
}

export function sellerTable(
  closes: readonly SellerClose[],
  asset: CatalogAsset,
  sellers: ReadonlyMap<string, RegistrySeller>,
  /** Each seller's close on the previous close's date (src/rules/previous.ts sellerPrevious). */
  previousOf: (seller: string) => SellerPrevious | null = () => null,
): SellerRow[] {
  const rows = closes.map((c) => ({
    ...sellerNames(c.seller, sellers),
    buy: c.buy,
    sell: c.sell,
    observedAt: c.observedAt,
    source: c.source,
    sources: c.sources ?? [c.source],
    previous: previousOf(c.seller),
  }));
  const better = betterFirst(asset.defaultSide);
  return rows.sort((a, b) => better(a, b) || byName(a, b));
}

/** Best of a side: ties go to the most recent quote, then by name. Null when nobody quotes it. */
export function bestOf(rows: readonly SellerRow[], side: Side): SellerRow | null {
  const better = betterFirst(side);
  const quoting = rows.filter((r) => r[side] !== null);
  quoting.sort((a, b) => better(a, b) || Date.parse(b.observedAt) - Date.parse(a.observedAt) || byName(a, b));
  return quoting[0] ?? null;
}
