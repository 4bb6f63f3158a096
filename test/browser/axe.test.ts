/**
 * The pages' accessibility in a real browser: axe-core, in Debian's Chromium driven by
 * playwright-core, finds no violation at all, of any impact, on each kind of human page of the
 * simulated market (home, an asset of each kind, sources, terms and the docs, in English and
 * Arabic), at a desktop width (1280 px) and at phone widths (390 and 360 px), where CSS shows other
 * elements (the phone charts), each in the light and the dark palette (prefers-color-scheme: dark)
 * for its contrast, with every <details> open, so that the regions under "Every price" are checked
 * too (axe's landmark-unique). The simulated-data banner is inside a landmark (axe's `region`).
 * Every page is checked as served, under its own policy (helpers/axe.ts runs axe without bypassing
 * it); so are the page for an address with none (404 and 400) and the home page with a market closed
 * (test/browser/phone.test.ts). The rest of the browser checks are test/browser/pages.test.ts and
 * test/browser/numbers.test.ts.
 */
import { describe, expect, test } from "vitest";
import { WIDTHS, pagesInBrowser } from "../helpers/browser.js";
import { axeViolations, openAll } from "../helpers/axe.js";

const site = pagesInBrowser();

/**
 * One page of each kind, in both languages, for axe: the asset pages differ by data, not by markup;
 * of the sellers' pages, the list, the first seller's page and the last's (the simulated registry
 * lists the banks first and the gold dealers last, whose licence words differ).
 */
function everyKindOfPage(): string[] {
  const { feed, pages } = site;
  const kinds = [
    feed.assets.find((a) => a.market === "competitive")!,
    ...["sole", "reference"].map((m) => feed.assets.find((a) => a.market === m)),
    feed.assets.find((a) => a.category !== feed.assets[0]!.category),
  ];
  const slugs = new Set(kinds.filter(Boolean).map((a) => a!.slug));
  const others = pages
    .map((p) => p.path)
    .filter((p) => !p.includes("/sellers/") && (!p.includes("/assets/") || slugs.has(p.split("/").at(-2)!)));
  return [...others, ...sellerPages()];
}

function sellerPages(): string[] {
  const en = site.pages.map((p) => p.path).filter((p) => p.startsWith("/sellers/"));
  const picked = [...new Set([en[0], en[1], en.at(-1)])].filter((p): p is string => p !== undefined);
  return [...picked, ...picked.map((p) => `/ar${p}`)];
}

const SCHEMES = ["light", "dark"] as const;
const BACKGROUND = { light: "rgb(255, 255, 255)", dark: "rgb(20, 24, 28)" } as const;

describe("every kind of page, in English and Arabic, at desktop and phone widths, light and dark, everything open", () => {
  test.each(WIDTHS.flatMap((w) => SCHEMES.map((s) => [w, s] as const)))(
    "at %i px in the %s palette: axe-core finds no violation on any kind of page, in either language",
    async (width, scheme) => {
      const found: string[] = [];
      const t = await site.tab(width, { colorScheme: scheme });
      expect(sellerPages().length).toBeGreaterThanOrEqual(4);
      for (const p of everyKindOfPage()) {
        found.push(...(await t.visit(p)));
        expect(await t.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(BACKGROUND[scheme]);
        await openAll(t.page);
        found.push(...(await axeViolations(t.page)));
      }
      await t.close();
      expect(found).toEqual([]);
    },
    120_000,
  );

  test("the home page's regions have names of their own with everything open, in both languages", async () => {
    const t = await site.tab(390);
    for (const path of ["/", "/ar/"]) {
      await t.visit(path);
      await openAll(t.page);
      const names = await t.page.evaluate(() =>
        [...document.querySelectorAll("section[aria-labelledby]")].map(
          (s) => document.getElementById(s.getAttribute("aria-labelledby")!)!.textContent,
        ),
      );
      expect(names.length).toBeGreaterThan(2);
      expect(new Set(names).size, `${path}: ${names.join(" | ")}`).toBe(names.length);
    }
    await t.close();
  });
});

describe("the page for an address with none (src/render/pages/not-found.ts), as the handler serves it, under the served policy", () => {
  // A mistyped day (400), a day without prices and an unknown page (404), in each language.
  const MISSING = [
    ["/days/2026-13-01/", 400, "en"],
    ["/ar/days/2026-13-01/", 400, "ar"],
    ["/days/2026-11-20/", 404, "en"],
    ["/ar/nowhere/", 404, "ar"],
  ] as const;
  test("axe-core runs under the served policy: an image without a text alternative, added, is found", async () => {
    const t = await site.tab(390);
    await t.page.goto(site.server.url + MISSING[0][0]);
    await t.page.evaluate(() => document.querySelector("main")!.append(document.createElement("img")));
    expect((await axeViolations(t.page)).join("\n")).toMatch(/image-alt/);
    await t.close();
  });

  test.each(WIDTHS.flatMap((w) => SCHEMES.map((s) => [w, s] as const)))(
    "at %i px in the %s palette: axe-core finds no violation, in either language",
    async (width, scheme) => {
      const found: string[] = [];
      const t = await site.tab(width, { colorScheme: scheme });
      for (const [path, status, lang] of MISSING) {
        const res = await t.page.goto(site.server.url + path);
        expect(res?.status(), path).toBe(status);
        expect(res?.headers()["content-security-policy"], path).toContain("default-src 'none'");
        expect(await t.page.evaluate(() => document.documentElement.lang), path).toBe(lang);
        expect(await t.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(BACKGROUND[scheme]);
        found.push(...(await axeViolations(t.page)));
        // Its way home, followed: today's prices in its language.
        await t.page.click("ul.way-home a");
        expect(new URL(t.page.url()).pathname, path).toBe(lang === "ar" ? "/ar/" : "/");
      }
      await t.close();
      expect(found).toEqual([]);
    },
    120_000,
  );
});
