/**
 * The pages in a real browser: Debian's Chromium, driven by playwright-core, loads every human page
 * of the simulated market (home, every asset, terms, in English and Arabic, and the docs) from the
 * local server over loopback, at a desktop width (1280 px) and at phone widths (390 and 360 px):
 * no sideways scrolling, no console error, lang and computed direction right, no broken link or
 * anchor, no serious accessibility violation (axe-core), and every seller of the feed on its asset
 * page with the feed's values. Each page is saved as a screenshot in .screenshots/ (git-ignored) at
 * each width, to be looked at. A page on another loopback origin then reads the feed cross-origin,
 * and revalidates it with a 304.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import type { RunningServer } from "../src/server/serve.js";
import type { Feed } from "../src/schema/outputs.js";
import { SAMPLE_NOW, cairoClock, humanPages, printed, sampleSite, type HumanPage } from "./helpers/pages.js";
import { testServer } from "./helpers/site.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const SHOTS = path.resolve(".screenshots");
const WIDTHS = [1280, 390, 360] as const;
const HEIGHT = 900;
/** Screenshots stop here: the docs run to tens of thousands of pixels on a phone. */
const SHOT_MAX_HEIGHT = 8000;

let browser: Browser;
let server: RunningServer;
let feed: Feed;
let pages: HumanPage[];
const logs: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH.`,
    );
  const site = await sampleSite();
  feed = site.feed;
  pages = humanPages(feed);
  mkdirSync(SHOTS, { recursive: true });
  server = await testServer(
    site.out,
    { nowMs: SAMPLE_NOW + 60_000, limits: { window: 100_000, windowSeconds: 60, daily: 1_000_000 } },
    logs,
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a tab of the given width that records console errors, exceptions and failed requests of each page it loads. */
async function tab(width: number, o: { bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width, height: HEIGHT }, bypassCSP: o.bypassCSP ?? false });
  const page = await context.newPage();
  let problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`exception: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  return {
    page,
    /** Loads a path; returns what went wrong while loading it. */
    async visit(p: string): Promise<string[]> {
      problems = [];
      const res = await page.goto(server.url + p);
      expect(res?.status(), p).toBe(200);
      if (!o.bypassCSP) expect(res?.headers()["content-security-policy"], p).toContain("default-src 'none'");
      return problems.map((x) => `${p}: ${x}`);
    },
    close: () => context.close(),
  };
}

/**
 * The page's top SHOT_MAX_HEIGHT pixels: the viewport is grown to that height for the shot, then
 * given back. (A full-page shot clipped to the same height costs the whole page's layout and paint:
 * about 25 s for the docs at each width, against 1 s this way; the pages use no vh unit and nothing
 * fixed, so the picture is the same.)
 */
async function screenshot(page: Page, file: string, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height: Math.min(height, SHOT_MAX_HEIGHT) });
  await page.screenshot({ path: file });
  await page.setViewportSize({ width, height: HEIGHT });
}

/** Every link resolves: the path answers 200 and a #fragment names an element there. Answers are shared across pages. */
const bodies = new Map<string, Promise<{ status: number; text: string }>>();
async function brokenLinks(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).href));
  const broken: string[] = [];
  for (const href of [...new Set(hrefs)]) {
    const url = new URL(href);
    if (url.origin !== server.url) {
      broken.push(`${href}: leaves the site`);
      continue;
    }
    const doc = url.origin + url.pathname + url.search;
    if (!bodies.has(doc))
      bodies.set(
        doc,
        fetch(doc).then(async (r) => ({ status: r.status, text: await r.text() })),
      );
    const { status, text } = await bodies.get(doc)!;
    if (status !== 200) broken.push(`${href}: ${status}`);
    const id = decodeURIComponent(url.hash.slice(1));
    if (id && !text.includes(`id="${id}"`)) broken.push(`${href}: no element #${id}`);
  }
  return broken.map((b) => `${new URL(page.url()).pathname} → ${b}`);
}

