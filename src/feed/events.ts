/**
 * What changed (docs/methodology.md §12): a build's summary of what it publishes, the events between
 * the previous build's summary and its own, and the record the next build goes on from. Pure: the
 * build instant and both summaries are arguments, so the same inputs and --now give the same events.
 */
import { EVENTS_RETENTION_DAYS } from "../core/methodology.js";
import { cairoDate, isoUtc } from "../core/cairo.js";
import type { Feed } from "../schema/outputs.js";
import type { SourceHealth } from "../schema/documents.js";
import type {
  AssetSummary,
  BuildSummary,
  Event,
  EventKind,
  EventsState,
  OfficialRateValue,
  SourceState,
} from "../schema/events.js";
import type { ProbationState } from "../schema/probation.js";

/** No record yet: the first build records its summary and derives nothing (§12: nothing to compare with). */
export const NO_EVENTS: EventsState = { summary: null, events: [] };

const SIDES = ["sell", "buy"] as const;

/** A source is failing while its last failure is newer than its last success (or it never succeeded). */
export function sourceState(s: SourceHealth["sources"][number]): SourceState {
  const f = s.lastFailure;
  const failing = f !== null && (s.lastSuccessAt === null || Date.parse(f.at) > Date.parse(s.lastSuccessAt));
  return failing ? { state: "failing", reason: f.reason } : { state: "ok", reason: null };
}

/** What the events compare of a published build (§12, "What is compared"). */
export function summarize(feed: Feed, sources: SourceHealth): BuildSummary {
  const assets: Record<string, AssetSummary> = {};
  for (const a of feed.assets) {
    const side = (s: "sell" | "buy") => ({ best: a.directions[s].best, verdict: a.directions[s].verdict });
    assets[a.slug] = {
      sell: side("sell"),
      buy: side("buy"),
      official: a.benchmark && { buy: a.benchmark.buy, sell: a.benchmark.sell },
      freshness: a.freshness.state,
      confidence: a.confidence.level,
    };
  }
  const states: Record<string, SourceState> = {};
  for (const s of sources.sources) states[s.id] = sourceState(s);
  return { assets, sources: states };
}

const sameOfficial = (a: OfficialRateValue | null, b: OfficialRateValue | null) =>
  a === null || b === null ? a === b : a.buy === b.buy && a.sell === b.sell;

/** `20261119T100000Z`: the build instant in an id, without the characters a file name or URL minds. */
const stamp = (at: string) => at.replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");

/**
 * The events between two consecutive summaries, seen by the build at `nowMs`: assets in the current
 * summary's order (the catalog's), each kind in a fixed order, then the sources. An asset or a source
 * that one summary lacks (added or removed from the configuration) has nothing to compare.
 */
export function diffSummaries(prev: BuildSummary, cur: BuildSummary, nowMs: number): Event[] {
  const at = isoUtc(nowMs);
  const date = cairoDate(nowMs);
  const out: Event[] = [];
  const push = <K extends EventKind>(
    kind: K,
    subject: { asset: string } | { source: string },
    side: "sell" | "buy" | null,
    before: Extract<Event, { kind: K }>["before"],
    after: Extract<Event, { kind: K }>["after"],
  ) => {
    const asset = "asset" in subject ? subject.asset : null;
    const source = "source" in subject ? subject.source : null;
    const id = [stamp(at), asset ?? source, kind, ...(side ? [side] : [])].join(".");
    out.push({ id, date, at, asset, source, side, kind, before, after } as Event);
  };
  for (const [slug, now] of Object.entries(cur.assets)) {
    const was = prev.assets[slug];
    if (!was) continue;
    const asset = { asset: slug };
    for (const s of SIDES)
      if ((was[s].best?.seller ?? null) !== (now[s].best?.seller ?? null))
        push("best-seller", asset, s, was[s].best, now[s].best);
    for (const s of SIDES)
      if (was[s].verdict !== now[s].verdict) push("verdict", asset, s, was[s].verdict, now[s].verdict);
    if (!sameOfficial(was.official, now.official)) push("official-rate", asset, null, was.official, now.official);
    if (was.freshness !== now.freshness && (was.freshness === "stale" || now.freshness === "stale"))
      push("freshness", asset, null, was.freshness, now.freshness);
    if (was.confidence !== now.confidence) push("confidence", asset, null, was.confidence, now.confidence);
  }
  for (const [id, now] of Object.entries(cur.sources)) {
    const was = prev.sources[id];
    if (was && was.state !== now.state) push("source", { source: id }, null, was, now);
  }
  return out;
}

/**
 * The probation events (docs/methodology.md "New sources: probation"): one per graduation or return
 * in the record (data/state/probation.json), at the instant of the run that decided it, not later
 * than the build. They come from the record rather than from comparing two builds, so a lost site,
 * cache or events record loses none: the next build makes them again, with the same ids.
 */
