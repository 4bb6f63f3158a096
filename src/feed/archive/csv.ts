/**
 * An asset's archive as CSV (RFC 4180): one header line, one line per day, CRLF line ends, a field
 * quoted only when it holds a comma, a double quote or a line break (its quotes doubled). Dates are
 * ISO, numbers as in the JSON, and a null is an empty cell; a text cell a spreadsheet would take for
 * a formula is neutralised (csvField). No node:* imports: the edge renders the
 * rows a `?from=`/`?to=` range keeps with the same function, from the JSON's entries.
 */
import type { ArchiveEntry } from "../../schema/archive.js";
import { withoutControls } from "../../core/controls.js";

/** The columns, each a path into an entry of the JSON. */
export const CSV_COLUMNS = [
  "date",
  "buyLo",
  "buyHi",
  "sellLo",
  "sellHi",
  "bench",
  "bestSell.id",
  "bestSell.seller",
  "bestSell.sellerAr",
  "bestBuy.id",
  "bestBuy.seller",
  "bestBuy.sellerAr",
  "official.buy",
  "official.sell",
  "global",
  "sellerCount",
] as const;

export const CSV_HEADER = CSV_COLUMNS.join(",");
const CRLF = "\r\n";

/**
 * A text cell that a spreadsheet would read as a formula: one beginning with `=`, `+`, `-` or `@`,
 * or with a tab or a carriage return (OWASP, "CSV Injection"). `=HYPERLINK(…)` in a seller's name,
 * opened in Excel or LibreOffice, would be a live link or worse.
 */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * RFC 4180 §2.6–2.7: quoted when it must be, with its double quotes doubled. A number is written as
 * it is, whatever its sign: only text is neutralised. Text loses the characters that act (control
 * and bidi-override characters, src/core/controls.ts), and text a spreadsheet would take for a
 * formula is prefixed with a single quote and quoted, as OWASP advises: the cell reads as the text.
 */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return `${v}`;
  const s = withoutControls(v);
  if (FORMULA.test(s)) return `"'${s.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One day's line, without its line end. */
export function csvRow(e: ArchiveEntry): string {
  return [
    e.date,
    e.buyLo,
    e.buyHi,
    e.sellLo,
    e.sellHi,
    e.bench,
    e.bestSell?.id,
    e.bestSell?.seller,
    e.bestSell?.sellerAr,
    e.bestBuy?.id,
    e.bestBuy?.seller,
    e.bestBuy?.sellerAr,
    e.official?.buy,
    e.official?.sell,
    e.global,
    e.sellerCount,
  ]
    .map(csvField)
    .join(",");
}

/** The CSV of lines already made by csvRow. */
export function csvOfRows(rows: readonly string[]): string {
  return rows.length ? `${CSV_HEADER}${CRLF}${rows.join(CRLF)}${CRLF}` : `${CSV_HEADER}${CRLF}`;
}

export function historyCsv(entries: readonly ArchiveEntry[]): string {
  let out = CSV_HEADER + CRLF;
  for (const e of entries) out += csvRow(e) + CRLF;
  return out;
}
