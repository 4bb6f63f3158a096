/**
 * The pages' accessibility in a real browser: axe-core, in Debian's Chromium driven by
 * playwright-core, finds no violation at all, of any impact, on each kind of human page of the
 * simulated market (home, an asset of each kind, sources, terms and the docs, in English and
 * Arabic), at a desktop width (1280 px) and at phone widths (390 and 360 px), where CSS shows other
 * elements (the phone charts); and again in the dark palette (prefers-color-scheme: dark) at a
 * phone width, for its contrast. The simulated-data banner is inside a landmark (axe's `region`).
 * The rest of the browser checks are pages.browser.test.ts and pages.numbers.browser.test.ts.
 */
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { HumanPage } from "./helpers/pages.js";
import { WIDTHS, pagesInBrowser } from "./helpers/browser.js";

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const site = pagesInBrowser();

/** axe-core is a script, which the pages' policy forbids: it runs in a context that bypasses CSP. */
async function violations(page: Page): Promise<string[]> {
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
  return result.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(", ")}`,
  );
}

/** One page of each kind, in both languages, for axe: the asset pages differ by data, not by markup. */
function everyKindOfPage(): HumanPage[] {
  const { feed, pages } = site;
  const kinds = [
    feed.assets.find((a) => a.market === "competitive")!,
    ...["sole", "reference"].map((m) => feed.assets.find((a) => a.market === m)),
    feed.assets.find((a) => a.category !== feed.assets[0]!.category),
  ];
  const slugs = new Set(kinds.filter(Boolean).map((a) => a!.slug));
  return pages.filter((p) => !p.path.includes("/assets/") || slugs.has(p.path.split("/").at(-2)!));
}

describe("every kind of page, in English and Arabic, at desktop and phone widths", () => {
  test.each(WIDTHS)(
    "at %i px: axe-core finds no violation on any kind of page, in either language",
    async (width) => {
      const found: string[] = [];
      const t = await site.tab(width, { bypassCSP: true });
      for (const p of everyKindOfPage()) {
        await t.visit(p.path);
        found.push(...(await violations(t.page)));
      }
      await t.close();
      expect(found).toEqual([]);
    },
    120_000,
  );

  test("in the dark palette at 390 px: no violation either, contrast included", async () => {
    const found: string[] = [];
    const t = await site.tab(390, { bypassCSP: true, colorScheme: "dark" });
    for (const p of everyKindOfPage()) {
      await t.visit(p.path);
      expect(await t.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(20, 24, 28)");
      found.push(...(await violations(t.page)));
    }
    await t.close();
    expect(found).toEqual([]);
  }, 120_000);
});
