/**
 * A rate page in HTML, written from the source's own mapping (src/schema/document-sources.ts
 * HtmlSource): the elements its CSS selectors name are built, nested as the selectors nest them
 * (tags, ids, classes, attributes, `:has(td)`, `:first-child`, `+`), the header rows carry the
 * columns its fields name (two rows with spans for "Notes / Buy"), and each value is put where its
 * field reads it (a cell, an element inside it, an attribute, a regex's group). So the page a
 * bank's selectors were written against is the page they read: banque-misr's section and two-row
 * header, Ta3weem's spans and "Last Updated" column, egrates' `<i data-value>` cells.
 * What a selector cannot say (its prose, the flags) is left out; the world checks each page it
 * writes with the real reader before serving it (world.ts).
 */
import type { HtmlSource } from "../../schema/document-sources.js";
import { printed, perUnits, textPicking } from "./names.js";
import { writtenTime, type DocumentPlan, type Publication, type Row } from "./publish.js";

interface Compound {
  tag: string | null;
  id: string | null;
  classes: string[];
  attrs: Array<[string, string | null]>;
  pseudos: string[];
}
interface Step {
  combinator: " " | ">" | "+";
  compound: Compound;
}

class El {
  readonly children: Array<El | string> = [];
  readonly attrs = new Map<string, string>();
  readonly classes: string[] = [];
  id: string | null = null;
  parent: El | null = null;
  constructor(readonly tag: string) {}
  add(child: El | string, after?: El): El | string {
    if (typeof child !== "string") child.parent = this;
    const at = after === undefined ? -1 : this.children.indexOf(after);
    if (at < 0) this.children.push(child);
    else this.children.splice(at + 1, 0, child);
    return child;
  }
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, "&quot;");
const VOID = new Set(["img", "br", "meta", "input", "hr"]);

function serialize(el: El): string {
  const attrs = [
    ...(el.id !== null ? [`id="${escapeAttr(el.id)}"`] : []),
    ...(el.classes.length ? [`class="${escapeAttr(el.classes.join(" "))}"`] : []),
    ...[...el.attrs].map(([k, v]) => `${k}="${escapeAttr(v)}"`),
  ];
  const open = `<${el.tag}${attrs.length ? ` ${attrs.join(" ")}` : ""}>`;
  if (VOID.has(el.tag)) return open;
  const inner = el.children.map((c) => (typeof c === "string" ? escapeText(c) : serialize(c))).join("");
  const block = /^(table|thead|tbody|tr|section|div|main|ul|select)$/.test(el.tag);
  return `${open}${inner}</${el.tag}>${block ? "\n" : ""}`;
}

/** The first of a selector list's alternatives ("a, b" → "a"), commas inside brackets left alone. */
function firstAlternative(sel: string): string {
  let depth = 0;
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) return sel.slice(0, i).trim();
  }
  return sel.trim();
}

/** A selector → its steps; null when it uses what the builder does not know (`~`, `*`, attribute operators other than `=`). */
export function parseSelector(selector: string): Step[] | null {
  const sel = firstAlternative(selector);
  const steps: Step[] = [];
  let i = 0;
  let combinator: Step["combinator"] = " ";
  while (i < sel.length) {
    const c = sel[i]!;
    if (c === " ") {
      i++;
      continue;
    }
    if (c === ">" || c === "+") {
      combinator = c;
      i++;
      continue;
    }
    if (c === "~" || c === "*") return null;
    // One compound: up to the next top-level space or combinator.
    let depth = 0;
    let j = i;
    for (; j < sel.length; j++) {
      const d = sel[j]!;
      if (d === "(" || d === "[") depth++;
      else if (d === ")" || d === "]") depth--;
      else if (depth === 0 && (d === " " || d === ">" || d === "+" || d === "~")) break;
    }
    const compound = parseCompound(sel.slice(i, j));
    if (compound === null) return null;
    steps.push({ combinator, compound });
    combinator = " ";
    i = j;
  }
  return steps.length ? steps : null;
}

