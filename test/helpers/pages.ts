/**
 * Sites for the page tests: the simulated market (15 assets, 14 sellers, 100 days, so verdicts are
 * not calibrating) built at a fixed instant, and the list of every human page of a built feed.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild } from "../../src/jobs/build.js";
import {
  DAYS_PAGE_PATH,
  SELLERS_PAGE_PATH,
  assetPagePath,
  dayPagePath,
  localized,
  sellerPagePath,
  type PageLang,
} from "../../src/feed/paths.js";
import { cairoDate } from "../../src/core/cairo.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { Sellers } from "../../src/schema/sellers.js";
import { tempDir } from "./dataset.js";

/** Thursday 19 November 2026, 14:05 in Cairo: both markets in session. */
export const SAMPLE_NOW = Date.parse("2026-11-19T12:05:00Z");

export async function sampleSite(
  nowMs = SAMPLE_NOW,
): Promise<{ data: string; out: string; feed: Feed; sellers: string[] }> {
  const data = await tempDir("pf-pages-");
  await writeSample({ out: data, nowMs, days: 100, assets: 15, sellers: 14, seed: "pages", compact: true });
  const out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs });
  const feed = JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")) as Feed;
  return { data, out, feed, sellers: await sellerIds(out) };
}

/** The ids of the sellers a built site lists (/api/v1/sellers.json), in its order: each has a page. */
export async function sellerIds(out: string): Promise<string[]> {
  const doc = JSON.parse(await fs.readFile(path.join(out, "api/v1/sellers.json"), "utf8")) as Sellers;
  return doc.sellers.map((s) => s.id);
}

export interface HumanPage {
  path: string;
  lang: PageLang;
  /** A file-name-safe name for screenshots. */
  name: string;
}

/**
 * Every human page: home, each asset, sources, terms, the docs, the list of sellers and each seller's
 * (`sellers`, the ids of /api/v1/sellers.json: sellerIds), in both languages.
 */
export function humanPages(feed: Feed, sellers: readonly string[]): HumanPage[] {
  const en = [
    "/",
    ...feed.assets.map((a) => assetPagePath(a.slug)),
    "/sources/",
    "/terms/",
    "/docs/",
    SELLERS_PAGE_PATH,
    ...sellers.map(sellerPagePath),
  ];
  const all: Array<[string, PageLang]> = [
    ...en.map((p): [string, PageLang] => [p, "en"]),
    ...en.map((p): [string, PageLang] => [localized(p, "ar"), "ar"]),
  ];
  return all.map(([p, lang]) => ({ path: p, lang, name: p.replace(/^\/|\/$/g, "").replace(/\//g, "-") || "home" }));
}

/** A price as the pages print it: grouped thousands, fixed decimals. */
export const printed = (v: number, decimals: number) =>
  v.toLocaleString("en-GB", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** Cairo wall-clock time of an instant, as the pages print it. */
export const cairoClock = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "Africa/Cairo",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(iso));

/**
 * Of the past days' pages, the list of days and the latest day before the build's, in both
 * languages: the others differ from it by data only. Not in humanPages: the sitemap lists those.
 */
export function pastDayPages(feed: Feed): HumanPage[] {
  const today = cairoDate(Date.parse(feed.generatedAt));
  const latest = feed.assets[0]?.series
    .map((e) => e.date)
    .filter((d) => d < today)
    .at(-1);
  const en = [DAYS_PAGE_PATH, ...(latest ? [dayPagePath(latest)] : [])];
  return [...en, ...en.map((p) => localized(p, "ar"))].map((p) => ({
    path: p,
    lang: p.startsWith("/ar/") ? "ar" : "en",
    name: p.replace(/^\/|\/$/g, "").replace(/\//g, "-"),
  }));
}
