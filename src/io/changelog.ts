/** The API's changelog is data (`src/render/openapi/changelog.json`), validated on every build. */
import { fileURLToPath } from "node:url";
import { Changelog } from "../schema/documents.js";
import { readJson } from "./json-file.js";

/** From the package root, so that src/io (tests) and dist/io (the compiled CLI) find the same file. */
export const CHANGELOG_FILE = fileURLToPath(new URL("../../src/render/openapi/changelog.json", import.meta.url));

export function loadChangelog(file = CHANGELOG_FILE): Promise<Changelog> {
  return readJson(file, Changelog);
}
