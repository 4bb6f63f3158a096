/**
 * docs/methodology.md → the HTML of the "How the numbers are made" part of the docs page.
 *
 * The caller reads the file and hands over its text; this module has no node:* imports so that it
 * stays usable wherever the page is assembled. Markdown is parsed by `marked` (GFM, so the doc's
 * tables become tables). Three things differ from marked's defaults, each for a reason:
 * - Headings get stable ids, `methodology-<slug of the heading text>` (`## 2. Accepting quotes` →
 *   `methodology-2-accepting-quotes`), so the page can be linked to a rule the same way the code
 *   cites it (`docs/methodology.md §2`); the prefix keeps them clear of the docs page's own ids.
 * - Raw HTML in the markdown is never passed through, it is shown as escaped text: the doc is text
 *   about rules, and the pages run under a Content-Security-Policy that allows no inline script anyway.
 *   Links and images with a scheme other than http(s)/mailto (e.g. `javascript:`) lose their URL.
 * - Headings move down `headingShift` levels (1 by default): the docs page already has its own
 *   <h1>, so the doc's title becomes an <h2> and its numbered sections <h3>, as on the page today.
 */
import { Marked, Renderer, type Tokens } from "marked";
import { html } from "./html.js";

export interface RenderMethodologyOptions {
  /** Levels added to every heading (capped at <h6>); 0 keeps the markdown's levels. */
  headingShift?: number;
}

export const METHODOLOGY_ID_PREFIX = "methodology-";

/** Lower-case ASCII letters and digits joined by single hyphens; "section" when nothing is left. */
export function headingSlug(text: string): string {
  const slug = text
    .normalize("NFKD") // "é" → "e" + combining mark, dropped below
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "section";
}

/** Only these URL forms keep their link: anything else (javascript:, data:, vbscript:, …) is dropped. */
function safeUrl(href: string): boolean {
  const h = href.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(h);
  return scheme ? ["http", "https", "mailto"].includes(scheme[1]!.toLowerCase()) : true;
}

export function renderMethodology(markdown: string, options: RenderMethodologyOptions = {}): string {
  const shift = options.headingShift ?? 1;
  // A fresh instance per call: the duplicate-id counter below must not leak between documents.
  const used = new Map<string, number>();
  const uniqueId = (text: string): string => {
    const base = METHODOLOGY_ID_PREFIX + headingSlug(text);
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
  const marked = new Marked({
    gfm: true,
    async: false,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const level = Math.min(6, Math.max(1, depth + shift));
        // The id comes from the plain text (code spans and emphasis reduced to their words).
        const plain = this.parser.parseInline(tokens, this.parser.textRenderer);
        // marked's renderer returns its HTML as strings: the id escaped by the template, the heading's
        // words by marked.
        const id = html`${uniqueId(plain)}`.text;
        return `<h${level} id="${id}">${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      html({ text, block }: Tokens.HTML | Tokens.Tag) {
        // Shown, not interpreted. A block keeps its own paragraph so that it does not run into the next one.
        return (block ? html`<p>${text.trim()}</p>\n` : html`${text}`).text;
      },
      table(token: Tokens.Table) {
        // marked's own table markup, inside the page's horizontally scrolling wrapper (.wrap in
        // html.ts) so that a wide table does not widen the whole page on a phone. A plain Renderer
        // draws it; cell contents still go through this parser, hence through the overrides above.
        const base = new Renderer();
        base.parser = this.parser;
        return `<div class="wrap">${base.table(token)}</div>\n`;
      },
      link(token: Tokens.Link) {
        return safeUrl(token.href) ? false : this.parser.parseInline(token.tokens);
      },
      image(token: Tokens.Image) {
        return safeUrl(token.href) ? false : html`${token.text}`.text;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}
