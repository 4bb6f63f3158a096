/**
 * Sellers' names matched to the registry (issue 41 item 3, issue 51): the folds a name goes through,
 * the registry's names as keys, and a page's name resolved to a seller or to none. Re-exported by
 * names.ts, beside the assets' names.
 */
import { foldName } from "./fold.js";

/*
 * Sellers' names (issue 41 item 3, issue 51): a name on a page is matched to the registry exactly,
 * after folds that the registry's names go through too. Each fold is one rule, named in the order
 * it runs (docs/operating.md "How a seller's name is matched" lists them with examples):
 *
 *   bracket       a bracketed part is set aside: "البنك التجاري الدولي (CIB)", "HSBC (branch)", "(S.A.E.)"
 *   letters       foldName: case, punctuation, أ إ آ ٱ → ا, ى → ي, ة → ه, tatweel, harakat, the article ال;
 *                 "&" is "and" ("Housing & Development Bank" = "Housing And Development Bank")
 *   leading       "The", «بنك»/«البنك», «مصرف»/«المصرف», "Bank", "Bank of" before the name
 *   company       "S.A.E.", "N.A.", «ش.م.م», "branch", «فرع» after it
 *   country       «مصر», «- مصر», «بمصر», "Egypt", "- Egypt", "Misr" after it (not "of Egypt")
 *   trailing      "Bank" after it
 *   joined        the words written together: «أبو ظبي» = «أبوظبي», "Credit Agricole" = "CreditAgricole",
 *                 and a "bank" written onto the last word dropped ("MIDBANK" = "MID Bank", "Citibank" = "Citi")
 *
 * A word is never dropped when it would leave no word, or only a word such as "Banque" or «بنك»
 * ("Banque Misr" stays itself; «بنك مصر» is «مصر»). The key is compared whole: never a part of a
 * name, never a near spelling, never a choice between two banks (a key two sellers share names
 * neither). A name with an Arabic part and a Latin part beside it ("البنك التجاري الدولي CIB",
 * "QNB الأهلي") is a seller's only when each part is a name of that same seller; a bracketed part
 * that names another seller refuses the name.
 */

/** «بنك», «مصرف». */
const BANK_AR = "\u0628\u0646\u0643";
const MASRAF = "\u0645\u0635\u0631\u0641";
/** «مصر», «بمصر», «ش.م.م» folded («شمم»), «فرع». */
const MISR_AR = "\u0645\u0635\u0631";
const BI_MISR_AR = "\u0628\u0645\u0635\u0631";
const SMM_AR = "\u0634\u0645\u0645";
const FAR3_AR = "\u0641\u0631\u0639";

/** Words that are no name on their own: a fold never leaves only these. */
const GENERIC = new Set(["bank", "banque", "the", "of", "al", "el", BANK_AR, MASRAF]);
const LEADING = new Set(["the", "bank", BANK_AR, MASRAF]);
const COMPANY = new Set(["sae", "sa", "na", SMM_AR, "branch", FAR3_AR]);
const COUNTRY = new Set(["egypt", "misr", MISR_AR, BI_MISR_AR]);

/** One fold a name went through: the rule's name and the words after it. */
export interface FoldStep {
  rule: "bracket" | "letters" | "leading" | "company" | "country" | "trailing" | "joined";
  result: string;
}

/** A name folded: its words, its key (the words joined), the bracketed parts set aside, and each step. */
export interface SellerFold {
  words: string[];
  key: string;
  bracketed: string[];
  steps: FoldStep[];
}

/** A bracketed part of a name: "(CIB)", "[ABK]", the full-width （…） some Arabic pages use. */
const BRACKETED = /[([\uff08][^()[\]\uff08\uff09]*[)\]\uff09]/gu;

const meaningful = (words: readonly string[]) => words.length > 0 && words.some((w) => !GENERIC.has(w));

/** The word-level folds after `letters`, each while it leaves a name (see the comment above). */
function dropWords(words: string[], steps: FoldStep[]): string[] {
  let w = words;
  const step = (rule: FoldStep["rule"], next: string[]) => {
    if (!meaningful(next)) return false;
    w = next;
    steps.push({ rule, result: w.join(" ") });
    return true;
  };
  for (let changed = true; changed;) {
    changed = false;
    if (w.length > 2 && w[0] === "bank" && w[1] === "of") changed = step("leading", w.slice(2)) || changed;
    else if (w.length > 1 && LEADING.has(w[0]!)) changed = step("leading", w.slice(1)) || changed;
    const last = w.at(-1)!;
    if (w.length > 1 && COMPANY.has(last)) changed = step("company", w.slice(0, -1)) || changed;
    else if (w.length > 1 && COUNTRY.has(last) && w.at(-2) !== "of")
      changed = step("country", w.slice(0, -1)) || changed;
    else if (w.length > 1 && last === "bank") changed = step("trailing", w.slice(0, -1)) || changed;
  }
  return w;
}

