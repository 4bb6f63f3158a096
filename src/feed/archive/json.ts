/**
 * The archive's JSON written by hand, in canonical form: the very bytes core/canonical.ts gives
 * (keys sorted, fast-json-stable-stringify's spelling of numbers and strings), without walking and
 * sorting every object: a large archive's entries and seller rows, serialized generically, were most
 * of a build's time and its garbage (docs/performance.md). test/feed/archive-json.test.ts
 * holds each writer to canonical() on random values and on every archive file of the sample.
 */
import { canonical } from "../../core/canonical.js";
import type { ArchiveEntry, ArchiveSeller } from "../../schema/archive.js";
import type { DaySeller } from "../../rules/archive.js";

/** A number or null as canonical() writes it (a non-finite number is null, as in JSON). */
const num = (n: number | null): string => (n === null || !Number.isFinite(n) ? "null" : `${n}`);
const str = (s: string | null): string => (s === null ? "null" : JSON.stringify(s));

function seller(s: ArchiveSeller | null): string {
  return s === null ? "null" : `{"id":${str(s.id)},"seller":${str(s.seller)},"sellerAr":${str(s.sellerAr)}}`;
}

/** An archive entry; its keys in sorted order. */
export function entryJson(e: ArchiveEntry): string {
  const o = e.official;
  return (
    `{"bench":${num(e.bench)},"bestBuy":${seller(e.bestBuy)},"bestSell":${seller(e.bestSell)},` +
    `"buyHi":${num(e.buyHi)},"buyLo":${num(e.buyLo)},"date":${str(e.date)},"global":${num(e.global)},` +
    `"official":${o === null ? "null" : `{"buy":${num(o.buy)},"sell":${num(o.sell)}}`},` +
    `"sellHi":${num(e.sellHi)},"sellLo":${num(e.sellLo)},"sellerCount":${num(e.sellerCount)}}`
  );
}

/** A seller row of a day; its keys in sorted order. */
export function daySellerJson(r: DaySeller): string {
  return (
    `{"buy":${num(r.buy)},"id":${str(r.id)},"observedAt":${str(r.observedAt)},"sell":${num(r.sell)},` +
    `"seller":${str(r.seller)},"sellerAr":${str(r.sellerAr)},"source":${str(r.source)},` +
    `"sources":[${r.sources.map(str).join(",")}]}`
  );
}

/** One asset of a day (src/schema/archive.ts DayAsset): its head, its entry and its table; keys sorted. */
export function dayAssetJson(
  a: {
    category: string;
    decimals: number;
    id: string;
    kind: string;
    market: string;
    name: string;
    nameAr: string;
    slug: string;
    unit: string;
    retired?: string | undefined;
  },
  entry: string,
  sellers: readonly DaySeller[],
): string {
  return (
    `{"category":${str(a.category)},"decimals":${num(a.decimals)},"entry":${entry},"id":${str(a.id)},` +
    `"kind":${str(a.kind)},"market":${str(a.market)},"name":${str(a.name)},"nameAr":${str(a.nameAr)},` +
    // A retired asset says from when (src/feed/archive/retired.ts); canonical order puts it before "sellers".
    (a.retired === undefined ? "" : `"retired":${str(a.retired)},`) +
    `"sellers":[${sellers.map(daySellerJson).join(",")}],"slug":${str(a.slug)},"unit":${str(a.unit)}}`
  );
}

/**
 * `{...head, [key]: []}` in canonical form, cut where the items go: the text before them and after.
 * The header is serialized with an empty array in their place (no string of ours holds `"<key>":[]`
 * unescaped).
 */
export function itemsCut(head: Record<string, unknown>, key: string): [before: string, after: string] {
  const h = canonical({ ...head, [key]: [] });
  const marker = `${JSON.stringify(key)}:[]`;
  const at = h.indexOf(marker) + marker.length - 1;
  return [h.slice(0, at), h.slice(at)];
}

/** `{...head, [key]: [items]}` in canonical form from the items already written. */
export function withItems(head: Record<string, unknown>, key: string, items: readonly string[]): string {
  const [before, after] = itemsCut(head, key);
  return `${before}${items.join(",")}${after}`;
}
