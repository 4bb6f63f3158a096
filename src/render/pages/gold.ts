/**
 * Gold as people in Egypt buy it: the price of a gram is the metal alone, and a shop adds its
 * workmanship (مصنعية) and the assay stamp (الدمغة) on top; the gold pound is a coin of 8 grams of
 * 21 karat. One line each, under the gold prices and on a gold asset's page.
 */
import type { PageLang } from "../../feed/paths.js";
import type { Asset } from "../../schema/outputs.js";
import { arabic, html, join, type SafeHtml } from "./html.js";

const isGold = (a: Pick<Asset, "kind">) => a.kind === "metal";
const isCoin = (a: Pick<Asset, "kind" | "unit">) => isGold(a) && a.unit.endsWith("/coin");

/** The note for a list of assets: empty unless gold is among them; the coin's line only when a coin is. */
export function goldNote(assets: ReadonlyArray<Pick<Asset, "kind" | "unit">>, lang: PageLang): SafeHtml | "" {
  if (!assets.some(isGold)) return "";
  const ar = lang === "ar";
  const lines: Array<SafeHtml | string> = [
    ar
      ? "سعر الجرام للذهب وحده: المصنعية والدمغة تُضافان عليه عند الشراء من المحل."
      : html`Gold is priced per gram of metal: the shop's workmanship (${arabic("مصنعية")}) and the stamp come on top.`,
  ];
  if (assets.some(isCoin))
    lines.push(
      ar ? "الجنيه الذهب عملة وزنها 8 جرامات من عيار 21." : "A gold pound is a coin of 8 grams of 21 karat gold.",
    );
  return html`<p class="note gold-note">${join(lines, " ")}</p>`;
}
