/**
 * Each asset's archive files, `api/v1/history/<slug>.json` and `.csv` (docs/methodology.md §5.5),
 * from its closed part and the entries of the days after it.
 */
import { canonical } from "../core/canonical.js";
import type { Dataset } from "../core/dataset.js";
import type { CatalogAsset } from "../schema/inputs.js";
import type { History } from "../schema/archive.js";
import { CSV_HEADER } from "./archive-csv.js";
import type { ArchiveFile, AssetPart } from "./archive-types.js";
import { documentHeader } from "./header.js";
import { files, urlOf } from "./paths.js";

export const CSV_TYPE = "text/csv; charset=utf-8; header=present";
const JSON_TYPE = "application/json; charset=utf-8";

/** What the archive says of the asset it is of. */
export function assetHead(a: CatalogAsset) {
  const { id, slug, name, nameAr, category, kind, market, unit, decimals } = a;
  return { id, slug, name, nameAr, category, kind, market, unit, decimals };
}

/**
 * Each asset's history as JSON and CSV: its closed part (joined once) and the rest. The ETag hashes
 * the header and a digest of each entry rather than the whole body: the same bytes give the same
 * ETag wherever the closed part ends, and the part, the bulk of the file, is not hashed again each
 * hour (its entries' digests are kept with it). When the part was kept from the
 * site being replaced, written and checked by the same code from the same inputs, the schema is
 * checked on the document without it.
 */
export function* historyFiles(
  ds: Pick<Dataset, "catalog" | "site">,
  part: ReadonlyMap<string, AssetPart>,
  tail: ReadonlyMap<string, AssetLines>,
  partKept: boolean,
): Generator<ArchiveFile> {
  for (const a of ds.catalog) {
    const p = part.get(a.id) ?? { json: "", csv: "", digests: "", first: "", last: "" };
    const t = tail.get(a.id)!;
    const path = files.history(a.slug);
    const head: Omit<History, "entries"> = {
      ...documentHeader(ds.site, urlOf(path)),
      asset: assetHead(a),
      from: p.first || t.first || null,
      to: t.last || p.last || null,
    };
    const h = canonical({ ...head, entries: [] });
    const at = h.indexOf('"entries":[]') + '"entries":['.length;
    const [h1, h2] = [h.slice(0, at), h.slice(at)];
    const rest = t.json.join(",");
    const restCsv = t.csv.map((c) => `${c}\r\n`).join("");
    const comma = p.json.length > 0 && rest ? "," : "";
    const json = [h1, p.json, `${comma}${rest}${h2}`];
    const csv = [`${CSV_HEADER}\r\n`, p.csv, restCsv];
    const pieces = (c: Array<string | Uint8Array>) =>
      c.every((x) => typeof x === "string") ? { body: c.join("") } : { body: "", chunks: c };
    yield {
      path,
      ...pieces(json),
      contentType: JSON_TYPE,
      etagInput: `archive-v1\0json\0${h1}\0${p.digests}${t.digests.join("")}\0${h2}`,
      ...(partKept ? { check: `${h1}${rest}${h2}` } : {}),
    };
    yield {
      path: files.historyCsv(a.slug),
      ...pieces(csv),
      contentType: CSV_TYPE,
      etagInput: `archive-v1\0csv\0${p.digests}${t.digests.join("")}`,
      ...(partKept ? { check: `${CSV_HEADER}\r\n${restCsv}` } : {}),
    };
  }
}

/** One asset's archive as written so far: its entries' JSON and CSV lines, its first and last date. */
export class AssetLines {
  readonly json: string[] = [];
  readonly csv: string[] = [];
  readonly digests: string[] = [];
  /** Each entry's digest (its JSON's), in order. */
  async digest(of: (text: string) => string | Promise<string>): Promise<void> {
    for (const j of this.json.slice(this.digests.length)) this.digests.push(await of(j));
  }
  first = "";
  last = "";
  add(date: string, json: string, csv: string): void {
    this.json.push(json);
    this.csv.push(csv);
    this.first ||= date;
    this.last = date;
  }
}
