/**
 * The web app's files as the build writes them (src/render/pages/app.ts), and the loose ends of
 * issue 53 that are the pages' words: the manifests in both languages and what the build checks of
 * them, the icons drawn from one SVG by the cards' rasterizer, the service worker's version (a
 * digest of the build's files, never the clock), the pages' links to all of it, and the policy's
 * allowance for it; a move that rounds to nothing reads "unchanged"; the best moving to another
 * seller at the same price says "now also at".
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "node-html-parser";
import {
  ICON_SIZES,
  PALETTES,
  appManifest,
  iconSvg,
  newestObservation,
  serviceWorker,
  versionDigest,
  workerFiles,
} from "../../src/render/pages/app.js";
import { STYLE } from "../../src/render/pages/style.js";
import { rasterize } from "../../src/jobs/card-images.js";
import { pngSize } from "../../src/incremental/card-cache.js";
import { WebAppManifest } from "../../src/schema/web-manifest.js";
import { validateFile } from "../../src/feed/validate.js";
import { PAGE_CSP, PAGE_CSP_META, WORKER_CSP } from "../../src/core/csp.js";
import { changeMark } from "../../src/render/pages/change.js";
import { eventSentence } from "../../src/render/pages/events.js";
import type { Event } from "../../src/schema/events.js";
import type { Manifest } from "../../src/schema/documents.js";
import { builtSample, builtSite } from "../helpers/site.js";
import { Registry } from "../../src/schema/inputs.js";

/** A mark's text as read: white space as one space, and no soft hyphen (change-words.ts noChange). */
const text = (h: string) =>
  parse(h)
    .text.replace(/\u00AD/g, "")
    .replace(/\s+/g, " ")
    .trim();

describe("the manifests", () => {
  test("each language's: its names, lang and dir, the home page as start and id, the site as scope, both palettes, 4 icons", () => {
    const en = appManifest("en");
    const ar = appManifest("ar");
    expect(WebAppManifest.parse(en)).toBeTruthy();
    expect(WebAppManifest.parse(ar)).toBeTruthy();
    expect([en["lang"], en["dir"], en["start_url"], en["scope"], en["display"]]).toEqual([
      "en",
      "ltr",
      "./",
      "./",
      "standalone",
    ]);
    // The Arabic one is at /ar/app.webmanifest: its paths are relative to it.
    const base = "https://site.test/ar/app.webmanifest";
    expect([ar["lang"], ar["dir"]]).toEqual(["ar", "rtl"]);
    expect(new URL(ar["start_url"] as string, base).pathname).toBe("/ar/");
    expect(new URL(ar["scope"] as string, base).pathname).toBe("/");
    expect(ar["name"]).toMatch(/[\u0600-\u06FF]/);
    expect(ar["short_name"]).toMatch(/[\u0600-\u06FF]/);
    const icons = ar["icons"] as Array<{ src: string; sizes: string; purpose: string }>;
    expect(icons.map((i) => `${new URL(i.src, base).pathname} ${i.sizes} ${i.purpose}`)).toEqual([
      "/icons/any-192.png 192x192 any",
      "/icons/any-512.png 512x512 any",
      "/icons/maskable-192.png 192x192 maskable",
      "/icons/maskable-512.png 512x512 maskable",
    ]);
    expect(en["theme_color"]).toBe(PALETTES.light.theme);
    expect(en["user_preferences"]).toEqual({
      color_scheme_dark: { theme_color: PALETTES.dark.theme, background_color: PALETTES.dark.background },
    });
  });

  test("the palettes are the pages' own: the header's background and the page's, light and dark", () => {
    const light = /:root\{color-scheme:light dark;([^}]*)\}/.exec(STYLE.text)![1]!;
    const dark = /@media \(prefers-color-scheme:dark\)\{:root\{([^}]*)\}/.exec(STYLE.text)![1]!;
    const varOf = (block: string, name: string) => new RegExp(`--${name}:(#[0-9a-f]+)`).exec(block)![1]!;
    const full = (c: string) => (c.length === 4 ? `#${[...c.slice(1)].map((x) => x + x).join("")}` : c);
    expect(PALETTES.light).toEqual({ theme: full(varOf(light, "soft")), background: full(varOf(light, "bg")) });
    expect(PALETTES.dark).toEqual({ theme: full(varOf(dark, "soft")), background: full(varOf(dark, "bg")) });
  });

  test("the build refuses a manifest without a maskable icon of 512, or whose direction is not its language's", () => {
    const broken = appManifest("ar");
    const icons = (broken["icons"] as Array<{ purpose: string; sizes: string }>).filter(
      (i) => !(i.purpose === "maskable" && i.sizes === "512x512"),
    );
    expect(() => validateFile({ path: "ar/app.webmanifest", body: JSON.stringify({ ...broken, icons }) })).toThrow(
      /no maskable icon of 512x512/,
    );
    expect(() =>
      validateFile({ path: "app.webmanifest", body: JSON.stringify({ ...appManifest("en"), dir: "rtl" }) }),
    ).toThrow(/rtl is not en's direction/);
  });
});

