/**
 * The sellers' documents (docs/methodology.md §13): `/api/v1/sellers.json`, every registered seller
 * that has quoted some asset of today's catalog, and `/api/v1/sellers/{id}.json`, its record per
 * asset with today's row. Made from the records the archive computed from the closes it wrote
 * (src/feed/archive/records.ts) and from the feed: pure.
 */
import type { RegistrySeller, Site } from "../schema/inputs.js";
import type { Feed } from "../schema/outputs.js";
import type { SellerRecord, Sellers } from "../schema/sellers.js";
import { RECORD_WINDOWS, type RecordWindow } from "../rules/records.js";
import type { ArchiveRecords } from "./archive/records.js";
import { documentHeader } from "./header.js";
import { files, urlOf } from "./paths.js";

export interface SellerDocs {
  list: Sellers;
  /** Each listed seller's record, by id, in the list's order. */
  records: Map<string, SellerRecord>;
  /** Their files, the list first, each made when the next is asked for (`file`: src/feed/site.ts jsonFile). */
  files<F>(file: (path: string, doc: unknown) => F): Generator<F>;
}

const identity = (s: RegistrySeller) => ({
  id: s.id,
  name: s.name,
  nameAr: s.nameAr,
  kind: s.kind,
  licensedBy: s.licensedBy,
});

const window = (w: RecordWindow, windowDays: number) => ({ windowDays, ...w });

/**
 * Both documents, from the registry, the feed (today's catalog, in its order; each asset's asOf and
 * table) and the archive's records. A seller's record lists the assets it has a close of in the
 * archive; a reference asset has none (§13).
 */
export function sellerDocs(
  site: Site,
  registry: readonly RegistrySeller[],
  feed: Feed,
  records: ArchiveRecords,
): SellerDocs {
  const byId = new Map(registry.map((s) => [s.id, { seller: s, assets: [] as SellerRecord["assets"] }]));
  for (const a of feed.assets) {
    if (a.market === "reference") continue;
    for (const [id, r] of records.of(a.id)) {
      const entry = byId.get(id);
      if (!entry) continue; // a close is a registered seller's (§2.1 test 1): never reached
      const { id: assetId, slug, name, nameAr, category, kind, market, unit, decimals, asOf } = a;
      entry.assets.push({
        ...{ id: assetId, slug, name, nameAr, category, kind, market, unit, decimals, asOf },
        today: a.sellers.find((row) => row.id === id) ?? null,
        short: window(r.short, RECORD_WINDOWS.short),
        long: window(r.long, RECORD_WINDOWS.long),
      });
    }
  }
  const out = new Map<string, SellerRecord>();
  const listed: Sellers["sellers"] = [];
  for (const { seller, assets } of byId.values()) {
    if (assets.length === 0) continue;
    const path = files.seller(seller.id);
    out.set(seller.id, { ...documentHeader(site, urlOf(path)), seller: identity(seller), assets });
    listed.push({ ...identity(seller), assets: assets.map((a) => a.slug), _self: urlOf(path) });
  }
  const list: Sellers = { ...documentHeader(site, urlOf(files.sellers)), sellers: listed };
  return {
    list,
    records: out,
    *files(file) {
      yield file(files.sellers, list);
      for (const [id, doc] of out) yield file(files.seller(id), doc);
    },
  };
}
