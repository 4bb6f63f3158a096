/**
 * The web app across deployments and what it costs, in Chromium over `price-feed serve` on
 * loopback (src/render/pages/app.ts):
 *
 * - a new deployment's worker (another VERSION: what a build whose kept files changed writes) is
 *   found, installed and takes over the open page at once; the old version's cache is deleted and
 *   the pages it kept are carried into the new one, so no page is left on an old version and none
 *   kept is lost;
 * - a network that answers, but too slowly (the relay holds every request 12 s): a kept page is
 *   shown as a saved copy after the worker's 6 s, banner and all, and replaced by the fresh page by
 *   itself once the network answers again;
 * - the home page's weight: the bytes the server sent (counted by a loopback relay in front of it:
 *   headers and bodies, as sent, uncompressed since `serve` does not compress) on a first visit with
 *   the worker and without it, and on a repeat visit with it. The figures are printed; docs/pages.md
 *   quotes them.
 */
import { promises as fs } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { RunningServer } from "../../src/server/serve.js";
import { SAMPLE_NOW, sampleSite } from "../helpers/pages.js";
import { testServer } from "../helpers/site.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

let browser: Browser;
let server: RunningServer;
let relay: net.Server;
let base = "";
let out = "";
/** Bytes the server sent through the relay since the last reset. */
let sent = 0;
/** While set, the relay holds what a browser sends for this long: a network that answers, slowly (a lift). */
let holdMs = 0;

beforeAll(async () => {
  const site = await sampleSite(SAMPLE_NOW);
  out = site.out;
  server = await testServer(out, {
    nowMs: SAMPLE_NOW + 60_000,
    limits: { window: 100_000, windowSeconds: 60, daily: 1_000_000 },
  });
  const upstream = new URL(server.url);
  relay = net.createServer((client) => {
    const to = net.connect(Number(upstream.port), upstream.hostname);
    client.on("data", (d: Buffer) => (holdMs ? setTimeout(() => to.write(d), holdMs) : to.write(d)));
    to.on("data", (d: Buffer) => (sent += d.length));
    to.pipe(client);
    const end = () => {
      client.destroy();
      to.destroy();
    };
    client.on("error", end).on("close", end);
    to.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => relay?.close(r));
  await server?.close();
});

/** The names of the worker's caches, and whether each keeps `paths` (relative to the site's root). */
const cachesOf = (page: Page, paths: string[]) =>
  page.evaluate(async (want) => {
    const root = new URL("/", location.href).href;
    const out: Array<{ name: string; keeps: boolean }> = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const hits = await Promise.all(want.map((p) => cache.match(root + p)));
      out.push({ name, keeps: hits.every(Boolean) });
    }
    return out;
  }, paths);

/** Resolves once the worker controls the page and one cache keeps `paths`. */
async function settled(page: Page, paths: string[]): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  for (let i = 0; i < 100; i++) {
    if ((await cachesOf(page, paths)).some((c) => c.keeps)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`no cache keeps ${paths.join(", ")}`);
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe("a new deployment's worker", () => {
  test("takes over the open page at once; the old cache is deleted, the pages it kept are carried over", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    expect((await page.goto(`${base}/assets/us-dollar/`))?.status()).toBe(200);
    await settled(page, ["assets/us-dollar/", "", "api/v1/feed.json"]);
    const [before] = await cachesOf(page, []);
    const swFile = path.join(out, "sw.js");
    const published = await fs.readFile(swFile, "utf8");
    const version = /var VERSION = "([0-9a-f]{16})";/.exec(published)![1]!;
    expect(before!.name).toBe(`price-feed ${base}/ ${version}`);

    // The next deployment: a worker of another version (its manifest entry too, as a build writes it).
    const next = "0123456789abcdef";
    const manifestFile = path.join(out, "_manifest.json");
    const manifest = await fs.readFile(manifestFile, "utf8");
    try {
      await fs.writeFile(swFile, published.replace(version, next));
      const m = JSON.parse(manifest) as { files: Record<string, { etag: string }> };
      m.files["sw.js"]!.etag = '"next-deployment"';
      await fs.writeFile(manifestFile, JSON.stringify(m));
      server.reload();
      // A browser looks for a new worker on each navigation; here, at once.
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r!.update()));
      let names: string[] = [];
      for (let i = 0; i < 150; i++) {
        names = (await cachesOf(page, [])).map((c) => c.name);
        if (names.length === 1 && names[0]!.endsWith(` ${next}`)) break;
        await page.waitForTimeout(100);
      }
      expect(names).toEqual([`price-feed ${base}/ ${next}`]);
      const after = await cachesOf(page, ["assets/us-dollar/", "", "api/v1/feed.json", "offline.js", "amount.js"]);
      expect(after).toEqual([{ name: `price-feed ${base}/ ${next}`, keeps: true }]);
      // The open page is the new worker's: no page stays on the old version.
      expect(
        await page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          return {
            active: reg!.active!.state,
            waiting: reg!.waiting,
            controlled: !!navigator.serviceWorker.controller,
          };
        }),
      ).toEqual({ active: "activated", waiting: null, controlled: true });
      expect((await page.reload())?.status()).toBe(200);
    } finally {
      await fs.writeFile(swFile, published);
      await fs.writeFile(manifestFile, manifest);
      server.reload();
      await context.close();
    }
  }, 90_000);
});

