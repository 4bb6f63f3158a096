/**
 * A rates document in JSON, CSV or XML, written from the source's own mapping
 * (src/schema/document-sources.ts): each field's dotted path, attribute or child is where its value
 * goes, `records` is where the records sit, a dealer's one record holds every karat (`perAsset`),
 * an XML `{name}` template spreads the assets over one element's attributes (`USDBbuy="…"`), and
 * an ASP.NET web method (`….asmx/…`, `….aspx/…`) wraps its answer in `{"d": …}`. Dahab Masr's
 * record comes out as its service writes it (a one-element array, `DateOfRecord` in Cairo time),
 * Dahab Zaman's as an object keyed 1, 2, 3, CIB's as `{"rates": [...]}`.
 */
import type { SellerDocumentSource, XmlSource } from "../../schema/document-sources.js";
import { perUnits, printed, textPicking } from "./names.js";
import { recordStamp, writtenTime, type DocumentPlan, type Publication, type Row } from "./publish.js";
import type { Rendered } from "./render-html.js";

type Json = Record<string, unknown>;
type Field = string | { const: string } | { path: string; regex?: string | undefined } | undefined;

const isConst = (f: Field): f is { const: string } => typeof f === "object" && "const" in f;
const pathOf = (f: Field) => (f === undefined || isConst(f) ? null : typeof f === "string" ? f : f.path);

function setPath(obj: Json, path: string, value: unknown): void {
  const keys = path.split(".");
  let at = obj;
  for (const k of keys.slice(0, -1)) {
    if (typeof at[k] !== "object" || at[k] === null) at[k] = {};
    at = at[k] as Json;
  }
  at[keys[keys.length - 1]!] = value;
}

/** The records of a publication: one per row, or one per seller holding all its assets. */
function recordsOf(p: DocumentPlan, pub: Publication): Row[][] {
  if (!p.grouped) return pub.rows.map((r) => [r]);
  const by = new Map<string, Row[]>();
  for (const r of pub.rows) by.set(r.name, [...(by.get(r.name) ?? []), r]);
  return [...by.values()];
}

/** A price as a JSON document carries it: a number (the notes 0 when dealt by transfer only), null when not dealt. */
const priceOf = (r: Row, v: number | null, cash: boolean): number | null =>
  cash && r.transferOnly ? 0 : v === null ? null : Number(printed(perUnits(v, r.per)));

/** Writes one value where a field says; false when a regex around it does not invert. */
function put(rec: Json, f: Field, value: unknown): boolean {
  const path = pathOf(f);
  if (path === null || value === undefined) return true;
  if (typeof f === "object" && "regex" in f && f.regex !== undefined) {
    const text = textPicking(
      f.regex,
      value === null ? "" : typeof value === "number" ? printed(value) : String(value),
      "value",
    );
    if (text === null) return false;
    setPath(rec, path, text);
  } else setPath(rec, path, value);
  return true;
}

