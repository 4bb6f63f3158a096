/** The API's changelog is data kept beside this module (`changelog.json`), validated on every build. */
import { fileURLToPath } from "node:url";
import { readJson } from "../io/files.js";
import { Changelog } from "../schema/outputs.js";

export const CHANGELOG_FILE = fileURLToPath(new URL("./changelog.json", import.meta.url));

export function loadChangelog(file = CHANGELOG_FILE): Promise<Changelog> {
  return readJson(file, Changelog);
}
