/**
 * Parsing a page a source sent, in time linear in its length. node-html-parser finds markup with
 * one backtracking regex; two inputs make it quadratic, and a third is quadratic in its tree
 * fix-up (measured at 320 KB: 3–5 s each, so minutes for a body under the 5 MB cap):
 * - a `<!--` with no `-->` after it: the regex's lazy `[\s\S]*?-->` scans to the end of the text
 *   from every such opener;
 * - the same with `<![CDATA[` and `]]>`;
 * - elements never closed (`<div><div>…`): each one's children are moved up to its parent, one
 *   level per element left open, so a child is moved once per level.
 * Both openers, when nothing closes them after, are escaped (`&lt;!--`) before parsing: the parser
 * read them as text already (its regex matched nothing there), and `&lt;` decodes to the same
 * text. Elements left open are kept as they are (`parseNoneClosedTags`), holding what follows
 * them, which is also how a browser's tree builder reads them (WHATWG HTML §13.2.6).
 */
import { parse, type HTMLElement } from "node-html-parser";

/** Every `opener` after the last `closer` (none closes it), escaped; found by indexOf, one pass. */
function escapeUnclosed(text: string, opener: string, closer: string): string {
  const lastClose = text.lastIndexOf(closer);
  let from = text.indexOf(opener, lastClose < 0 ? 0 : lastClose + closer.length);
  if (from < 0) return text;
  const parts: string[] = [];
  let at = 0;
  while (from >= 0) {
    parts.push(text.slice(at, from), "&lt;");
    at = from + 1;
    from = text.indexOf(opener, from + opener.length);
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** A page's tree, whatever the page: no input costs more than linear time in its length. */
export function parsePage(html: string): HTMLElement {
  const safe = escapeUnclosed(escapeUnclosed(html, "<!--", "-->"), "<![CDATA[", "]]>");
  return parse(safe, { comment: false, parseNoneClosedTags: true });
}
