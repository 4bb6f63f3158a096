/**
 * Gold as people in Egypt buy it: the price of a gram is the metal alone, and a shop adds its
 * workmanship (مصنعية) and the assay stamp (الدمغة) on top, which it does not pay back when you sell;
 * the gold pound is a coin of 8 grams of 21 karat. One line each, under the gold prices and on a gold
 * asset's page, with the global price of an ounce in dollars, the figure the news quote.
 */
import type { PageLang } from "../../feed/paths.js";
import type { Asset, Feed } from "../../schema/outputs.js";
import type { SourceConfig } from "../../schema/sources.js";
import { html, join, type SafeHtml } from "./html.js";
import { longDate, price } from "./format.js";
import { GOLD_WORDS } from "./gold-words.js";

const isGold = (a: Pick<Asset, "kind">) => a.kind === "metal";
const isCoin = (a: Pick<Asset, "kind" | "unit">) => isGold(a) && a.unit.endsWith("/coin");

/**
 * The note for a list of assets: empty unless gold is among them; the coin's line only when a coin
 * is; on a gold asset's page (`selling`), that the workmanship is not paid back when you sell.
 */
export function goldNote(
  assets: ReadonlyArray<Pick<Asset, "kind" | "unit">>,
  lang: PageLang,
  o: { selling?: boolean } = {},
): SafeHtml | "" {
  if (!assets.some(isGold)) return "";
  const w = GOLD_WORDS[lang];
  const lines: Array<SafeHtml | string> = [w.gram];
  if (o.selling) lines.push(w.selling);
  if (assets.some(isCoin)) lines.push(w.coin);
  return html`<p class="note gold-note">${join(lines, " ")}</p>`;
}

/** Grams in a troy ounce, the unit of gold's global price. */
export const TROY_OUNCE_GRAMS = 31.1034768;
const GOLD_24K = "XAU24K-EGP";
const DOLLAR = "USD-EGP";
/**
 * The fine gold in a gram of the 24 karat asset as the global source prices it (its `purity`), else 0.999,
 * the 24 karat sold in Egypt, as the real deployment's source and the simulated market count it.
 */
function purity24k(sources: readonly SourceConfig[]): number {
  for (const s of sources)
    if (s.adapter === "global-rates")
      for (const a of s.assets) if (a.asset === GOLD_24K && "purity" in a) return a.purity * a.grams;
  return 0.999;
}

/**
 * The global price of a troy ounce of fine gold, worked out from the global reference the feed
 * carries: its 24 karat gram in pounds times 31.1034768 g, over the fineness, in dollars at its own
 * dollar rate of the same business date (the global source derives both from one table of rates
 * against the dollar: src/ingest/adapters/global-rates.ts). On days apart (a currency holiday, a
 * Friday), no dollar rate of that day is in the feed: the ounce is then in pounds, and says so.
 */
export function globalOunce(
  feed: Pick<Feed, "assets">,
  sources: readonly SourceConfig[],
): { value: number; currency: "USD" | "EGP"; date: string } | null {
  const gold = feed.assets.find((a) => a.id === GOLD_24K);
  const g = gold?.global?.value;
  if (!gold || g === null || g === undefined) return null;
  const egp = (g * TROY_OUNCE_GRAMS) / purity24k(sources);
  const usd = feed.assets.find((a) => a.id === DOLLAR);
  const rate = usd?.global?.value;
  if (usd && usd.asOf === gold.asOf && rate) return { value: egp / rate, currency: "USD", date: gold.asOf };
  return { value: egp, currency: "EGP", date: gold.asOf };
}

/** The ounce as a term and its description, for a gold asset's references (asset.ts). */
export function ounceReference(
  feed: Pick<Feed, "assets">,
  sources: readonly SourceConfig[],
  lang: PageLang,
): { term: string; value: SafeHtml } | null {
  const o = globalOunce(feed, sources);
  if (!o) return null;
  const w = GOLD_WORDS[lang];
  const amount = price(o.value, 0, lang);
  const day = longDate(o.date, lang);
  if (o.currency === "USD") return { term: w.ounceUsd, value: w.ounceUsdValue(amount, day) };
  return { term: w.ounceEgp, value: w.ounceEgpValue(amount, day) };
}
