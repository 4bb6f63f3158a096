/**
 * The sellers' records (docs/methodology.md §13): `/api/v1/sellers/{id}.json`, the id in any letter
 * case, answered from its published file as the archive's history is (src/edge/archive.ts), with its
 * ETag; an id with no record is a 404 that lists the ids there are. `/api/v1/sellers.json` is a file
 * like any other. No node:* imports.
 */
import { SELLERS_PREFIX, files as F } from "../feed/paths.js";
import type { Manifest } from "../schema/documents.js";
import type { HandlerDeps } from "./deps.js";
import { problems } from "../core/http-problem.js";
import { fileRepresentation, selfEtag, withSelf, type Representation } from "./representation.js";

/** The ids of the sellers with a published record (`api/v1/sellers/<id>.json`), in code-point order. */
export function recordedSellers(m: Manifest): string[] {
  const folder = F.seller("").slice(0, -".json".length);
  return Object.keys(m.files)
    .filter((f) => f.startsWith(folder) && f.endsWith(".json"))
    .map((f) => f.slice(folder.length, -".json".length))
    .sort();
}

/** The answer of a seller's record path, or null for any other path. */
export async function sellerRepresentation(url: URL, m: Manifest, deps: HandlerDeps): Promise<Representation | null> {
  const { pathname } = url;
  if (!pathname.startsWith(SELLERS_PREFIX)) return null;
  const name = pathname.slice(SELLERS_PREFIX.length);
  // Only `<id>.json` names a record: another name is the handler's plain 404.
  if (!name.endsWith(".json") || name.includes("/")) return null;
  const raw = name.slice(0, -".json".length);
  let wanted: string;
  try {
    wanted = decodeURIComponent(raw).toLowerCase();
  } catch {
    wanted = raw.toLowerCase(); // not percent-encoded UTF-8: no seller is named so
  }
  const file = F.seller(wanted);
  // Only files the manifest lists are read: an id that names none is a 404, whatever it holds.
  if (!Object.hasOwn(m.files, file)) throw problems.unknownSeller(wanted, recordedSellers(m));
  const r = await fileRepresentation(file, m, deps);
  const self = pathname + url.search;
  return {
    ...r,
    etag: await selfEtag(r.etag, `/${file}`, self),
    body: () => withSelf(r.body() as string, `/${file}`, self),
  };
}
