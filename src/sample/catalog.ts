/**
 * The simulated market's cast: assets with their levels and volatility, fictional licensed sellers
 * (none of them is a real institution), the sources that see them, and the calendar.
 */
import type { Calendar, CatalogAsset, RegistrySeller } from "../schema/inputs.js";

export interface SampleAsset extends CatalogAsset {
  /** Mid level in EGP per unit around which the simulated price moves. */
  level: number;
  /** Daily volatility of the mid (fraction). */
  dailyVol: number;
  /** Gold: grams of pure-equivalent metal per unit priced from the ounce (purity × grams). */
  goldGrams?: number;
}

const currency = (
  code: string,
  slug: string,
  name: string,
  nameAr: string,
  level: number,
  dailyVol: number,
  market: CatalogAsset["market"] = "competitive",
  decimals = 2,
): SampleAsset => ({
  id: `${code}-EGP`,
  slug,
  category: "currencies",
  kind: "currency",
  market,
  unit: `EGP/${code}`,
  decimals,
  defaultSide: "sell",
  name,
  nameAr,
  level,
  dailyVol,
});

const gold = (id: string, slug: string, name: string, nameAr: string, unit: string, grams: number): SampleAsset => ({
  id,
  slug,
  category: "metals",
  kind: "metal",
  market: "competitive",
  unit,
  decimals: 0,
  defaultSide: "sell",
  name,
  nameAr,
  level: 0,
  dailyVol: 0.009,
  goldGrams: grams,
});

/** Global gold, USD per troy ounce, and the grams in a troy ounce. */
export const GOLD_USD_OZ = 4050;
export const TROY_OUNCE_G = 31.1034768;

export const BASE_ASSETS: SampleAsset[] = [
  currency("USD", "us-dollar", "US Dollar", "دولار أمريكي", 47.55, 0.0015),
  currency("EUR", "euro", "Euro", "يورو", 55.3, 0.004),
  currency("GBP", "pound-sterling", "Pound Sterling", "جنيه إسترليني", 62.8, 0.0045),
  currency("SAR", "saudi-riyal", "Saudi Riyal", "ريال سعودي", 12.68, 0.0016),
  currency("AED", "uae-dirham", "UAE Dirham", "درهم إماراتي", 12.95, 0.0016),
  currency("KWD", "kuwaiti-dinar", "Kuwaiti Dinar", "دينار كويتي", 155.1, 0.0018),
  currency("QAR", "qatari-riyal", "Qatari Riyal", "ريال قطري", 13.06, 0.0016),
  currency("CHF", "swiss-franc", "Swiss Franc", "فرنك سويسري", 59.7, 0.0045),
  currency("JOD", "jordanian-dinar", "Jordanian Dinar", "دينار أردني", 67.05, 0.0016),
  currency("OMR", "omani-riyal", "Omani Riyal", "ريال عماني", 123.5, 0.0016, "sole"),
  currency("CNY", "chinese-yuan", "Chinese Yuan", "يوان صيني", 6.68, 0.003, "reference", 4),
  gold("XAU24K-EGP", "gold-24k", "Gold 24 karat", "ذهب عيار ٢٤", "EGP/g", 0.999),
  gold("XAU21K-EGP", "gold-21k", "Gold 21 karat", "ذهب عيار ٢١", "EGP/g", 0.875),
  gold("XAU18K-EGP", "gold-18k", "Gold 18 karat", "ذهب عيار ١٨", "EGP/g", 0.75),
  gold("GOLDPOUND-EGP", "gold-pound", "Gold pound (8 g, 21 karat)", "جنيه ذهب (٨ جرام عيار ٢١)", "EGP/coin", 8 * 0.875),
];

const bank = (id: string, name: string, nameAr: string): RegistrySeller => ({
  id,
  name,
  nameAr,
  kind: "bank",
  licensedBy: "Central Bank of Egypt",
  licensedByAr: "البنك المركزي المصري",
  categories: ["currencies"],
});
const exchange = (id: string, name: string, nameAr: string): RegistrySeller => ({
  id,
  name,
  nameAr,
  kind: "exchange-house",
  licensedBy: "Central Bank of Egypt",
  licensedByAr: "البنك المركزي المصري",
  categories: ["currencies"],
});
const dealer = (id: string, name: string, nameAr: string): RegistrySeller => ({
  id,
  name,
  nameAr,
  kind: "gold-dealer",
  licensedBy: "Egyptian Gold Chamber (simulated)",
  licensedByAr: "شعبة الذهب المصرية (محاكاة)",
  categories: ["metals"],
});