/** The words joined into the key; a "bank" written onto the last word is dropped when two letters stay ("midbank" → "mid"). */
function joinedKey(words: readonly string[]): string {
  const stem = /^([a-z0-9]{2,})bank$/.exec(words.at(-1) ?? "")?.[1];
  return (stem !== undefined && !GENERIC.has(stem) ? [...words.slice(0, -1), stem] : words).join("");
}

/** A name through every fold (the comment above), with the steps it took: what `price-feed names` shows. */
export function foldSeller(s: string): SellerFold {
  const bracketed = [...s.matchAll(BRACKETED)].map((m) => m[0].slice(1, -1).trim()).filter(Boolean);
  const bare = s.replace(BRACKETED, " ");
  const steps: FoldStep[] = [];
  // A name that is nothing but its abbreviation ("(CIB)") is that abbreviation.
  const source = (foldName(bare) === "" ? s : bare).replace(/&/g, " and ");
  if (bracketed.length && source === bare) steps.push({ rule: "bracket", result: bare.replace(/\s+/g, " ").trim() });
  const letters = foldName(source).split(" ").filter(Boolean);
  steps.push({ rule: "letters", result: letters.join(" ") });
  const words = letters.length ? dropWords(letters, steps) : letters;
  const key = joinedKey(words);
  if (key !== words.join(" ")) steps.push({ rule: "joined", result: key });
  return { words, key, bracketed: source === bare ? bracketed : [], steps };
}

/** A seller's name as shown: its folded words ("Banque Misr" → "banque misr", «بنك البركة - مصر» → «بركه»). */
export function foldSellerName(s: string): string {
  return foldSeller(s).words.join(" ");
}

/** A seller's name as a lookup key: the folded words joined («أبو ظبي» and «أبوظبي» meet). */
export function sellerKey(s: string): string {
  return foldSeller(s).key;
}

const ARABIC_WORD = /\p{Script=Arabic}/u;
const LATIN_WORD = /^[a-z0-9]+$/;

/**
 * A name written in two scripts side by side, the Latin words all before or all after the Arabic
 * ones ("البنك التجاري الدولي CIB", "QNB الأهلي"): the two parts, else null. Each part is a name to
 * resolve on its own.
 */
export function scriptParts(s: string): [string, string] | null {
  const words = foldName(s.replace(BRACKETED, " ")).split(" ").filter(Boolean);
  const arabic = words.map((w) => ARABIC_WORD.test(w));
  if (!arabic.includes(true) || !words.some((w, i) => !arabic[i] && LATIN_WORD.test(w) && /[a-z]/.test(w))) return null;
  const firstArabic = arabic.indexOf(true);
  const lastArabic = arabic.lastIndexOf(true);
  const arabicPart = words.slice(firstArabic, lastArabic + 1);
  if (arabicPart.some((w) => !ARABIC_WORD.test(w))) return null; // Latin words inside the Arabic name: not two parts
  const latin = [...words.slice(0, firstArabic), ...words.slice(lastArabic + 1)];
  if (firstArabic > 0 && lastArabic < words.length - 1) return null; // Latin on both sides
  return [arabicPart.join(" "), latin.join(" ")];
}

/** One former name of a seller: what it was called until when (a renamed bank, or one it absorbed). */
export interface FormerName {
  name: string;
  until?: string | undefined;
}

/** What the registry says a seller is called: its id, names, the `aliases` the operator listed, and its former names. */
export interface NamedSeller {
  id: string;
  name: string;
  nameAr: string | null;
  aliases?: readonly string[] | undefined;
  formerNames?: readonly FormerName[] | undefined;
}

/** The registry as names: each key → the ids of the sellers it names (more than one: ambiguous, matched to none). */
export interface SellerNames {
  ids: ReadonlySet<string>;
  keys: ReadonlyMap<string, readonly string[]>;
  /** Each key → the registry names it was made from ("a key from «بنك مصر»"), for `price-feed names`. */
  from: ReadonlyMap<string, readonly string[]>;
}

/** Every name the registry gives a seller: `name`, `nameAr`, `aliases`, `formerNames`, and each one's bracketed abbreviations. */
export function registryNamesOf(s: NamedSeller): string[] {
  const names = [
    s.name,
    ...(s.nameAr !== null ? [s.nameAr] : []),
    ...(s.aliases ?? []),
    ...(s.formerNames ?? []).map((f) => f.name),
  ];
  return [...names, ...names.flatMap((n) => foldSeller(n).bracketed)];
}

/**
 * Every name the registry gives a seller, as keys (registryNamesOf). A key two sellers share names
 * neither (see resolveSeller): the registry must be made unambiguous, never a guess made between them.
 */
