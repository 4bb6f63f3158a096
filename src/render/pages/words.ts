/**
 * The feed's codes in plain words, English and Arabic. The API stays language-neutral; only the
 * pages speak. Every sentence describes today against the recorded past: none forecasts, and none
 * tells the reader to "buy now", "sell now" or "wait" (docs/methodology.md §6.6).
 *
 * "Today" is said only when the asset's business date is the build's own Cairo date: on a Friday the
 * currencies show Thursday's prices, and the pages then name Thursday (docs/methodology.md §1).
 */
import type { PageLang } from "../../feed/paths.js";
import type { Site } from "../../schema/inputs.js";
import type { Asset, Direction, Feed, Verdict } from "../../schema/outputs.js";
import { DELAYED_MAX_MS, FRESH_MAX_MS, MIN_PRIOR_DAYS, OFFICIAL_TOL_PCT } from "../../core/methodology.js";
import {
  AR_DAYS,
  AR_SOURCES,
  AR_TRADING_DAYS,
  arCount,
  cairoClock,
  cairoDay,
  count,
  longDate,
  percent,
  westernDigits,
} from "./format.js";
import { html, type SafeHtml } from "./html.js";

type Side = "sell" | "buy";
const pick = <T>(lang: PageLang, en: T, ar: T) => (lang === "ar" ? ar : en);

/**
 * The verdicts as what they mean for the reader's side, never as a grade of the day: on the side
 * where you buy, `favorable` means it costs less than usual; on the side where you sell, that you
 * get more (docs/methodology.md §6.5).
 */
export const VERDICT_WORDS: Record<Side, Record<Verdict, [string, string]>> = {
  sell: {
    favorable: ["Cheaper to buy than usual", "الشراء أرخص من المعتاد"],
    weak: ["Dearer to buy than usual", "الشراء أغلى من المعتاد"],
    ordinary: ["About the usual price to buy", "تشتري بسعر قريب من المعتاد"],
    mixed: ["Cheaper than usual by one measure, dearer by another", "أرخص من المعتاد بمقياس وأغلى بآخر"],
    calibrating: ["Too new to compare with the usual price", "لا يوجد تاريخ كافٍ للمقارنة بعد"],
  },
  buy: {
    favorable: ["You get more than usual when you sell", "تحصل على أكثر من المعتاد حين تبيع"],
    weak: ["You get less than usual when you sell", "تحصل على أقل من المعتاد حين تبيع"],
    ordinary: ["About the usual price when you sell", "تبيع بسعر قريب من المعتاد"],
    mixed: ["More than usual by one measure, less by another", "أكثر من المعتاد بمقياس وأقل بآخر"],
    calibrating: ["Too new to compare with the usual price", "لا يوجد تاريخ كافٍ للمقارنة بعد"],
  },
};
export const verdictLabel = (v: Verdict, side: Side, lang: PageLang) => VERDICT_WORDS[side][v][lang === "ar" ? 1 : 0];

/** The home page's few words for a notable verdict (favorable or weak), from the reader's side. */
export function shortVerdict(v: "favorable" | "weak", side: Side, lang: PageLang): string {
  const words = {
    sell: { favorable: ["cheaper than usual", "أرخص من المعتاد"], weak: ["dearer than usual", "أغلى من المعتاد"] },
    buy: {
      favorable: ["you get more than usual", "تحصل على أكثر من المعتاد"],
      weak: ["you get less than usual", "تحصل على أقل من المعتاد"],
    },
  } as const;
  return words[side][v][lang === "ar" ? 1 : 0];
}

/** The Cairo date of the build: what "today" means on the pages. */
export const buildDay = (feed: Feed) => cairoDay(feed.generatedAt);

/**
 * One word for each side, from the customer's side, on every card, column, legend and in the docs:
 * "You buy at" is the feed's `sell` (what a seller asks), "You sell at" its `buy` (what a seller
 * pays). Egyptian banks head their columns "سعر الشراء / سعر البيع" from the bank's side, the
 * opposite way round, so the pages use neither of those words for a column.
 */
