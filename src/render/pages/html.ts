/**
 * HTML as the pages (and the Atom feeds) write it: a tagged template, `html`, that escapes every
 * value it is given unless the value is markup the template made itself, so that text from the data
 * (a seller's name, a failure's reason) can never become markup. Then the few pieces of text in the
 * other language that every page uses.
 */
import type { PageLang } from "../../feed/paths.js";
import { westernDigits } from "./format.js";
import { withoutControls } from "../../core/controls.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text for an element or a quoted attribute: the same escaping serves both. The characters that act
 * (control and bidi-override characters, src/core/controls.ts) are dropped: a NUL or an ESC in a
 * seller's name has no business in a page or a title, and one makes an Atom feed ill-formed XML.
 */
const esc = (text: string) => {
  const t = withoutControls(text);
  return /[&<>"']/.test(t) ? t.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : t;
};

/** Markup: what `html` makes. It nests in another template as it is. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template takes: markup, text (escaped), a number, or a list of them (joined with nothing between). */
export type HtmlValue = SafeHtml | string | number | readonly HtmlValue[];

function valueText(v: HtmlValue): string {
  if (v instanceof SafeHtml) return v.text;
  if (typeof v === "string") return esc(v);
  if (typeof v === "number") return String(v);
  let out = "";
  for (const x of v) out += valueText(x);
  return out;
}

/**
 * `html\`<p>${text}</p>\``: the template's own markup as written, every value escaped unless it is
 * markup. Its text is output, white space included (.prettierrc.json leaves it unformatted).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += valueText(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup made as a string by code that is not a template (the rulebook, rendered by marked): taken as it is. */
export const raw = (markup: string) => new SafeHtml(markup);

/** Items with a separator between them (text or markup, as in a template). */
export function join(items: readonly HtmlValue[], separator: HtmlValue): SafeHtml {
  const between = valueText(separator);
  let out = "";
  for (let i = 0; i < items.length; i++) out += (i ? between : "") + valueText(items[i]!);
  return new SafeHtml(out);
}

/**
 * Text of the other language inside a page: `lang` lets screen readers switch voice, `dir` lays it
 * out, and <bdi> isolates it so that neighbouring numbers and punctuation keep their own direction
 * (Unicode bidirectional algorithm, HTML §4.5.24). Nothing ("") without a text.
 */
export function arabic(text: string | null | undefined): SafeHtml | "" {
  return text ? html`<bdi lang="ar" dir="rtl">${westernDigits(text)}</bdi>` : "";
}
export function english(text: string | null | undefined): SafeHtml | "" {
  return text ? html`<bdi lang="en" dir="ltr">${text}</bdi>` : "";
}
/** A name in the page's language when there is one, else the English one marked as English. */
export function nameIn(lang: PageLang, en: string, ar: string | null | undefined): SafeHtml | "" {
  if (lang === "ar") return ar ? html`${westernDigits(ar)}` : english(en);
  return html`${en}`;
}
/** A name as text in the page's language: the Arabic one where there is one, else the English. */
export function nameText(lang: PageLang, en: string, ar: string | null | undefined): string {
  return lang === "ar" && ar ? westernDigits(ar) : en;
}
/** The name in the other language, for a second line. */
export function otherName(lang: PageLang, en: string, ar: string | null | undefined): SafeHtml | "" {
  return lang === "ar" ? (ar ? english(en) : "") : arabic(ar);
}
