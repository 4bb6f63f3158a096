/**
 * The events' JSON documents (docs/methodology.md §12): /api/v1/events.json with every kept event,
 * and /api/v1/events/asset/{slug}.json with one asset's, for every asset of the feed. The Atom twins
 * are rendered from these by the render layer (src/render/atom.ts).
 */
import { EVENTS_RETENTION_DAYS } from "../core/methodology.js";
import type { Dataset } from "../core/dataset.js";
import type { Feed } from "../schema/outputs.js";
import type { Events, EventsState } from "../schema/events.js";
import { documentHeader } from "./header.js";
import { files, urlOf } from "./paths.js";

/** One events document: all events (`slug` null) or one asset's. */
export function eventsDoc(ds: Dataset, state: EventsState, slug: string | null, generatedAt: string): Events {
  const path = slug === null ? files.events : files.assetEvents(slug);
  const atom = slug === null ? files.eventsAtom : files.assetEventsAtom(slug);
  return {
    ...documentHeader(ds.site, urlOf(path)),
    _atom: urlOf(atom),
    asset: slug,
    retentionDays: EVENTS_RETENTION_DAYS,
    generatedAt,
    events: slug === null ? state.events : state.events.filter((e) => e.asset === slug),
  };
}

/** Every events document of a build: the whole list, then each asset's in catalog order. */
export function* eventsDocs(ds: Dataset, feed: Feed, state: EventsState): Generator<[string, Events]> {
  yield [files.events, eventsDoc(ds, state, null, feed.generatedAt)];
  for (const a of feed.assets) yield [files.assetEvents(a.slug), eventsDoc(ds, state, a.slug, feed.generatedAt)];
}
