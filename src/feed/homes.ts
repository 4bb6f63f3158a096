/**
 * The API's two homes (docs/deployment.md "The second home"): the primary, where the edge runs, and
 * the mirror, the same build served as static files by another provider. Both come from site.json
 * (`baseUrl`, `mirrorUrl`); the index and the OpenAPI description name them.
 */
import type { Site } from "../schema/inputs.js";
import { INDEX_FILE_PATH, VARIANT_PATHS } from "./paths.js";

/** A base URL without its trailing slashes, so that a root-relative path can be put after it. */
const base = (url: string | undefined): string | null => (url === undefined ? null : url.replace(/\/+$/, ""));

export function homesOf(site: Site) {
  return {
    primary: base(site.baseUrl),
    mirror: base(site.mirrorUrl),
    onMirror: {
      index: INDEX_FILE_PATH,
      ...VARIANT_PATHS,
      rule:
        "The mirror serves the files only and does not read the query string. Put the mirror's base URL before each path. " +
        "?category=x with one value is the category file of x and ?asset=x the asset file of x (x a lower-case slug); " +
        "with several values, or an id, read the whole feed and keep the assets you want. ?from=/?to= of the archive are not read: " +
        "the whole history is served. A seller's record is its file, the id lower case as /api/v1/sellers.json lists it. There are no rate limits, problems or /readyz there: a missing file is the host's own 404.",
    },
  };
}
