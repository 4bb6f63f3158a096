/**
 * Which assets each source served lately, from the day logs ingest appends to (quotes/, official/,
 * global/): `price-feed health` takes a source's market, and so the sessions in which its failures
 * count, from them (src/feed/health.ts). Only the latest days are read (the raw days that compaction
 * keeps, docs/data-formats.md), and a line that does not parse is passed over: this is a hint, not
 * the data the build checks.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { dataPaths } from "../core/data-layout.js";

/** The latest day logs read per folder. */
export const SOURCE_ASSET_DAYS = 8;

export async function loadSourceAssets(dataDir: string, days = SOURCE_ASSET_DAYS): Promise<Map<string, Set<string>>> {
  const p = dataPaths(dataDir);
  const out = new Map<string, Set<string>>();
  for (const folder of [p.quotes, p.official, p.global]) {
    const names = await fs.readdir(folder).catch(() => [] as string[]);
    const latest = names
      .filter((n) => /^\d{4}-\d{2}-\d{2}\.ndjson$/.test(n))
      .sort()
      .slice(-days);
    for (const name of latest) {
      const text = await fs.readFile(path.join(folder, name), "utf8").catch(() => "");
      for (const line of text.split("\n")) {
        if (!line.includes('"source"')) continue;
        try {
          const row = JSON.parse(line) as { source?: unknown; asset?: unknown };
          if (typeof row.source !== "string" || typeof row.asset !== "string") continue;
          let set = out.get(row.source);
          if (!set) out.set(row.source, (set = new Set()));
          set.add(row.asset);
        } catch {
          // A torn last line (an interrupted append): the build reports it; here it says nothing.
        }
      }
    }
  }
  return out;
}
