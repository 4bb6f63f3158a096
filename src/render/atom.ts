/**
 * The events as Atom feeds (RFC 4287; docs/methodology.md §12): /api/v1/events.atom and one per asset
 * at /api/v1/events/asset/{slug}.atom, rendered from the events documents of the same build, one entry
 * per event. Atom allows one title per entry (RFC 4287 §4.1.2), so the title says it in English and
 * Arabic, and the content (XHTML) gives each language its own paragraph, direction and language tag.
 * Written with the pages' `html` template: XML escapes text and quoted attributes as HTML does.
 */
import { v5 as uuidv5 } from "uuid";
import type { RenderContext, Renderer, SiteFile } from "../feed/site.js";
import { SOURCES_PAGE_PATH, assetPagePath, files, localized, urlOf } from "../feed/paths.js";
import type { Event, Events } from "../schema/events.js";
import { html, join, type SafeHtml } from "./pages/html.js";
import { eventNames, eventSentence, type EventNames } from "./pages/events.js";

export const ATOM_TYPE = "application/atom+xml; charset=utf-8";

/**
 * The namespace of the feeds' and entries' name-based UUIDs (RFC 9562 §5.5): an atom:id must be an
 * absolute IRI that never changes (RFC 4287 §4.2.6). A site need not say its address (site.json
 * `baseUrl` is optional) and may move, so each id is `urn:uuid:` of a UUID made from the path or the
 * event's id, not a URL.
 */
export const EVENTS_UUID_NAMESPACE = "011c2ab6-8655-483e-8089-880f25f66399";

export const atomId = (name: string) => `urn:uuid:${uuidv5(name, EVENTS_UUID_NAMESPACE)}`;

const link = (rel: string, type: string, href: string, hreflang?: string) =>
  html`<link rel="${rel}" type="${type}"${hreflang ? html` hreflang="${hreflang}"` : ""} href="${href}"/>`;

/** The pages an event is about: its asset's page, or the sources page, in both languages. */
function pageOf(e: Event): string {
  return e.asset === null ? SOURCES_PAGE_PATH : assetPagePath(e.asset);
}

function entry(e: Event, names: EventNames): SafeHtml {
  const en = eventSentence(e, names, "en");
  const ar = eventSentence(e, names, "ar");
  return html`<entry>
<id>${atomId(e.id)}</id>
<title type="text">${`${en} — ${ar}`}</title>
<updated>${e.at}</updated>
<category term="${e.kind}"/>
${link("alternate", "text/html", pageOf(e), "en")}
${link("alternate", "text/html", localized(pageOf(e), "ar"), "ar")}
<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p xml:lang="en" lang="en">${en}.</p><p xml:lang="ar" lang="ar" dir="rtl">${ar}.</p></div></content>
</entry>`;
}

/** One Atom feed document from the events document of the same path. */
export function atomFeed(doc: Events, names: EventNames, license: string, baseUrl?: string): string {
  const slug = doc.asset;
  const file = slug === null ? files.eventsAtom : files.assetEventsAtom(slug);
  const self = urlOf(file);
  const about = slug === null ? null : names.asset(slug);
  const home = slug === null ? "/" : assetPagePath(slug);
  const title = about ? `Price Feed: what changed — ${about.name}` : "Price Feed: what changed";
  // The feed changes when an entry does: its newest entry's instant; with no entry, the build
  // instant, which the ETag then leaves out, as the JSON's leaves out generatedAt.
  const updated = doc.events[0]?.at ?? doc.generatedAt;
  // The links are paths: with the site's address known, xml:base resolves them for any reader
  // (RFC 4287 §2); without it, a reader resolves them against the feed's own URL.
  const base = baseUrl ? html` xml:base="${baseUrl.replace(/\/?$/, "/")}"` : "";
  const entries = doc.events.map((e) => entry(e, names));
  return html`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en"${base}>
<id>${atomId(self)}</id>
<title type="text">${title}</title>
<subtitle type="text">Every change the hourly builds saw in the last ${doc.retentionDays} days, newest first.</subtitle>
<updated>${updated}</updated>
<author><name>Price Feed</name></author>
<rights type="text">${license}</rights>
${link("self", "application/atom+xml", self)}
${link("alternate", "application/json", doc._self)}
${link("alternate", "text/html", home, "en")}
${link("alternate", "text/html", localized(home, "ar"), "ar")}
${join(entries, "\n")}
</feed>
`.text;
}

/** Every Atom feed of the build, from the events documents it is handed. */
export const eventsAtomRenderer: Renderer = function* (ctx: RenderContext): Generator<SiteFile> {
  const names = eventNames(ctx);
  const { license, baseUrl } = ctx.input.dataset.site;
  for (const slug of [null, ...ctx.feed.assets.map((a) => a.slug)]) {
    const doc = ctx.events(slug);
    const path = slug === null ? files.eventsAtom : files.assetEventsAtom(slug);
    const body = atomFeed(doc, names, license, baseUrl);
    // Only a feed whose `updated` is the build instant (no entry) leaves it out.
    const instant = doc.events.length === 0;
    yield {
      path,
      body,
      contentType: ATOM_TYPE,
      etagInput: () => (instant ? body.split(doc.generatedAt).join("") : body),
    };
  }
};
