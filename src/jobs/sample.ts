/**
 * `price-feed sample`: writes a complete simulated dataset in the input formats of `data/`, ending
 * at `now`. With `compact`, days older than the raw retention go straight to their daily closes,
 * exactly what `price-feed compact` would make of them (tested).
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { DateTime } from "luxon";
import { addDays, CAIRO, cairoDate } from "../core/cairo.js";
import { dailyRefs } from "../rules/references.js";
import type { Located } from "../core/dataset.js";
import { closeRawDay, sourceOrder, type Maps } from "../rules/days.js";
import { daySummary, historyText, retentionStart, summaryText } from "../rules/compact.js";
import { recordOf } from "../core/dataset.js";
import { CONFIG_FILES, dataPaths, dayLogName, FOLDERS, LOG_FOLDERS } from "../core/data-layout.js";
import { createHash } from "node:crypto";
import type { GlobalRate, OfficialRate, Quote, Site, Sources } from "../schema/inputs.js";
import { CALENDAR, GLOBAL_SOURCE, OFFICIAL_SOURCE, QUOTE_SOURCES } from "../sample/catalog.js";
import { SampleMarket, type SampleConfig } from "../sample/market.js";
import { writeFailure } from "../io/atomic-write.js";
import { withDataLock } from "../io/data-lock.js";

export interface SampleOptions extends SampleConfig {
  out: string;
  nowMs: number;
  days: number;
  compact: boolean;
}

export const SIMULATED_SITE: Site = {
  about:
    "Indicative prices of Egypt's licensed money market (currencies and gold from licensed banks, exchange houses and dealers). " +
    "THIS DEPLOYMENT SERVES SIMULATED SAMPLE DATA: the sellers are fictional and every number is generated.",
  disclaimer: "Indicative rates for information only; not financial advice and not an offer to buy or sell.",
  license: "Data licensed CC BY 4.0. Official rates: Central Bank of Egypt (simulated in this sample).",
  simulated: true,
};

const line = (o: object) => `${JSON.stringify(o)}\n`;
const quoteLine = (q: Quote) =>
  line({ source: q.source, seller: q.seller, asset: q.asset, buy: q.buy, sell: q.sell, observedAt: q.observedAt });

/** Top-of-hour instants of a Cairo date up to `nowMs` (23 or 25 on daylight-saving days). */
function hoursOf(date: string, nowMs: number): number[] {
  const start = DateTime.fromISO(date, { zone: CAIRO }).toMillis();
  const end = DateTime.fromISO(addDays(date, 1), { zone: CAIRO }).toMillis();
  const out: number[] = [];
  for (let t = start; t < end && t <= nowMs; t += 3_600_000) out.push(t);
  return out;
}

export function sampleSources(cfg: SampleConfig): Sources {
  return {
    sources: [...QUOTE_SOURCES, OFFICIAL_SOURCE, GLOBAL_SOURCE].map((s) => ({
      id: s.id,
      name: s.name,
      nameAr: s.nameAr,
      adapter: "demo",
      kind: s.kind,
      enabled: true,
    })),
    demo: { seed: cfg.seed, assets: cfg.assets, sellers: cfg.sellers },
  };
}

/**
 * Writes the dataset under the data folder's lock (src/io/data-lock.ts): `npm run sample` over
 * data/ while an ingest appends to it would interleave the two.
 */
export async function writeSample(o: SampleOptions): Promise<{ files: number; bytes: number }> {
  return withDataLock(o.out, { command: "sample", nowMs: o.nowMs }, () => writeUnlocked(o));
}