function parseCompound(s: string): Compound | null {
  const out: Compound = { tag: null, id: null, classes: [], attrs: [], pseudos: [] };
  const tag = /^[a-zA-Z][\w-]*/.exec(s);
  let i = tag ? tag[0].length : 0;
  if (tag) out.tag = tag[0].toLowerCase();
  while (i < s.length) {
    const c = s[i]!;
    const name = /^[\w-]+/.exec(s.slice(i + 1))?.[0];
    if ((c === "#" || c === ".") && name) {
      if (c === "#") out.id = name;
      else out.classes.push(name);
      i += 1 + name.length;
    } else if (c === "[") {
      const end = s.indexOf("]", i);
      const m = /^([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\]]*)))?$/.exec(s.slice(i + 1, end));
      if (end < 0 || !m) return null;
      out.attrs.push([m[1]!, m[2] ?? m[3] ?? m[4] ?? null]);
      i = end + 1;
    } else if (c === ":") {
      let j = i + 1;
      let depth = 0;
      for (; j < s.length; j++) {
        if (s[j] === "(") depth++;
        else if (s[j] === ")") depth--;
        else if (depth === 0 && /[.#[:]/.test(s[j]!)) break;
      }
      out.pseudos.push(s.slice(i + 1, j));
      i = j;
    } else return null;
  }
  return out;
}

/** Whether an element can stand for a compound (the same tag, id and every class it names). */
const fits = (el: El, c: Compound) =>
  (c.tag === null || c.tag === el.tag) &&
  (c.id === null || c.id === el.id) &&
  c.classes.every((k) => el.classes.includes(k)) &&
  c.attrs.every(([k, v]) => el.attrs.has(k) && (v === null || el.attrs.get(k) === v));

function create(c: Compound, fallbackTag: string): El {
  const el = new El(c.tag ?? fallbackTag);
  el.id = c.id;
  el.classes.push(...c.classes);
  for (const [k, v] of c.attrs) el.attrs.set(k, v ?? "");
  return el;
}

/** The tag an element without one in its selector gets, by what holds it. */
const tagUnder = (parent: El) =>
  parent.tag === "table" || parent.tag === "tbody" || parent.tag === "thead"
    ? "tr"
    : parent.tag === "tr"
      ? "td"
      : parent.tag === "select"
        ? "option"
        : parent.tag === "ul"
          ? "li"
          : "div";

/** The page being built: its body, and every element by id (a selector naming an id names that element). */
class Page {
  readonly body = new El("body");
  private readonly ids = new Map<string, El>();

  /** Finds or makes the elements of `steps` under `from`, the last one fresh when `fresh`. */
  place(steps: readonly Step[], from: El = this.body, fresh = false): El {
    let at = from;
    let prev: El | null = null;
    steps.forEach((step, k) => {
      const last = k === steps.length - 1;
      const c = step.compound;
      const byId = c.id !== null ? this.ids.get(c.id) : undefined;
      if (byId && !(last && fresh)) {
        for (const k2 of c.classes) if (!byId.classes.includes(k2)) byId.classes.push(k2);
        prev = byId;
        at = byId;
        return;
      }
      const parent = step.combinator === "+" && prev !== null ? (prev as El).parent! : at;
      const found =
        last && fresh
          ? undefined
          : step.combinator === "+"
            ? undefined
            : parent.children.find((x): x is El => typeof x !== "string" && fits(x, c));
      let el = found;
      if (!el) {
        el = create(c, tagUnder(parent));
        parent.add(el, step.combinator === "+" && prev !== null ? (prev as El) : undefined);
        if (el.id !== null) this.ids.set(el.id, el);
      }
      prev = el;
      at = el;
    });
    return at;
  }
}

const PRICES = new Set(["buy", "sell", "transferBuy", "transferSell"]);
const FIELD_ORDER = ["seller", "asset", "buy", "sell", "transferBuy", "transferSell", "time", "unit"] as const;
type FieldName = (typeof FIELD_ORDER)[number];
type Field = Exclude<HtmlSource["fields"][FieldName], undefined>;

const spec = (f: Field) => (typeof f === "string" ? { selector: f } : f);
const labelOf = (column: string | string[]) => (Array.isArray(column) ? column : [column]);

