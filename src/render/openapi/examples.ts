/**
 * The OpenAPI description's examples, from this build: a one-asset feed, the index, the changelog,
 * the sources document, readiness at the build instant, every problem as the handler makes it, the
 * archive's documents and the newest events, as JSON and as Atom.
 */
import { manifestHead, type RenderContext } from "../../feed/site.js";
import { API, FEED_PATH, files, urlOf } from "../../feed/paths.js";
import { readiness } from "../../feed/readiness.js";
import { selectAssets } from "../../feed/filters.js";
import { ALLOWED_METHODS, type ProblemSlug } from "../../core/http-contract.js";
import { HttpProblem, problems } from "../../core/http-problem.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { addDays } from "../../core/cairo.js";
import { historyCsv } from "../../feed/archive/csv.js";
import type { Manifest, Problem, SourceHealth } from "../../schema/documents.js";
import { atomFeed } from "../atom.js";
import { eventNames } from "../pages/events.js";
import type { ArchiveExamples, EventsExamples, OpenApiExamples, SellersExamples } from "./parts.js";

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
export function examples(ctx: RenderContext): { ex: OpenApiExamples; etag: string; observedAt: number } {
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
    "unknown-seller": {
      ...bodyOf(problems.unknownSeller("no-such-bank", [...ctx.sellers.records.keys()].sort())),
      instance: `${API}/sellers/no-such-bank.json`,
    },
  };
  const ex: OpenApiExamples = {
    feed: { ...ctx.assetFeed(pick), _self: `${FEED_PATH}?asset=${pick.slug}` },
    index: ctx.index,
    changelog: ctx.input.changelog,
    sources: withoutUnknownNames(ctx.sources),
    readiness: now.status === 200 ? { ready: now.body } : { notReady: now.body },
    problems: list,
    archive: archiveExamples(ctx, pick.slug),
    events: eventsExamples(ctx),
    sellers: sellersExamples(ctx, pick.id),
  };
  // Header examples belong to the example asset, so the description changes only when it does.
  return {
    ex,
    etag: ctx.etag(feedPath),
    observedAt: pick.observedAt ? Date.parse(pick.observedAt) : input.nowMs,
  };
}

/**
 * The sources document with no unknown seller name: those are words a page sent, and the description
 * never repeats them (issue 50, item 8: ten thousand of them once added 604 KB to openapi.json).
 */
function withoutUnknownNames(doc: SourceHealth): SourceHealth {
  return {
    ...doc,
    sources: doc.sources.map((s) => ({ ...s, unknownSellers: [], unknownNames: [], unknownNamesMore: 0 })),
  };
}

/** The archive's examples, cut down from its documents: the example asset's last days, one asset of the last day. */
function archiveExamples(ctx: RenderContext, slug: string): ArchiveExamples {
  const { days } = ctx.archive;
  const history = ctx.archive.history(slug);
  const entries = history.entries.slice(-3);
  const from = entries[0]?.date ?? null;
  const last = days.days.at(-1);
  const day = last ? ctx.archive.day(last.date) : null;
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

/** The sellers' list cut to its first three, and the record of one seller of the example asset, cut to that asset. */
function sellersExamples(ctx: RenderContext, asset: string): SellersExamples {
  const { list, records } = ctx.sellers;
  const record = [...records.values()].find((r) => r.assets.some((a) => a.id === asset)) ?? [...records.values()][0];
  return {
    list: { ...list, sellers: list.sellers.slice(0, 3) },
    record: record
      ? {
          ...record,
          assets: record.assets
            .filter((a) => a.id === asset)
            .concat(record.assets)
            .slice(0, 1),
        }
      : null,
  };
}

/** The newest events of the build, as JSON and as the Atom feed of those events. */
function eventsExamples(ctx: RenderContext): EventsExamples {
  const all = ctx.events(null);
  const events = { ...all, events: all.events.slice(0, 2) };
  const { license, baseUrl } = ctx.input.dataset.site;
  return { events, atom: atomFeed(events, eventNames(ctx), license, baseUrl) };
}

/** A date without data, between two dates with data when the archive has a gap, else before its first. */
function noSuchDayExample(ctx: RenderContext): Problem {
  const dates = ctx.archive.days.days.map((d) => d.date);
  const gap = dates.findIndex((d, i) => i > 0 && addDays(dates[i - 1]!, 1) < d);
  const date = gap > 0 ? addDays(dates[gap - 1]!, 1) : addDays(dates[0] ?? "2026-01-02", -1);
  const earlier = dates.filter((d) => d < date).at(-1) ?? null;
  const later = dates.find((d) => d > date) ?? null;
  return { ...bodyOf(problems.noSuchDay(date, earlier, later)), instance: `${API}/days/${date}.json` };
}
