/**
 * Exact hand checks of the hot input rows (every line of quotes/, official/, global/, history/):
 * each accepts exactly what its zod schema of inputs.ts accepts (test/schema/fast-inputs.test.ts checks
 * that on generated rows), at a fraction of the cost. A row they refuse goes through the schema's
 * own safeParse, for its message (src/io/ndjson.ts ndjsonRows). The keys each row may have are read
 * off the schemas themselves, so a field added to a schema is known here at once (and the value
 * checks below, which the test holds to the schemas, say what it may hold). No node:* imports.
 */
import type { z } from "zod";
import { DayClose, GlobalRate, OfficialRate, Quote, SellerClose } from "./inputs.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const price = (v: unknown) => v === null || num(v);
const str1 = (v: unknown) => typeof v === "string" && v.length >= 1;
const instant = (v: unknown) => typeof v === "string" && v.length >= 1 && v.length <= 64;
const strs = (v: unknown) => {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (typeof x !== "string") return false;
  return true;
};

/** The keys of a strict object schema. */
const keysOf = (schema: z.ZodObject) => new Set(Object.keys(schema.shape));

/** Exactly `n` own keys, all among the allowed ones (a strict object: no unknown key). */
function keys(o: Obj, n: number, allowed: (k: string) => boolean): boolean {
  let count = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k) || !allowed(k)) return false;
    count++;
  }
  return count === n;
}

const QUOTE_KEYS = keysOf(Quote);
export function isQuote(v: unknown): boolean {
  return (
    isObj(v) &&
    str1(v["source"]) &&
    str1(v["seller"]) &&
    str1(v["asset"]) &&
    price(v["buy"]) &&
    price(v["sell"]) &&
    instant(v["observedAt"]) &&
    keys(v, QUOTE_KEYS.size, (k) => QUOTE_KEYS.has(k))
  );
}

const OFFICIAL_KEYS = keysOf(OfficialRate);
export function isOfficialRate(v: unknown): boolean {
  return (
    isObj(v) &&
    str1(v["source"]) &&
    str1(v["asset"]) &&
    price(v["buy"]) &&
    price(v["sell"]) &&
    instant(v["observedAt"]) &&
    keys(v, OFFICIAL_KEYS.size, (k) => OFFICIAL_KEYS.has(k))
  );
}

const GLOBAL_KEYS = keysOf(GlobalRate);
export function isGlobalRate(v: unknown): boolean {
  return (
    isObj(v) &&
    str1(v["source"]) &&
    str1(v["asset"]) &&
    num(v["value"]) &&
    instant(v["observedAt"]) &&
    keys(v, GLOBAL_KEYS.size, (k) => GLOBAL_KEYS.has(k))
  );
}

/** `sources` is the one optional key (absent in days compacted before it was kept). */
const CLOSE_KEYS = keysOf(SellerClose);
function isSellerClose(v: unknown): boolean {
  if (
    !isObj(v) ||
    typeof v["seller"] !== "string" ||
    typeof v["source"] !== "string" ||
    !price(v["buy"]) ||
    !price(v["sell"]) ||
    typeof v["observedAt"] !== "string"
  )
    return false;
  const hasSources = Object.hasOwn(v, "sources");
  if (v["sources"] !== undefined && !strs(v["sources"])) return false; // optional: absent or undefined
  return keys(v, hasSources ? CLOSE_KEYS.size : CLOSE_KEYS.size - 1, (k) => CLOSE_KEYS.has(k));
}

const DISAGREEMENT_KEYS = keysOf(DayClose.shape.disagreements.element);
function isDisagreement(v: unknown): boolean {
  if (
    !isObj(v) ||
    typeof v["seller"] !== "string" ||
    !num(v["diffPct"]) ||
    (v["side"] !== "sell" && v["side"] !== "buy")
  )
    return false;
  const s = v["sources"];
  return (
    Array.isArray(s) &&
    s.length === 2 &&
    typeof s[0] === "string" &&
    typeof s[1] === "string" &&
    keys(v, DISAGREEMENT_KEYS.size, (k) => DISAGREEMENT_KEYS.has(k))
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_KEYS = keysOf(DayClose);
export function isDayClose(v: unknown): boolean {
  if (
    !isObj(v) ||
    typeof v["date"] !== "string" ||
    !DATE.test(v["date"]) ||
    typeof v["asset"] !== "string" ||
    !strs(v["sources"])
  )
    return false;
  if (v["observedAt"] !== null && typeof v["observedAt"] !== "string") return false;
  const closes = v["closes"];
  const dis = v["disagreements"];
  if (!Array.isArray(closes) || !Array.isArray(dis)) return false;
  for (const c of closes) if (!isSellerClose(c)) return false;
  for (const d of dis) if (!isDisagreement(d)) return false;
  return keys(v, DAY_KEYS.size, (k) => DAY_KEYS.has(k));
}

/**
 * The checks that accept only flat objects, whose every value is a string, a number or null
 * (test/schema/fast-inputs.test.ts holds them to it): the rows of quotes/, official/ and global/. Their
 * lines can be parsed many at a time (src/io/ndjson.ts flatChunk).
 */
export const FLAT_ROWS: ReadonlySet<(v: unknown) => boolean> = new Set([isQuote, isOfficialRate, isGlobalRate]);
