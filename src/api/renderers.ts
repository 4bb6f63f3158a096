/** The documents rendered from the built feed beside it (OpenAPI, pages). */
import type { Renderer } from "../feed/site.js";

export const apiRenderers: readonly Renderer[] = [];