/** axe-core is a script, which the pages' policy forbids: it runs in a context that bypasses CSP. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  const result = await page.evaluate(async () => {
    type Axe = {
      run: (
        ctx: Document,
        o: object,
      ) => Promise<{
        violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
      }>;
    };
    return (globalThis as unknown as { axe: Axe }).axe.run(document, { resultTypes: ["violations"] });
  });
  const where = new URL(page.url()).pathname;
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}

/** One page of each kind, in both languages, for axe: the asset pages differ by data, not by markup. */
function everyKindOfPage(): HumanPage[] {
  const kinds = [
    feed.assets.find((a) => a.market === "competitive")!,
    ...["sole", "reference"].map((m) => feed.assets.find((a) => a.market === m)),
    feed.assets.find((a) => a.category !== feed.assets[0]!.category),
  ];
  const slugs = new Set(kinds.filter(Boolean).map((a) => a!.slug));
  return pages.filter((p) => !p.path.includes("/assets/") || slugs.has(p.path.split("/").at(-2)!));
}

describe("every page, in English and Arabic, at desktop and phone widths", () => {
  test.each(WIDTHS)(
    "at %i px: no sideways scrolling, no console error, lang and direction right, no broken link; a screenshot of each",
    async (width) => {
      const failures: string[] = [];
      const t = await tab(width);
      for (const p of pages) {
        failures.push(...(await t.visit(p.path)));
        const m = await t.page.evaluate(() => ({
          scrollWidth: document.scrollingElement!.scrollWidth,
          innerWidth,
          height: document.scrollingElement!.scrollHeight,
          lang: document.documentElement.lang,
          direction: getComputedStyle(document.documentElement).direction,
        }));
        if (m.scrollWidth > m.innerWidth) failures.push(`${p.path}: ${m.scrollWidth} px wide at ${m.innerWidth}`);
        if (m.lang !== p.lang) failures.push(`${p.path}: lang=${m.lang}`);
        if (m.direction !== (p.lang === "ar" ? "rtl" : "ltr")) failures.push(`${p.path}: direction ${m.direction}`);
        if (width === WIDTHS[0]) failures.push(...(await brokenLinks(t.page)));
        await screenshot(t.page, path.join(SHOTS, `${p.name}-${width}.png`), width, m.height);
      }
      await t.close();
      expect(failures).toEqual([]);
    },
    180_000,
  );

  test.each(WIDTHS)(
    "at %i px: axe-core finds no serious or critical violation on any kind of page, in either language",
    async (width) => {
      const violations: string[] = [];
      const t = await tab(width, { bypassCSP: true });
      for (const p of everyKindOfPage()) {
        await t.visit(p.path);
        violations.push(...(await seriousViolations(t.page)));
      }
      await t.close();
      expect(violations).toEqual([]);
    },
    120_000,
  );
});

/** The seller table as read in the browser: the name cell's own text, then each cell's first text. */
async function sellerRows(
  page: Page,
): Promise<Array<{ name: string; buy: string; sell: string; time: string; best: string[] }>> {
  return page.$$eval("table.sellers tbody tr", (trs) =>
    trs.map((tr) => {
      const tds = [...tr.querySelectorAll("td")];
      const first = (td: Element | undefined) => (td?.childNodes[0]?.textContent ?? "").trim();
      return {
        name: first(tr.querySelector("th")!),
        buy: first(tds[1]),
        sell: first(tds[2]),
        time: first(tds[3]),
        best: tds.filter((td) => td.classList.contains("best")).map((td) => (td === tds[1] ? "buy" : "sell")),
      };
    }),
  );
}

