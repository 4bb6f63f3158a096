/**
 * How the world writes what a source's reader looks for: a seller's name as the site spells it, an
 * asset's name and the units its price is for, a number as a page prints it, a value inside the text
 * a field's regex picks it from. Every choice is checked with the ingest code's own reading
 * (src/ingest/document/names.ts, regex.ts), so what the world writes is what the reader finds.
 */
import { pick } from "../../ingest/document/regex.js";
import {
  foldSellerName,
  namingOf,
  resolveAsset,
  resolveSeller,
  type AssetNaming,
  type SellerNames,
} from "../../ingest/document/names.js";
import type { CatalogAsset, RegistrySeller } from "../../schema/inputs.js";
import { uniform } from "../../sample/random.js";

/** A number as a page prints it: at most 8 decimals, no trailing zeros, never an exponent. */
export function printed(x: number): string {
  const s = x.toFixed(8).replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}

/** A price as the page writes it for `per` units (the adapter divides it back). */
export const perUnits = (value: number, per: number) => Number((value * per).toPrecision(12));

/**
 * Arabic spellings a site may use for one name, all folding to the same key (foldSellerName): the
 * registry's, with a final ي written ى, with a final ة written ه, and with the English name's
 * bracketed abbreviation after it ("(CIB)"): the variants egrates' pages show.
 */
function arabicSpellings(s: RegistrySeller): string[] {
  if (s.nameAr === null) return [];
  const ya = s.nameAr.replace(/\u064a(?=\s|$)/gu, "\u0649");
  const ta = s.nameAr.replace(/\u0629(?=\s|$)/gu, "\u0647");
  const abbr = /\(([^()]+)\)/.exec(s.name)?.[1];
  return [s.nameAr, ya, ta, ...(abbr ? [`${ya} (${abbr})`] : [])];
}

/** What a site calls each seller: Arabic for a site that writes Arabic, else the registry's English name. */
export function sellerSpelling(
  seed: string,
  site: string,
  seller: RegistrySeller,
  arabic: boolean,
  names: SellerNames,
): string {
  const options = arabic ? arabicSpellings(seller) : [seller.name];
  const pickAt = Math.floor(uniform(`${seed}:spelling:${site}:${seller.id}`) * options.length);
  // The one chosen, or failing that any, that the registry resolves to this seller; else its id.
  const ordered = [...options.slice(pickAt), ...options.slice(0, pickAt), seller.name, seller.id];
  return ordered.find((n) => resolves(n, seller.id, names)) ?? seller.id;
}

const resolves = (name: string, id: string, names: SellerNames) => {
  const r = resolveSeller(name, names);
  return "seller" in r && r.seller === id;
};

/**
 * Banks an aggregator may list that a registry may not: Misr Iran Development Bank (which older
 * registries do not give), Nasser Social Bank, and a made-up digital bank when both are known.
 */
const UNKNOWN_BANKS = [
  ["بنك مصر إيران للتنمية", "Misr Iran Development Bank"],
  ["بنك ناصر الاجتماعي", "Nasser Social Bank"],
  ["بنك الدلتا الرقمي", "Delta Digital Bank"],
] as const;

/** A bank's name the registry does not give (not even after folding): an unknown bank on an aggregator's page. */
export function unknownBank(arabic: boolean, names: SellerNames): string {
  for (const pair of UNKNOWN_BANKS) {
    const name = pair[arabic ? 0 : 1];
    if ("unknown" in resolveSeller(name, names)) return name;
  }
  return arabic ? "بنك غير مسجل ٧" : "Unregistered Bank 7";
}

/**
 * The bank a rename fault renames on an aggregator's page: Arab Investment Bank when the registry
 * still has it under that name (it became bank NXT, «بنك نكست», in September 2024), else the
 * page's `fallback`.
 */
export const RENAMED_SELLER = "arab-investment-bank";

/** The new name the aggregator writes for a renamed bank, one the registry does not give yet. */
export function renamedBank(seller: RegistrySeller, arabic: boolean, names: SellerNames): string {
  const candidates = [
    ...(seller.id === RENAMED_SELLER ? [arabic ? "بنك نكست" : "bank NXT"] : []),
    arabic ? `${seller.nameAr ?? seller.name} الجديد` : `New ${seller.name}`,
  ];
  return candidates.find((n) => "unknown" in resolveSeller(n, names)) ?? `${seller.id} renamed`;
}

