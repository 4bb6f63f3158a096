/**
 * A rate page in HTML, read by the declarative mapping of the sources file (HtmlSource): the rows
 * are a CSS selector; each field is a cell by index, the cell under a header (one or two header
 * rows, spans expanded), a selector inside the row, the row itself, or an attribute of any of
 * these, optionally through a regex; the time is one element of the page or a field of each row.
 *
 * A page that is not what the mapping expects fails the source with a shape error and a reason:
 * no rows, a missing header, prices drawn as images, a challenge page, or rows none of which gives
 * a price. A row that cannot be read is skipped with its reason; no number is ever guessed.
 */
import { HTMLElement, TextNode, type Node } from "node-html-parser";
import type { HtmlField, HtmlSource } from "../../schema/document-sources.js";
import { challengeMessage, challengeOf } from "../document/body.js";
import { readDocument } from "../document/fetch.js";
import { parsePage } from "../document/html.js";
import { pick } from "../document/regex.js";
import { foldName, type SellerNames } from "../document/names.js";
import { quoteMappingOf, quotesOf, type RawRecord } from "../document/quotes.js";
import { describeFormat, parseTime } from "../document/time.js";
import { ShapeError } from "../../core/errors.js";
import { emptyObservations, registryNamesOf, type AdapterContext, type Observations } from "./types.js";

const SKIP_TEXT = new Set(["script", "style", "noscript", "template"]);

/** An element's text as a reader sees it: text nodes joined by spaces (so "14:54" and "13/09/2026" in two spans stay apart), whitespace collapsed, scripts left out. */
export function textOf(node: Node): string {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n instanceof TextNode) parts.push(n.text);
    else if (n instanceof HTMLElement) {
      const tag = n.rawTagName?.toLowerCase() ?? "";
      if (SKIP_TEXT.has(tag)) return;
      if (tag === "br") parts.push(" ");
      for (const c of n.childNodes) walk(c);
    }
  };
  walk(node);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

const elementChildren = (el: HTMLElement) =>
  el.childNodes.filter(
    (n): n is HTMLElement => n instanceof HTMLElement && !SKIP_TEXT.has(n.rawTagName?.toLowerCase() ?? ""),
  );

/** A selector the sources file gives that the CSS engine refuses fails the source, not the run. */
function css<T>(selector: string, what: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw new ShapeError(`the ${what} selector "${selector}" is not valid CSS (${(e as Error).message})`);
  }
}
const select = (root: HTMLElement, selector: string, what: string): HTMLElement[] =>
  css(selector, what, () => root.querySelectorAll(selector));
const selectOne = (root: HTMLElement, selector: string, what: string): HTMLElement | null =>
  css(selector, what, () => root.querySelector(selector));

/**
 * The header rows → one label path per column: each cell's text placed on a grid with its
 * rowspan and colspan, then read down each column ("Notes" over "Buy" → ["Notes", "Buy"]).
 */
export function headerColumns(rows: HTMLElement[], cellsOf: (row: HTMLElement) => HTMLElement[]): string[][] {
  const grid: string[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of cellsOf(row)) {
      while (grid[r]![c] !== undefined) c++;
      const rs = Math.max(1, Number(cell.getAttribute("rowspan")) || 1);
      const cs = Math.max(1, Number(cell.getAttribute("colspan")) || 1);
      const label = textOf(cell);
      for (let i = 0; i < rs && r + i < rows.length; i++) for (let j = 0; j < cs; j++) grid[r + i]![c + j] = label;
      c += cs;
    }
  });
  const width = Math.max(0, ...grid.map((g) => g.length));
  return Array.from({ length: width }, (_, c) => {
    const path: string[] = [];
    for (const g of grid) {
      const label = g[c];
      if (label && path[path.length - 1] !== label) path.push(label);
    }
    return path;
  });
}

const columnName = (c: string | string[]) => (Array.isArray(c) ? c.join(" / ") : c);

