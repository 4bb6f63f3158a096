/**
 * The links and licence every API document starts with (the feed, its variants, the archive): what
 * it is, its licence, its own path and where its description, changelog and terms are.
 */
import type { Site } from "../schema/inputs.js";
import { CHANGELOG_PATH, DOCS_PATH, OPENAPI_PATH, TERMS_PATH } from "./paths.js";

export function documentHeader(site: Site, self: string) {
  return {
    _about: site.about,
    _disclaimer: site.disclaimer,
    _license: site.license,
    _self: self,
    _docs: DOCS_PATH,
    _spec: OPENAPI_PATH,
    _changelog: CHANGELOG_PATH,
    _terms: TERMS_PATH,
    schemaVersion: 1 as const,
  };
}
