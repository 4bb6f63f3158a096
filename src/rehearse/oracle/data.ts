/**
 * The oracle reads the data folder itself (docs/data-formats.md): the catalog, the registry, the
 * sources, the probation record, the raw day logs, the references and the compacted days. Each file
 * is parsed once per (size, mtime): the driver asks after every simulated hour, and only today's log
 * and the small state files change from one hour to the next.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import {
  Catalog,
  Registry,
  Sources,
  type CatalogAsset,
  type DayClose,
  type RegistrySeller,
} from "../../schema/inputs.js";
import { ProbationState } from "../../schema/probation.js";
import { sourceKind, type SourceConfig } from "../../schema/sources.js";

/** A quote as logged (quotes/<date>.ndjson), with its line number for telling identical lines apart. */
export interface RawQuote {
  source: string;
  seller: string;
  asset: string;
  buy: number | null;
  sell: number | null;
  observedAt: string;
}

/** An official or global observation as logged. */
export interface RawRef {
  source: string;
  asset: string;
  buy?: number | null;
  sell?: number | null;
  value?: number;
  observedAt: string;
}

interface Cached {
  key: string;
  value: unknown;
}
const cache = new Map<string, Cached>();

/** The file's identity for the cache, or null when it does not exist. */
async function fileKey(file: string): Promise<string | null> {
  try {
    const s = await fs.stat(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

/** Reads and parses a file once per (size, mtime). Returns the key too: the judged days' cache builds on it. */
async function cached<T>(file: string, parse: (text: string) => T): Promise<{ key: string; value: T } | null> {
  const key = await fileKey(file);
  if (key === null) return null;
  const hit = cache.get(file);
  if (hit && hit.key === key) return { key, value: hit.value as T };
  const value = parse(await fs.readFile(file, "utf8"));
  cache.set(file, { key, value });
  return { key, value };
}

/**
 * The lines of a day log. A line that is not JSON is skipped: the build refuses a malformed line
 * anyway (and then the rehearsal's "build succeeded" invariant speaks), and drops a torn last one.
 */
function ndjson<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // a torn last line: dropped, as the build does (docs/data-formats.md)
    }
  }
  return out;
}

async function listDays(folder: string, ext: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return [];
  }
  const re = new RegExp(`^(\\d{4}-\\d{2}-\\d{2})\\.${ext}$`);
  return names
    .map((n) => re.exec(n)?.[1])
    .filter((d): d is string => d !== undefined)
    .sort();
}

export interface Config {
  catalog: CatalogAsset[];
  assets: Map<string, CatalogAsset>;
  sellers: Map<string, RegistrySeller>;
  sources: SourceConfig[];
  /** The sources' position in the sources file: the tie-breaker of §2.3 (unlisted: after every listed one). */
  rank: (source: string) => number;
  /** Whether a source is a seller's own publication (kind `seller`). */
  own: (source: string) => boolean;
  /** The sources subject to probation: listed, of kind seller or aggregator, not `"probation": false`. */
  subject: Set<string>;
  /** Changes whenever any of the above does. */
  key: string;
}

export async function readConfig(dataDir: string): Promise<Config> {
  const cat = await cached(path.join(dataDir, "assets.json"), (t) => Catalog.parse(JSON.parse(t)));
  const reg = await cached(path.join(dataDir, "sellers.json"), (t) => Registry.parse(JSON.parse(t)));
  const src = await cached(path.join(dataDir, "sources.json"), (t) => Sources.parse(JSON.parse(t)));
  if (!cat || !reg) throw new Error(`${dataDir}: assets.json and sellers.json are needed to recompute the feed`);
  const sources = src?.value.sources ?? [];
  const rank = new Map(sources.map((s, i) => [s.id, i]));
  const own = new Set(sources.filter((s) => sourceKind(s) === "seller").map((s) => s.id));
  return {
    catalog: cat.value,
    assets: new Map(cat.value.map((a) => [a.id, a])),
    sellers: new Map(reg.value.map((s) => [s.id, s])),
    sources,
    rank: (s) => rank.get(s) ?? sources.length,
    own: (s) => own.has(s),
    subject: new Set(
      sources.filter((s) => s.probation !== false && ["seller", "aggregator"].includes(sourceKind(s))).map((s) => s.id),
    ),
    key: `${cat.key}|${reg.key}|${src?.key ?? "-"}`,
  };
}

export async function readProbation(dataDir: string): Promise<ProbationState> {
  const p = await cached(path.join(dataDir, "state", "probation.json"), (t) => ProbationState.parse(JSON.parse(t)));
  return p?.value ?? { sources: {} };
}

export interface QuoteDay {
  date: string;
  key: string;
  quotes: RawQuote[];
}

/** Today's log grows by appends: the lines after the text already parsed are parsed alone. */
const grown = new Map<string, { text: string; quotes: RawQuote[] }>();

export async function readQuoteDays(dataDir: string): Promise<QuoteDay[]> {
  const folder = path.join(dataDir, "quotes");
  const out: QuoteDay[] = [];
  for (const date of await listDays(folder, "ndjson")) {
    const file = path.join(folder, `${date}.ndjson`);
    const f = await cached(file, (text) => {
      const had = grown.get(file);
      // Only after a whole last line: a torn one is cut by the next ingest, not completed.
      const quotes =
        had && had.text.endsWith("\n") && text.startsWith(had.text)
          ? [...had.quotes, ...ndjson<RawQuote>(text.slice(had.text.length))]
          : ndjson<RawQuote>(text);
      grown.set(file, { text, quotes });
      return quotes;
    });
    if (f) out.push({ date, key: f.key, quotes: f.value });
  }
  // A day compacted away is read no more: its text and quotes are let go.
  const listed = new Set(out.map((d) => path.join(folder, `${d.date}.ndjson`)));
  for (const file of grown.keys()) if (path.dirname(file) === folder && !listed.has(file)) grown.delete(file);
  for (const file of cache.keys()) if (path.dirname(file) === folder && !listed.has(file)) cache.delete(file);
  return out;
}

/** Every row of a reference folder (official/ or global/), in date-file order then line order. */
export async function readRefs(dataDir: string, folder: "official" | "global"): Promise<RawRef[]> {
  const dir = path.join(dataDir, folder);
  const out: RawRef[] = [];
  for (const date of await listDays(dir, "ndjson")) {
    const f = await cached(path.join(dir, `${date}.ndjson`), (t) => ndjson<RawRef>(t));
    if (f) out.push(...f.value);
  }
  return out;
}

/** The compacted days: date → its lines (one per asset). */
export async function readHistory(dataDir: string): Promise<Map<string, DayClose[]>> {
  const dir = path.join(dataDir, "history");
  const out = new Map<string, DayClose[]>();
  for (const date of await listDays(dir, "ndjson")) {
    const f = await cached(path.join(dir, `${date}.ndjson`), (t) => ndjson<DayClose>(t));
    if (f) out.set(date, f.value);
  }
  return out;
}