describe("the icons", () => {
  test("one drawing: PNGs of their size from resvg, the same bytes twice; maskable keeps its marks in the safe zone", () => {
    for (const size of ICON_SIZES)
      for (const purpose of ["any", "maskable"] as const) {
        const png = rasterize(iconSvg(size, purpose));
        expect(pngSize(png)).toEqual({ width: size, height: size });
        expect(Buffer.from(rasterize(iconSvg(size, purpose))).equals(Buffer.from(png))).toBe(true);
      }
    // The marks span x 96..416 and y 156..356 of 512 at full size; maskable draws them at 70 % around
    // the centre: every corner of that box within the safe zone's circle (radius 40 %, 204.8).
    const scaled = (v: number) => 256 + (v - 256) * 0.7;
    for (const [x, y] of [
      [96, 156],
      [416, 156],
      [96, 356],
      [416, 356],
    ] as const)
      expect(Math.hypot(scaled(x) - 256, scaled(y) - 256)).toBeLessThan(204.8);
    expect(iconSvg(512, "maskable")).toContain("scale(0.7)");
  });
});

describe("the service worker", () => {
  const etags = (salt: string) => (f: string) => `"${salt}-${f}"`;
  test("its version is a digest of the files it keeps: the same files, the same bytes; one file changed, another version", () => {
    const a = serviceWorker(etags("1"));
    expect(serviceWorker(etags("1"))).toBe(a);
    const b = serviceWorker((f) => (f === "amount.js" ? '"changed"' : etags("1")(f)));
    const version = (sw: string) => /var VERSION = "([0-9a-f]{16})";/.exec(sw)![1];
    expect(version(a)).not.toBe(version(b));
    expect(a.replace(version(a)!, "")).toBe(b.replace(version(b)!, ""));
    expect(a).toContain(`var FILES = ${JSON.stringify(workerFiles())};`);
    expect(a).toContain('var FEED = "api/v1/feed.json";');
    // Nothing of the clock: the text has no date, and the digest is a function of its text alone.
    expect(a).not.toMatch(/Date\.now|new Date/);
    expect(versionDigest("x")).toBe(versionDigest("x"));
    expect(versionDigest("x")).not.toBe(versionDigest("y"));
  });

  test("the pages' policy allows the manifest, its icons and the worker from the site, and nothing more; the worker's own fetches the site only", () => {
    for (const policy of [PAGE_CSP, PAGE_CSP_META]) {
      expect(policy).toContain("manifest-src 'self'");
      expect(policy).toContain("worker-src 'self'");
      expect(policy).toContain("img-src data: 'self'");
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toContain("connect-src");
    }
    expect(WORKER_CSP).toBe("default-src 'none'; connect-src 'self'");
  });
});

describe("the built site", () => {
  let out: string;
  let manifest: Manifest;
  beforeAll(async () => {
    ({ out } = await builtSite());
    manifest = JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")) as Manifest;
  }, 120_000);

  test("lists the app's files with their types; the icons are PNGs of their size", async () => {
    const listed = (p: string) => manifest.files[p]?.contentType;
    expect(listed("app.webmanifest")).toBe("application/manifest+json; charset=utf-8");
    expect(listed("ar/app.webmanifest")).toBe("application/manifest+json; charset=utf-8");
    expect(listed("sw.js")).toBe("text/javascript; charset=utf-8");
    expect(listed("offline.js")).toBe("text/javascript; charset=utf-8");
    for (const f of workerFiles()) expect(manifest.files[f], f).toBeDefined();
    for (const size of ICON_SIZES)
      for (const purpose of ["any", "maskable"]) {
        const png = await fs.readFile(path.join(out, `icons/${purpose}-${size}.png`));
        expect(pngSize(png)).toEqual({ width: size, height: size });
      }
  });

  test("every page links its language's manifest, both theme colours and the script; a page of prices carries their time", async () => {
    for (const [file, lang] of [
      ["index.html", "en"],
      ["ar/index.html", "ar"],
      ["assets/us-dollar/index.html", "en"],
      ["ar/assets/us-dollar/index.html", "ar"],
      ["terms/index.html", "en"],
      ["ar/days/index.html", "ar"],
    ] as const) {
      const doc = parse(await fs.readFile(path.join(out, file), "utf8"));
      const base = `https://site.test/${file.replace(/index\.html$/, "")}`;
      const href = doc.querySelector('link[rel="manifest"]')!.getAttribute("href")!;
      expect(new URL(href, base).pathname, file).toBe(lang === "ar" ? "/ar/app.webmanifest" : "/app.webmanifest");
      expect(doc.querySelectorAll('meta[name="theme-color"]').map((m) => m.getAttribute("content"))).toEqual([
        PALETTES.light.theme,
        PALETTES.dark.theme,
      ]);
      const src = doc.querySelector('script[src$="offline.js"]')!.getAttribute("src")!;
      expect(new URL(src, base).pathname, file).toBe("/offline.js");
      const banner = doc.querySelector("#offline");
      if (file.includes("index.html") && !file.includes("terms") && !file.includes("days")) {
        expect(banner, file).not.toBeNull();
        expect(banner!.hasAttribute("hidden")).toBe(true);
        expect(banner!.getAttribute("data-at")).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(banner!.getAttribute("data-saved-words")).toContain("{ago}");
      } else expect(banner, file).toBeNull();
    }
    // The home page's time is its newest price's.
    const home = parse(await fs.readFile(path.join(out, "index.html"), "utf8"));
    const feed = JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")) as {
      assets: Array<{ observedAt: string | null }>;
    };
    expect(home.querySelector("#offline")!.getAttribute("data-at")).toBe(newestObservation(feed.assets));
  });
});

