/**
 * What composeSite renders beside the feed files, in order: each is a Renderer, handed the build's
 * documents (src/feed/site.ts RenderContext).
 */
import type { Renderer } from "../feed/site.js";
import { eventsAtomRenderer } from "./atom.js";
import { openapiRenderer } from "./openapi/index.js";
import { pageRenderer } from "./pages/index.js";

/** The Atom feeds first: the OpenAPI description quotes one. */
export const renderers: readonly Renderer[] = [eventsAtomRenderer, openapiRenderer, pageRenderer];