describe("a network that answers too slowly", () => {
  test("a kept page is shown as a saved copy after 6 s, with its banner; the fresh one replaces it when it comes", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asset = "/assets/euro/";
    expect((await page.goto(base + asset))?.status()).toBe(200);
    await settled(page, [asset.slice(1)]);
    holdMs = 12_000;
    try {
      const started = Date.now();
      await page.goto(base + asset, { waitUntil: "domcontentloaded", timeout: 20_000 });
      const waited = Date.now() - started;
      expect(await page.evaluate(() => document.documentElement.hasAttribute("data-saved"))).toBe(true);
      await page.locator("#offline").waitFor({ state: "visible" });
      expect(await page.locator("#offline").textContent()).toMatch(/^No connection: this is a saved copy\./);
      // Not before the worker's 6 seconds, and well before the network's 12.
      expect(waited).toBeGreaterThanOrEqual(5_900);
      expect(waited).toBeLessThan(11_000);
    } finally {
      holdMs = 0;
    }
    // The network answers again: the page asks the worker to try, and reloads itself, fresh.
    await page.waitForFunction(() => !document.documentElement.hasAttribute("data-saved"), null, {
      timeout: 40_000,
    });
    await page.waitForLoadState("load");
    expect(await page.locator("#offline").isHidden()).toBe(true);
    await context.close();
  }, 90_000);
});

describe("the home page's weight", () => {
  /** Bytes sent for what `step` loads, once the network is quiet. */
  async function weigh(step: () => Promise<unknown>): Promise<number> {
    await settle();
    sent = 0;
    await step();
    await settle();
    return sent;
  }

  test("first visit with and without the worker, and a repeat visit with it: printed for docs/pages.md", async () => {
    const figures: Record<string, number> = {};
    let context: BrowserContext = await browser.newContext({ serviceWorkers: "block" });
    let page = await context.newPage();
    figures["first visit, no service worker"] = await weigh(() => page.goto(`${base}/`, { waitUntil: "load" }));
    await context.close();

    context = await browser.newContext();
    page = await context.newPage();
    figures["first visit, the worker installed"] = await weigh(async () => {
      await page.goto(`${base}/`, { waitUntil: "load" });
      await settled(page, ["", "api/v1/feed.json", "offline.js", "amount.js"]);
    });
    figures["repeat visit, with the worker"] = await weigh(() => page.goto(`${base}/`, { waitUntil: "load" }));
    figures["repeat visit, Arabic home, with the worker"] = await weigh(() =>
      page.goto(`${base}/ar/`, { waitUntil: "load" }),
    );
    await context.close();
    console.log("the home page's weight, bytes sent by price-feed serve (uncompressed)", figures);
    // The worker's install fetches its files once; a repeat visit revalidates the page (a 304) and
    // takes the scripts from the cache: a small fraction of the first.
    expect(figures["first visit, the worker installed"]!).toBeGreaterThan(figures["first visit, no service worker"]!);
    expect(figures["repeat visit, with the worker"]!).toBeLessThan(figures["first visit, no service worker"]! / 10);
  }, 90_000);
});
