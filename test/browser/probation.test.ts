/**
 * The quotes of a source on probation on the pages (docs/methodology.md §2.4), in a real browser:
 * the simulated market with one aggregator put back on probation, built and served on loopback.
 * The asset page lists its quotes under "Being checked" with the rules' verdict in plain words, the
 * sources page says where each source stands, and axe-core finds no violation on either, in English
 * and Arabic, at a desktop and a phone width, in the light and the dark palette, under the served CSP.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild } from "../../src/jobs/build.js";
import type { RunningServer } from "../../src/server/serve.js";
import { tempDir } from "../helpers/dataset.js";
import { SAMPLE_NOW } from "../helpers/pages.js";
import { testServer } from "../helpers/site.js";
import { axeViolations } from "../helpers/axe.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: set CHROMIUM_PATH.`);
  const data = await tempDir("pf-probation-pages-");
  await writeSample({ out: data, nowMs: SAMPLE_NOW, days: 30, assets: 15, sellers: 14, seed: "pages", compact: true });
  // market-watch, an aggregator, back on probation: its configuration no longer says otherwise.
  const file = path.join(data, "sources.json");
  const cfg = JSON.parse(await fs.readFile(file, "utf8")) as { sources: Array<Record<string, unknown>> };
  cfg.sources = cfg.sources.map((s) => {
    if (s["id"] !== "market-watch") return s;
    const { probation: _p, note: _n, ...rest } = s;
    return rest;
  });
  await fs.writeFile(file, JSON.stringify(cfg));
  const out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs: SAMPLE_NOW });
  server = await testServer(out, { nowMs: SAMPLE_NOW + 60_000 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const PAGES = ["/assets/us-dollar/", "/ar/assets/us-dollar/", "/sources/", "/ar/sources/"];

describe("a source on probation, on the pages", () => {
  test("the asset page lists its quotes apart, in plain words; the sources page says where it stands", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/assets/us-dollar/`);
    expect(res?.headers()["content-security-policy"]).toContain("default-src 'none'");
    const section = page.locator("section[aria-labelledby=probation-h]");
    await expect(section.locator("h2").textContent()).resolves.toBe("Being checked");
    const rows = await section.locator("tbody tr").allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.includes("Market watch aggregator (simulated)"))).toBe(true);
    expect(rows.some((r) => r.includes("passed our checks"))).toBe(true);
    await page.goto(`${server.url}/ar/sources/`);
    const row = await page.locator("#source-market-watch").textContent();
    expect(row).toContain("تحت الاختبار: أسعاره لا تُحتسب بعد");
    expect(await page.locator("#source-bank-sites").textContent()).toContain("تُحتسب من البداية");
    await context.close();
  });

  test.each([1280, 390].flatMap((w) => (["light", "dark"] as const).map((s) => [w, s] as const)))(
    "at %i px in the %s palette: axe-core finds no violation on the asset and sources pages, in either language",
    async (width, colorScheme) => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      const page = await context.newPage();
      const found: string[] = [];
      for (const p of PAGES) {
        await page.goto(server.url + p);
        found.push(...(await axeViolations(page)));
      }
      await context.close();
      expect(found).toEqual([]);
    },
    60_000,
  );
});
