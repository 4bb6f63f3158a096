/**
 * Prices as documents write them. A price is read only when the text is exactly a number — with
 * Arabic-Indic digits, Arabic separators, or thousands grouped by commas or spaces — so that a
 * changed cell is skipped rather than misread. An empty cell, a dash or a zero is how pages say a
 * seller does not deal: that side is null, not a price.
 */
import { asciiDigits } from "./names.js";

/** A number; null when the seller does not deal (empty, "-", 0); "bad" when the text is not a number. */
export type Price = number | null | "bad";

const DASHES = /^[-\u2010\u2011\u2012\u2013\u2014\u2212_]+$/u;
const PLAIN = /^\+?(?:\d+(?:\.\d+)?|\.\d+)$/;
const COMMA_GROUPED = /^\+?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const SPACE_GROUPED = /^\+?\d{1,3}(?: \d{3})+(?:\.\d+)?$/;

export function parsePrice(v: unknown): Price {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return !Number.isFinite(v) || v < 0 ? "bad" : v === 0 ? null : v;
  if (typeof v !== "string") return "bad";
  const s = asciiDigits(v)
    .replace(/[\s\u00a0\u2007\u2009\u202f]+/g, " ")
    .trim();
  if (s === "" || DASHES.test(s)) return null;
  let digits: string;
  if (PLAIN.test(s)) digits = s;
  else if (COMMA_GROUPED.test(s)) digits = s.replace(/,/g, "");
  else if (SPACE_GROUPED.test(s)) digits = s.replace(/ /g, "");
  else return "bad";
  const n = Number(digits);
  return !Number.isFinite(n) ? "bad" : n === 0 ? null : n;
}
