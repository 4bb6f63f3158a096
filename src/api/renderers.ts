/**
 * The documents rendered from the built feed beside it: the OpenAPI description and the pages
 * people read — home, one page per asset and terms, each in English and in Arabic (under /ar/), and
 * the docs. Each is a Renderer that composeSite runs after the feed files.
 */
import { HTML_TYPE, JSON_TYPE, manifestHead, type RenderContext, type Renderer, type SiteFile } from "../feed/site.js";
import { canonical } from "../core/canonical.js";
import { flat } from "../core/flat.js";
import {
  API,
  DOCS_PATH,
  FEED_PATH,
  SOURCES_PAGE_PATH,
  TERMS_PATH,
  assetPagePath,
  files,
  localized,
  urlOf,
  type PageLang,
} from "../feed/paths.js";
import { readiness } from "../edge/readyz.js";
import { httpDate } from "../edge/conditional.js";
import { selectAssets } from "../edge/filters.js";
import { ALLOWED_METHODS, HttpProblem, problems, type ProblemSlug } from "../edge/problem.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import { buildOpenApi } from "./openapi.js";
import { atomFeed, eventsAtomRenderer } from "./events-atom.js";
import { eventNames } from "./pages/events.js";
import type { EventsExamples } from "./openapi-parts.js";
import type { Events } from "../schema/events.js";
import { homesOf } from "../feed/homes.js";
import type { ArchiveExamples, OpenApiExamples } from "./openapi-parts.js";
import type { Day, Days, History } from "../schema/archive.js";
import { historyCsv } from "../feed/archive-csv.js";
import { addDays } from "../core/cairo.js";
import { renderDocs } from "./pages/docs.js";
import { renderArabicDocs } from "./pages/docs-ar.js";
import { renderHome } from "./pages/home.js";
import { renderTerms } from "./pages/terms.js";
import { renderSources } from "./pages/sources.js";
import { renderAssetPage } from "./pages/asset.js";
import type { Feed } from "../schema/outputs.js";
import type { Changelog, IndexDoc, Manifest, Problem, SourceHealth } from "../schema/documents.js";

const parsed = <T>(ctx: RenderContext, path: string): T => JSON.parse(ctx.text(path)) as T;

/** The body the handler sends for a problem, at the feed's path. */
const bodyOf = (p: HttpProblem) => p.body(FEED_PATH) as Problem;

function filterProblem(m: Pick<Manifest, "categories" | "assets">, query: string): Problem {
  try {
    selectAssets(new URLSearchParams(query), m);
  } catch (e) {
    if (e instanceof HttpProblem) return bodyOf(e);
    throw e;
  }
  throw new Error(`the filter ${query} was accepted`);
}

/** Examples from this build: a one-asset feed, the index, the changelog, readiness, every problem. */
function examples(ctx: RenderContext): { ex: OpenApiExamples; etag: string; observedAt: number } {
  const { feed, input } = ctx;
  const pick = feed.assets.find((a) => a.market === "competitive") ?? feed.assets[0]!;
  const feedPath = files.asset(pick.slug);
  const m: Manifest = { ...manifestHead(input.dataset, feed), files: {} };
  const now = readiness(m, input.nowMs);
  const list: Partial<Record<ProblemSlug, Problem>> = {
    "unknown-category": filterProblem(m, "category=crypto"),
    "unknown-asset": filterProblem(m, "asset=bitcoin"),
    "too-many-parameters": bodyOf(problems.tooManyParameters()),
    "invalid-encoding": bodyOf(problems.invalidEncoding("asset")),
    "not-found": { ...bodyOf(problems.notFound(API)), instance: `${API}/prices.json` },
    "method-not-allowed": bodyOf(problems.methodNotAllowed(ALLOWED_METHODS)),
    "uri-too-long": bodyOf(problems.uriTooLong()),
    "rate-limited": bodyOf(problems.rateLimited(WINDOW_LIMIT, WINDOW_SECONDS, 17)),
    "daily-limit": bodyOf(problems.dailyLimit(DAILY_LIMIT, 20_520)),
    unavailable: bodyOf(problems.unavailable()),
    "precondition-failed": bodyOf(problems.preconditionFailed("If-Match")),
    "invalid-date": {
      ...bodyOf(problems.invalidDate("from", '?from="2026-02-30" is not a date that exists.')),
      instance: `${API}/history/${pick.slug}.json`,
    },
    "unknown-asset-path": {
      ...bodyOf(
        problems.unknownAssetPath(
          "bitcoin",
          m.assets.map((a) => a.slug),
        ),
      ),
      instance: `${API}/history/bitcoin.json`,
    },
    "no-such-day": noSuchDayExample(ctx),
  };
  const ex: OpenApiExamples = {
    feed: { ...parsed<Feed>(ctx, feedPath), _self: `${FEED_PATH}?asset=${pick.slug}` },
    index: parsed<IndexDoc>(ctx, files.index),
    changelog: parsed<Changelog>(ctx, files.changelog),
    sources: parsed<SourceHealth>(ctx, files.sources),
    readiness: now.status === 200 ? { ready: now.body } : { notReady: now.body },
    problems: list,
    archive: archiveExamples(ctx, pick.slug),
    events: eventsExamples(ctx),
  };
  // Header examples belong to the example asset, so the description changes only when it does.
  return {
    ex,
    etag: ctx.etag(feedPath),
    observedAt: pick.observedAt ? Date.parse(pick.observedAt) : input.nowMs,
  };
}