describe("a move that rounds to nothing", () => {
  test("reads unchanged in both languages, never ▲ +0 piastres, and is not coloured", () => {
    // A fifth of a piastre on a currency (4 decimals), and half a piastre rounding down.
    for (const move of [0.002, -0.002, 0.0049, -0.0049]) {
      expect(text(changeMark(move, 4, "en", { side: "sell" }).text)).toBe("= unchanged");
      expect(text(changeMark(move, 4, "ar", { side: "buy" }).text)).toBe("= دون تغيير");
      expect(changeMark(move, 4, "en", { side: "sell" }).text).toContain('class="chg flat"');
    }
    // Half a piastre and more is a piastre; gold's pounds round to their decimals.
    expect(text(changeMark(0.005, 4, "en").text)).toBe("▲ +1 piastre");
    expect(text(changeMark(0.4, 0, "en").text)).toBe("= unchanged");
    expect(text(changeMark(-0.5, 0, "en").text)).toBe("▼ −1 EGP");
  });
});

describe("the best moving to another seller at the same price", () => {
  const names = {
    asset: () => ({ name: "US Dollar", nameAr: "الدولار الأمريكي", decimals: 2 }),
    source: () => undefined,
  };
  const event = (before: number, after: number) =>
    ({
      id: "e",
      at: "2026-11-19T12:00:00Z",
      date: "2026-11-19",
      kind: "best-seller",
      asset: "us-dollar",
      side: "sell",
      before: { seller: "Alpha Bank", sellerAr: "بنك ألفا", value: before },
      after: { seller: "Beta Bank", sellerAr: "بنك بيتا", value: after },
    }) as unknown as Event;

  test("says now also at, with the price once, in both languages (the pages and the Atom titles)", () => {
    expect(eventSentence(event(13.17, 13.17), names, "en")).toBe(
      "US Dollar, you buy at: the best price, 13.17, is now also at Beta Bank (it was at Alpha Bank)",
    );
    expect(eventSentence(event(13.17, 13.17), names, "ar")).toBe(
      "الدولار الأمريكي، تشتري بـ: أفضل سعر، 13.17، أصبح أيضًا لدى بنك بيتا (وكان لدى بنك ألفا)",
    );
    // Equal as shown (two decimals) is equal: 13.171 and 13.168 both read 13.17.
    expect(eventSentence(event(13.171, 13.168), names, "en")).toContain("is now also at Beta Bank");
    // A different price is the sentence it was.
    expect(eventSentence(event(13.2, 13.17), names, "en")).toBe(
      "US Dollar, you buy at: the best price is now at Beta Bank (13.17), was at Alpha Bank (13.20)",
    );
  });
});

describe("the regulator's name in Arabic on Arabic pages", () => {
  let sample: string;
  beforeAll(async () => {
    sample = await builtSample("pf-regulator-");
  }, 120_000);

  test("the registry gives it (the sample's and the real deployment's); the Arabic pages say it, the English ones do not", async () => {
    for (const file of ["data/sellers.json", "examples/egypt/sellers.json"]) {
      const registry = Registry.parse(JSON.parse(await fs.readFile(file, "utf8")));
      for (const s of registry) expect(s.licensedByAr, `${file} ${s.id}`).toMatch(/[\u0600-\u06FF]/);
      const banks = registry.filter((s) => s.kind !== "gold-dealer");
      expect(new Set(banks.map((s) => s.licensedByAr)), file).toEqual(new Set(["البنك المركزي المصري"]));
    }
    const read = (f: string) => fs.readFile(path.join(sample, f), "utf8");
    const arSources = parse(await read("ar/sources/index.html"));
    const cells = arSources.querySelectorAll("#seller-nile-commercial td").map((td) => td.text);
    expect(cells[0]).toBe("البنك المركزي المصري");
    expect(await read("sources/index.html")).not.toContain("البنك المركزي المصري");
    const arSeller = parse(await read("ar/sellers/nile-commercial/index.html")).text;
    expect(arSeller).toContain("البنك المركزي المصري");
    expect(arSeller).not.toContain("Central Bank of Egypt ·");
  }, 60_000);
});
