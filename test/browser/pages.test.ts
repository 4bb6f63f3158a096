/**
 * The pages in a real browser: Debian's Chromium, driven by playwright-core, loads every human page
 * of the simulated market (home, every asset, sources, terms and the docs, in English and Arabic) from the
 * local server over loopback, at a desktop width (1280 px) and at phone widths (390 and 360 px):
 * no sideways scrolling, no console error, lang and computed direction right, no broken link or
 * anchor, and every seller of the feed on its asset page with the feed's values. Each page is saved
 * as a screenshot under /tmp/price-feed-screenshots/ (SHOTS_DIR) at each width, to be looked at. A
 * page on another loopback origin then reads the feed cross-origin, and revalidates it with a 304.
 * (axe-core's checks of the same pages are test/browser/axe.test.ts; the numbers and labels,
 * test/browser/numbers.test.ts.)
 */
import { beforeAll, describe, expect, test } from "vitest";
import { createServer, type Server } from "node:http";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { cairoClock, printed } from "../helpers/pages.js";
import { HEIGHT, WIDTHS, pagesInBrowser } from "../helpers/browser.js";

/** Screenshots go outside the repository, to be looked at (SHOTS_DIR to put them elsewhere). */
const SHOTS = path.resolve(process.env["SHOTS_DIR"] ?? "/tmp/price-feed-screenshots");
/** Screenshots stop here: the docs run to tens of thousands of pixels on a phone. */
const SHOT_MAX_HEIGHT = 8000;

const site = pagesInBrowser();
beforeAll(() => void mkdirSync(SHOTS, { recursive: true }));

/**
 * The page's top SHOT_MAX_HEIGHT pixels: the viewport is grown to that height for the shot, then
 * given back. (A full-page shot clipped to the same height costs the whole page's layout and paint:
 * about 25 s for the docs at each width, against 1 s this way; the pages use no vh unit and nothing
 * fixed, so the picture is the same.)
 */
async function screenshot(page: Page, file: string, width: number, height: number): Promise<void> {
  // Headless Chromium without a GPU now and then refuses to capture a surface this tall ("Unable to
  // capture screenshot": seen at 1280 x 8000 in a fresh-clone run, and at 360 px wide on both tries
  // once while the machine was busy): more tries, each at half the height and after a pause.
  const heights = [SHOT_MAX_HEIGHT, SHOT_MAX_HEIGHT / 2, SHOT_MAX_HEIGHT / 4];
  for (const max of heights) {
    await page.setViewportSize({ width, height: Math.min(height, max) });
    try {
      await page.screenshot({ path: file });
      return;
    } catch (e) {
      if (max === heights.at(-1) || !String(e).includes("Unable to capture screenshot")) throw e;
      await new Promise((r) => setTimeout(r, 250));
    } finally {
      await page.setViewportSize({ width, height: HEIGHT });
    }
  }
}