/** The archive's examples, cut down from the build's files: the example asset's last days, one asset of the last day. */
function archiveExamples(ctx: RenderContext, slug: string): ArchiveExamples {
  const days = parsed<Days>(ctx, files.days);
  const history = parsed<History>(ctx, files.history(slug));
  const entries = history.entries.slice(-3);
  const from = entries[0]?.date ?? null;
  const last = days.days.at(-1);
  const day = last ? parsed<Day>(ctx, files.day(last.date)) : null;
  return {
    history: {
      ...history,
      _self: `${urlOf(files.history(slug))}${from ? `?from=${from}` : ""}`,
      from,
      to: entries.at(-1)?.date ?? null,
      entries,
    },
    csv: historyCsv(entries),
    day: day && {
      ...day,
      assets: day.assets
        .filter((a) => a.slug === slug)
        .concat(day.assets)
        .slice(0, 1),
    },
    days: { ...days, days: days.days.slice(-3) },
  };
}

/** The newest events of the build, as JSON and as the Atom feed of those events. */
function eventsExamples(ctx: RenderContext): EventsExamples {
  const all = parsed<Events>(ctx, files.events);
  const events = { ...all, events: all.events.slice(0, 2) };
  const { license, baseUrl } = ctx.input.dataset.site;
  return { events, atom: atomFeed(events, eventNames(ctx), license, baseUrl) };
}

/** A date without data, between two dates with data when the archive has a gap, else before its first. */
function noSuchDayExample(ctx: RenderContext): Problem {
  const dates = parsed<Days>(ctx, files.days).days.map((d) => d.date);
  const gap = dates.findIndex((d, i) => i > 0 && addDays(dates[i - 1]!, 1) < d);
  const date = gap > 0 ? addDays(dates[gap - 1]!, 1) : addDays(dates[0] ?? "2026-01-02", -1);
  const earlier = dates.filter((d) => d < date).at(-1) ?? null;
  const later = dates.find((d) => d > date) ?? null;
  return { ...bodyOf(problems.noSuchDay(date, earlier, later)), instance: `${API}/days/${date}.json` };
}

export const openapiRenderer: Renderer = function* (ctx) {
  const { ex, etag, observedAt } = examples(ctx);
  const doc = buildOpenApi(ex, {
    description: ctx.input.dataset.site.about,
    license: ctx.input.dataset.site.license,
    contact: ctx.input.dataset.site.contact,
    homes: homesOf(ctx.input.dataset.site),
    etagExample: etag,
    lastModifiedExample: httpDate(observedAt),
  });
  const body = canonical(doc);
  // The examples carry the build instant (generatedAt, and checkedAt of readiness): as in the feed,
  // it is not part of the ETag, so an hourly rebuild of unchanged data keeps the description's ETag.
  yield {
    path: files.openapi,
    body,
    contentType: JSON_TYPE,
    etagInput: () => body.split(ctx.feed.generatedAt).join(""),
  };
};

/** A page's file; its text is flattened (core/flat.ts): a page is rendered from many small pieces. */
const page = (path: string, body: string, etagInput = () => body): SiteFile => ({
  path,
  body: flat(body),
  contentType: HTML_TYPE,
  etagInput,
});
const LANGS: readonly PageLang[] = ["en", "ar"];

/** Each page is rendered when the next is asked for (composeSite writes one before making another). */
export const pageRenderer: Renderer = function* (ctx) {
  for (const lang of LANGS) yield page(files.page(localized("/", lang)), renderHome(ctx, lang));
  // An asset's two pages one after the other: what they share (its charts by period, periods.ts) is
  // made once and let go before the next asset's.
  for (const a of ctx.feed.assets)
    for (const lang of LANGS)
      yield page(files.page(localized(assetPagePath(a.slug), lang)), renderAssetPage(ctx, a, lang));
  for (const lang of LANGS) {
    yield page(files.page(localized(TERMS_PATH, lang)), renderTerms(ctx, lang));
    yield page(
      files.page(localized(SOURCES_PAGE_PATH, lang)),
      renderSources(ctx, parsed<SourceHealth>(ctx, files.sources), lang),
    );
  }
  // The docs quote a real answer, generatedAt included: as for the feed, the build instant is not
  // part of the ETag, so an hourly rebuild of unchanged data keeps the page's ETag.
  const docs = renderDocs(ctx);
  yield page(files.docs, docs, () => docs.split(ctx.feed.generatedAt).join(""));
  yield page(files.page(localized(DOCS_PATH, "ar")), renderArabicDocs(ctx));
};

/** The Atom feeds first: the OpenAPI description quotes one. */
export const apiRenderers: readonly Renderer[] = [eventsAtomRenderer, openapiRenderer, pageRenderer];
