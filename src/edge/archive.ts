/**
 * The archive's answers (docs/methodology.md §5.5): `/api/v1/history/{asset}.json` and `.csv`, the
 * asset by slug or id in any letter case (as `?asset=`), narrowed to `?from=`/`?to=` here, at the
 * edge; `/api/v1/days/{date}.json`, whose 404 names the nearest dates there are. No node:* imports.
 */
import { canonical, strongEtag } from "../core/canonical.js";
import { DAYS_PREFIX, HISTORY_PREFIX, files as F } from "../feed/paths.js";
import { historyCsv } from "../feed/archive/csv.js";
import type { History } from "../schema/archive.js";
import type { Manifest } from "../schema/documents.js";
import type { HandlerDeps } from "./deps.js";
import { problems } from "../core/http-problem.js";
import { fileRepresentation, selfEtag, withSelf, type Representation } from "./representation.js";

/** A calendar date written YYYY-MM-DD that exists (2026-02-30 does not). */
export function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Two dates that exist (isDate), in calendar order: compared as days, never as strings. */
const byDate = (a: string, b: string) => Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`);

/** `?from=` and `?to=`: inclusive Cairo dates, either may be absent; a bad one is a 400 naming it. */
export function dateRange(params: URLSearchParams): { from: string | null; to: string | null } {
  const one = (name: "from" | "to") => {
    const all = params.getAll(name);
    if (all.length === 0) return null;
    if (all.length > 1) throw problems.invalidDate(name, `?${name}= is given ${all.length} times; give it once.`);
    const v = all[0]!;
    if (!isDate(v))
      throw problems.invalidDate(name, `?${name}=${JSON.stringify(v.slice(0, 32))} is not a date that exists.`);
    return v;
  };
  const from = one("from");
  const to = one("to");
  if (from !== null && to !== null && from > to)
    throw problems.invalidDate("from", `?from=${from} is after ?to=${to}.`);
  return { from, to };
}

/** The answer of an archive path, or null for any other path. */
export async function archiveRepresentation(url: URL, m: Manifest, deps: HandlerDeps): Promise<Representation | null> {
  const { pathname } = url;
  if (pathname.startsWith(DAYS_PREFIX)) {
    const name = pathname.slice(DAYS_PREFIX.length);
    // Only `<date>.json` names a day: another name ("2026-11-19.JSON") is the handler's plain 404.
    if (!name.endsWith(".json")) return null;
    const date = name.slice(0, -".json".length);
    if (Object.hasOwn(m.files, F.day(date))) return null; // a published file: served as any other
    // A malformed or impossible date is the caller's to fix, as in ?from= (400 invalid-date).
    if (!isDate(date))
      throw problems.invalidDate("date", `${JSON.stringify(date.slice(0, 32))} in the path is not a date that exists.`);
    const dates = Object.keys(m.files)
      .filter((f) => f.startsWith("api/v1/days/") && f.endsWith(".json"))
      .map((f) => f.slice("api/v1/days/".length, -".json".length))
      .filter(isDate)
      .sort(byDate);
    const earlier = dates.filter((d) => byDate(d, date) < 0).at(-1) ?? null;
    const later = dates.find((d) => byDate(d, date) > 0) ?? null;
    throw problems.noSuchDay(date, earlier, later);
  }
  if (!pathname.startsWith(HISTORY_PREFIX)) return null;
  const name = pathname.slice(HISTORY_PREFIX.length);
  const ext = name.endsWith(".csv") ? "csv" : name.endsWith(".json") ? "json" : null;
  if (ext === null) return null; // not an archive file: the handler's 404
  const raw = name.slice(0, -(ext.length + 1));
  let wanted: string;
  try {
    wanted = decodeURIComponent(raw).toLowerCase();
  } catch {
    wanted = raw.toLowerCase(); // not percent-encoded UTF-8: no asset is named so
  }
  // A retired asset's archive stays published (src/feed/archive/retired.ts): its paths answer too.
  const archived = [...m.assets, ...(m.retired ?? [])];
  const asset = archived.find((a) => a.slug === wanted || a.id.toLowerCase() === wanted);
  if (!asset)
    throw problems.unknownAssetPath(
      wanted,
      archived.map((a) => a.slug),
    );
  const { from, to } = dateRange(url.searchParams);
  const jsonFile = F.history(asset.slug);
  const self = pathname + url.search;
  if (from === null && to === null) {
    const file = ext === "json" ? jsonFile : F.historyCsv(asset.slug);
    const r = await fileRepresentation(file, m, deps);
    return ext === "json"
      ? {
          ...r,
          etag: await selfEtag(r.etag, `/${file}`, self),
          body: () => withSelf(r.body() as string, `/${file}`, self),
        }
      : r;
  }
  // Narrowed: made from the JSON's entries, with the same functions the build uses, so a range that
  // keeps every day gives the file's own bytes (but for _self).
  const whole = await fileRepresentation(jsonFile, m, deps);
  const typeOf = ext === "json" ? whole.contentType : m.files[F.historyCsv(asset.slug)]?.contentType;
  if (typeOf === undefined) throw problems.fileMissing();
  const narrowed = () => {
    const doc = JSON.parse(whole.body() as string) as History;
    const entries = doc.entries.filter((e) => (from === null || e.date >= from) && (to === null || e.date <= to));
    return { ...doc, _self: self, from: entries[0]?.date ?? null, to: entries.at(-1)?.date ?? null, entries };
  };
  // The ETag hashes the bytes answered (RFC 9110 §8.8.3), as the build's do: two spellings of one range
  // differ in `_self`, and a range wholly in the past keeps its ETag while its days do not change,
  // whatever today's entry does to the whole file's.
  const body = ext === "json" ? canonical(narrowed()) : historyCsv(narrowed().entries);
  return { ...whole, etag: await strongEtag(body), contentType: typeOf, body: () => body };
}