export function sellerNamesOf(registry: readonly NamedSeller[]): SellerNames {
  const keys = new Map<string, string[]>();
  const from = new Map<string, string[]>();
  for (const s of registry) {
    for (const n of registryNamesOf(s)) {
      const key = sellerKey(n);
      if (!key) continue;
      const ids = keys.get(key) ?? [];
      if (!ids.includes(s.id)) ids.push(s.id);
      keys.set(key, ids);
      const names = from.get(key) ?? [];
      if (!names.includes(n)) names.push(n);
      from.set(key, names);
    }
  }
  return { ids: new Set(registry.map((s) => s.id)), keys, from };
}

/** The keys two or more sellers of a registry share ("bank" → its ids): a registry to fix. */
export function ambiguousSellerNames(names: SellerNames): Array<{ key: string; ids: readonly string[] }> {
  return [...names.keys].filter(([, ids]) => ids.length > 1).map(([key, ids]) => ({ key, ids }));
}

export type ResolvedSeller = { seller: string } | { unknown: string } | { ambiguous: readonly string[] };

/** What one name resolved to, and through which rule: what `price-feed names` explains. */
export interface SellerResolution {
  result: ResolvedSeller;
  /** How: "source map", "registry id", "key", "two parts", or null when nothing matched. */
  via: "source map" | "registry id" | "key" | "two parts" | null;
  fold: SellerFold;
  /** The two script parts, when the name has them, each with the ids its key names. */
  parts: Array<{ part: string; key: string; ids: readonly string[] }> | null;
}

/** The longest name that is folded and looked up (characters); a longer one is unknown as it stands. */
export const SELLER_NAME_MAX = 200;

const idsOf = (names: SellerNames, key: string): readonly string[] => (key ? (names.keys.get(key) ?? []) : []);

/**
 * A document's name for a seller → its registry id, exact after folding (foldSeller), in order: the
 * source's own `sellers` map (its names → ids), a registry id as written, the name's key among every
 * name of the registry, then a name in two scripts whose parts both name one seller. A name none of
 * these gives is `unknown`: never a seller (the rulebook's rule 1), and named so the operator can add
 * the bank or an alias. A key two sellers share, parts naming two sellers, or a bracketed part naming
 * a seller other than the rest's is `ambiguous`. A `sellers` map entry must lead to a registry id too.
 */
export function explainSeller(
  raw: string,
  names: SellerNames,
  sourceMap: Readonly<Record<string, string>> = {},
): SellerResolution {
  const name = raw.replace(/\s+/g, " ").trim();
  // No bank is called by more than a line of words: a longer "name" is a page's hostile or broken
  // text, unknown without being folded (folding is word by word, and a wall of words would cost).
  if (name.length > SELLER_NAME_MAX)
    return {
      result: { unknown: name },
      via: null,
      fold: { words: [], key: "", bracketed: [], steps: [] },
      parts: null,
    };
  const fold = foldSeller(name);
  const key = fold.key;
  const mapped = sourceMap[name] ?? Object.entries(sourceMap).find(([k]) => sellerKey(k) === key && key !== "")?.[1];
  if (mapped !== undefined)
    return {
      result: names.ids.has(mapped) ? { seller: mapped } : { unknown: name },
      via: "source map",
      fold,
      parts: null,
    };
  if (names.ids.has(name)) return { result: { seller: name }, via: "registry id", fold, parts: null };
  const split = scriptParts(name);
  const parts = split && split.map((p) => ({ part: p, key: sellerKey(p), ids: idsOf(names, sellerKey(p)) }));
  let ids = idsOf(names, key);
  let via: SellerResolution["via"] = ids.length ? "key" : null;
  if (!ids.length && parts && parts.every((p) => p.ids.length)) {
    ids = [...new Set(parts.flatMap((p) => p.ids))];
    via = "two parts";
  }
  if (!ids.length) return { result: { unknown: name }, via: null, fold, parts };
  // A bracketed part that is a name of another seller: the name says two banks, and is refused.
  const others = fold.bracketed.flatMap((b) => idsOf(names, sellerKey(b))).filter((id) => !ids.includes(id));
  if (others.length) ids = [...ids, ...new Set(others)];
  return { result: ids.length === 1 ? { seller: ids[0]! } : { ambiguous: ids }, via, fold, parts };
}

/** resolveSeller's answer alone (explainSeller says how). */
export function resolveSeller(
  raw: string,
  names: SellerNames,
  sourceMap: Readonly<Record<string, string>> = {},
): ResolvedSeller {
  return explainSeller(raw, names, sourceMap).result;
}

/** Edit distance between two keys (for suggestions only: a name is never matched by it). */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * The registry keys nearest a key, for the operator to see what a name missed (`price-feed names`):
 * the `count` smallest edit distances, then by key. Never used to match: a near key is not a name.
 */
export function nearestSellerKeys(
  key: string,
  names: SellerNames,
  count = 3,
): Array<{ key: string; ids: readonly string[]; distance: number }> {
  return [...names.keys]
    .map(([k, ids]) => ({ key: k, ids, distance: distance(key, k) }))
    .sort((a, b) => a.distance - b.distance || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, count);
}
