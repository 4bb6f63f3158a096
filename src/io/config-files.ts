/** The configuration of a data folder (src/core/data-layout.ts CONFIG_FILES), read and checked together. */
import { DataError } from "../core/errors.js";
import { Calendar, Catalog, Registry, Site, Sources } from "../schema/inputs.js";
import { dataPaths } from "../core/data-layout.js";
import { readJson } from "./json-file.js";

export interface Config {
  catalog: Catalog;
  registry: Registry;
  calendar: Calendar;
  site: Site;
  sources: Sources;
}

/** Each file checked with its schema, then across files: every asset's category has trading sessions. */
export async function loadConfig(dir: string): Promise<Config> {
  const p = dataPaths(dir);
  const [catalog, registry, calendar, site, sources] = await Promise.all([
    readJson(p.catalog, Catalog, dir),
    readJson(p.registry, Registry, dir),
    readJson(p.calendar, Calendar, dir),
    readJson(p.site, Site, dir),
    readJson(p.sources, Sources, dir),
  ]);
  for (const a of catalog)
    if (!calendar.categories[a.category])
      throw new DataError(p.calendar, `no trading sessions for category "${a.category}" (asset ${a.id})`);
  return { catalog, registry, calendar, site, sources };
}
