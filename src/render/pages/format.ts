/**
 * Numbers, dates and times as the pages show them, per language.
 *
 * Digits: both languages use Western digits (0–9). Egyptian banks' and the central bank's Arabic
 * rate pages show their rates that way, so a reader can hold ours against a bank's board; the
 * Arabic pages still take the Arabic month and day names of `ar-EG` (locale `ar-EG-u-nu-latn`).
 * Thousands are grouped with a comma in both (5,882), decimals follow the asset's `decimals`.
 * Every date and time is Cairo's (Africa/Cairo, daylight saving included), never the machine's.
 */
import { CAIRO, cairoDate } from "../../core/cairo.js";
import type { PageLang } from "../../feed/paths.js";

const LOCALE: Record<PageLang, string> = { en: "en-GB", ar: "ar-EG-u-nu-latn" };

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: PageLang, decimals: number): Intl.NumberFormat {
  const key = `${lang}:${decimals}`;
  let f = numberFormats.get(key);
  if (!f)
    numberFormats.set(
      key,
      (f = new Intl.NumberFormat(LOCALE[lang], {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        useGrouping: true,
      })),
    );
  return f;
}

/**
 * Intl is slow for the many times a build formats the same prices, dates and times (docs/performance.md):
 * each text is made once. One memo per kind of text and language, keyed by the value itself, since a
 * key string built at every call cost about what the lookup saved.
 */
function memo<K extends number | string>(make: (k: K) => string): (k: K) => string {
  const texts = new Map<K, string>();
  return (k) => {
    let t = texts.get(k);
    if (t === undefined) {
      if (texts.size > 100_000) texts.clear();
      texts.set(k, (t = make(k)));
    }
    return t;
  };
}
/** One memo per language. */
const perLang = <K extends number | string>(make: (lang: PageLang) => (k: K) => string) => ({
  en: memo(make("en")),
  ar: memo(make("ar")),
});

const priceTexts = new Map<number, (v: number) => string>();
/** A price with the asset's decimals and thousands separators; an em dash when there is none. */
export function price(v: number | null | undefined, decimals: number, lang: PageLang): string {
  if (v === null || v === undefined) return "—";
  const key = decimals * 2 + (lang === "ar" ? 1 : 0);
  let text = priceTexts.get(key);
  if (!text) priceTexts.set(key, (text = memo((x: number) => numberFormat(lang, decimals).format(x))));
  return text(v);
}

/**
 * Names from the catalog and the registry may carry Arabic-Indic digits ("ذهب عيار ٢٤"): the pages
 * show them with the same Western digits as every price, so that a page has one kind of digit.
 */
export const westernDigits = (text: string) =>
  text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) % 16));

/** A whole number (a count of days, of sources). */
const counts = perLang((lang) => (n: number) => numberFormat(lang, 0).format(n));
export const count = (n: number, lang: PageLang) => counts[lang](n);

/** A percentage without its sign ("0.41%"); the words around it say above or below. */
export function percent(v: number, lang: PageLang): string {
  return `${numberFormat(lang, 2).format(Math.abs(v))}%`;
}

