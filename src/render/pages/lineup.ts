/**
 * Which assets the pages show first. In Egypt 21 karat is the gold people buy and ask about first,
 * so it leads its category wherever the pages list gold; the rest keep the catalog's order. The home
 * page leads with the headline assets Egyptian rate sites lead with (the dollar, the euro, the Saudi
 * riyal, sterling, the Kuwaiti dinar) and gold as Egyptians buy it (21, 24 and 18 karat and the gold
 * pound, all four), and keeps the others one tap away.
 */
import type { Asset } from "../../schema/outputs.js";

/** Asset ids that lead their category, in order. */
export const LEAD_IDS: readonly string[] = ["XAU21K-EGP"];
/** The home page's headline assets, by id; any the catalog lacks are skipped. */
export const HEADLINE_IDS: readonly string[] = [
  "USD-EGP",
  "EUR-EGP",
  "SAR-EGP",
  "GBP-EGP",
  "KWD-EGP",
  "XAU21K-EGP",
  "XAU24K-EGP",
  "XAU18K-EGP",
  "GOLDPOUND-EGP",
];

const lead = (a: Pick<Asset, "id">) => {
  const i = LEAD_IDS.indexOf(a.id);
  return i < 0 ? LEAD_IDS.length : i;
};

/** The assets in the pages' order: by category as the catalog has them, the lead ids first in each. */
export function pageOrder<T extends Pick<Asset, "id" | "category">>(assets: readonly T[]): T[] {
  const categories = [...new Set(assets.map((a) => a.category))];
  return categories.flatMap((c) =>
    assets
      .map((a, i) => ({ a, i }))
      .filter(({ a }) => a.category === c)
      .sort((x, y) => lead(x.a) - lead(y.a) || x.i - y.i)
      .map(({ a }) => a),
  );
}

/** Whether an asset is on the home page's first screenful: a headline id, or any when the catalog has none. */
export function headlineOf<T extends Pick<Asset, "id">>(assets: readonly T[]): (a: T) => boolean {
  const any = assets.some((a) => HEADLINE_IDS.includes(a.id));
  return (a) => !any || HEADLINE_IDS.includes(a.id);
}
