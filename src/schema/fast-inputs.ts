/**
 * Exact hand checks of the hot input rows (every line of quotes/, official/, global/, history/):
 * each accepts exactly what its zod schema of inputs.ts accepts (test/fast-inputs.test.ts checks
 * that on generated rows), at a fraction of the cost. A row they refuse goes through the schema's
 * own safeParse, for its message (src/io/ndjson.ts ndjsonRows). No node:* imports.
 */

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

/** Exactly `n` own keys, all among the allowed ones (a strict object: no unknown key). */
function keys(o: Obj, n: number, allowed: (k: string) => boolean): boolean {
  let count = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k) || !allowed(k)) return false;
    count++;
  }
  return count === n;
}

const QUOTE_KEYS = new Set(["source", "seller", "asset", "buy", "sell", "observedAt"]);
export function isQuote(v: unknown): boolean {
  return (
    isObj(v) &&
    str1(v["source"]) &&
    str1(v["seller"]) &&
    str1(v["asset"]) &&
    price(v["buy"]) &&
    price(v["sell"]) &&
    instant(v["observedAt"]) &&
    keys(v, 6, (k) => QUOTE_KEYS.has(k))
  );
}

const OFFICIAL_KEYS = new Set(["source", "asset", "buy", "sell", "observedAt"]);
export function isOfficialRate(v: unknown): boolean {
  return (
    isObj(v) &&
    str1(v["source"]) &&
    str1(v["asset"]) &&
    price(v["buy"]) &&
    price(v["sell"]) &&
    instant(v["observedAt"]) &&
    keys(v, 5, (k) => OFFICIAL_KEYS.has(k))
  );
}

const GLOBAL_KEYS = new Set(["source", "asset", "value", "observedAt"]);
export function isGlobalRate(v: unknown): boolean {
  return (
    isObj(v) &&
    str1(v["source"]) &&
    str1(v["asset"]) &&
    num(v["value"]) &&
    instant(v["observedAt"]) &&
    keys(v, 4, (k) => GLOBAL_KEYS.has(k))
  );
}

const CLOSE_KEYS = new Set(["seller", "source", "sources", "buy", "sell", "observedAt"]);
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
  return keys(v, hasSources ? 6 : 5, (k) => CLOSE_KEYS.has(k));
}

const DISAGREEMENT_KEYS = new Set(["seller", "sources", "side", "diffPct"]);
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
    keys(v, 4, (k) => DISAGREEMENT_KEYS.has(k))
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_KEYS = new Set(["date", "asset", "closes", "sources", "disagreements", "observedAt"]);
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
  return keys(v, 6, (k) => DAY_KEYS.has(k));
}

/**
 * The checks that accept only flat objects, whose every value is a string, a number or null
 * (test/fast-inputs.test.ts holds them to it): the rows of quotes/, official/ and global/. Their
 * lines can be parsed many at a time (src/io/ndjson.ts flatChunk).
 */
export const FLAT_ROWS: ReadonlySet<(v: unknown) => boolean> = new Set([isQuote, isOfficialRate, isGlobalRate]);