/** The column index each `column` field names; a missing or ambiguous header is the page changing shape. */
function columnIndexes(fields: HtmlSource["fields"], columns: string[][]): Map<string, number> {
  const keys = columns.map((p) => foldName(p.join(" ")));
  const out = new Map<string, number>();
  const shown = () => columns.map((p) => `"${p.join(" / ")}"`).join(", ");
  for (const f of Object.values(fields)) {
    if (typeof f !== "object" || f.column === undefined) continue;
    const key = foldName(Array.isArray(f.column) ? f.column.join(" ") : f.column);
    const at = keys.flatMap((k, i) => (k === key ? [i] : []));
    if (at.length === 0)
      throw new ShapeError(`no column headed "${columnName(f.column)}" (the headers are ${shown() || "empty"})`);
    if (at.length > 1)
      throw new ShapeError(
        `more than one column headed "${columnName(f.column)}" (the headers are ${shown()}): name it by both header rows`,
      );
    out.set(key, at[0]!);
  }
  return out;
}

interface Read {
  /** null: the element is not there (or the regex did not match). */
  text: string | null;
  el: HTMLElement | null;
}

function readField(row: HTMLElement, cells: HTMLElement[], columns: Map<string, number>, f: HtmlField): Read {
  const spec = typeof f === "string" ? { selector: f } : f;
  if (spec.const !== undefined) return { text: spec.const, el: null };
  let el: HTMLElement | null = row;
  if (spec.cell !== undefined) el = cells[spec.cell] ?? null;
  else if (spec.column !== undefined)
    el = cells[columns.get(foldName(Array.isArray(spec.column) ? spec.column.join(" ") : spec.column))!] ?? null;
  if (el && spec.selector !== undefined) el = selectOne(el, spec.selector, "field");
  if (!el) return { text: null, el: null };
  let text = spec.attr !== undefined ? (el.getAttribute(spec.attr) ?? null) : textOf(el);
  // RE2, linear in the text (src/ingest/document/regex.ts): the page is the source's to write.
  if (text !== null && spec.regex !== undefined) text = pick(spec.regex, text, "value");
  return { text, el };
}

/** A price cell that shows a picture and no digit: the page draws its prices as images. */
const isImage = (r: Read) =>
  r.el !== null &&
  !/\d/.test(r.text ?? "") &&
  (r.el.rawTagName?.toLowerCase() === "img" || r.el.querySelector("img, svg, canvas, picture") !== null);

const PRICE_FIELDS = ["buy", "sell", "transferBuy", "transferSell"] as const;