/** An asset's name as written, and the units one written price is for (the adapter's own reading). */
export interface AssetWriting {
  name: string;
  per: number;
}

/**
 * The first of `candidates` (names for the asset) that the source's reading resolves to it, with
 * the units it then divides by (its `units`, a unit in the name, times `divideBy`); null when none does.
 */
export function assetWriting(
  assetId: string,
  candidates: readonly string[],
  cfg: { assets?: Record<string, string>; units?: Record<string, number>; divideBy?: number | undefined },
  known: ReadonlySet<string>,
  fits: (name: string) => boolean = () => true,
): AssetWriting | null {
  const naming: AssetNaming = namingOf(cfg);
  // The source's own names for the asset first: what its page writes, by the operator's word.
  const own = Object.entries(cfg.assets ?? {})
    .filter(([, v]) => v === assetId)
    .map(([k]) => k);
  for (const name of [...own, ...candidates]) {
    if (!fits(name)) continue;
    const r = resolveAsset(name, naming, known);
    if ("asset" in r && r.asset === assetId) return { name, per: r.unit * (cfg.divideBy ?? 1) };
  }
  return null;
}

/** The usual names of a catalog asset, most page-like first: English name, ISO code, code in lower case, id. */
export function assetCandidates(a: CatalogAsset, style: "page" | "code" | "relay"): string[] {
  const code = a.id.split("-")[0]!;
  const byName = [a.name, code, code.toLowerCase(), a.id];
  if (style === "code") return [code, a.name, code.toLowerCase(), a.id];
  if (style === "relay") return [`${a.name} (${code})`, ...byName];
  return byName;
}

/**
 * A regex's inverse for one value: the text in which the pattern picks exactly `value` (its `value`
 * group, else its first group). Only simple patterns invert — literal text, `\s*`/`\s+`, anchors and
 * one group — and the result is checked with the reader's own `pick`; null otherwise.
 */
export function textPicking(pattern: string, value: string, name: "value" | "time"): string | null {
  const start = groupStart(pattern);
  if (start === null) return check(pattern, value, name, value);
  const end = groupEnd(pattern, start.at);
  if (end === null) return null;
  const before = literal(pattern.slice(0, start.at));
  const after = literal(pattern.slice(end + 1));
  if (before === null || after === null) return null;
  return check(pattern, `${before}${value}${after}`, name, value);
}

function check(pattern: string, text: string, name: "value" | "time", value: string): string | null {
  try {
    return pick(pattern, text, name) === value ? text : null;
  } catch {
    return null;
  }
}

/** Where the capturing group that gives the value opens: `(?<value>`/`(?<time>` first, else the first `(` not followed by `?`. */
function groupStart(p: string): { at: number } | null {
  const named = Math.max(p.indexOf("(?<value>"), p.indexOf("(?<time>"));
  if (named >= 0) return { at: named };
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "(" && p[i + 1] !== "?") return { at: i };
  }
  return null;
}

function groupEnd(p: string, open: number): number | null {
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "(") depth++;
    else if (p[i] === ")" && --depth === 0) return i;
  }
  return null;
}

/** A pattern's literal text (`\s*` as a space, anchors dropped, `.` itself), or null when it is more than literal. */
function literal(p: string): string | null {
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\") {
      const n = p[i + 1];
      if (n === "s") {
        out += " ";
        i += 1;
        if (p[i + 1] === "*" || p[i + 1] === "+" || p[i + 1] === "?") i++;
      } else if (n !== undefined && /[^A-Za-z0-9]/.test(n)) {
        out += n;
        i++;
      } else return null;
    } else if (c === "^" || c === "$") continue;
    else if ("[](){}*+?|".includes(c)) return null;
    else out += c;
  }
  return out;
}

/** Whether two names are one seller's for the registry (for the tests and the fault bookkeeping). */
export const sameSellerKey = (a: string, b: string) => foldSellerName(a) === foldSellerName(b);
