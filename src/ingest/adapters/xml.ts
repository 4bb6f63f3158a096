/**
 * A rates document in XML (a bank's static rates file), read with fast-xml-parser and mapped by the
 * sources file (XmlSource): `records` is the path of the record elements; a field is an attribute
 * (`@buy`), a child's text (`buy`), a dotted path, or a constant. A field template with `{name}`
 * turns one element into one row per matching attribute or child — the Export Development Bank's
 * file has a single `<rates USDBbuy="17.72" USDBsell="18.00" EURBbuy=… exchangeDate="04/12/2016">`.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { XmlSource } from "../../schema/document-sources.js";
import { challengeMessage, challengeOf } from "../document/body.js";
import { readDocument } from "../document/fetch.js";
import { quoteMappingOf, quotesOf, type RawRecord } from "../document/quotes.js";
import { parseTime } from "../document/time.js";
import { ShapeError } from "../../core/errors.js";
import type { SellerNames } from "../document/names.js";
import { emptyObservations, registryNamesOf, type AdapterContext, type Observations } from "./types.js";

type XmlField = XmlSource["fields"]["asset"];
type Obj = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  textNodeName: "#text",
});

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A value at a dotted path; an element's text when it is an element with attributes. */
function at(node: unknown, path: string): unknown {
  let v: unknown = node;
  for (const k of path.split(".").filter(Boolean)) {
    if (Array.isArray(v)) v = v[0];
    v = isObj(v) ? v[k] : undefined;
  }
  if (Array.isArray(v)) v = v[0];
  return isObj(v) ? v["#text"] : v;
}

const TEMPLATE = "{name}";

/** The names a template field finds among an element's attributes and children (`@{name}Bbuy` → USD, EUR, …). */
function templateNames(rec: unknown, template: string): string[] {
  const segments = template.split(".");
  const last = segments.pop()!;
  let holder: unknown = rec;
  for (const k of segments) {
    if (Array.isArray(holder)) holder = holder[0];
    holder = isObj(holder) ? holder[k] : undefined;
  }
  if (Array.isArray(holder)) holder = holder[0];
  if (!isObj(holder)) return [];
  // The name between the template's two ends (`@` and `Bbuy`), by startsWith and endsWith: no
  // regex runs on names the document chose. Only the first `{name}` is a hole, as before.
  const hole = last.indexOf(TEMPLATE);
  const [before, after] = [last.slice(0, hole), last.slice(hole + TEMPLATE.length)];
  return Object.keys(holder).flatMap((k) =>
    k.length > before.length + after.length && k.startsWith(before) && k.endsWith(after)
      ? [k.slice(before.length, k.length - after.length)]
      : [],
  );
}

/** Records of the document → raw records, one per record or, with a `{name}` template, one per name found. */
export function xmlRecords(
  text: string,
  cfg: Pick<XmlSource, "records" | "fields" | "time">,
  nowMs: number,
): RawRecord[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const challenge = challengeOf(text, { contentMissing: true });
    throw new ShapeError(
      challenge ? challengeMessage(challenge) : `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`,
    );
  }
  const doc = parser.parse(text) as unknown;
  let list: unknown = doc;
  for (const k of cfg.records.split(".")) {
    if (Array.isArray(list)) list = list[0];
    list = isObj(list) ? list[k] : undefined;
  }
  if (list === undefined || list === null || list === "")
    throw new ShapeError(`no element at "${cfg.records}": the document has changed shape`);
  const elements = Array.isArray(list) ? list : [list];
  const timeSpec = { format: cfg.time?.format, zone: cfg.time?.zone ?? "Africa/Cairo", regex: cfg.time?.regex };

  const templated = Object.values(cfg.fields).find(
    (f): f is string => typeof f === "string" && f.includes(TEMPLATE) && f !== TEMPLATE,
  );
  const out: RawRecord[] = [];
  elements.forEach((el, i) => {
    const names = templated === undefined ? [null] : templateNames(el, templated);
    if (templated !== undefined && names.length === 0)
      throw new ShapeError(
        `record ${i + 1} at "${cfg.records}" has nothing that fits "${templated}": the document has changed shape`,
      );
    for (const name of names) {
      const get = (f: XmlField | undefined): unknown => {
        if (f === undefined) return undefined;
        if (typeof f !== "string") return f.const;
        if (name !== null && f === TEMPLATE) return name;
        return at(el, name === null ? f : f.split(TEMPLATE).join(name));
      };
      const rec: RawRecord = {
        where: name === null ? `record ${i + 1}` : `record ${i + 1} ${name}`,
        asset: get(cfg.fields.asset),
        buy: get(cfg.fields.buy),
        sell: get(cfg.fields.sell),
        transferBuy: get(cfg.fields.transferBuy),
        transferSell: get(cfg.fields.transferSell),
      };
      if (cfg.fields.seller !== undefined) rec.seller = get(cfg.fields.seller);
      if (cfg.fields.unit !== undefined) rec.unit = get(cfg.fields.unit) ?? "";
      if (cfg.fields.time !== undefined) {
        rec.rawTime = get(cfg.fields.time);
        rec.timeMs = parseTime(rec.rawTime, timeSpec, nowMs);
      }
      out.push(rec);
    }
  });
  return out;
}

export function xmlQuotes(
  text: string,
  cfg: XmlSource,
  nowMs: number,
  known: ReadonlySet<string>,
  registry?: SellerNames,
): Pick<Observations, "quotes" | "fetched" | "skipped" | "unknownSellers"> {
  const records = xmlRecords(text, cfg, nowMs);
  const out = quotesOf(records, quoteMappingOf(cfg, registry), known, nowMs);
  if (out.quotes.length === 0) {
    const reasons = [...new Set(out.skipped.map((s) => s.reason))].join("; ");
    throw new ShapeError(
      `none of the ${records.length} records at "${cfg.records}" gives a price${reasons ? ` (${reasons}; first: ${out.skipped[0]!.detail})` : ""}`,
    );
  }
  return out;
}

export async function xmlAdapter(cfg: XmlSource, ctx: AdapterContext): Promise<Observations> {
  const text = await readDocument(cfg, "application/xml,text/xml", ctx);
  const known = new Set(ctx.catalog.map((a) => a.id));
  return { ...emptyObservations(), ...xmlQuotes(text, cfg, ctx.nowMs, known, registryNamesOf(ctx)) };
}