/** Every link resolves: the path answers 200 and a #fragment names an element there. Answers are shared across pages. */
const bodies = new Map<string, Promise<{ status: number; text: string }>>();
async function brokenLinks(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).href));
  const broken: string[] = [];
  for (const href of [...new Set(hrefs)]) {
    const url = new URL(href);
    // The one link out of the site, an asset's WhatsApp share link (test/render/seo.test.ts): not followed.
    if (url.origin === "https://wa.me" && url.pathname === "/" && url.searchParams.has("text")) continue;
    if (url.origin !== site.server.url) {
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

describe("every page, in English and Arabic, at desktop and phone widths", () => {
  test.each(WIDTHS)(
    "at %i px: no sideways scrolling, no console error, lang and direction right, no broken link; a screenshot of each",
    async (width) => {
      const failures: string[] = [];
      const t = await site.tab(width);
      for (const p of site.pages) {
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
        if (width === WIDTHS[0]) {
          failures.push(...(await brokenLinks(t.page)));
          if (p.path.includes("/assets/")) assetPages.set(p.path, await readAssetPage(t.page));
        }
        await screenshot(t.page, path.join(SHOTS, `${p.name}-${width}.png`), width, m.height);
      }
      await t.close();
      expect(failures).toEqual([]);
    },
    180_000,
  );
});

type SellerRow = { name: string; buy: string; sell: string; time: string; best: string[] };

/**
 * An asset page as read in the browser: its seller table (the name cell's own text, then each cell's
 * first text; "You buy at", the feed's sell, comes first), how many best cells say so in words, and
 * the references' text.
 */
async function readAssetPage(page: Page): Promise<{ rows: SellerRow[]; bestMarks: number; refs: string | null }> {
  return page.evaluate(() => ({
    rows: [...document.querySelectorAll("table.sellers tbody tr")].map((tr) => {
      const tds = [...tr.querySelectorAll("td")];
      const first = (td: Element | undefined) => (td?.childNodes[0]?.textContent ?? "").trim();
      return {
        name: first(tr.querySelector("th")!),
        sell: first(tds[1]),
        buy: first(tds[2]),
        time: first(tds[3]?.querySelector("time") ?? tds[3]),
        best: tds
          .filter((td) => td.classList.contains("best"))
          .map((td) => (td === tds[1] ? "sell" : "buy"))
          .sort(),
      };
    }),
    bestMarks: document.querySelectorAll("td.best .best-mark").length,
    refs: document.querySelector(".refs")?.textContent ?? null,
  }));
}

/** The asset pages read at 1280 px, by path: the page pass reads them as it goes, the seller test after it. */
const assetPages = new Map<string, Awaited<ReturnType<typeof readAssetPage>>>();

describe("the asset pages and the home page", () => {
  test("every seller of the feed is on its asset page, in the feed's order, with the feed's values, its quote's time and the best marked", async () => {
    const t = await site.tab(1280);
    /** As the page pass read it; read here when this test runs alone. */
    const read = async (p: string) => assetPages.get(p) ?? (await t.visit(p), await readAssetPage(t.page));
    for (const a of site.feed.assets.filter((x) => x.market !== "reference"))
      for (const lang of ["en", "ar"] as const) {
        const { rows, bestMarks, refs } = await read(`${lang === "ar" ? "/ar" : ""}/assets/${a.slug}/`);
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
        expect(bestMarks).toBe(rows.flatMap((r) => r.best).length);
        if (a.benchmark?.sell != null) expect(refs).toContain(printed(a.benchmark.sell, a.decimals));
      }
    await t.close();
  }, 120_000);

  test("the home page lists every asset with its best prices, linking to the asset's page in the same language", async () => {
    const t = await site.tab(390);
    const page = t.page;
    for (const lang of ["en", "ar"] as const) {
      await t.visit(lang === "ar" ? "/ar/" : "/");
      for (const a of site.feed.assets) {
        const row = page.locator(`table.market tr#${a.slug}`);
        expect(await row.locator("th a").evaluate((el) => (el as HTMLAnchorElement).href)).toBe(
          `${site.server.url}${lang === "ar" ? "/ar" : ""}/assets/${a.slug}/`,
        );
        const text = (await row.textContent())!;
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
    const t = await site.tab(1280);
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
      "Words on the pages",
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
    // The Arabic docs: right to left, and code left to right, so `?asset=` never reads `=asset?`.
    await t.visit("/ar/docs/");
    expect(await page.locator("main").evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    for (const dir of await page
      .locator("main pre, main code")
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).direction)))
      expect(dir).toBe("ltr");
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
      expect(origin).not.toBe(site.server.url);
      const page = await site.browser.newPage();
      await page.goto(origin);
      const feedUrl = `${site.server.url}/api/v1/feed.json?category=metals`;
      site.logs.length = 0;
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
      const feedLines = site.logs.filter((l) => l.startsWith("GET /api/v1/feed.json?category=metals "));
      expect(feedLines.map((l) => l.split(" ")[2])).toEqual(["200", "304"]);
      await page.close();
    } finally {
      other.close();
    }
  }, 60_000);
});

describe("what the marks mean, past days, and Arabic figures (issue 37)", () => {
  test("a move good for the reader has one colour and a bad one another, in the light and the dark palette, on the home and asset pages alike", async () => {
    const colours: Record<string, { good: string[]; bad: string[]; key: string[] }> = {};
    for (const scheme of ["light", "dark"] as const) {
      const t = await site.tab(390, { colorScheme: scheme });
      const seen = { good: new Set<string>(), bad: new Set<string>(), key: new Set<string>() };
      for (const p of ["/", "/assets/us-dollar/", "/ar/", "/ar/assets/euro/"]) {
        expect(await t.visit(p)).toEqual([]);
        const c = await t.page.evaluate(() => {
          const of = (sel: string) => [...document.querySelectorAll(sel)].map((el) => getComputedStyle(el).color);
          return { good: of(".chg.good"), bad: of(".chg.bad"), key: of(".chg-key .chg.good") };
        });
        c.good.forEach((x) => seen.good.add(x));
        c.bad.forEach((x) => seen.bad.add(x));
        if (p === "/") c.key.forEach((x) => seen.key.add(x));
      }
      await t.close();
      colours[scheme] = { good: [...seen.good], bad: [...seen.bad], key: [...seen.key] };
      expect(colours[scheme]!.good, scheme).toHaveLength(1);
      expect(colours[scheme]!.bad, scheme).toHaveLength(1);
      expect(colours[scheme]!.good[0]).not.toBe(colours[scheme]!.bad[0]);
      // The legend's "better for you" is in the colour of the good moves.
      expect(colours[scheme]!.key).toContain(colours[scheme]!.good[0]);
    }
    expect(colours["dark"]!.good[0]).not.toBe(colours["light"]!.good[0]);
  }, 60_000);

  test("in Arabic a move's sign shows before its digits, left of them, and the unit after the figure", async () => {
    const t = await site.tab(390);
    for (const p of ["/ar/", "/ar/assets/us-dollar/", "/ar/assets/gold-21k/"]) {
      expect(await t.visit(p)).toEqual([]);
      const wrong = await t.page.evaluate(() => {
        const out: string[] = [];
        for (const bdi of document.querySelectorAll(".chg bdi")) {
          const text = bdi.firstChild as Text | null;
          if (!text || !/^[+−]\d/.test(text.data)) {
            out.push(`not a signed figure: ${bdi.textContent}`);
            continue;
          }
          const rect = (from: number) => {
            const r = document.createRange();
            r.setStart(text, from);
            r.setEnd(text, from + 1);
            return r.getBoundingClientRect();
          };
          const sign = rect(0);
          const digit = rect(1);
          if (getComputedStyle(bdi).direction !== "ltr") out.push(`${text.data}: not left to right`);
          if (sign.right > digit.left + 0.5) out.push(`${text.data}: the sign is right of its digits`);
        }
        return out;
      });
      expect(wrong, p).toEqual([]);
    }
    await t.close();
  }, 60_000);

  test("a past day's page shows each seller's close of that day as its document has it, and links the days around it", async () => {
    // The past days: every date of the archive but the last, the build's own (the home page's).
    const days = (
      (await (await fetch(`${site.server.url}/api/v1/days.json`)).json()) as { days: Array<{ date: string }> }
    ).days
      .map((d) => d.date)
      .slice(0, -1);
    const date = days.at(-2)!;
    const day = (await (await fetch(`${site.server.url}/api/v1/days/${date}.json`)).json()) as {
      assets: Array<{
        slug: string;
        decimals: number;
        sellers: Array<{ seller: string; buy: number | null; sell: number | null }>;
      }>;
    };
    const t = await site.tab(360);
    expect(await t.visit(`/days/${date}/`)).toEqual([]);
    for (const a of day.assets.filter((x) => x.sellers.length)) {
      const rows = await t.page.locator(`details#sellers-${a.slug} tbody tr`).evaluateAll((trs) =>
        trs.map((tr) => {
          const first = (el: Element | null | undefined) => (el?.childNodes[0]?.textContent ?? "").trim();
          const tds = tr.querySelectorAll("td");
          return { name: first(tr.querySelector("th")), sell: first(tds[0]), buy: first(tds[1]) };
        }),
      );
      const value = (v: number | null) => (v === null ? "—" : printed(v, a.decimals));
      expect(rows, a.slug).toEqual(a.sellers.map((s) => ({ name: s.seller, sell: value(s.sell), buy: value(s.buy) })));
    }
    await t.page.click('a[rel="prev"]');
    expect(new URL(t.page.url()).pathname).toBe(`/days/${days.at(-3)}/`);
    await t.page.click('a[rel="next"]');
    await t.page.click('a[rel="next"]');
    expect(new URL(t.page.url()).pathname).toBe(`/days/${days.at(-1)}/`);
    // The latest past day's day after is today, the home page.
    await t.page.click('a[rel="next"]');
    expect(new URL(t.page.url()).pathname).toBe("/");
    await t.close();
  }, 60_000);
});
