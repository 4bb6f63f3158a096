/**
 * The words of the web app (app.ts), English and Arabic: its names in each language's manifest, and
 * the banner a page shows when it is a saved copy or the connection is gone. For translators, edit
 * the words here; app.ts and the pages' script (offline.js) only put them in place. `{ago}` in the
 * banner is where the script writes how long ago the prices were observed, in the page's language
 * (Intl.RelativeTimeFormat: "3 hours ago", «قبل 3 ساعات»), computed in the reader's browser.
 */
import { wordTable } from "./word-table.js";

export const APP_WORDS = wordTable({
  en: {
    /** The name an installed app goes by, and the short one under its icon (at most 12 characters). */
    name: "Price Feed: currency and gold prices in Egypt",
    shortName: "Price Feed",
    description:
      "Best licensed prices for currencies and gold in Egypt, with every bank's, exchange house's and dealer's price.",
    /** The banner of a saved copy: `when` is the newest price's Cairo day and time, as the page writes them. */
    saved: (when: string) =>
      `No connection: this is a saved copy. Its newest price was observed {ago} (${when} Cairo time), and prices may have changed since.`,
    /** The banner of a page loaded from the network whose connection went since. */
    live: (when: string) =>
      `No connection: the newest price here was observed {ago} (${when} Cairo time), and prices may have changed since.`,
  },
  ar: {
    name: "موجز الأسعار: أسعار العملات والذهب في مصر",
    shortName: "موجز الأسعار",
    description: "أفضل أسعار العملات والذهب لدى الجهات المرخصة في مصر، مع سعر كل بنك وصرافة وتاجر.",
    saved: (when) =>
      `لا يوجد اتصال: هذه نسخة محفوظة. آخر سعر فيها رُصد {ago} (${when} بتوقيت القاهرة)، وقد تكون الأسعار تغيّرت منذ ذلك الحين.`,
    live: (when) =>
      `لا يوجد اتصال: آخر سعر هنا رُصد {ago} (${when} بتوقيت القاهرة)، وقد تكون الأسعار تغيّرت منذ ذلك الحين.`,
  },
});