/** The page → quotes. Pure: the run's instant stamps rows when the page gives no time. */
export function htmlQuotes(
  html: string,
  cfg: HtmlSource,
  nowMs: number,
  known: ReadonlySet<string>,
  registry?: SellerNames,
): Pick<Observations, "quotes" | "fetched" | "skipped" | "unknownSellers"> {
  const root = parsePage(html);
  const cellsOf = (row: HTMLElement) =>
    cfg.cells !== undefined ? select(row, cfg.cells, "cells") : elementChildren(row);

  const headerRows = cfg.header !== undefined ? select(root, cfg.header, "header") : [];
  const matched = select(root, cfg.rows, "rows");
  if (matched.length === 0) {
    const challenge = challengeOf(html, { contentMissing: true });
    throw new ShapeError(
      challenge ? challengeMessage(challenge) : `no rows match "${cfg.rows}": the page has changed shape`,
    );
  }
  if (cfg.header !== undefined && headerRows.length === 0)
    throw new ShapeError(`no header row matches "${cfg.header}": the page has changed shape`);
  const columns = columnIndexes(cfg.fields, headerColumns(headerRows, cellsOf));
  const headers = new Set(headerRows);
  // Header rows the rows selector also matches, and blank spacer rows, are not rows of rates.
  const rows = matched.filter((r) => !headers.has(r) && (textOf(r) !== "" || r.querySelector("img") !== null));

  // The page's time, once: the element must be there and read, or nothing on the page is trusted.
  let pageTime: number | undefined;
  if (cfg.time?.selector !== undefined) {
    const el = selectOne(root, cfg.time.selector, "time");
    if (!el) throw new ShapeError(`no time element matches "${cfg.time.selector}": the page has changed shape`);
    const text = cfg.time.attr !== undefined ? (el.getAttribute(cfg.time.attr) ?? "") : textOf(el);
    const ms = parseTime(text, cfg.time, nowMs);
    if (ms === null)
      throw new ShapeError(
        `the page's time "${text.slice(0, 80)}" does not read as ${describeFormat(cfg.time)}${cfg.time.regex ? ` through /${cfg.time.regex}/` : ""}`,
      );
    pageTime = ms;
  }
  const rowTime = { format: cfg.time?.format, zone: cfg.time?.zone ?? "Africa/Cairo", regex: cfg.time?.regex };

  const records: RawRecord[] = [];
  const unread: Array<{ reason: string; detail: string }> = [];
  let imageRows = 0;
  for (const [i, row] of rows.entries()) {
    const where = `row ${i + 1}`;
    const cells = cellsOf(row);
    const read = (f: HtmlField | undefined) => (f === undefined ? undefined : readField(row, cells, columns, f));
    const asset = read(cfg.fields.asset)!;
    const prices = PRICE_FIELDS.map((k) => [k, read(cfg.fields[k])] as const);
    const wanted = prices.filter(([k]) =>
      cfg.take === "transfer" ? k === "transferBuy" || k === "transferSell" : k === "buy" || k === "sell",
    );
    if (wanted.some(([, r]) => r !== undefined && isImage(r))) {
      imageRows++;
      unread.push({ reason: "price drawn as an image", detail: `${where}: ${asset.text ?? ""}` });
      continue;
    }
    const missing = [["asset", asset] as const, ...wanted].find(([, r]) => r !== undefined && r.text === null);
    if (missing) {
      unread.push({
        reason: `no ${missing[0]} in the row`,
        detail: `${where} (${cells.length} cells): ${textOf(row).slice(0, 60)}`,
      });
      continue;
    }
    const price = (k: (typeof PRICE_FIELDS)[number]) => prices.find(([p]) => p === k)?.[1]?.text ?? undefined;
    const rec: RawRecord = {
      where,
      asset: asset.text,
      buy: price("buy"),
      sell: price("sell"),
      transferBuy: price("transferBuy"),
      transferSell: price("transferSell"),
    };
    if (cfg.fields.seller !== undefined) rec.seller = read(cfg.fields.seller)!.text;
    if (cfg.fields.unit !== undefined) rec.unit = read(cfg.fields.unit)!.text ?? "";
    if (cfg.fields.time !== undefined) {
      const t = read(cfg.fields.time)!;
      rec.rawTime = t.text;
      rec.timeMs = t.text === null ? null : parseTime(t.text, rowTime, nowMs);
    } else if (pageTime !== undefined) rec.timeMs = pageTime;
    records.push(rec);
  }

  if (rows.length > 0 && imageRows === rows.length)
    throw new ShapeError(
      `the prices are drawn as images (${imageRows} rows show a picture and no number where the prices should be): they cannot be read as text`,
    );
  const out = quotesOf(records, quoteMappingOf(cfg, registry), known, nowMs);
  const skipped = [...unread, ...out.skipped];
  if (out.quotes.length === 0) {
    const reasons = [...new Set(skipped.map((s) => s.reason))].join("; ");
    throw new ShapeError(
      `none of the ${rows.length} rows matching "${cfg.rows}" gives a price${reasons ? ` (${reasons}; first: ${skipped[0]!.detail})` : ""}`,
    );
  }
  return { quotes: out.quotes, fetched: rows.length, skipped, unknownSellers: out.unknownSellers };
}

export async function htmlAdapter(cfg: HtmlSource, ctx: AdapterContext): Promise<Observations> {
  const html = await readDocument(cfg, "text/html,application/xhtml+xml", ctx);
  const known = new Set(ctx.catalog.map((a) => a.id));
  return { ...emptyObservations(), ...htmlQuotes(html, cfg, ctx.nowMs, known, registryNamesOf(ctx)) };
}