export function probationEvents(state: ProbationState | undefined, nowMs: number): Event[] {
  const out: Event[] = [];
  for (const [source, p] of Object.entries(state?.sources ?? {})) {
    let before: "probation" | "graduated" = "probation";
    for (const c of p.changes) {
      const t = Date.parse(c.at);
      if (t <= nowMs)
        out.push({
          id: [stamp(isoUtc(t)), source, "probation"].join("."),
          date: cairoDate(t),
          at: isoUtc(t),
          asset: null,
          source,
          side: null,
          kind: "probation",
          before: { standing: before, reason: null },
          after: { standing: c.standing, reason: c.reason },
        });
      before = c.standing;
    }
  }
  return out;
}

/** Newest first; on one instant, by id (the build's own events keep their order: a stable sort). */
const newestFirst = (a: Event, b: Event) => (a.at === b.at ? 0 : a.at < b.at ? 1 : -1);

/**
 * The record after a build at `nowMs` that publishes `cur`: its events first (newest first), then
 * the kept ones not older than EVENTS_RETENTION_DAYS. An event from a build after `nowMs` (a site
 * rebuilt at an earlier --now, with --force) is dropped too: the record never runs ahead of its build.
 * A rebuild at the instant of the recorded build keeps that build's events (it finds nothing new).
 * `published`: events already published; an event id, once published, keeps its content, so a
 * rebuild that derives the same id again (a --force rebuild of that hour) does not rewrite it.
 */
export function nextEvents(
  prev: EventsState,
  cur: BuildSummary,
  nowMs: number,
  published: readonly Event[] = [],
  probation?: ProbationState,
): EventsState {
  const pinned = new Map(published.map((e) => [e.id, e]));
  const fresh = (prev.summary ? diffSummaries(prev.summary, cur, nowMs) : []).map((e) => pinned.get(e.id) ?? e);
  const oldest = nowMs - EVENTS_RETENTION_DAYS * 86_400_000;
  const ids = new Set(fresh.map((e) => e.id));
  const kept = prev.events.filter((e) => {
    const t = Date.parse(e.at);
    return t >= oldest && t <= nowMs && !ids.has(e.id);
  });
  for (const e of kept) ids.add(e.id);
  // The record's graduations and returns not yet among them (the first build after the run, or after a loss).
  const standing = probationEvents(probation, nowMs).filter((e) => Date.parse(e.at) >= oldest && !ids.has(e.id));
  const events = standing.length ? [...fresh, ...kept, ...standing].sort(newestFirst) : [...fresh, ...kept];
  return { summary: cur, events, builtAt: isoUtc(nowMs) };
}

/** What the site being replaced published: its feed and source health (its summary) and its events. */
export interface PublishedRecord {
  feed: Feed;
  sources: SourceHealth;
  events: readonly Event[];
}

/**
 * The record a build starts from (§12): data/state/events.json, or the published site's when that is
 * newer — the build died after the swap, or the hour's data/ commit was lost after the deploy — so
 * that no published event vanishes; and the published site's when the record could not be read.
 * The published site's summary is made from its own feed and source health, exactly as the build
 * that published it made it. A site built after `nowMs` (a --force rebuild of an earlier hour) is
 * not started from. With no record at all (a first build, or `build --no-state`, which never writes
 * one) the site in the output folder is not one either: what a local build publishes never depends
 * on what an earlier local build left there. `note` says when the published site won.
 */
export function startingRecord(
  state: EventsState | undefined,
  published: PublishedRecord | undefined,
  nowMs: number,
  unreadable = false,
): { record: EventsState | undefined; published: readonly Event[]; note: string | null } {
  if (!published || (!state && !unreadable)) return { record: state, published: [], note: null };
  const publishedAt = Date.parse(published.feed.generatedAt);
  const stateAt = !state
    ? -Infinity
    : state.builtAt !== undefined
      ? Date.parse(state.builtAt)
      : Math.max(-Infinity, ...state.events.map((e) => Date.parse(e.at)));
  const pinned = published.events.filter((e) => Date.parse(e.at) <= nowMs);
  if (!(publishedAt <= nowMs && publishedAt > stateAt)) return { record: state, published: pinned, note: null };
  const ids = new Set(pinned.map((e) => e.id));
  const record: EventsState = {
    summary: summarize(published.feed, published.sources),
    events: [...pinned, ...(state?.events ?? []).filter((e) => !ids.has(e.id))].sort((a, b) =>
      a.at === b.at ? 0 : a.at < b.at ? 1 : -1,
    ),
    builtAt: published.feed.generatedAt,
  };
  const why = !state
    ? "could not be read"
    : `is older (${state.builtAt ?? "written before records kept their build's instant"}) than the site it replaces`;
  return {
    record,
    published: pinned,
    note: `data/state/events.json ${why} (site built ${published.feed.generatedAt}): the record goes on from the published site's events and summary, so no published event is lost`,
  };
}