export const SIDE_WORDS: Record<Side, [string, string]> = {
  sell: ["You buy at", "تشتري بـ"],
  buy: ["You sell at", "تبيع بـ"],
};
export const sideLabel = (side: Side, lang: PageLang) => SIDE_WORDS[side][lang === "ar" ? 1 : 0];
export const sideHint = (side: Side, lang: PageLang) =>
  side === "sell"
    ? pick(lang, "the lowest price a seller asks", "أقل سعر تطلبه جهة")
    : pick(lang, "the highest price a seller pays", "أعلى سعر تدفعه جهة");

/**
 * Where today's best value sits among the prior days, as a count of days: favorability is the share
 * of prior days that were worse for the customer, a tie counting half (docs/methodology.md §6.3), so
 * the count is round(favorability × priorDays).
 */
export function comparison(d: Direction, side: Side, lang: PageLang): string | null {
  if (d.favorability === null || d.priorDays === 0) return null;
  const p = d.priorDays;
  const n = Math.round(d.favorability * p);
  if (lang === "ar") {
    const than = side === "sell" ? "أرخص" : "أعلى";
    const of = `آخر ${arCount(p, AR_TRADING_DAYS, "genitive", false)}`;
    if (n === 0) return `ليس ${than} مما كان عليه في أي من ${of}`;
    if (n === p) return `${than} مما كان عليه في كل ${of}`;
    return `${than} مما كان عليه في ${count(n, "ar")} من ${of}`;
  }
  const than = side === "sell" ? "cheaper" : "higher";
  if (n === 0) return `not ${than} than on any of the previous ${count(p, "en")} trading days`;
  if (n === p) return `${than} than on all of the previous ${count(p, "en")} trading days`;
  return `${than} than on ${count(n, "en")} of the previous ${count(p, "en")} trading days`;
}

/** "Cheaper to buy than usual: cheaper than on 71 of the previous 88 trading days." — one side's verdict in words. */
export function verdictSentence(d: Direction, side: Side, lang: PageLang): string {
  if (d.verdict === "calibrating") {
    if (d.priorDays >= MIN_PRIOR_DAYS) return pick(lang, "No seller quotes this side.", "لا توجد أسعار لهذا الجانب.");
    return pick(
      lang,
      `Too little history to compare yet: ${count(d.priorDays, "en")} of the ${MIN_PRIOR_DAYS} trading days needed.`,
      `لا يوجد تاريخ كافٍ للمقارنة بعد: ${count(d.priorDays, "ar")} من ${arCount(MIN_PRIOR_DAYS, AR_TRADING_DAYS, "genitive", false)} مطلوبة.`,
    );
  }
  const c = comparison(d, side, lang);
  return `${verdictLabel(d.verdict, side, lang)}${c ? `${pick(lang, ": ", "، ")}${c}` : ""}.`;
}

/** The signals behind the verdict, one plain sentence each: the week's trend, the official and the global rates. */
export function signalSentences(d: Direction, lang: PageLang): string[] {
  const out: string[] = [];
  const t = d.signals.trend;
  if (t && t.changePct !== null && t.days !== null) {
    const pct = percent(t.changePct, lang);
    const over = pick(
      lang,
      `Over the last ${count(t.days, "en")} days`,
      `خلال آخر ${arCount(t.days, AR_DAYS, "genitive")}`,
    );
    if (t.direction === "flat")
      out.push(pick(lang, `${over} the best price hardly moved (${pct}).`, `${over} لم يكد يتغير أفضل سعر (${pct}).`));
    else if (t.direction === "up")
      out.push(pick(lang, `${over} the best price rose ${pct}.`, `${over} ارتفع أفضل سعر بنسبة ${pct}.`));
    else out.push(pick(lang, `${over} the best price fell ${pct}.`, `${over} انخفض أفضل سعر بنسبة ${pct}.`));
  }
  const o = d.signals.official;
  if (o && o.diffPct !== null) {
    if (Math.abs(o.diffPct) <= OFFICIAL_TOL_PCT)
      out.push(
        pick(
          lang,
          `In line with the central bank's official rate (within ${percent(OFFICIAL_TOL_PCT, "en")}).`,
          `قريب من السعر الرسمي للبنك المركزي (في حدود ${percent(OFFICIAL_TOL_PCT, "ar")}).`,
        ),
      );
    else out.push(gap(o.diffPct, lang, "the central bank's official rate", "السعر الرسمي للبنك المركزي"));
  }
  const g = d.signals.global;
  if (g && g.diffPct !== null) out.push(gap(g.diffPct, lang, "the global mid-market rate", "السعر العالمي"));
  return out;
}

