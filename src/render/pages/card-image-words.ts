/**
 * The words of the cards' text alternatives (card-image.ts cardAlt, homeCardAlt), what a screen
 * reader says of the picture a shared link shows, English and Arabic: for translators, edit the
 * words here. Names and prices come in already written in the page's language.
 */
import { wordTable } from "./word-table.js";

export const CARD_IMAGE_WORDS = wordTable({
  en: {
    /** "Gold 24k: reference price 4,100.00 EGP". */
    reference: (name: string, price: string) => `${name}: reference price ${price} EGP`,
    egp: "EGP",
    /** The home card: "Best licensed prices in Egypt. US Dollar: …; Euro: …". */
    home: "Best licensed prices in Egypt",
    semicolon: "; ",
  },
  ar: {
    reference: (name, price) => `${name}: سعر مرجعي ${price} جنيه`,
    egp: "جنيه",
    home: "أفضل أسعار الجهات المرخصة في مصر",
    semicolon: "؛ ",
  },
});