describe("the asset pages and the home page", () => {
  test("every seller of the feed is on its asset page, in the feed's order, with the feed's values, its quote's time and the best marked", async () => {
    const t = await tab(1280);
    const page = t.page;
    for (const a of feed.assets.filter((x) => x.market !== "reference"))
      for (const lang of ["en", "ar"] as const) {
        await t.visit(`${lang === "ar" ? "/ar" : ""}/assets/${a.slug}/`);
        const rows = await sellerRows(page);
        const value = (v: number | null) => (v === null ? "—" : printed(v, a.decimals));
        expect(rows, `${lang} ${a.slug}`).toEqual(
          a.sellers.map((s) => ({
            name:
              lang === "ar"
                ? (s.sellerAr ?? s.seller).replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
                : s.seller,
            buy: value(s.buy),
            sell: value(s.sell),
            time: cairoClock(s.observedAt),
            best: (["buy", "sell"] as const).filter(
              (side) => a.directions[side].best?.seller === s.seller && a.directions[side].best?.value === s[side],
            ),
          })),
        );
        // Not by colour alone: the best cells say so in words.
        expect(await page.locator("td.best .best-mark").count()).toBe(rows.flatMap((r) => r.best).length);
        if (a.benchmark?.sell != null)
          await expect(page.locator(".refs").textContent()).resolves.toContain(printed(a.benchmark.sell, a.decimals));
      }
    await t.close();
  }, 120_000);

  test("the home page lists every asset with its best prices, linking to the asset's page in the same language", async () => {
    const t = await tab(390);
    const page = t.page;
    for (const lang of ["en", "ar"] as const) {
      await t.visit(lang === "ar" ? "/ar/" : "/");
      for (const a of feed.assets) {
        const item = page.locator(`li.asset#${a.slug}`);
        expect(await item.locator("h3 a").getAttribute("href")).toBe(`${lang === "ar" ? "/ar" : ""}/assets/${a.slug}/`);
        const text = (await item.textContent())!;
        for (const side of ["sell", "buy"] as const) {
          const best = a.directions[side].best?.value;
          if (a.market !== "reference" && best != null)
            expect(text, `${lang} ${a.slug} ${side}`).toContain(printed(best, a.decimals));
        }
      }
    }
    await t.close();
  }, 60_000);
});

describe("the docs", () => {
  test("start in one minute, then the reference, the rulebook from docs/methodology.md and an Arabic summary", async () => {
    const t = await tab(1280);
    const page = t.page;
    expect(await t.visit("/docs/")).toEqual([]);
    const headings = [
      "Start in one minute",
      "The three things to know",
      "The URL contract",
      "Fields",
      "Filters",
      "Conditional requests",
      "Errors",
      "Limits",
      "Versioning and changelog",
      "How the numbers are made",
      "2. Accepting quotes",
      "6. The verdict",
      "7. Freshness",
      "8. Confidence",
      "Licensed sellers",
      "ملخص بالعربية",
    ];
    for (const heading of headings)
      expect(await page.getByRole("heading", { name: heading, exact: true }).count(), heading).toBeGreaterThan(0);
    const text = (await page.locator("main").textContent())!;
    expect(text).toContain("curl -s 'http://127.0.0.1:8888/api/v1/feed.json?asset=us-dollar'"); // the sample sets no baseUrl
    for (const field of [
      "seriesWindowDays",
      "directions.sell",
      "trend.volatilityPct",
      "favorability",
      "validCategories",
      "If-None-Match",
    ])
      expect(text).toContain(field);
    expect(await page.locator("#methodology #methodology-6-the-verdict").count()).toBe(1);
    expect(await page.locator("tr#problem-unknown-category").count()).toBe(1);
    expect(await page.locator("#arabic-summary").evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    await t.close();
  }, 60_000);
});

describe("a client in another origin", () => {
  test("a page on another origin reads the feed, its ETag and RateLimit-Remaining, and revalidates with a 304", async () => {
    const other: Server = createServer((_, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>an app</title><p>app"),
    );
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
        return {
          status: r.status,
          etag: r.headers.get("ETag"),
          remaining: r.headers.get("RateLimit-Remaining"),
          assets: body.assets.length,
        };
      }, feedUrl);
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^"[\w-]+"$/);
      expect(Number(first.remaining)).toBeGreaterThan(0);
      expect(first.assets).toBeGreaterThan(0);
      const again = await page.evaluate(async (url) => {
        const r = await fetch(url, { cache: "no-cache" });
        return {
          status: r.status,
          etag: r.headers.get("ETag"),
          assets: ((await r.json()) as { assets: unknown[] }).assets.length,
        };
      }, feedUrl);
      // The browser revalidated its cached copy; the server answered 304 and the page got the copy.
      expect(again).toEqual({ status: 200, etag: first.etag, assets: first.assets });
      const feedLines = logs.filter((l) => l.startsWith("GET /api/v1/feed.json?category=metals "));
      expect(feedLines.map((l) => l.split(" ")[2])).toEqual(["200", "304"]);
      await page.close();
    } finally {
      other.close();
    }
  }, 60_000);
});
