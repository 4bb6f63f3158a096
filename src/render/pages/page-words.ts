/**
 * The words of the frame every page shares (page.ts): the navigation, the footer, the link past
 * them, and what the document says of its language, English and Arabic. For translators, edit the
 * words here; page.ts only puts them in place. The footer is markup (html`…`): its text is written
 * as it is.
 */
import { DOCS_PATH, FEED_PATH, TERMS_PATH, localized } from "../../feed/paths.js";
import { html } from "./html.js";
import { wordTable } from "./word-table.js";

export const PAGE_WORDS = wordTable({
  en: {
    /** The document's direction and its Open Graph locale (ogp.me). */
    dir: "ltr",
    locale: "en_GB",
    /** The language's own name, on the other language's switch. */
    ownName: "English",
    skip: "Skip to content",
    /** The navigation (its label, then its links in order). */
    site: "Site",
    nav: { prices: "Prices", sellers: "Sellers", sources: "Sources", docs: "Developers", terms: "Terms" },
    footer: html`Indicative prices for information only, not financial advice. <a href="${TERMS_PATH}">Terms</a> · <a href="${DOCS_PATH}#methodology">How the numbers are made</a> · <a href="${FEED_PATH}">The data as JSON</a>`,
    /** What changed as Atom (src/render/atom.ts), for a feed reader given the page's address. */
    everyEvent: "What changed, every price (Atom)",
  },
  ar: {
    dir: "rtl",
    locale: "ar_EG",
    ownName: "العربية",
    skip: "انتقل إلى المحتوى",
    site: "الموقع",
    nav: { prices: "الأسعار", sellers: "الجهات", sources: "المصادر", docs: "للمطورين", terms: "الشروط" },
    footer: html`أسعار استرشادية للعلم فقط، وليست نصيحة مالية. <a href="${localized(TERMS_PATH, "ar")}">الشروط</a> · <a href="${localized(DOCS_PATH, "ar")}#arabic-numbers">كيف تُحسب الأرقام</a> · <a href="${FEED_PATH}">البيانات بصيغة JSON</a>`,
    everyEvent: "ما الذي تغيّر في كل الأسعار (Atom)",
  },
});