const dateFormats = {
  // A business date is already a Cairo calendar date: format it as that date, in UTC.
  long: (lang: PageLang) =>
    new Intl.DateTimeFormat(LOCALE[lang], { timeZone: "UTC", weekday: "long", day: "numeric", month: "long" }),
  short: (lang: PageLang) => new Intl.DateTimeFormat(LOCALE[lang], { timeZone: "UTC", day: "numeric", month: "short" }),
  weekday: (lang: PageLang) =>
    new Intl.DateTimeFormat(LOCALE[lang], { timeZone: "UTC", weekday: "short", day: "numeric", month: "short" }),
  year: (lang: PageLang) =>
    new Intl.DateTimeFormat(LOCALE[lang], { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" }),
  time: (lang: PageLang) =>
    new Intl.DateTimeFormat(LOCALE[lang], { timeZone: CAIRO, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
};
const cache = new Map<string, Intl.DateTimeFormat>();
function dateFormat(kind: keyof typeof dateFormats, lang: PageLang): Intl.DateTimeFormat {
  const key = `${kind}:${lang}`;
  let f = cache.get(key);
  if (!f) cache.set(key, (f = dateFormats[kind](lang)));
  return f;
}

const noon = (date: string) => new Date(`${date}T12:00:00Z`);

const longDates = perLang((lang) => (date: string) => dateFormat("long", lang).format(noon(date)));
const shortDates = perLang((lang) => (date: string) => dateFormat("short", lang).format(noon(date)));
const weekdayDates = perLang((lang) => (date: string) => dateFormat("weekday", lang).format(noon(date)));
const fullDates = perLang((lang) => (date: string) => dateFormat("year", lang).format(noon(date)));
const clocks = perLang((lang) => (iso: string) => dateFormat("time", lang).format(new Date(iso)));

/** "Thursday 19 November" / "الخميس، 19 نوفمبر". */
export const longDate = (date: string, lang: PageLang) => longDates[lang](date);
/** "19 Nov" / "19 نوفمبر", for chart axes. */
export const shortDate = (date: string, lang: PageLang) => shortDates[lang](date);
/** "19 November 2026", for the chart's text alternative. */
export const fullDate = (date: string, lang: PageLang) => fullDates[lang](date);
/** The Cairo wall-clock time of an instant, "14:05". */
export const cairoClock = (iso: string, lang: PageLang) => clocks[lang](iso);
/** The Cairo calendar date of an instant. */
export const cairoDay = (iso: string) => cairoDate(Date.parse(iso));
/** The Cairo day of an instant, short: "Thu 19 Nov" / "الخميس، 19 نوفمبر". */
export const weekdayDate = (iso: string, lang: PageLang) => weekdayDates[lang](cairoDay(iso));
/** "Thursday 19 November · 16:00" / "الخميس، 19 نوفمبر · 16:00": never a time without its day. */
export const dayAndTime = (iso: string, lang: PageLang) =>
  `${longDate(cairoDay(iso), lang)} · ${cairoClock(iso, lang)}`;

/**
 * An Arabic counted noun. Arabic agrees the noun with the number: one and two have their own forms,
 * 3–10 take the plural, 11 and up the singular (accusative).
 */
export interface ArNoun {
  one: string;
  two: string;
  few: string;
  many: string;
}
export function arCount(n: number, noun: ArNoun): string {
  if (n === 1) return noun.one;
  if (n === 2) return noun.two;
  return `${count(n, "ar")} ${arForm(n, noun)}`;
}

/** The noun's form after a count of 3 or more: by its last two digits, 3–10 the plural, else the singular. */
export function arForm(n: number, noun: ArNoun): string {
  const r = n % 100;
  return r >= 3 && r <= 10 ? noun.few : noun.many;
}

export const AR_DAYS: ArNoun = { one: "يوم واحد", two: "يومين", few: "أيام", many: "يومًا" };
export const AR_TRADING_DAYS: ArNoun = {
  one: "يوم تداول واحد",
  two: "يومي تداول",
  few: "أيام تداول",
  many: "يوم تداول",
};
export const AR_SOURCES: ArNoun = { one: "مصدر واحد", two: "مصدرين", few: "مصادر مستقلة", many: "مصدرًا مستقلًا" };
export const AR_PIASTRES: ArNoun = { one: "قرش واحد", two: "قرشان", few: "قروش", many: "قرشًا" };
export const AR_POUNDS: ArNoun = { one: "جنيه واحد", two: "جنيهان", few: "جنيهات", many: "جنيهًا" };
export const AR_PRICES: ArNoun = { one: "سعر واحد", two: "سعران", few: "أسعار", many: "سعرًا" };
export const AR_SELLERS: ArNoun = { one: "جهة واحدة", two: "جهتين", few: "جهات", many: "جهة" };
