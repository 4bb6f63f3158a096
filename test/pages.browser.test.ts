/**
 * The pages in a real browser: Debian's Chromium, driven by playwright-core, loads each page from
 * the local server over loopback, with no console errors, no broken links or anchors, the key
 * content in place and no serious accessibility violation (axe-core). A page on another loopback
 * origin then reads the feed cross-origin, and revalidates it with a 304.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createServer, type Server } from "node:http";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { builtSite, BUILT_AT } from "./helpers/site.js";
import { startServer, type RunningServer } from "../src/server/serve.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let browser: Browser;
let server: RunningServer;
const logs: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH.`);
  const { out } = await builtSite();
  server = await startServer({ dir: out, port: 0, host: "127.0.0.1", nowMs: BUILT_AT + 60_000, limits: { window: 10_000, windowSeconds: 60, daily: 100_000 }, trustProxy: false, log: (l) => logs.push(l) });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page and records every console error, uncaught exception and failed request. */
async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`exception: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  const res = await page.goto(server.url + path);
  expect(res?.status()).toBe(200);
  expect(res?.headers()["content-security-policy"]).toContain("default-src 'none'");
  return { page, problems };
}

/** Every link of the page resolves: the path answers 200 and a #fragment names an element there. */
async function brokenLinks(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).href));
  const broken: string[] = [];
  const bodies = new Map<string, string>();
  for (const href of [...new Set(hrefs)]) {
    const url = new URL(href);
    if (url.origin !== server.url) {
      broken.push(`${href}: leaves the site`);
      continue;
    }
    const doc = url.origin + url.pathname + url.search;
    if (!bodies.has(doc)) {
      const res = await fetch(doc);
      bodies.set(doc, res.status === 200 ? await res.text() : "");
      if (res.status !== 200) broken.push(`${href}: ${res.status}`);
    }
    const id = decodeURIComponent(url.hash.slice(1));
    if (id && !bodies.get(doc)!.includes(`id="${id}"`)) broken.push(`${href}: no element #${id}`);
  }
  return broken;
}

/** axe-core is a script, which the pages' policy forbids: it runs in a context that bypasses CSP. */
async function seriousViolations(shown: Page): Promise<string[]> {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(shown.url());
    await page.addScriptTag({ path: axeSource });
    const result = await page.evaluate(async () => {
      type Axe = { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> };
      return (globalThis as unknown as { axe: Axe }).axe.run(document, { resultTypes: ["violations"] });
    });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
  } finally {
    await context.close();
  }
}

/** What every page must be: no console error or failed request, no broken link, no serious axe violation. */
async function expectSound(page: Page, problems: string[]): Promise<void> {
  expect(problems).toEqual([]);
  expect(await brokenLinks(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await page.close();
}

describe("the pages in Chromium", () => {
  test("today's market: every asset with its best sellers, verdict, references, freshness and chart", async () => {
    const { page, problems } = await open("/");
    expect(await page.locator("h1").textContent()).toBe("Today's market");
    const feed = (await (await fetch(`${server.url}/api/v1/feed.json`)).json()) as { assets: Array<{ slug: string; name: string; market: string; directions: { sell: { best: { value: number | null; sellerAr: string | null } | null } } }> };
    for (const a of feed.assets) {
      const card = page.locator(`article#${a.slug}`);
      await expect(card.locator("h3").textContent()).resolves.toContain(a.name);
      expect(await card.locator("svg.chart[role=img]").count()).toBe(1);
      expect(await card.locator("svg.chart polygon.sell").count()).toBeGreaterThan(0);
      await expect(card.textContent()).resolves.toMatch(/Freshness/);
      const best = a.directions.sell.best;
      if (a.market !== "reference" && best?.value != null) await expect(card.textContent()).resolves.toContain(String(best.value));
    }
    await expect(page.locator("body").textContent()).resolves.toMatch(/(Favorable|Weak|Ordinary) day|Mixed signals|Calibrating/);
    // Arabic names are isolated and laid out right to left.
    const arabic = page.locator('bdi[lang="ar"]').first();
    expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    expect(await arabic.textContent()).toMatch(/[\u0600-\u06FF]/);
    await expectSound(page, problems);
  }, 60_000);

  test("docs: the URL contract, every field, filters, conditional requests, errors, limits, methodology", async () => {
    const { page, problems } = await open("/docs/");
    const text = (await page.locator("main").textContent())!;
    for (const heading of ["Quick start", "The URL contract", "Fields", "Filters", "Conditional requests", "Errors", "Limits", "Versioning and changelog", "How the numbers are made", "Which quotes are used", "The verdict, one side at a time", "Freshness", "Confidence", "Licensed sellers"])
      expect(await page.getByRole("heading", { name: heading, exact: true }).count(), heading).toBeGreaterThan(0);
    for (const field of ["seriesWindowDays", "directions.sell", "trend.volatilityPct", "favorability", "validCategories"]) expect(text).toContain(field);
    expect(text).toContain("If-None-Match");
    expect(await page.locator("tr#problem-unknown-category").count()).toBe(1);
    expect(await page.locator('td bdi[lang="ar"][dir="rtl"]').count()).toBeGreaterThan(0);
    await expectSound(page, problems);
  }, 60_000);

  test("terms: information only, licence, the central bank's attribution, contact by X-Contact", async () => {
    const { page, problems } = await open("/terms/");
    const text = (await page.locator("main").textContent())!;
    expect(text).toMatch(/not financial advice/i);
    expect(text).toContain("Central Bank of Egypt");
    expect(text).toContain("X-Contact");
    expect(text).toMatch(/licen[cs]e/i);
    await expectSound(page, problems);
  }, 60_000);

  test("a page on another origin reads the feed, its ETag and RateLimit-Remaining, and revalidates with a 304", async () => {
    const other: Server = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>an app</title><p>app"));
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    try {
      const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      expect(origin).not.toBe(server.url);
      const page = await browser.newPage();
      await page.goto(origin);
      const feedUrl = `${server.url}/api/v1/feed.json?category=metals`;
      logs.length = 0;
      const first = await page.evaluate(async (url) => {
        const r = await fetch(url);
        const body = (await r.json()) as { assets: unknown[] };
        return { status: r.status, etag: r.headers.get("ETag"), remaining: r.headers.get("RateLimit-Remaining"), assets: body.assets.length };
      }, feedUrl);
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^"[\w-]+"$/);
      expect(Number(first.remaining)).toBeGreaterThan(0);
      expect(first.assets).toBeGreaterThan(0);
      const again = await page.evaluate(async (url) => {
        const r = await fetch(url, { cache: "no-cache" });
        return { status: r.status, etag: r.headers.get("ETag"), assets: ((await r.json()) as { assets: unknown[] }).assets.length };
      }, feedUrl);
      // The browser revalidated its cached copy; the server answered 304 and the page got the copy.
      expect(again).toEqual({ status: 200, etag: first.etag, assets: first.assets });
      const feedLines = logs.filter((l) => l.startsWith("GET /api/v1/feed.json?category=metals "));
      expect(feedLines.map((l) => l.split(" ")[2])).toEqual(["200", "304"]);
    } finally {
      other.close();
    }
  }, 60_000);
});
