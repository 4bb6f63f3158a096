/**
 * Every file of the published site, its manifest entry and the publishing state, from a dataset and
 * the build instant. Pure apart from hashing; src/io/site-writer.ts puts the result on disk.
 */
import { canonical, composeWithAssets, webHashing, withoutGeneratedAt, type Hashing } from "../core/canonical.js";
import { FEED_PATH, VARIANT_PATHS, files, urlOf } from "./paths.js";
import { buildAssets } from "./assets.js";
import { buildReport } from "./build-report.js";
import { buildIndex } from "./index-doc.js";
import { SERIES_WINDOW_DAYS } from "../core/methodology.js";
import { cairoDate, isoUtc } from "../core/cairo.js";
import type { Dataset } from "../core/dataset.js";
import type { Asset, Feed } from "../schema/outputs.js";
import type {
  BuildReport,
  Changelog,
  IndexDoc,
  Manifest,
  PublishedState,
  SourceHealth,
  SourceRuns,
} from "../schema/documents.js";
import type { Day, Days, History } from "../schema/archive.js";
import { buildSourceHealth } from "./sources-doc.js";
import { documentHeader } from "./header.js";
import { archiveFiles } from "./archive/compose.js";
import { catalogToday } from "./archive/retired.js";
import type { ArchiveMade, KeptFile, PartFile } from "./archive/types.js";
import type { Made, PictureTarget, Plan, Reuse } from "./plan.js";
import { putItems, type ItemsFile, type ItemsWriter } from "./site-items.js";
import { NO_EVENTS, nextEvents, summarize } from "./events.js";
import { eventsDocs } from "./events-doc.js";
import type { Event, Events, EventsState } from "../schema/events.js";
import { sellerDocs, type SellerDocs } from "./sellers-doc.js";

export const JSON_TYPE = "application/json; charset=utf-8";
export const HTML_TYPE = "text/html; charset=utf-8";

export interface SiteFile {
  path: string;
  body: string;
  contentType: string;
  /**
   * What the ETag hashes: the body, for a JSON document without its `generatedAt`. A function, called
   * once when the ETag is made: the text it returns is a copy of the body, and 615 such copies held
   * until publishing were a tenth of a large build's live heap.
   */
  etagInput: () => string;
  /** The document to check against the file's schema instead of the body (src/feed/archive/history.ts historyFiles). */
  check?: string | undefined;
  /** A file whose bytes come before `body` (a history file's part: copied, never read); `check` is then checked. */
  prefix?: PartFile | undefined;
  /**
   * Its ETag hashes what it is made of (`etagInput`, the program included), not its bytes, so the
   * site being replaced stands for it while it has the file under the same ETag (the plan's file()):
   * then the file is kept as it is and `body`, a getter, is never read (a past day's pages,
   * src/render/pages/day.ts).
   */
  keepable?: boolean | undefined;
}

export interface SiteInput {
  dataset: Dataset;
  changelog: Changelog;
  nowMs: number;
  previous: PublishedState;
  /**
   * docs/methodology.md, the rulebook the docs page publishes, as the page's HTML: read and rendered
   * by the io layer (src/render/pages/methodology-html.ts).
   */
  methodologyHtml: string;
  /** Ingest's record of each source's runs (data/state/sources.json), for the source health file. */
  sourceRuns: SourceRuns;
  /**
   * What earlier builds left (src/feed/plan.ts; src/incremental/): what it keeps is not made again,
   * and the archive's compacted days come through it. Without it the dataset's records must hold
   * every day's closes (a dataset loaded in full, or made in memory).
   */
  reuse?: Reuse;
  /** data/state/events.json: the previous build's summary and the events kept (docs/methodology.md §12). */
  events?: EventsState;
  /** Events the site being replaced published: their ids keep their content (events.ts nextEvents). */
  publishedEvents?: readonly Event[];
  /** What the build's start has to say (a record recovered, a record started anew): report warnings. */
  notes?: readonly string[];
  /**
   * The program's fingerprint (src/incremental/fingerprint.ts programFingerprint): with it, the pages that are
   * a function of what they are made of (SiteFile.keepable) are known by it, and kept from the site
   * being replaced while it stands; without it they are made, and hashed, every build.
   */
  programKey?: string;
}

/**
 * A picture the pages drew as SVG (an asset's card, src/render/pages/card-image.ts), published as
 * PNG: the plan keeps the one drawn before of the same SVG (Plan.picture), or the sink draws it (SiteSink.image).
 */
