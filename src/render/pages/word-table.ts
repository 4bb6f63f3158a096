/**
 * The shape of a page's word table: its English and its Arabic words side by side, in a file beside
 * the page (day-words.ts beside day.ts, and so on), so that a translator edits words without
 * reading the page's code. Both languages have the same keys: a key missing from one, or found in
 * one only, does not compile, and test/render/word-table.test.ts finds no empty word. A phrase that
 * takes values (a count, a date already written out) is a function of them in both languages.
 *
 * What is not words stays in the page's code: how numbers and dates are written (format.ts), which
 * plural a count takes (format.ts arCount), and a page's direction (page.ts).
 */
import type { PageLang } from "../../feed/paths.js";

/** A page's words in each language, the same keys in both. */
export type WordTable<W> = { readonly [L in PageLang]: W };

/**
 * A word table, checked: `W` is what the English words are (their keys, and a function's values),
 * and the Arabic must be the same, neither more nor less.
 */
export const wordTable = <W extends object>(table: { en: W; ar: NoInfer<W> }): WordTable<W> => table;
