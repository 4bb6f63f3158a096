/**
 * What a renderer is handed (src/feed/site.ts RenderContext), for a page's own tests: the simulated
 * market (test/helpers/pages.ts, 100 days) built once with a renderer that keeps its context and
 * makes no page, so that a test renders one page at a time from inputs it changes (a closed market,
 * a seller on probation, a day without sellers). The archive's documents are read while the build
 * runs (its folder is moved into place after) and served from memory.
 */
import path from "node:path";
import type { RenderContext } from "../../src/feed/site.js";
import type { Day, History } from "../../src/schema/archive.js";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild } from "../../src/jobs/build.js";
import { tempDir } from "./dataset.js";
import { SAMPLE_NOW } from "./pages.js";

export async function sampleContext(nowMs = SAMPLE_NOW): Promise<RenderContext> {
  const data = await tempDir("pf-render-");
  await writeSample({ out: data, nowMs, days: 100, assets: 15, sellers: 14, seed: "pages", compact: true });
  let kept: RenderContext | undefined;
  await runBuild({
    dataDir: data,
    outDir: path.join(data, "public"),
    nowMs,
    saveState: false,
    renderers: [
      (ctx) => {
        const days = new Map<string, Day>(ctx.archive.days.days.map((d) => [d.date, ctx.archive.day(d.date)]));
        const histories = new Map<string, History>(ctx.feed.assets.map((a) => [a.slug, ctx.archive.history(a.slug)]));
        kept = {
          ...ctx,
          archive: { days: ctx.archive.days, day: (d) => days.get(d)!, history: (slug) => histories.get(slug)! },
        };
        return [];
      },
    ],
  });
  return kept!;
}
