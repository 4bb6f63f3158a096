/**
 * The pages in a real browser, for the browser test files (pages.browser, pages.axe.browser): the
 * simulated market built and served on loopback, and Debian's Chromium driven by playwright-core,
 * started before a file's tests and closed after them.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import type { RunningServer } from "../../src/server/serve.js";
import type { Feed } from "../../src/schema/outputs.js";
import { SAMPLE_NOW, humanPages, pastDayPages, sampleSite, type HumanPage } from "./pages.js";
import { testServer } from "./site.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
/** A desktop width and two phone widths. */
export const WIDTHS = [1280, 390, 360] as const;
export const HEIGHT = 900;

export interface Tab {
  page: Page;
  /** Loads a path (200, and the pages' policy unless CSP is bypassed); resolves to what went wrong while loading it. */
  visit(p: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface PagesInBrowser {
  readonly browser: Browser;
  readonly server: RunningServer;
  readonly feed: Feed;
  /** Every human page of the feed (helpers/pages.ts humanPages), and a past day's (pastDayPages). */
  readonly pages: HumanPage[];
  /** The server's request lines. */
  readonly logs: string[];
  /** A tab of the given width that records console errors, exceptions and failed requests of each page it loads. */
  tab(width: number, o?: { bypassCSP?: boolean; colorScheme?: "light" | "dark" }): Promise<Tab>;
}

/**
 * For a test file: the sample site built and served, and Chromium launched, before its tests; closed
 * after. `nowMs` is the build's instant (another state of the market: closed, say), served a minute on.
 */
export function pagesInBrowser(nowMs = SAMPLE_NOW): PagesInBrowser {
  let state: { browser: Browser; server: RunningServer; feed: Feed; pages: HumanPage[] } | undefined;
  const logs: string[] = [];
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `No Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH.`,
      );
    const [site, browser] = await Promise.all([
      sampleSite(nowMs),
      chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] }),
    ]);
    const server = await testServer(
      site.out,
      { nowMs: nowMs + 60_000, limits: { window: 100_000, windowSeconds: 60, daily: 1_000_000 } },
      logs,
    );
    state = {
      browser,
      server,
      feed: site.feed,
      pages: [...humanPages(site.feed, site.sellers), ...pastDayPages(site.feed)],
    };
  }, 120_000);
  afterAll(async () => {
    await state?.browser.close();
    await state?.server.close();
  });
  const get = () => {
    if (!state) throw new Error("pagesInBrowser: used before its beforeAll has run");
    return state;
  };
  return {
    get browser() {
      return get().browser;
    },
    get server() {
      return get().server;
    },
    get feed() {
      return get().feed;
    },
    get pages() {
      return get().pages;
    },
    logs,
    async tab(width, o = {}) {
      const { browser, server } = get();
      const context = await browser.newContext({
        viewport: { width, height: HEIGHT },
        bypassCSP: o.bypassCSP ?? false,
        colorScheme: o.colorScheme ?? "light",
      });
      const page = await context.newPage();
      let problems: string[] = [];
      page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
      page.on("pageerror", (e) => problems.push(`exception: ${e.message}`));
      page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
      page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
      return {
        page,
        async visit(p) {
          problems = [];
          const res = await page.goto(server.url + p);
          expect(res?.status(), p).toBe(200);
          if (!o.bypassCSP) expect(res?.headers()["content-security-policy"], p).toContain("default-src 'none'");
          return problems.map((x) => `${p}: ${x}`);
        },
        close: () => context.close(),
      };
    },
  };
}
