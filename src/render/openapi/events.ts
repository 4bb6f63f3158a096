/**
 * What changed in the OpenAPI description (docs/methodology.md §12): every event and one asset's, as
 * JSON and as Atom (RFC 4287). Static files the build writes, served with the manifest's ETag like
 * the feed. Schemas from src/schema/events.ts; examples cut down from the build's own documents.
 */
import { EVENTS_ATOM_PATH, EVENTS_PATH, files } from "../../feed/paths.js";
import { EVENTS_RETENTION_DAYS } from "../../core/methodology.js";
import { CONDITIONAL, DOCUMENT_ERRORS, headerRefs, ref, type EventsExamples, type Json } from "./parts.js";

export const ASSET_EVENTS_PATH = `/${files.assetEvents("{slug}")}`;
export const ASSET_EVENTS_ATOM_PATH = `/${files.assetEventsAtom("{slug}")}`;

const ATOM_SCHEMA = {
  type: "string",
  description:
    "An Atom feed document (RFC 4287): one entry per event, newest first. Each entry's id is a name-based urn:uuid made from the event's id; its title says the change in English, then in Arabic; its content (XHTML) has a paragraph per language; its alternate links are the asset's page (or the sources page) in English and in Arabic; its category term is the event's kind; updated is the instant of the build that saw it. The feed's updated is its newest entry's, or when the record began.",
};

function operation(json: boolean, one: boolean, ex: EventsExamples | undefined): Json {
  const what = one ? "one asset's events" : "every event";
  const content = json
    ? { "application/json": { schema: ref("schemas", "Events"), ...(ex ? { example: ex.events } : {}) } }
    : { "application/atom+xml": { schema: ATOM_SCHEMA, ...(ex ? { example: ex.atom } : {}) } };
  return {
    get: {
      operationId: `get${one ? "Asset" : ""}Events${json ? "" : "Atom"}`,
      summary: `What changed: ${what}${json ? "" : ", as Atom"}`,
      description: `The changes the hourly builds saw in the last ${EVENTS_RETENTION_DAYS} days, newest first, each with a stable id, the Cairo date and the UTC instant of the build that saw it, and the values before and after: another seller giving a side's best, a side's verdict, the official rate, freshness turning stale or back, the confidence level${one ? "" : ", a source starting to fail or recovering"}. ${one ? "The file of one asset (its slug, lower case, as the index lists it): the same events as the whole list has for it. " : ""}Derived by comparing each published build with the one before (docs/methodology.md §12): a rebuild with the same inputs gives the same events, and a build that changes nothing adds none. A static file with a strong ETag: poll it with If-None-Match.`,
      tags: ["Events"],
      parameters: one ? [ref("parameters", "AssetSlug"), ...CONDITIONAL] : CONDITIONAL,
      responses: {
        "200": {
          description: json ? "The events; _atom is the same list as Atom." : "The events as an Atom feed.",
          headers: headerRefs("ETag", "Last-Modified", "Cache-Control"),
          content,
        },
        ...DOCUMENT_ERRORS,
      },
    },
  };
}

export function eventsPaths(ex: EventsExamples | undefined): Record<string, Json> {
  return {
    [EVENTS_PATH]: operation(true, false, ex),
    [EVENTS_ATOM_PATH]: operation(false, false, ex),
    [ASSET_EVENTS_PATH]: operation(true, true, undefined),
    [ASSET_EVENTS_ATOM_PATH]: operation(false, true, undefined),
  };
}