export interface ImageFile {
  path: string;
  svg: string;
  /** The picture's size in pixels, as its SVG sets it: a PNG drawn or kept of another size is refused. */
  width: number;
  height: number;
}
export const PNG_TYPE = "image/png";

/**
 * Extra documents rendered from the built feed (OpenAPI, Atom, pages; src/render/). A renderer
 * yields its files one at a time, and each is hashed and handed to the sink before the next is made.
 */
export type Renderer = (ctx: RenderContext) => Iterable<SiteFile | ImageFile>;
/**
 * The documents a renderer is handed, typed (the changelog is `input.changelog`): those the build
 * holds as the very values it serialized; the archive's, which it never holds whole, as ArchiveDocuments.
 */
export interface RenderContext {
  feed: Feed;
  input: SiteInput;
  /** The feed of one asset, as its pre-filtered file has it (feedFiles). */
  assetFeed(a: Asset): Feed;
  index: IndexDoc;
  sources: SourceHealth;
  /** The events document of every asset (`slug` null) or of one (eventsDocs). */
  events(slug: string | null): Events;
  archive: ArchiveDocuments;
  /** The sellers' list and records (docs/methodology.md §13), as published. */
  sellers: SellerDocs;
  /** The ETag of a file made before, as the manifest gives it. */
  etag(path: string): string;
}

/** The archive's documents: the list of days as made, the others read back when asked for. */
export interface ArchiveDocuments {
  days: Days;
  /**
   * An asset's history, or a day: written item by item or after their closed part, copied, they are
   * never whole in the build (docs/performance.md "Memory"), so a renderer gets one at a time.
   */
  history(slug: string): History;
  day(date: string): Day;
}

/**
 * Where composeSite puts each file once it is made and hashed. The build's writes the file into the
 * folder being published and keeps none of its text (src/io/site-writer.ts SiteFolder): a large
 * site's 615 documents, held until the end, were about 45 MB of its 110 MB live heap.
 */
export interface SiteSink {
  put(f: SiteFile): void;
  /** Puts a file an earlier build wrote, as it is (src/feed/archive/types.ts KeptFile): it was checked when written. */
  keep(path: string, from: string, sha256?: string): void;
  /** The text of a file put before (the archive's documents read back: ArchiveDocuments). */
  text(path: string): string;
  /** Begins a file written item by item (src/feed/site-items.ts); checks the document without its items. */
  openItems(path: string, head: string, tail: string): ItemsWriter;
  /**
   * Draws a picture the plan did not keep as PNG, from its SVG, where the plan says (PictureTarget):
   * where its bytes are and their ETag, to be put as a kept file (the rasterizer is the build's:
   * src/jobs/card-images.ts). Equal SVGs give equal bytes and ETags. A sink without it takes no picture.
   */
  image?(f: ImageFile, to: PictureTarget): Promise<KeptFile>;
}

export interface Site {
  manifest: Manifest;
  state: PublishedState;
  report: BuildReport;
  feed: Feed;
  /** The record of events after this build, for the next (data/state/events.json). */
  events: EventsState;
  /** What the build made that its plan did not keep (src/feed/plan.ts), to be recorded once the site is published. */
  made: Made;
}

export function feedHeader(ds: Dataset, self: string, generatedAt: string): Omit<Feed, "assets"> {
  return {
    ...documentHeader(ds.site, self),
    // Where a static host (the mirror) has what the edge would filter: the query is not read there.
    _variants: { ...VARIANT_PATHS },
    seriesWindowDays: SERIES_WINDOW_DAYS,
    generatedAt,
  };
}

export function jsonFile(path: string, value: unknown): SiteFile {
  const body = canonical(value);
  return { path, body, contentType: JSON_TYPE, etagInput: () => withoutGeneratedAt(body) };
}

function feedFile(path: string, header: Omit<Feed, "assets">, assetJson: readonly string[]): SiteFile {
  const body = composeWithAssets(header, assetJson);
  return { path, body, contentType: JSON_TYPE, etagInput: () => withoutGeneratedAt(body) };
}

/**
 * The feed and its pre-filtered variants: one per category, one per asset (docs/data-formats.md "The output: `public/`").
 * Each asset is serialized once; a file is made when the next is asked for.
 */
