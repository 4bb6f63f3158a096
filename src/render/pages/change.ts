/**
 * What moved since the previous close: the feed's `directions.*.previous` for the best prices and
 * each seller row's `previous {buy, sell}` (docs/methodology.md §5.4). Said the way Egyptian rate
 * sites say it: a currency's move under a pound in piastres ("+33 piastres", "33 قرشًا"), anything
 * larger, and gold, in pounds. An arrow and a sign carry the direction; the colour says whether the
 * move is good or bad for the reader (goodForYou), which the side's label and the arrow say too, so
 * colour is never the only signal (WCAG 2.2 §1.4.1).
 */
import type { PageLang } from "../../feed/paths.js";
import { roundHalfAway } from "../../core/round.js";
import { count, percent, price } from "./format.js";
import { html, type SafeHtml } from "./html.js";
import { CHANGE_WORDS } from "./change-words.js";

/** Piastres in a pound. */
const PIASTRES = 100;

/**
 * The size of a move without its sign as it is shown, rounded: in piastres under a pound (a
 * currency's), else in pounds to the asset's decimals.
 */
function shownSize(change: number, decimals: number): { size: number; piastres: boolean } {
  const size = Math.abs(change);
  if (decimals >= 2 && size < 1) return { size: Math.round(size * PIASTRES), piastres: true };
  return { size: roundHalfAway(size, decimals), piastres: false };
}

/** The size of a move without its sign, as its figure and its unit: ["33", "piastres"], ["1.25", "EGP"], ["25", "جنيهًا"]. */
function changeParts(change: number, decimals: number, lang: PageLang): [figure: string, unit: string] {
  const shown = shownSize(change, decimals);
  if (shown.piastres) return [count(shown.size, lang), CHANGE_WORDS[lang].piastres(shown.size)];
  return [price(Math.abs(change), decimals, lang), CHANGE_WORDS[lang].pounds(shown.size)];
}

/**
 * The direction of a move as it is shown: a move that rounds to nothing in its unit (a fifth of a
 * piastre) is flat, and reads "unchanged", never "▲ +0 piastres" (issue 53).
 */
export const shownDirection = (change: number, decimals: number): Direction =>
  shownSize(change, decimals).size === 0 ? "flat" : directionOf(change);

/** The size of a move without its sign: "33 piastres", "1.25 EGP", "25 جنيهًا". */
export function changeAmount(change: number, decimals: number, lang: PageLang): string {
  return changeParts(change, decimals, lang).join(" ");
}

export type Direction = "up" | "down" | "flat";
export const directionOf = (change: number): Direction => (change > 0 ? "up" : change < 0 ? "down" : "flat");
const ARROW: Record<Direction, string> = { up: "▲", down: "▼", flat: "=" };

/**
 * Whether a move on a side is good for the reader: on the side where you buy (the feed's `sell`) a
 * lower price is, on the side where you sell (`buy`) a higher one. Null without a side (a reference
 * price) or without a move.
 */
export function goodForYou(change: number, side: "sell" | "buy" | undefined): boolean | null {
  if (side === undefined || change === 0) return null;
  return side === "sell" ? change < 0 : change > 0;
}

export interface ChangeMarkOptions {
  /** The side the price is of: the mark is coloured by what the move means for the reader (goodForYou). */
  side?: "sell" | "buy" | undefined;
  /** The move in percent, shown after the amount. */
  pct?: number | undefined;
}

/**
 * The mark of a move: arrow, signed amount, and the percentage when given; class `good` or `bad`
 * when the side is known (style.ts colours them), so colour says what the move means for the reader
 * while the arrow and the sign say which way it went. The arrow is hidden from screen readers, which
 * read the sign and the words. The sign and the digits are one left-to-right isolate, so that Arabic
 * text shows "−33" with its sign before the digits (Unicode UAX #9), and the unit follows in words.
 */
export function changeMark(change: number, decimals: number, lang: PageLang, o: ChangeMarkOptions = {}): SafeHtml {
  const dir = shownDirection(change, decimals);
  const good = dir === "flat" ? null : goodForYou(change, o.side);
  const cls = good === null ? dir : `${dir} ${good ? "good" : "bad"}`;
  if (dir === "flat")
    return html`<span class="chg ${cls}"><span aria-hidden="true">${ARROW[dir]}</span> ${CHANGE_WORDS[lang].noChange}</span>`;
  const [figure, unit] = changeParts(change, decimals, lang);
  const pct = o.pct === undefined ? "" : ` (${percent(o.pct, lang)})`;
  return html`<span class="chg ${cls}"><span aria-hidden="true">${ARROW[dir]}</span> <bdi dir="ltr">${dir === "up" ? "+" : "−"}${figure}</bdi> ${unit}${pct}</span>`;
}

/**
 * What the colours of the moves mean, in words beside them: one line under the tables that show
 * moves (the home page, the asset page's seller table, a past day's page).
 */
export function moveKey(lang: PageLang): SafeHtml {
  return CHANGE_WORDS[lang].key;
}

/** A seller's move on one side, from its previous close; null when either day has no price. */
export function sellerChange(now: number | null, before: number | null | undefined, decimals: number): number | null {
  return now === null || before === null || before === undefined ? null : roundHalfAway(now - before, decimals);
}
