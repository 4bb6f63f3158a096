/**
 * A name as a lookup key (foldName), shared by the assets' names (names.ts) and the sellers'
 * (seller-names.ts): case, punctuation, plurals, Arabic letter variants, diacritics and tatweel,
 * Arabic-Indic digits.
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