export function* feedFiles(ds: Dataset, feed: Feed): Generator<SiteFile> {
  const json = feed.assets.map((a) => canonical(a));
  const head = (path: string) => feedHeader(ds, urlOf(path), feed.generatedAt);
  yield feedFile(files.feed, head(files.feed), json);
  const categories = [...new Set(feed.assets.map((a) => a.category))];
  for (const c of categories) {
    const path = files.category(c);
    yield feedFile(
      path,
      head(path),
      json.filter((_, i) => feed.assets[i]!.category === c),
    );
  }
  for (const [i, a] of feed.assets.entries()) {
    const path = files.asset(a.slug);
    yield feedFile(path, head(path), [json[i]!]);
  }
}

/** What the manifest says besides its files: what the handler and /readyz need of the catalog and the feed. */
export function manifestHead(
  ds: Dataset,
  feed: Feed,
  retired: NonNullable<Manifest["retired"]> = [],
): Omit<Manifest, "files"> {
  return {
    schemaVersion: 1,
    generatedAt: feed.generatedAt,
    categories: [...new Set(ds.catalog.map((a) => a.category))],
    assets: feed.assets.map((a) => ({ id: a.id, slug: a.slug, category: a.category, observedAt: a.observedAt })),
    // Only when some asset is retired, so that a manifest without any keeps its bytes.
    ...(retired.length > 0 && { retired }),
    calendar: ds.calendar.categories,
  };
}

/**
 * Hashes a file made, records it and puts it into the sink, unless the plan keeps the one the site
 * being replaced has; a file kept is recorded and linked (composeSite).
 */
type Finish = (
  made: Iterable<SiteFile | ImageFile> | AsyncIterable<SiteFile | ItemsFile | { kept: KeptFile }>,
  plan: Plan | null,
) => Promise<void>;

/**
 * Makes every file, in order: the feed files, the archive, the sellers' documents, the index, the
 * changelog and the sources document, then each renderer's. Each file is hashed for the manifest and
 * the state as soon as it is made, then put into the sink, so that a sink that writes it out need
 * keep no text.
 */
export async function composeSite(
  input: SiteInput,
  sink: SiteSink,
  renderers: readonly Renderer[] = [],
  hashing: Hashing = webHashing,
): Promise<Site> {
  const { nowMs } = input;
  const generatedAt = isoUtc(nowMs);

  // Last-Modified moves exactly when the ETag does (docs/data-formats.md "The output: `public/`": the ETag and Last-Modified): HTTP dates have whole seconds.
  const lastModifiedNow = isoUtc(Math.floor(nowMs / 1000) * 1000);
  const state: PublishedState = { files: {} };
  const manifestFiles: Manifest["files"] = {};
  const changed: string[] = [];
  const record = (path: string, etag: string, contentType: string, bytes: number) => {
    const prev = input.previous.files[path];
    const lastModified = prev && prev.etag === etag ? prev.lastModified : lastModifiedNow;
    if (!prev || prev.etag !== etag) changed.push(path);
    state.files[path] = { etag, lastModified };
    manifestFiles[path] = { etag, lastModified, contentType, bytes };
  };
  const keep = (k: KeptFile) => {
    record(k.path, k.etag, k.contentType, k.bytes);
    sink.keep(k.path, k.from, k.sha256);
  };
  /** A body is read once (a past day's page is made by its getter: SiteFile.keepable) and held only while it is put. */
  const put = (f: SiteFile, etag: string) => {
    const body = f.body;
    record(f.path, etag, f.contentType, (f.prefix?.bytes ?? 0) + hashing.byteLength(body));
    sink.put({
      path: f.path,
      body,
      contentType: f.contentType,
      etagInput: f.etagInput,
      check: f.check,
      prefix: f.prefix,
    });
  };
  // `plan`: what the builds before left (src/feed/plan.ts): a file made now may be the very one the site being replaced has.
  const finish: Finish = async (made, plan) => {
    for await (const m of made) {
      if ("kept" in m) {
        keep(m.kept);
        continue;
      }
      if ("svg" in m) {
        const p = plan?.picture(m);
        if (!p || !sink.image) throw new Error(`${m.path}: this site's sink takes no picture`);
        keep("from" in p ? p : await sink.image(m, p));
        continue;
      }
      let f: SiteFile = m as SiteFile;
      if ("items" in m) {
        const out = await putItems(m, sink, hashing);
        if ("etag" in out) record(m.path, out.etag, m.contentType, out.bytes);
        if (!("body" in out)) continue;
        f = out; // made whole: the hashing takes no pieces
      }
      const etag = await hashing.etag(f.etagInput());
      const same = plan?.file(f, etag) ?? null;
      if (same) keep(same);
      else put(f, etag);
    }
  };
  const data = await composeData(input, finish, hashing, (path) => manifestFiles[path]!.etag);
  const { ds, feed } = data;
  const sources = buildSourceHealth(
    ds.sources.sources,
    data.fedBy,
    input.sourceRuns,
    generatedAt,
    ds.probation,
    ds.registry,
  );
  const events = nextEvents(
    input.events ?? NO_EVENTS,
    summarize(feed, sources),
    nowMs,
    input.publishedEvents,
    ds.probation,
  );
  const index = buildIndex(ds.catalog, ds.site);
  const eventDocs = new Map(eventsDocs(ds, feed, events));
  await finish(
    [
      jsonFile(files.index, index),
      jsonFile(files.changelog, input.changelog),
      jsonFile(files.sources, sources),
      ...[...eventDocs].map(([path, doc]) => jsonFile(path, doc)),
    ],
    data.plan,
  );
  /** An archive document as written: checked against its schema then (src/feed/validate.ts). */
  const readBack = <T>(path: string): T => JSON.parse(sink.text(path)) as T;
  const ctx: RenderContext = {
    feed,
    // The pages list today's catalog (the archive's documents still hold a retired asset's days).
    input: data.retired.length ? { ...input, dataset: ds } : input,
    assetFeed: (a) => ({ ...feedHeader(ds, urlOf(files.asset(a.slug)), generatedAt), assets: [a] }),
    index,
    sources,
    events: (slug) => eventDocs.get(slug === null ? files.events : files.assetEvents(slug))!,
    sellers: data.sellers,
    archive: {
      days: data.days,
      history: (slug) => readBack<History>(files.history(slug)),
      day: (date) => readBack<Day>(files.day(date)),
    },
    etag: (path) => {
      const entry = manifestFiles[path];
      if (!entry) throw new Error(`${path} is not built yet`);
      return entry.etag;
    },
  };
  for (const render of renderers) await finish(render(ctx), data.plan);

  const manifest: Manifest = { ...manifestHead(ds, feed, data.retired), files: manifestFiles };
  return {
    manifest,
    state,
    report: { ...data.report, files: Object.keys(manifestFiles).length, changedFiles: changed },
    feed,
    events,
    made: data.made,
  };
}

