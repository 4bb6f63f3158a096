/**
 * What moved since the previous close: the feed's `directions.*.previous` for the best prices and
 * each seller row's `previous {buy, sell}` (docs/methodology.md §5.4). Said the way Egyptian rate
 * sites say it: a currency's move under a pound in piastres ("+33 piastres", "33 قرشًا"), anything
 * larger, and gold, in pounds. An arrow and a sign carry the direction as well as the colour, so
 * colour is never the only signal (WCAG 2.2 §1.4.1).
 */
import type { PageLang } from "../../feed/paths.js";
import { roundHalfAway } from "../../core/round.js";
import { AR_PIASTRES, AR_POUNDS, arForm, count, percent, price, type ArNoun } from "./format.js";
import { html, type SafeHtml } from "./html.js";

/** Piastres in a pound. */
const PIASTRES = 100;

/**
 * An Arabic noun after a number written in digits: 3–10 take the plural, 11 and up the accusative
 * singular, and 1, 2 or a fraction the bare singular ("1 جنيه", "1.25 جنيه"), as price tickers write it.
 */
function arNoun(n: number, noun: ArNoun, singular: string): string {
  return Number.isInteger(n) && n >= 3 ? arForm(n, noun) : singular;
}

/** The size of a move without its sign: "33 piastres", "1.25 EGP", "25 جنيهًا". */
export function changeAmount(change: number, decimals: number, lang: PageLang): string {
  const size = Math.abs(change);
  if (decimals >= 2 && size < 1) {
    const p = Math.round(size * PIASTRES);
    return lang === "ar"
      ? `${count(p, "ar")} ${arNoun(p, AR_PIASTRES, "قرش")}`
      : `${count(p, "en")} piastre${p === 1 ? "" : "s"}`;
  }
  const text = price(size, decimals, lang);
  return lang === "ar" ? `${text} ${arNoun(roundHalfAway(size, decimals), AR_POUNDS, "جنيه")}` : `${text} EGP`;
}

export type Direction = "up" | "down" | "flat";
export const directionOf = (change: number): Direction => (change > 0 ? "up" : change < 0 ? "down" : "flat");
const ARROW: Record<Direction, string> = { up: "▲", down: "▼", flat: "=" };

/**
 * The mark of a move: arrow, signed amount, and the percentage when given. The arrow is hidden
 * from screen readers, which read the sign and the words.
 */
export function changeMark(change: number, decimals: number, lang: PageLang, pct?: number): SafeHtml {
  const dir = directionOf(change);
  const ar = lang === "ar";
  const said =
    dir === "flat"
      ? ar
        ? "دون تغيير"
        : "no change"
      : `${dir === "up" ? "+" : "−"}${changeAmount(change, decimals, lang)}${pct === undefined ? "" : ` (${percent(pct, lang)})`}`;
  // The sign and the digits stay together and left to right inside Arabic text (Unicode UAX #9).
  return html`<span class="chg ${dir}"><span aria-hidden="true">${ARROW[dir]}</span> <bdi>${said}</bdi></span>`;
}

/** A seller's move on one side, from its previous close; null when either day has no price. */
export function sellerChange(now: number | null, before: number | null | undefined, decimals: number): number | null {
  return now === null || before === null || before === undefined ? null : roundHalfAway(now - before, decimals);
}