/** The header rows' cells: one row, or two with spans when columns are named by two labels. */
function headerLayout(columns: string[][]): Array<Array<{ text: string; colspan: number; rowspan: number }>> | null {
  const depth = Math.max(1, ...columns.map((c) => c.length));
  if (depth > 2) return null;
  if (depth === 1) return [columns.map((c) => ({ text: c[0]!, colspan: 1, rowspan: 1 }))];
  const top: Array<{ text: string; colspan: number; rowspan: number }> = [];
  const second: Array<{ text: string; colspan: number; rowspan: number }> = [];
  columns.forEach((c, i) => {
    if (c.length === 1) top.push({ text: c[0]!, colspan: 1, rowspan: 2 });
    else {
      const before = columns[i - 1];
      if (before && before.length === 2 && before[0] === c[0]) top[top.length - 1]!.colspan++;
      else top.push({ text: c[0]!, colspan: 1, rowspan: 1 });
      second.push({ text: c[1]!, colspan: 1, rowspan: 1 });
    }
  });
  return [top, second];
}

export type Rendered = { body: string } | { why: string };

const hasText = (el: El): boolean => el.children.some((c) => (typeof c === "string" ? c.trim() !== "" : hasText(c)));

/** What each field of a row writes: its text (before a regex or an attribute places it). */
function values(p: DocumentPlan, r: Row): Record<FieldName, string | null> {
  const price = (v: number | null, cash: boolean) =>
    cash && r.transferOnly ? "0" : v === null ? "" : printed(perUnits(v, r.per));
  const stamp = p.stamped === "row" ? r.stampMs : null;
  return {
    seller: r.name,
    asset: r.assetName,
    buy: price(r.buy, true),
    sell: price(r.sell, true),
    transferBuy: price(r.buy, false),
    transferSell: price(r.sell, false),
    time: stamp === null ? null : writtenTime(stamp, p.timeFormat, p.timeZone),
    unit: p.unitName,
  };
}

