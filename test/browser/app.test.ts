/**
 * The pages as a web app (src/render/pages/app.ts), in Chromium over `price-feed serve` on loopback:
 * Chromium's own installability check (the DevTools protocol's Page.getInstallabilityErrors) finds
 * nothing wrong with either home page; the service worker keeps the pages visited, and offline a
 * page opens from it with the banner that says it is a saved copy and how old its prices are (the
 * browser's clock set 3 hours after the newest price: "3 hours ago", «قبل 3 ساعات»); back online the
 * page replaces itself with a fresh one, without the banner, by itself.
 */
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { pagesInBrowser } from "../helpers/browser.js";
import { installability } from "../helpers/installable.js";

const site = pagesInBrowser();

/** Resolves once the service worker controls the page and keeps `paths` (relative to the site's root). */
async function kept(page: Page, paths: string[]): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  // Polled from here: page.evaluate awaits the page's promise.
  for (let i = 0; i < 150; i++) {
    const keeps = await page.evaluate(async (want) => {
      const root = new URL("/", location.href).href;
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const all = await Promise.all(want.map((p) => cache.match(root + p)));
        if (all.every(Boolean)) return true;
      }
      return false;
    }, paths);
    if (keeps) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`no cache keeps ${paths.join(", ")}`);
}

describe("installable", () => {
  test.each(["/", "/ar/"])(
    "Chromium finds no installability error on %s (served by price-feed serve)",
    async (path) => {
      const found = await installability(site.server.url + path);
      expect(found.url).toBe(`${site.server.url}${path}app.webmanifest`);
      expect(found.manifest).toEqual([]);
      expect(found.console).toEqual([]);
      expect(found.errors).toEqual([]);
    },
    60_000,
  );
});

describe("offline, honest", () => {
  test.each([
    ["/", "en", /^No connection: this is a saved copy\. Its newest price was observed 3 hours ago \(/],
    ["/ar/", "ar", /^لا يوجد اتصال: هذه نسخة محفوظة\. آخر سعر فيها رُصد قبل 3 ساعات \(/],
  ] as const)(
    "%s: offline a saved copy says so and how old it is; back online a fresh page replaces it",
    async (home, lang, said) => {
      const t = await site.tab(390);
      const { page } = t;
      const newest = site.feed.assets
        .map((a) => a.observedAt)
        .filter((x): x is string => x !== null)
        .sort()
        .at(-1)!;
      // The reader's clock: 3 hours and 10 minutes after the newest price the page shows.
      await page.clock.setFixedTime(Date.parse(newest) + 3 * 3600_000 + 600_000);
      const asset = `${home}assets/us-dollar/`;
      expect(await t.visit(home)).toEqual([]);
      expect(await page.locator("#offline").isHidden()).toBe(true);
      await kept(page, [home.slice(1), "api/v1/feed.json", "offline.js"]);
      expect(await t.visit(asset)).toEqual([]);
      await kept(page, [asset.slice(1)]);

      await page.context().setOffline(true);
      for (const p of [home, asset]) {
        await page.goto(site.server.url + p);
        const banner = page.locator("#offline");
        await banner.waitFor({ state: "visible" });
        expect(await page.evaluate(() => document.documentElement.hasAttribute("data-saved")), p).toBe(true);
        expect(await banner.getAttribute("role")).toBe("status");
        expect((await banner.textContent())!, p).toMatch(said);
        expect(await page.evaluate(() => document.documentElement.lang), p).toBe(lang);
      }
      // A page it never kept is the browser's own error, never another page passed off as it.
      const other = await page.context().newPage();
      await expect(other.goto(`${site.server.url}${home}terms/`)).rejects.toThrow(
        /ERR_INTERNET_DISCONNECTED|ERR_FAILED/,
      );
      await other.close();

      // Back online: the page reloads itself from the network, and the banner is gone.
      await page.context().setOffline(false);
      await page.waitForFunction(() => !document.documentElement.hasAttribute("data-saved"), null, { timeout: 15_000 });
      await page.waitForLoadState("load");
      expect(await page.locator("#offline").isHidden()).toBe(true);
      await t.close();
    },
    90_000,
  );

  test("a page loaded from the network shows the banner when the connection goes, and hides it when it comes back", async () => {
    const t = await site.tab(390);
    expect(await t.visit("/assets/gold-21k/")).toEqual([]);
    const banner = t.page.locator("#offline");
    expect(await banner.isHidden()).toBe(true);
    await t.page.context().setOffline(true);
    await banner.waitFor({ state: "visible" });
    expect(await banner.textContent()).toMatch(/^No connection: the newest price here was observed \d+ \w+ ago \(/);
    await t.page.context().setOffline(false);
    await banner.waitFor({ state: "hidden" });
    await t.close();
  }, 60_000);
});