/**
 * The files made from the data: the feed files, the archive and the sellers' documents, each put
 * by `finish`. What they are made of and nothing later reads — the references, every asset's
 * records, the closes' columns of the sellers' records — is let go when this returns, so that it is
 * not held while the pages are rendered: an async function keeps each of its locals until it
 * returns, and V8 lets the heap grow to about four times what it holds before collecting again
 * (docs/performance.md "Memory").
 */
async function composeData(input: SiteInput, finish: Finish, hashing: Hashing, etagOf: (path: string) => string) {
  const { dataset: full, nowMs } = input;
  const generatedAt = isoUtc(nowMs);
  const today = cairoDate(nowMs);
  const result = buildAssets(full, nowMs, input.reuse);
  // Today's catalog: a retired asset is in no feed, variant, index, event or page; the archive keeps it.
  const { ds, retired } = catalogToday(full, today, result);
  const feed: Feed = { ...feedHeader(ds, FEED_PATH, generatedAt), assets: result.assets };
  const plan = result.plan;
  await finish(feedFiles(ds, feed), plan);
  let archive: ArchiveMade | undefined;
  await finish(
    (async function* () {
      const made = archiveFiles({
        ds: full,
        records: result.records,
        refs: result.refs,
        plan: plan ?? undefined,
        today,
        etagOf,
        digest: (text) => hashing.etag(text),
      });
      // An archive document has no generatedAt: its ETag hashes the whole body, or what it says.
      let next = await made.next();
      for (; !next.done; next = await made.next()) {
        const f = next.value;
        yield "kept" in f || "items" in f
          ? f
          : { ...f, etagInput: () => f.etagInput ?? f.body, check: f.check, prefix: f.prefix };
      }
      archive = next.value;
    })(),
    plan,
  );
  const sellers = sellerDocs(ds.site, ds.registry, feed, archive!.records);
  await finish(sellers.files(jsonFile), plan);
  return {
    ds,
    retired,
    feed,
    days: archive!.days,
    sellers,
    fedBy: result.fedBy,
    // The archive's warnings are complete once it is composed.
    report: buildReport(result, generatedAt, input.notes ?? []),
    made: { closes: result.made, part: archive!.part } satisfies Made,
    // The plan holds none of what the data was made of: the pages and pictures ask it what to keep.
    plan,
  };
}