/** The page of a publication, or why the mapping cannot be written. */
export function renderHtml(p: DocumentPlan, pub: Publication, title: string, dress = true): Rendered {
  const cfg = p.cfg as HtmlSource;
  const page = new Page();
  // A page's own heading, as sites print one above their rates.
  if (dress) {
    const h1 = new El("h1");
    h1.add(title);
    page.body.add(h1);
  }
  const rowSteps = parseSelector(cfg.rows);
  if (rowSteps === null) return { why: `its rows selector "${cfg.rows}" is not one the world can build` };

  // The page's time first: pages print it above their table.
  if (cfg.time?.selector !== undefined && pub.stampMs !== null) {
    const steps = parseSelector(cfg.time.selector);
    if (steps === null) return { why: `its time selector "${cfg.time.selector}" is not one the world can build` };
    let text = writtenTime(pub.stampMs, p.timeFormat, p.timeZone);
    if (cfg.time.regex !== undefined) {
      const t = textPicking(cfg.time.regex, text, "time");
      if (t === null) return { why: `its time regex /${cfg.time.regex}/ does not invert` };
      text = t;
    }
    const el = page.place(steps);
    if (cfg.time.attr !== undefined) el.attrs.set(cfg.time.attr, text);
    else el.add(text);
  }

  // The cells: the `cells` selector's element, else by the row's tag.
  const cellSteps = cfg.cells !== undefined ? parseSelector(cfg.cells) : null;
  if (cfg.cells !== undefined && cellSteps === null)
    return { why: `its cells selector "${cfg.cells}" is not one the world can build` };
  const cellCompound = cellSteps?.[cellSteps.length - 1]?.compound;
  const fields = FIELD_ORDER.flatMap((k) => (cfg.fields[k] !== undefined ? [[k, spec(cfg.fields[k]!)] as const] : []));
  const columns = fields.flatMap(([, f]) => ("column" in f && f.column !== undefined ? [labelOf(f.column)] : []));
  const lastCell = Math.max(-1, ...fields.map(([, f]) => ("cell" in f && f.cell !== undefined ? f.cell : -1)));
  const width = Math.max(columns.length, lastCell + 1);
  const rowLast = rowSteps[rowSteps.length - 1]!.compound;
  /** A cell of a row: the `cells` selector's element; else a table row's td (th in a header), a div's div. */
  const cellOf = (row: El, header: boolean) =>
    cellCompound
      ? create(cellCompound, row.tag === "tr" ? "td" : "div")
      : new El(row.tag === "tr" ? (header ? "th" : "td") : row.tag === "ul" ? "li" : "div");

  if (columns.length > 0) {
    if (cfg.header === undefined) return { why: "its fields name columns but it has no header selector" };
    const headerSteps = parseSelector(cfg.header);
    const layout = headerLayout(columns);
    if (headerSteps === null || layout === null)
      return { why: `its header "${cfg.header}" is not one the world can build` };
    const container = page.place(headerSteps.slice(0, -1));
    const headerLast = headerSteps[headerSteps.length - 1]!.compound;
    const th = headerLast.pseudos.some((x) => x === "has(th)");
    for (const cells of layout) {
      const row = create(headerLast, tagUnder(container));
      container.add(row);
      for (const c of cells) {
        const el = th && row.tag === "tr" ? new El("th") : cellOf(row, true);
        if (c.colspan > 1) el.attrs.set("colspan", String(c.colspan));
        if (c.rowspan > 1) el.attrs.set("rowspan", String(c.rowspan));
        el.add(c.text);
        row.add(el);
      }
    }
  }

  const container = page.place(rowSteps.slice(0, -1));
  for (const r of pub.rows) {
    const row = create(rowLast, tagUnder(container));
    container.add(row);
    const cells = Array.from({ length: width }, () => row.add(cellOf(row, false)) as El);
    const v = values(p, r);
    for (const [k, f] of fields) {
      if ("const" in f && f.const !== undefined) continue;
      let text = v[k];
      if (text === null) return { why: `it reads a ${k} the world does not write` };
      if (f.regex !== undefined) {
        const t = textPicking(f.regex, text, "value");
        if (t === null) return { why: `the regex /${f.regex}/ of its ${k} does not invert` };
        text = t;
      }
      let el: El = row;
      if ("cell" in f && f.cell !== undefined) el = cells[f.cell]!;
      else if ("column" in f && f.column !== undefined) {
        const key = labelOf(f.column).join(" ");
        el = cells[columns.findIndex((c) => c.join(" ") === key)]!;
      }
      if (f.selector !== undefined) {
        const steps = parseSelector(f.selector);
        if (steps === null) return { why: `the ${k} selector "${f.selector}" is not one the world can build` };
        el = page.place(steps, el);
      }
      const cell = el !== row && f.selector === undefined;
      if (f.attr !== undefined) el.attrs.set(f.attr, text);
      else if (dress && cell && (k === "seller" || (k === "asset" && text.includes("(")))) {
        // A name as a link (egrates' banks, Ta3weem's currencies): the cell's text is the same.
        const a = new El("a");
        a.attrs.set("href", "#");
        if (k === "asset") {
          const span = new El("span");
          span.add(text);
          a.add(span);
        } else a.add(text);
        el.add(a);
      } else if (dress && cell && k === "asset") {
        // A flag before the currency's name (Banque Misr's rows): a picture and a line break, no text.
        const img = new El("img");
        img.classes.push("img-flag");
        img.attrs.set("src", `/media/flags/${r.asset.split("-")[0]!.toLowerCase()}.png`);
        el.add(img);
        el.add(new El("br"));
        el.add(text);
      } else if (dress && cell && k === "time" && text.includes(" ")) {
        // The time and the date in two blocks (Ta3weem's "Last Updated"): read as one text, a space apart.
        for (const part of text.split(" ")) {
          const div = new El("div");
          const span = new El("span");
          span.add(part);
          div.add(span);
          el.add(div);
        }
      } else el.add(el.children.some((c) => typeof c === "string") ? ` ${text}` : text);
      if (dress && PRICES.has(k) && el !== row && !cell && el.parent !== null && text !== "" && text !== "0") {
        // Beside a price read from an element of its own: the price again as a link (egrates' `<i
        // data-value>` then `<a>`), or the day's change in an element of the same kind (Ta3weem's
        // second span) — which a reader must not take for the price.
        const next = f.attr !== undefined ? new El("a") : new El(el.tag);
        if (f.attr !== undefined) next.attrs.set("href", "#");
        next.add(f.attr !== undefined ? text : `${(((Number(text) * 997) % 300) / 1000).toFixed(3)}%`);
        el.parent.add(next, el);
        if (f.attr !== undefined) el.parent.add(" ", el);
      }
    }
    // A row whose fields are all attributes (a currency converter's <option value data-buy data-sell>)
    // still shows its name: the reader takes a row without text or picture for a spacer.
    if (!hasText(row)) row.add(r.assetName);
  }
  const lang = p.arabic ? ` lang="ar" dir="rtl"` : ` lang="en"`;
  return {
    body: `<!doctype html>\n<html${lang}><head><meta charset="utf-8"><title>${escapeText(title)}</title></head>\n${serialize(page.body)}</html>\n`,
  };
}