export function renderJson(p: DocumentPlan, pub: Publication): Rendered {
  const cfg = p.cfg as SellerDocumentSource;
  const records: Json[] = [];
  for (const rows of recordsOf(p, pub)) {
    const rec: Json = {};
    const first = rows[0]!;
    const stamp = p.stamped === "none" ? null : p.grouped ? recordStamp(pub, first) : first.stampMs;
    const time =
      stamp === null
        ? undefined
        : p.timeFormat === "epoch"
          ? Math.floor(stamp / 1000)
          : writtenTime(stamp, p.timeFormat, p.timeZone);
    const ok =
      put(rec, cfg.fields.seller, first.name) &&
      put(rec, cfg.fields.time, time) &&
      put(rec, cfg.fields.unit, p.unitName ?? undefined) &&
      rows.every((r) => {
        const f = cfg.perAsset ? cfg.perAsset[p.entryOf.get(r.asset)!]! : cfg.fields;
        return (
          put(rec, f.asset, r.assetName) &&
          ("unit" in f && f !== cfg.fields ? put(rec, f.unit, p.unitName ?? undefined) : true) &&
          put(rec, f.buy, priceOf(r, r.buy, true)) &&
          put(rec, f.sell, priceOf(r, r.sell, true)) &&
          put(rec, f.transferBuy, priceOf(r, r.buy, false)) &&
          put(rec, f.transferSell, priceOf(r, r.sell, false))
        );
      });
    if (!ok) return { why: "a regex of its fields does not invert" };
    records.push(rec);
  }
  let doc: unknown;
  if (cfg.records === "") {
    // A dealer's list keyed by number ({"1": {...}, "2": {...}}) is one object; anything else a list.
    const keyed = p.grouped && records.length === 1 && cfg.perAsset?.some((e) => /^\d+\./.test(pathOf(e.buy) ?? ""));
    doc = keyed ? records[0] : records;
  } else {
    doc = {};
    setPath(doc as Json, cfg.records, records);
  }
  if (/\.as[mp]x\//i.test(new URL(cfg.url!).pathname)) doc = { d: doc };
  return { body: `${JSON.stringify(doc, null, 2)}\n` };
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : typeof v === "number" ? printed(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function renderCsv(p: DocumentPlan, pub: Publication): Rendered {
  const r = renderJson({ ...p, cfg: { ...p.cfg, records: "" } as SellerDocumentSource }, pub);
  if ("why" in r) return r;
  const parsed = JSON.parse(r.body) as Json | Json[];
  const records = Array.isArray(parsed) ? parsed : [parsed];
  const columns: string[] = [];
  for (const rec of records)
    for (const [k, v] of Object.entries(rec)) {
      if (typeof v === "object" && v !== null) return { why: "a CSV column cannot hold a nested path" };
      if (!columns.includes(k)) columns.push(k);
    }
  const lines = [
    columns.map(csvCell).join(","),
    ...records.map((rec) => columns.map((c) => csvCell(rec[c])).join(",")),
  ];
  return { body: `${lines.join("\r\n")}\r\n` };
}

interface XNode {
  attrs: Map<string, string>;
  children: Array<[string, XNode]>;
  text: string | null;
}
const xnode = (): XNode => ({ attrs: new Map(), children: [], text: null });
const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function xset(node: XNode, path: string, value: string): void {
  const keys = path.split(".").filter(Boolean);
  let at = node;
  for (const [i, k] of keys.entries()) {
    if (k.startsWith("@")) {
      at.attrs.set(k.slice(1), value);
      return;
    }
    let child = at.children.find(([n]) => n === k)?.[1];
    if (!child) at.children.push([k, (child = xnode())]);
    at = child;
    if (i === keys.length - 1) at.text = value;
  }
}

function xserialize(name: string, n: XNode, indent: string): string {
  const attrs = [...n.attrs].map(([k, v]) => ` ${k}="${xmlEscape(v)}"`).join("");
  if (!n.children.length && n.text === null) return `${indent}<${name}${attrs}/>\n`;
  if (!n.children.length) return `${indent}<${name}${attrs}>${xmlEscape(n.text!)}</${name}>\n`;
  const inner = n.children.map(([k, c]) => xserialize(k, c, `${indent}  `)).join("");
  return `${indent}<${name}${attrs}>\n${inner}${indent}</${name}>\n`;
}

export function renderXml(p: DocumentPlan, pub: Publication): Rendered {
  const cfg = p.cfg as XmlSource;
  const path = cfg.records.split(".").filter(Boolean);
  const text = (f: string | { const: string } | undefined) => (f === undefined || typeof f !== "string" ? null : f);
  const records: XNode[] = [];
  for (const rows of recordsOf(p, pub)) {
    const rec = xnode();
    const first = rows[0]!;
    const stamp = p.stamped === "none" ? null : p.grouped ? recordStamp(pub, first) : first.stampMs;
    const seller = text(cfg.fields.seller);
    if (seller !== null) xset(rec, seller, first.name);
    const time = text(cfg.fields.time);
    if (time !== null && stamp !== null) xset(rec, time, writtenTime(stamp, p.timeFormat, p.timeZone));
    const unit = text(cfg.fields.unit);
    if (unit !== null && p.unitName !== null && !unit.includes("{name}")) xset(rec, unit, p.unitName);
    for (const r of rows) {
      const price = (v: number | null, cash: boolean) =>
        cash && r.transferOnly ? "0" : v === null ? "" : printed(perUnits(v, r.per));
      const fill = (f: string | { const: string } | undefined, v: string) => {
        const t = text(f);
        if (t === null || t === "{name}") return;
        xset(rec, t.split("{name}").join(r.assetName), v);
      };
      fill(cfg.fields.asset, r.assetName);
      if (text(cfg.fields.unit)?.includes("{name}") && p.unitName !== null) fill(cfg.fields.unit, p.unitName);
      fill(cfg.fields.buy, price(r.buy, true));
      fill(cfg.fields.sell, price(r.sell, true));
      fill(cfg.fields.transferBuy, price(r.buy, false));
      fill(cfg.fields.transferSell, price(r.sell, false));
    }
    records.push(rec);
  }
  if (path.length === 0) return { why: "its records path is empty" };
  // The root and the elements down to the records, then the records themselves.
  const root = xnode();
  let holder = root;
  for (const k of path.slice(1, -1)) {
    const n = xnode();
    holder.children.push([k, n]);
    holder = n;
  }
  const recordName = path[path.length - 1]!;
  if (path.length === 1) return { why: "its records are the root element" };
  for (const rec of records) holder.children.push([recordName, rec]);
  return { body: `<?xml version="1.0" encoding="utf-8"?>\n${xserialize(path[0]!, root, "")}` };
}