function gap(diffPct: number, lang: PageLang, en: string, ar: string): string {
  const pct = percent(diffPct, lang);
  if (diffPct === 0) return pick(lang, `Equal to ${en}.`, `مساوٍ لـ${ar}.`);
  return diffPct > 0
    ? pick(lang, `${pct} above ${en}.`, `أعلى من ${ar} بنسبة ${pct}.`)
    : pick(lang, `${pct} below ${en}.`, `أقل من ${ar} بنسبة ${pct}.`);
}

/** "Today's prices" only when the business date is the build's date; otherwise the date itself. */
export function pricesOf(asset: Asset, feed: Feed, lang: PageLang): string {
  if (asset.asOf === buildDay(feed)) return pick(lang, "Today's prices", "أسعار اليوم");
  return pick(lang, `Prices of ${longDate(asset.asOf, "en")}`, `أسعار ${longDate(asset.asOf, "ar")}`);
}

/** "Last updated today, Thursday 19 November at 14:05 Cairo time": the day and date beside every time. */
export function lastUpdated(asset: Asset, feed: Feed, lang: PageLang): string {
  if (!asset.observedAt) return pick(lang, "No price observed yet", "لم يُرصد أي سعر بعد");
  const at = cairoClock(asset.observedAt, lang);
  const day = cairoDay(asset.observedAt);
  const today = day === buildDay(feed);
  return pick(
    lang,
    `Last updated ${today ? "today, " : ""}${longDate(day, "en")} at ${at} Cairo time`,
    `آخر تحديث ${today ? "اليوم " : ""}${longDate(day, "ar")} الساعة ${at} بتوقيت القاهرة`,
  );
}

const hours = (ms: number) => ms / 3_600_000;

export function freshnessWords(asset: Asset, lang: PageLang): string {
  switch (asset.freshness.state) {
    case "fresh":
      return pick(lang, "Up to date", "أسعار محدّثة");
    case "closed":
      return pick(lang, "Market closed: these are the latest prices", "السوق مغلق: هذه آخر الأسعار");
    case "delayed":
      return pick(
        lang,
        `Delayed: no new prices for over ${hours(FRESH_MAX_MS)} trading hours`,
        `متأخرة: لا أسعار جديدة منذ أكثر من ${hours(FRESH_MAX_MS)} ساعات تداول`,
      );
    case "stale":
      return pick(
        lang,
        `Out of date: no new prices for over ${hours(DELAYED_MAX_MS)} trading hours`,
        `قديمة: لا أسعار جديدة منذ أكثر من ${hours(DELAYED_MAX_MS)} ساعات تداول`,
      );
  }
}

const LEVEL_OF_CHECKS = (checks: number) => (checks >= 3 ? 3 : checks);
const LEVEL = { high: 3, medium: 2, low: 1, none: 0 } as const;

/** "Based on 3 independent sources", and why confidence is lower than the count alone would make it. */
export function confidenceWords(asset: Asset, lang: PageLang): string {
  const { checks, level } = asset.confidence;
  if (checks === 0) return pick(lang, "No source reported it", "لم يرصده أي مصدر");
  const based = pick(
    lang,
    `Based on ${checks === 1 ? "1 source" : `${count(checks, "en")} independent sources`}`,
    `بناءً على ${arCount(checks, AR_SOURCES, "genitive")}`,
  );
  if (LEVEL[level] >= LEVEL_OF_CHECKS(checks)) return based;
  return `${based}${pick(lang, " (less certain: the sources disagree on a seller's price, or a seller pays more than another asks)", " (ثقة أقل: المصادر تختلف على سعر جهة، أو جهة تشتري بأعلى مما تبيع به جهة أخرى)")}`;
}

