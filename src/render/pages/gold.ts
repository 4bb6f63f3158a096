/**
 * Gold as people in Egypt buy it: the price of a gram is the metal alone, and a shop adds its
 * workmanship (مصنعية) and the assay stamp (الدمغة) on top, which it does not pay back when you sell;
 * the gold pound is a coin of 8 grams of 21 karat. One line each, under the gold prices and on a gold
 * asset's page, with the global price of an ounce in dollars, the figure the news quote.
 */
import type { PageLang } from "../../feed/paths.js";
import type { Asset, Feed } from "../../schema/outputs.js";
import type { SourceConfig } from "../../schema/sources.js";
import { arabic, html, join, type SafeHtml } from "./html.js";
import { longDate, price } from "./format.js";

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
  const ar = lang === "ar";
  const lines: Array<SafeHtml | string> = [
    ar
      ? "سعر الجرام للذهب وحده: المصنعية والدمغة تُضافان عليه عند الشراء من المحل."
      : html`Gold is priced per gram of metal: the shop's workmanship (${arabic("مصنعية")}) and the stamp come on top.`,
  ];
  if (o.selling)
    lines.push(
      ar
        ? "وعند البيع لا تُسترد المصنعية: يدفع المحل ثمن الذهب بوزنه فقط."
        : html`When you sell, the workmanship (${arabic("المصنعية")}) is not refunded: a shop pays for the gold by its weight alone.`,
    );
  if (assets.some(isCoin))
    lines.push(
      ar ? "الجنيه الذهب عملة وزنها 8 جرامات من عيار 21." : "A gold pound is a coin of 8 grams of 21 karat gold.",
    );
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
  const ar = lang === "ar";
  const amount = price(o.value, 0, lang);
  const day = longDate(o.date, lang);
  if (o.currency === "USD")
    return ar
      ? {
          term: "سعر أوقية الذهب عالميًا",
          value: html`<b>${amount} دولار أمريكي</b> للأوقية (31.1 جرام من الذهب الخالص)، محسوبًا من سعر الجرام عيار 24 العالمي وسعر الدولار العالمي ليوم ${day}`,
        }
      : {
          term: "Global price of a gold ounce",
          value: html`<b>US$ ${amount}</b> a troy ounce (31.1 g of fine gold), worked out from the global 24 karat gram price and the global dollar rate of ${day}`,
        };
  return ar
    ? {
        term: "سعر أوقية الذهب عالميًا بالجنيه",
        value: html`<b>${amount} جنيه</b> للأوقية (31.1 جرام من الذهب الخالص): سعر الجرام عيار 24 العالمي ليوم ${day}؛ لا يوجد سعر دولار عالمي لليوم نفسه لحسابها بالدولار`,
      }
    : {
        term: "Global price of a gold ounce, in pounds",
        value: html`<b>${amount} EGP</b> a troy ounce (31.1 g of fine gold): the global 24 karat gram price of ${day}; there is no global dollar rate of the same day to give it in dollars`,
      };
}