async function writeUnlocked(o: SampleOptions): Promise<{ files: number; bytes: number }> {
  const market = new SampleMarket(o);
  const today = cairoDate(o.nowMs);
  const first = addDays(today, -(o.days - 1));
  const compactBefore = o.compact ? retentionStart(o.nowMs) : first;
  const files = new Map<string, string>();
  const put = (name: string, text: string) => text && files.set(name, text);
  put(
    CONFIG_FILES.catalog,
    `${JSON.stringify(
      market.assets.map(({ level: _l, dailyVol: _v, goldGrams: _g, ...a }) => a),
      null,
      2,
    )}\n`,
  );
  put(CONFIG_FILES.registry, `${JSON.stringify(market.sellers, null, 2)}\n`);
  put(CONFIG_FILES.calendar, `${JSON.stringify(CALENDAR, null, 2)}\n`);
  put(CONFIG_FILES.site, `${JSON.stringify(SIMULATED_SITE, null, 2)}\n`);
  put(CONFIG_FILES.sources, `${JSON.stringify(sampleSources(o), null, 2)}\n`);

  // Pass 1: the reference rates of every day (plausibility of old days needs the official rate).
  const officialRows: Array<Located<OfficialRate>> = [];
  const dates: string[] = [];
  for (let d = first; d <= today; d = addDays(d, 1)) dates.push(d);
  for (const date of dates) {
    let off = "";
    let glob = "";
    for (const h of hoursOf(date, o.nowMs)) {
      const obs = market.hour(h, { quotes: false });
      for (const r of obs.official) {
        off += line(r);
        officialRows.push({ value: r, file: dayLogName(LOG_FOLDERS.official, date), line: 0 });
      }
      for (const g of obs.global as GlobalRate[]) glob += line(g);
    }
    put(dayLogName(LOG_FOLDERS.official, date), off);
    put(dayLogName(LOG_FOLDERS.global, date), glob);
  }

  // Pass 2: seller quotes, raw for recent days; compacted days need only each source's last hour.
  const maps: Maps = {
    assets: new Map(market.assets.map((a) => [a.id, a])),
    sellers: new Map(market.sellers.map((s) => [s.id, s])),
  };
  const official = dailyRefs(officialRows, maps.assets, o.nowMs, []);
  const order = sourceOrder(sampleSources(o).sources);
  for (const date of dates) {
    if (date < compactBefore) {
      const quotes: Quote[] = [];
      for (const asset of market.assets) {
        const last = market.sessionHours(asset, date).at(-1);
        if (last !== undefined) quotes.push(...market.hour(last, { only: (a) => a === asset }).quotes);
      }
      const day = {
        date,
        file: dayLogName(LOG_FOLDERS.quotes, date),
        quotes: quotes.map((q) => ({ quote: q, file: "", line: 0 })),
      };
      const closes = closeRawDay(day, o.nowMs, maps, official, order).closes;
      const text = historyText(closes);
      put(dayLogName(FOLDERS.history, date), text);
      if (!text) continue; // a day without quotes has no history file, so no summary
      // What `price-feed compact` writes beside it (src/jobs/compact.ts runCompact), byte for byte.
      const hash = createHash("sha256").update(text).digest("hex");
      put(dayLogName(FOLDERS.summaries, date, "json"), summaryText(daySummary(date, hash, closes.map(recordOf))));
      continue;
    }
    let text = "";
    for (const h of hoursOf(date, o.nowMs)) for (const q of market.hour(h).quotes) text += quoteLine(q);
    put(dayLogName(LOG_FOLDERS.quotes, date), text);
  }

  // Written over an older dataset (`npm run sample` over data/), a day is raw or compacted, never
  // both: a raw file of a day now compacted, or closes of a day now raw, would be stale (the build
  // ignores the raw file of a compacted day, and warns).
  const superseded: string[] = dates
    .filter((d) => d >= compactBefore)
    .flatMap((d) => [dayLogName(FOLDERS.history, d), dayLogName(FOLDERS.summaries, d, "json")]);
  if (o.compact)
    for (const name of await fs.readdir(dataPaths(o.out).quotes).catch(() => [] as string[]))
      if (/^\d{4}-\d{2}-\d{2}\.ndjson$/.test(name) && name.slice(0, 10) < compactBefore)
        superseded.push(`${LOG_FOLDERS.quotes}/${name}`);
  for (const name of superseded)
    await fs.rm(path.join(o.out, name), { force: true }).catch((e: unknown) => {
      throw writeFailure(path.join(o.out, name), e);
    });

  let bytes = 0;
  for (const [name, text] of files) {
    const file = path.join(o.out, name);
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, text);
    } catch (e) {
      throw writeFailure(file, e); // a full disk names the file (src/io/atomic-write.ts)
    }
    bytes += Buffer.byteLength(text);
  }
  return { files: files.size, bytes };
}