const CATEGORY: Record<string, [string, string]> = { currencies: ["Currencies", "العملات"], metals: ["Gold", "الذهب"] };
export function categoryTitle(slug: string, lang: PageLang = "en"): string {
  const known = CATEGORY[slug];
  if (known) return pick(lang, known[0], known[1]);
  return slug.charAt(0).toUpperCase() + slug.slice(1).replace(/-/g, " ");
}
/**
 * The title of a category's rest under "Every price": its own name, so that with everything open no
 * two regions of the home page share one (axe's landmark-unique).
 */
const OTHER_CATEGORY: Record<string, [string, string]> = {
  currencies: ["Other currencies", "عملات أخرى"],
  metals: ["Other gold prices", "أسعار ذهب أخرى"],
};
export function otherCategoryTitle(slug: string, lang: PageLang = "en"): string {
  const known = OTHER_CATEGORY[slug];
  if (known) return pick(lang, known[0], known[1]);
  return pick(lang, `Other: ${categoryTitle(slug, lang)}`, `${categoryTitle(slug, lang)}: أخرى`);
}

/** "EGP per USD", "EGP per gram" / "جنيه لكل دولار أمريكي", "جنيه لكل جرام". */
export function unitWords(asset: Pick<Asset, "unit" | "nameAr">, lang: PageLang): string {
  const base = asset.unit.split("/")[1] ?? asset.unit;
  const en: Record<string, string> = { g: "gram", coin: "coin" };
  const ar: Record<string, string> = { g: "جرام", coin: "قطعة" };
  return pick(lang, `EGP per ${en[base] ?? base}`, `جنيه لكل ${ar[base] ?? westernDigits(asset.nameAr)}`);
}

export function marketNote(asset: Asset, lang: PageLang): string | null {
  if (asset.market === "sole") return pick(lang, "Only one licensed seller quotes it.", "تسعّره جهة مرخصة واحدة فقط.");
  if (asset.market === "reference")
    return pick(
      lang,
      "No licensed seller quotes it: a reference price only (the global mid-market rate).",
      "لا تسعّره أي جهة مرخصة: سعر مرجعي فقط (السعر العالمي).",
    );
  return null;
}

export function simulatedBanner(site: Site, lang: PageLang = "en"): { banner?: SafeHtml } {
  if (!site.simulated) return {};
  return {
    banner: pick(
      lang,
      html`<strong>Simulated sample data.</strong> The sellers are fictional and every number is generated; nothing here is a real rate.`,
      html`<strong>بيانات تجريبية محاكاة.</strong> الجهات وهمية وكل الأرقام مولّدة؛ لا شيء هنا سعر حقيقي.`,
    ),
  };
}

/**
 * What the sources page says of a source's reads and of how its format is known, in words a reader
 * of prices uses: no "build", "state" or "ingest". `lastSuccessAt` is kept for good once a source
 * has answered, so a source that ran and has none has never been read successfully; one with no
 * run on record is "not read yet", unless its prices are here (the record was not kept with them),
 * and then only the time is unknown.
 */
export const SOURCE_WORDS = {
  head: {
    success: ["Last read successfully", "آخر قراءة ناجحة"],
    failure: ["Last failed read, and why", "آخر قراءة فاشلة وسببها"],
    evidence: ["How its format is known", "كيف عُرفت صيغته"],
  },
  neverSucceeded: ["Never read successfully yet", "لم يُقرأ بنجاح حتى الآن"],
  notReadYet: ["Not read yet", "لم يُقرأ بعد"],
  readWhenUnknown: [
    "Its prices are here, but when it was last read is not known",
    "أسعاره هنا، لكن وقت آخر قراءة له غير معروف",
  ],
  noFailure: ["None so far", "لا إخفاق حتى الآن"],
  failureUnknown: ["Not known", "غير معروف"],
  evidence: {
    recorded: ["From a saved copy of what it publishes", "من نسخة محفوظة مما ينشره"],
    "public-code": ["From public software that reads it", "من برامج منشورة علنًا تقرؤه"],
    constructed: ["Worked out by hand from other evidence", "استُنتجت يدويًا من أدلة أخرى"],
  },
  evidenceNone: ["Not stated", "غير مذكور"],
  savedOn: ["saved", "حُفظت في"],
} as const;

/** One of SOURCE_WORDS' pairs in the page's language. */
export const sourceWord = (pair: readonly [string, string], lang: PageLang) => pair[lang === "ar" ? 1 : 0];
