/**
 * Each asset's archive files, `api/v1/history/<slug>.json` and `.csv` (docs/methodology.md §5.5),
 * from its closed part and the entries of the days after it.
 */
import { canonical } from "../../core/canonical.js";
import type { Dataset } from "../../core/dataset.js";
import type { CatalogAsset } from "../../schema/inputs.js";
import type { History } from "../../schema/archive.js";
import { CSV_HEADER } from "./csv.js";
import type { ArchiveFile, AssetPart } from "./types.js";
import { documentHeader } from "../header.js";
import { files, urlOf } from "../paths.js";

export const CSV_TYPE = "text/csv; charset=utf-8; header=present";
const JSON_TYPE = "application/json; charset=utf-8";

/** What the archive says of the asset it is of. */
export function assetHead(a: CatalogAsset) {
  const { id, slug, name, nameAr, category, kind, market, unit, decimals } = a;
  // `retired` only when it is (src/feed/archive/retired.ts): every other asset's archive keeps its bytes.
  return { id, slug, name, nameAr, category, kind, market, unit, decimals, ...(a.retired && { retired: a.retired }) };
}

/** The canonical history document of an asset cut where its entries go: before them and after them. */
function historyCut(ds: Pick<Dataset, "site">, a: CatalogAsset, from: string | null, to: string | null) {
  const path = files.history(a.slug);
  const head: Omit<History, "entries"> = { ...documentHeader(ds.site, urlOf(path)), asset: assetHead(a), from, to };
  const h = canonical({ ...head, entries: [] });
  const at = h.indexOf('"entries":[]') + '"entries":['.length;
  return [h.slice(0, at), h.slice(at)] as const;
}

/**
 * Each asset's first bytes of its history files: the JSON up to its entries (canonical key order puts
 * `from` and `to` after `entries`, so these bytes do not depend on them) and the CSV's header line.
 */
export function historyHeads(ds: Pick<Dataset, "catalog" | "site">): Map<string, { json: string; csv: string }> {
  return new Map(ds.catalog.map((a) => [a.id, { json: historyCut(ds, a, null, null)[0], csv: `${CSV_HEADER}\r\n` }]));
}

/**
 * Each asset's history as JSON and CSV: its closed part (a file headed by historyHeads, copied as it
 * is) and the rest. The ETag hashes the header and a digest of each entry rather than the whole body:
 * the same bytes give the same ETag wherever the closed part ends, and the part, the bulk of the
 * file, is never read or hashed (its entries' digests are kept with it). With a part, the schema is
 * checked on the document without it: every entry of the part was checked as the `entry` of its
 * day's file (src/schema/archive.ts DayAsset) when that file was made, and each CSV line made from
 * that entry by csvRow.
 */
export function* historyFiles(
  ds: Pick<Dataset, "catalog" | "site">,
  part: ReadonlyMap<string, AssetPart>,
  tail: ReadonlyMap<string, AssetLines>,
): Generator<ArchiveFile> {
  for (const a of ds.catalog) {
    const p = part.get(a.id);
    const t = tail.get(a.id)!;
    const [h1, h2] = historyCut(ds, a, p?.first || t.first || null, t.last || p?.last || null);
    // A part file is headed by historyHeads' bytes, made without from and to: they must come after the entries.
    if (!h2.startsWith('],"from":')) throw new Error(`${files.history(a.slug)}: from and to precede the entries`);
    const rest = t.json.join(",");
    const restCsv = t.csv.map((c) => `${c}\r\n`).join("");
    const digests = `${p?.digests ?? ""}${t.digests.join("")}`;
    const json = { etagInput: `archive-v1\0json\0${h1}\0${digests}\0${h2}`, contentType: JSON_TYPE };
    const csv = { etagInput: `archive-v1\0csv\0${digests}`, contentType: CSV_TYPE };
    if (!p) {
      yield { path: files.history(a.slug), body: `${h1}${rest}${h2}`, ...json };
      yield { path: files.historyCsv(a.slug), body: `${CSV_HEADER}\r\n${restCsv}`, ...csv };
      continue;
    }
    const comma = p.first !== "" && rest ? "," : "";
    yield {
      path: files.history(a.slug),
      prefix: p.json,
      body: `${comma}${rest}${h2}`,
      check: `${h1}${rest}${h2}`,
      ...json,
    };
    yield {
      path: files.historyCsv(a.slug),
      prefix: p.csv,
      body: restCsv,
      check: `${CSV_HEADER}\r\n${restCsv}`,
      ...csv,
    };
  }
}

/**
 * One asset's archive as made so far: each entry's digest, its first and last date, and its entries'
 * JSON and CSV lines — or, with a sink, none of them: each goes to the sink as it comes.
 */
export class AssetLines {
  readonly json: string[] = [];
  readonly csv: string[] = [];
  /** Each entry's digest (its JSON's), in order. */
  readonly digests: string[] = [];
  first = "";
  last = "";
  constructor(private readonly sink?: (json: string, csv: string) => void) {}
  async add(date: string, json: string, csv: string, digest: (text: string) => string | Promise<string>) {
    this.digests.push(await digest(json));
    if (this.sink) this.sink(json, csv);
    else {
      this.json.push(json);
      this.csv.push(csv);
    }
    this.first ||= date;
    this.last = date;
  }
}