/** Fictional: any likeness to a real institution's name is accidental. */
export const BASE_SELLERS: RegistrySeller[] = [
  bank("nile-commercial", "Nile Commercial Bank", "بنك النيل التجاري"),
  bank("delta-national", "Delta National Bank", "بنك الدلتا الوطني"),
  bank("pyramids-bank", "Pyramids Bank", "بنك الأهرامات"),
  bank("alexandria-trust", "Alexandria Trust Bank", "بنك الإسكندرية للثقة"),
  bank("sinai-investment", "Sinai Investment Bank", "بنك سيناء للاستثمار"),
  bank("cairo-union", "Cairo Union Bank", "بنك القاهرة المتحد"),
  bank("red-sea-bank", "Red Sea Bank", "بنك البحر الأحمر"),
  exchange("tahrir-exchange", "Tahrir Exchange", "صرافة التحرير"),
  exchange("zamalek-exchange", "Zamalek Exchange", "صرافة الزمالك"),
  exchange("luxor-exchange", "Luxor Exchange", "صرافة الأقصر"),
  dealer("khan-gold", "Khan El-Khalili Gold", "ذهب خان الخليلي"),
  dealer("sagha-house", "Sagha Gold House", "دار الصاغة للذهب"),
  dealer("aswan-gold", "Aswan Gold", "ذهب أسوان"),
  dealer("heliopolis-jewellers", "Heliopolis Jewellers", "مجوهرات مصر الجديدة"),
];

/**
 * Sources of seller quotes, in the order a careful operator would trust them: the sellers' own
 * publications (the banks' pages, the dealers' own board) first, then the aggregator that relays
 * exactly but an hour late, then the one that now and then misreads a seller. The central bank and
 * the global reference follow.
 */
export const QUOTE_SOURCES = [
  {
    id: "bank-sites",
    name: "Banks' and exchange houses' own rate pages (simulated)",
    nameAr: "صفحات أسعار البنوك وشركات الصرافة (محاكاة)",
    kind: "seller",
  },
  {
    id: "dealers-board",
    name: "Gold dealers' price board (simulated)",
    nameAr: "لوحة أسعار تجار الذهب (محاكاة)",
    kind: "seller",
  },
  {
    id: "rates-aggregator",
    name: "Rates aggregator (simulated)",
    nameAr: "موقع تجميع الأسعار (محاكاة)",
    kind: "aggregator",
  },
  {
    id: "market-watch",
    name: "Market watch aggregator (simulated)",
    nameAr: "موقع متابعة السوق (محاكاة)",
    kind: "aggregator",
  },
] as const;
export const OFFICIAL_SOURCE = {
  id: "cbe-official",
  name: "Central Bank of Egypt official rates (simulated)",
  nameAr: "الأسعار الرسمية للبنك المركزي المصري (محاكاة)",
  kind: "official",
} as const;
export const GLOBAL_SOURCE = {
  id: "global-mid",
  name: "Global mid-market reference (simulated)",
  nameAr: "السعر العالمي المرجعي (محاكاة)",
  kind: "reference",
} as const;

/** Egypt's public holidays on which banks close (approximate lunar dates; simulated data). */
const BANK_HOLIDAYS = [
  "2025-01-07",
  "2025-01-25",
  "2025-03-31",
  "2025-04-01",
  "2025-04-21",
  "2025-04-25",
  "2025-05-01",
  "2025-06-05",
  "2025-06-06",
  "2025-06-26",
  "2025-06-30",
  "2025-07-23",
  "2025-09-04",
  "2025-10-06",
  "2026-01-07",
  "2026-01-25",
  "2026-03-19",
  "2026-03-22",
  "2026-04-13",
  "2026-04-25",
  "2026-05-01",
  "2026-05-26",
  "2026-05-27",
  "2026-06-16",
  "2026-06-30",
  "2026-07-23",
  "2026-08-25",
  "2026-10-06",
  "2027-01-07",
  "2027-01-25",
  "2027-03-09",
  "2027-03-10",
  "2027-04-25",
  "2027-05-03",
  "2027-05-16",
  "2027-06-30",
  "2027-07-23",
  "2027-10-06",
];

export const CALENDAR: Calendar = {
  timezone: "Africa/Cairo",
  categories: {
    currencies: {
      sessions: [{ days: ["sun", "mon", "tue", "wed", "thu"], open: "09:00", close: "17:00" }],
      holidays: BANK_HOLIDAYS,
    },
    metals: {
      sessions: [{ days: ["sat", "sun", "mon", "tue", "wed", "thu"], open: "10:00", close: "22:00" }],
      holidays: [],
    },
  },
};
