/**
 * The pages' accessibility in a real browser: axe-core, in Debian's Chromium driven by
 * playwright-core, finds no serious or critical violation on each kind of human page of the
 * simulated market (home, an asset of each kind, sources, terms, in English and Arabic, and the
 * docs), at a desktop width (1280 px) and at phone widths (390 and 360 px), where CSS shows other
 * elements (the phone charts). The rest of the browser checks are pages.browser.test.ts; the two
 * files run side by side.
 */
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { HumanPage } from "./helpers/pages.js";
import { WIDTHS, pagesInBrowser } from "./helpers/browser.js";

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const site = pagesInBrowser();

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
    "at %i px: axe-core finds no serious or critical violation on any kind of page, in either language",
    async (width) => {
      const violations: string[] = [];
      const t = await site.tab(width, { bypassCSP: true });
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
