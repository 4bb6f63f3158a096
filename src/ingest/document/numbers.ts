/**
 * Prices as documents write them. A price is read only when the text is exactly a number — with
 * Arabic-Indic digits, Arabic separators, or thousands grouped by commas or spaces — so that a
 * changed cell is skipped rather than misread. An empty cell, a dash or a zero is how pages say a
 * seller does not deal: that side is null, not a price. The Egyptian pound's own marks around the
 * number ("6,548.57 ج.م", "EGP 47.60", "47.60 جنيه") are set aside first; any other word is not.
 */
import { asciiDigits } from "./names.js";

/** A number; null when the seller does not deal (empty, "-", 0); "bad" when the text is not a number. */
export type Price = number | null | "bad";

const DASHES = /^[-\u2010\u2011\u2012\u2013\u2014\u2212_]+$/u;
const PLAIN = /^\+?(?:\d+(?:\.\d+)?|\.\d+)$/;
const COMMA_GROUPED = /^\+?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const SPACE_GROUPED = /^\+?\d{1,3}(?: \d{3})+(?:\.\d+)?$/;
/**
 * The pound's marks, Latin and Arabic: EGP, LE, L.E., E£, £E, ج.م, جم, جنيه (جنيهًا, جنيه مصري).
 * Escaped: the CLI bundle is ASCII (scripts/bundle-cli.mjs).
 */
const POUND =
  "(?:EGP|L\\.?E\\.?|E\u00a3|\u00a3E|\u062c\\s?\\.?\\s?\u0645\\.?|\u062c\u0646\u064a\u0647(?:\u0627|\u064b)*(?:\\s?\u0645\u0635\u0631\u064a)?)";
const POUND_BEFORE = new RegExp(`^${POUND}\\s*`, "iu");
const POUND_AFTER = new RegExp(`\\s*${POUND}$`, "iu");

export function parsePrice(v: unknown): Price {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return !Number.isFinite(v) || v < 0 ? "bad" : v === 0 ? null : v;
  if (typeof v !== "string") return "bad";
  const s = asciiDigits(v)
    // Arabic text around a number may carry direction marks (LRM, RLM, ALM) the eye does not see.
    .replace(/[\u200e\u200f\u061c]/g, "")
    .replace(/[\s\u00a0\u2007\u2009\u202f]+/g, " ")
    .trim();
  // The pound's word is set aside only from around a number: alone it is not "not dealt".
  const bare = s.replace(POUND_BEFORE, "").replace(POUND_AFTER, "");
  if (bare !== s && bare === "") return "bad";
  return numberOf(bare);
}

function numberOf(s: string): Price {
  if (s === "" || DASHES.test(s)) return null;
  let digits: string;
  if (PLAIN.test(s)) digits = s;
  else if (COMMA_GROUPED.test(s)) digits = s.replace(/,/g, "");
  else if (SPACE_GROUPED.test(s)) digits = s.replace(/ /g, "");
  else return "bad";
  const n = Number(digits);
  return !Number.isFinite(n) ? "bad" : n === 0 ? null : n;
}
