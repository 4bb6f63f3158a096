/**
 * The names sellers give currencies and gold, in English and Arabic, and how they are read as
 * catalog assets. Every name is folded the same way before it is looked up — case, punctuation,
 * plurals, Arabic letter variants, diacritics and tatweel, Arabic-Indic digits — so "U.S. DOLLARS",
 * "US Dollar" and "الدولار الأمريكى" meet at one key. The built-in table maps the common names to
 * ISO codes (and gold karats to the catalog's codes); a source's own `assets` map overrides it, and
 * its `units` say how many units of a currency one price is for ("100 Japan Yen": per 100).
 */

/** Arabic-Indic (٠-٩) and Eastern Arabic-Indic (۰-۹) digits → ASCII; Arabic decimal (٫) and thousands (٬) separators → "." and ",". */
export function asciiDigits(s: string): string {
  return s
    .replace(/[\u0660-\u0669]/g, (c) => String(c.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (c) => String(c.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, ".")
    .replace(/\u066c/g, ",");
}

/**
 * A name as a lookup key: digits made ASCII; accents, Arabic diacritics (harakat, superscript alef)
 * and tatweel removed; أ إ آ ٱ → ا, ى ی ئ → ي, ة → ه, ؤ → و, ک → ك; lower case; dots and apostrophes
 * dropped ("U.S." → "us"), any other punctuation a space; the Arabic article ال dropped from a word;
 * an English plural "s" dropped (not "ss"); spaces collapsed.
 */
export function foldName(s: string): string {
  const letters = asciiDigits(s)
    .normalize("NFKD") // أ = ا + hamza above, é = e + acute: the marks go below
    .replace(/\p{M}/gu, "")
    .replace(/\u0640/g, "") // tatweel
    .replace(/[\u0671]/g, "ا")
    .replace(/[\u0649\u06cc\u0626]/g, "ي")
    .replace(/\u0629/g, "ه")
    .replace(/\u0624/g, "و")
    .replace(/\u06a9/g, "ك")
    .toLowerCase()
    .replace(/[.'\u2019`]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ");
  return letters
    .split(" ")
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.startsWith("ال") ? w.slice(2) : w))
    .map((w) => (w.length > 3 && /[a-z]s$/.test(w) && !w.endsWith("ss") ? w.slice(0, -1) : w))
    .join(" ");
}

/**
 * Common names → code. Codes are ISO 4217 for currencies, and the catalog's base codes for gold
 * (XAU24K, XAU21K, XAU18K per gram; GOLDPOUND, the 8 g coin of 21 karat). A code becomes the
 * catalog asset `<CODE>-EGP`. Names are folded on load, so spelling variants need not be listed.
 */
const NAMES: Record<string, readonly string[]> = {
  USD: [
    "US Dollar",
    "U.S. Dollar",
    "United States Dollar",
    "American Dollar",
    "Dollar",
    "USA Dollar",
    "دولار أمريكي",
    "دولار",
    "دولار امريكي",
    "الدولار الأمريكي",
  ],
  EUR: ["Euro", "Euro Currency", "Euros", "يورو", "اليورو", "يورو أوروبي"],
  GBP: [
    "Pound Sterling",
    "Sterling Pound",
    "Sterling",
    "Sterl. Pounds",
    "British Pound",
    "GB Pound",
    "UK Pound",
    "Great Britain Pound",
    "English Pound",
    "جنيه إسترليني",
    "جنيه استرليني",
    "الجنيه الإسترليني",
    "إسترليني",
  ],
  CHF: ["Swiss Franc", "Swiss Francs", "فرنك سويسري", "الفرنك السويسري"],
  JPY: ["Japanese Yen", "Japan Yen", "Yen", "Yens", "ين ياباني", "الين الياباني", "ين"],
  SAR: ["Saudi Riyal", "Saudi Rial", "Saudi Arabian Riyal", "ريال سعودي", "الريال السعودي"],
  AED: [
    "UAE Dirham",
    "U.A.E. Dirham",
    "Emirati Dirham",
    "Emirates Dirham",
    "Emirat Dirham",
    "United Arab Emirates Dirham",
    "درهم إماراتي",
    "الدرهم الإماراتي",
    "درهم اماراتي",
  ],
  KWD: ["Kuwaiti Dinar", "Kuwait Dinar", "دينار كويتي", "الدينار الكويتي"],
  QAR: ["Qatari Riyal", "Qatari Rial", "Qatar Riyal", "Qatar Rial", "ريال قطري", "الريال القطري"],
  BHD: ["Bahraini Dinar", "Bahrain Dinar", "دينار بحريني", "الدينار البحريني"],
  OMR: ["Omani Riyal", "Omani Rial", "Oman Riyal", "Oman Rial", "ريال عماني", "الريال العماني"],
  JOD: ["Jordanian Dinar", "Jordan Dinar", "دينار أردني", "الدينار الأردني"],
  CNY: ["Chinese Yuan", "Chinese Yuan Renminbi", "Yuan Renminbi", "Renminbi", "Yuan", "يوان صيني", "اليوان الصيني"],
  CAD: ["Canadian Dollar", "Canad. Dollar", "Canada Dollar", "دولار كندي", "الدولار الكندي"],
  AUD: ["Australian Dollar", "Austral. Dollar", "Australia Dollar", "دولار أسترالي", "الدولار الأسترالي"],
  DKK: ["Danish Krone", "Denmark Krone", "Danish Kroner", "كرونة دنماركية", "الكرونة الدنماركية"],
  NOK: ["Norwegian Krone", "Norweg. Krone", "Norway Krone", "كرونة نرويجية", "الكرونة النرويجية"],
  SEK: ["Swedish Krona", "Swedish Krone", "Sweden Krona", "كرونة سويدية", "الكرونة السويدية"],
  XAU24K: ["Gold 24", "Gold 24K", "24K", "24 Karat", "24 Carat", "24K Gold", "عيار 24", "ذهب عيار 24", "ذهب 24"],
  XAU21K: ["Gold 21", "Gold 21K", "21K", "21 Karat", "21 Carat", "21K Gold", "عيار 21", "ذهب عيار 21", "ذهب 21"],
  XAU18K: ["Gold 18", "Gold 18K", "18K", "18 Karat", "18 Carat", "18K Gold", "عيار 18", "ذهب عيار 18", "ذهب 18"],
  GOLDPOUND: ["Gold Pound", "Gold Coin", "Gold Guinea", "جنيه ذهب", "الجنيه الذهب", "جنيه الذهب"],
};

export const ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries(NAMES).flatMap(([code, names]) => [
    [foldName(code), code] as const,
    ...names.map((n) => [foldName(n), code] as const),
  ]),
);

/**
 * A code written beside the name: "US Dollar/USD" (egrates' image titles), "USD/EGP" (a pair: the
 * first is the asset's), "US Dollar (USD)".
 */
function codeBesideName(raw: string): string | null {
  const m =
    /\b([A-Za-z]{3})\s*\/\s*EGP\b/i.exec(raw) ?? /\/\s*([A-Za-z]{3})\s*$/.exec(raw) ?? /\(([A-Za-z]{3})\)/.exec(raw);
  return m ? m[1]!.toUpperCase() : null;
}

const GOLD_WORDS = new Set(["gold", "karat", "carat", "kt", "k", "عيار", "ذهب", "قيراط"]);
const COIN_WORDS = new Set(["pound", "coin", "guinea", "جنيه"]);
/**
 * Gold named by its karat in words the table does not list ("Gold 24 Karat", "ذهب عيار ٢١ جرام",
 * "24K Gold Bar"): a number of karats (8 to 24, "21" or "21k") with a gold word → XAU<n>K; a gold
 * coin or pound ("جنيه ذهب عيار 21") → GOLDPOUND. Whether the catalog has that karat is checked after.
 */
function goldCode(folded: string): string | null {
  const words = folded.split(" ");
  const goldWord = words.some((w) => GOLD_WORDS.has(w));
  if (goldWord && words.some((w) => COIN_WORDS.has(w))) return "GOLDPOUND";
  for (const w of words) {
    const m = /^(\d{1,2})(k|kt|karat|carat)?$/.exec(w);
    if (m && Number(m[1]) >= 8 && Number(m[1]) <= 24 && (goldWord || m[2] !== undefined)) return `XAU${m[1]}K`;
  }
  return null;
}

/** A standalone 10, 100 or 1000 in a name is how many units one price is for ("100 Japan Yen", "YENS(100)"). */
const UNIT_IN_NAME = /(?:^| )(10|100|1000)(?: |$)/;

/** What a source says about its names: the document's names or codes → catalog ids, and units per price. */
export interface AssetNaming {
  /** Folded name or code → catalog asset id (build with `namingOf`). */
  assets: ReadonlyMap<string, string>;
  /** Code or asset id → units one price is for. */
  units: Readonly<Record<string, number>>;
}

export function namingOf(cfg: { assets?: Record<string, string>; units?: Record<string, number> }): AssetNaming {
  return {
    assets: new Map(Object.entries(cfg.assets ?? {}).map(([k, v]) => [foldName(k), v])),
    units: cfg.units ?? {},
  };
}

export type ResolvedAsset = { asset: string; unit: number; code: string | null } | { reason: string };

/**
 * A document's name for an asset → the catalog asset and the units one price is for. In order: a
 * catalog id as is; the source's `assets` map; the built-in names (with a unit count taken out of
 * the name when the rest is a known name); an ISO code beside the name ("US Dollar (USD)", "US
 * Dollar/USD", "USD/EGP"); gold by its karat ("Gold 24 Karat", «عيار ٢١»); a bare three-letter
 * code. The asset must be in the catalog.
 */
export function resolveAsset(name: string, naming: AssetNaming, known: ReadonlySet<string>): ResolvedAsset {
  const raw = name.trim();
  if (!raw) return { reason: "no asset name" };
  const folded = foldName(raw);
  const unitMatch = UNIT_IN_NAME.exec(folded);
  const nameUnit = unitMatch ? Number(unitMatch[1]) : 1;
  const withoutUnit = unitMatch ? foldName(folded.replace(UNIT_IN_NAME, " ")) : folded;

  let asset: string | undefined = known.has(raw) ? raw : (naming.assets.get(folded) ?? naming.assets.get(withoutUnit));
  let code: string | null;
  if (asset === undefined) {
    code =
      ALIASES.get(folded) ??
      ALIASES.get(withoutUnit) ??
      codeBesideName(raw) ??
      goldCode(withoutUnit) ??
      (/^[a-z]{3}$/.test(withoutUnit) ? withoutUnit.toUpperCase() : null);
    if (code === null) return { reason: "name not recognised" };
    asset = naming.assets.get(foldName(code)) ?? `${code}-EGP`;
  } else code = asset.split("-")[0] ?? null;
  if (!known.has(asset)) return { reason: "asset not in the catalog" };
  const unit = (code !== null ? naming.units[code] : undefined) ?? naming.units[asset] ?? nameUnit;
  return { asset, unit, code };
}

/**
 * A seller's name as a lookup key (issue 41, item 3: "matched to the registry in Arabic or English
 * whatever the spelling"). The name is folded as asset names are (foldName: case, punctuation and
 * whitespace in English; أ إ آ ٱ → ا, ى → ي, ة → ه, tatweel and harakat removed in Arabic; the
 * article ال dropped from a word), a bracketed abbreviation is left out ("البنك التجاري الدولي
 * (CIB)" is the bank without it), and a leading «بنك» is dropped, because sites write «بنك القاهرة»
 * and «القاهرة», «البنك الأهلى المصرى» and «الأهلي المصري» for one bank. Nothing else is dropped:
 * keys are compared whole, never as a part of one another, so «بنك مصر» is not «بنك مصر إيران
 * للتنمية» (rule 1 of the rulebook: a quote is a seller's only when the registry names it).
 */
export function foldSellerName(s: string): string {
  const bare = s.replace(BRACKETED, " ");
  // A name that is nothing but its abbreviation ("(CIB)") is that abbreviation.
  const words = foldName(foldName(bare) === "" ? s : bare)
    .split(" ")
    .filter(Boolean);
  if (words.length > 1 && words[0] === BANK) words.shift();
  return words.join(" ");
}

/** «بنك», "bank" (written escaped: the CLI bundle is ASCII). */
const BANK = "\u0628\u0646\u0643";

/** A bracketed part of a name: "(CIB)", "[ABK]", the full-width （…） some Arabic pages use. */
const BRACKETED = /[([\uff08][^()[\]\uff08\uff09]*[)\]\uff09]/gu;

/** The bracketed parts of a registry name ("Commercial International Bank (CIB)" → ["CIB"]): each is a name of the seller too. */
function abbreviationsOf(s: string): string[] {
  return [...s.matchAll(BRACKETED)].map((m) => m[0].slice(1, -1).trim()).filter(Boolean);
}

/** What the registry says a seller is called: its id, English and Arabic names, and the `aliases` the operator listed. */
export interface NamedSeller {
  id: string;
  name: string;
  nameAr: string | null;
  aliases?: readonly string[] | undefined;
}

/** The registry as names: each folded key → the ids of the sellers it names (more than one: ambiguous, matched to none). */
export interface SellerNames {
  ids: ReadonlySet<string>;
  keys: ReadonlyMap<string, readonly string[]>;
}

/**
 * Every name the registry gives a seller, folded: `name`, `nameAr`, each of its `aliases`, and the
 * abbreviation a name carries in brackets ("(CIB)" → "cib"). A key two sellers share names neither
 * (see resolveSeller): the registry must be made unambiguous, never a guess made between them.
 */
export function sellerNamesOf(registry: readonly NamedSeller[]): SellerNames {
  const keys = new Map<string, string[]>();
  for (const s of registry) {
    const names = [s.name, ...(s.nameAr !== null ? [s.nameAr] : []), ...(s.aliases ?? [])];
    for (const n of [...names, ...names.flatMap(abbreviationsOf)]) {
      const key = foldSellerName(n);
      if (!key) continue;
      const ids = keys.get(key) ?? [];
      if (!ids.includes(s.id)) ids.push(s.id);
      keys.set(key, ids);
    }
  }
  return { ids: new Set(registry.map((s) => s.id)), keys };
}

/** The keys two or more sellers of a registry share ("bank" → its ids): a registry to fix. */
export function ambiguousSellerNames(names: SellerNames): Array<{ key: string; ids: readonly string[] }> {
  return [...names.keys].filter(([, ids]) => ids.length > 1).map(([key, ids]) => ({ key, ids }));
}

export type ResolvedSeller = { seller: string } | { unknown: string } | { ambiguous: readonly string[] };

/**
 * A document's name for a seller → its registry id, exact after folding (foldSellerName), in order:
 * the source's own `sellers` map (its names → ids), a registry id as written, then every name of the
 * registry (names, Arabic names, aliases, bracketed abbreviations). A name none of these gives is
 * `unknown`: never a seller (the rulebook's rule 1), and named so the operator can add the bank or an
 * alias. A name two sellers share is `ambiguous`. A `sellers` map entry must lead to a registry id too.
 */
export function resolveSeller(
  raw: string,
  names: SellerNames,
  sourceMap: Readonly<Record<string, string>> = {},
): ResolvedSeller {
  const name = raw.replace(/\s+/g, " ").trim();
  const key = foldSellerName(name);
  const mapped =
    sourceMap[name] ?? Object.entries(sourceMap).find(([k]) => foldSellerName(k) === key && key !== "")?.[1];
  if (mapped !== undefined) return names.ids.has(mapped) ? { seller: mapped } : { unknown: name };
  if (names.ids.has(name)) return { seller: name };
  const ids = key ? names.keys.get(key) : undefined;
  if (ids === undefined) return { unknown: name };
  return ids.length === 1 ? { seller: ids[0]! } : { ambiguous: ids };
}
