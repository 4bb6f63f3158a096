/**
 * The page for an address that has none (`404.html`, `ar/404.html`): a day mistyped in the address
 * bar (`/days/2026-13-01/`), a day without prices, any page that is not there. Said in the reader's
 * language, with the way to today's prices and to every past day, and a line in the other language
 * (a static host serves the English file for an Arabic address too: GitHub Pages knows one 404 page).
 *
 * It is served for any missing path: by the handler (src/edge/pages.ts, with 404, or 400 for a day
 * that is no date), by Netlify and by the mirror, which serve `/404.html` themselves. So it is served
 * at every depth, and its links are absolute with the base URL, else root-relative (page.ts
 * `anywhere`). It is never a page of its own: no canonical link, no place in the sitemap, noindex.
 */
import type { RenderContext } from "../../feed/site.js";
import { DAYS_PAGE_PATH, dayPagePath, localized, type PageLang } from "../../feed/paths.js";
import { html } from "./html.js";
import { OTHER_LANG, page } from "./page.js";
import { simulatedBanner } from "./words.js";

/** The page's path for page(): served at any address, it is at none. */
export const NOT_FOUND_PATH = "/404.html";

/**
 * A day's address as an example of the form, fixed so that the page is the same from one build to
 * the next (a function of the site's settings alone); the words name the same date.
 */
const EXAMPLE_DAY = "2026-11-19";

/** The page's words in each language. */
const WORDS: Record<
  PageLang,
  {
    title: string;
    lead: string;
    /** Around the days' path and an example of a day's (EXAMPLE_DAY). */
    dayPath: [string, string, string];
    today: string;
    days: string;
    description: string;
  }
> = {
  en: {
    title: "No page at this address",
    lead: "The address may be mistyped, or the page is not there (any more).",
    dayPath: ["A past day's prices are at", "followed by its date as year-month-day:", "for 19 November 2026"],
    today: "Today's prices",
    days: "Prices on every past day",
    description: "No page at this address: today's prices and every past day are a link away.",
  },
  ar: {
    title: "لا توجد صفحة بهذا العنوان",
    lead: "ربما كُتب العنوان خطأً، أو الصفحة غير موجودة (أو لم تعد موجودة).",
    dayPath: ["أسعار أي يوم مضى في", "يليه تاريخه: السنة ثم الشهر ثم اليوم،", "ليوم 19 نوفمبر 2026"],
    today: "أسعار اليوم",
    days: "الأسعار في كل يوم مضى",
    description: "لا توجد صفحة بهذا العنوان: أسعار اليوم وكل يوم مضى على بُعد رابط.",
  },
};

/** The line in the other language: what the page says, and its home page. */
const OTHER = {
  en: html`<p class="note" lang="en" dir="ltr">No page at this address. <a href="/" hreflang="en">Today's prices in English</a></p>`,
  ar: html`<p class="note" lang="ar" dir="rtl">لا توجد صفحة بهذا العنوان. <a href="${localized("/", "ar")}" hreflang="ar">أسعار اليوم بالعربية</a></p>`,
} as const;

/** The page for an address that has none, in a language. */
export function renderNotFound(ctx: RenderContext, lang: PageLang): string {
  const w = WORDS[lang];
  const body = html`<h1>${w.title}</h1>
<p class="lead">${w.lead}</p>
<ul class="way-home">
<li><a href="${localized("/", lang)}">${w.today}</a></li>
<li><a href="${localized(DAYS_PAGE_PATH, lang)}">${w.days}</a></li>
</ul>
<p class="note">${w.dayPath[0]} <code dir="ltr">${localized(DAYS_PAGE_PATH, lang)}</code> ${w.dayPath[1]} <code dir="ltr">${localized(dayPagePath(EXAMPLE_DAY), lang)}</code> ${w.dayPath[2]}.</p>
${OTHER[OTHER_LANG[lang]]}`;
  return page({
    lang,
    path: NOT_FOUND_PATH,
    title: `${w.title} · Price Feed`,
    description: w.description,
    body,
    baseUrl: ctx.input.dataset.site.baseUrl,
    anywhere: true,
    // Not a page to find: a search engine that meets it keeps it out of its index.
    head: html`\n<meta name="robots" content="noindex">`,
    ...simulatedBanner(ctx.input.dataset.site, lang),
  });
}
