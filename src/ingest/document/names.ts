/**
 * The names sellers give currencies and gold, in English and Arabic, and how they are read as
 * catalog assets. Every name is folded the same way before it is looked up — case, punctuation,
 * plurals, Arabic letter variants, diacritics and tatweel, Arabic-Indic digits — so "U.S. DOLLARS",
 * "US Dollar" and "الدولار الأمريكى" meet at one key. The built-in table maps the common names to
 * ISO codes (and gold karats to the catalog's codes); a source's own `assets` map overrides it, and
 * its `units` say how many units of a currency one price is for ("100 Japan Yen": per 100).
 */
import { foldName } from "./fold.js";

export { asciiDigits, foldName } from "./fold.js";

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

// Sellers' names: src/ingest/document/seller-names.ts.
export * from "./seller-names.js";
