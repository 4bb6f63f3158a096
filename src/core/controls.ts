/**
 * Text a stranger sent (a seller's name from a source's page, a failure's reason) is shown as text,
 * never as something that acts (issue 50, items 8 and 10). Two sets of characters act:
 *
 * - control characters: C0 (U+0000–U+001F), DEL and C1 (U+007F–U+009F). NUL, BEL and ESC move a
 *   terminal's cursor, sound it or start an escape sequence (ECMA-48); XML 1.0 §2.2 allows none of C0
 *   but tab, line feed and carriage return, so one in an Atom feed makes it ill-formed;
 * - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069; Unicode
 *   UAX #9 §2.1–2.4): U+202E turns what follows around, so that `‮txt.exe` reads as `exe.txt`
 *   (CVE-2021-42574, "Trojan Source", is the same trick in source code).
 *
 * The marks (U+200E, U+200F, U+061C) only give a direction to what is next to them and are kept: the
 * registry's Arabic names may need them. XML's two non-characters U+FFFE and U+FFFF go too.
 */

/** Every character that acts, but tab, line feed and carriage return (which HTML and XML read as white space). */
// eslint-disable-next-line no-control-regex -- matching control characters is what it is for
const ACTING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g;
/** The same, line breaks and tabs included: for one line of a terminal. */
// eslint-disable-next-line no-control-regex -- matching control characters is what it is for
const ACTING_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g;

/** `text` without the characters that act (above); tab, line feed and carriage return kept. */
export function withoutControls(text: string): string {
  ACTING.lastIndex = 0;
  return ACTING.test(text) ? text.replace(ACTING, "") : text;
}

/**
 * `text` as one line of a terminal: a tab or a line break is a space, every other character that
 * acts is dropped.
 */
export function oneLine(text: string): string {
  ACTING_IN_A_LINE.lastIndex = 0;
  if (!ACTING_IN_A_LINE.test(text)) return text;
  return text.replace(ACTING_IN_A_LINE, (c) => (c === "\t" || c === "\n" || c === "\r" ? " " : ""));
}
