/**
 * Found and shared (issue 37 item 6), on the simulated market's built site: the Atom feeds announced
 * on every page; with the site's base URL the canonical address, the hreflang twins, og:url and an
 * og:image per asset, all absolute, robots.txt naming sitemap.xml and the sitemap listing every
 * page; without it none of those (relative ones are errors to search engines) and no sitemap; a
 * WhatsApp share link per asset with its price and address; each asset's card a PNG of 1200 × 630
 * with its Latin and Arabic text drawn, the same bytes from two builds of the same data, and not
 * drawn again when its card did not change. What Lighthouse's SEO audit checks, checked by hand on
 * the built HTML (its criteria: a title, a meta description, lang, a valid hreflang, an absolute
 * canonical, crawlable links, a valid robots.txt, a viewport, legible sizes, tap targets).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { writeSample } from "../../src/jobs/sample.js";
import { rasterize } from "../../src/jobs/card-images.js";
import { cardCacheDir, pngSize } from "../../src/incremental/card-cache.js";
import { CARD_FONT, homeCardAssets, homeCardSvg } from "../../src/render/pages/card-image.js";
import { handle } from "../../src/edge/handler.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { Manifest } from "../../src/schema/documents.js";
import { tempDir } from "../helpers/dataset.js";
import { depsFor } from "../helpers/site.js";
import { SAMPLE_NOW, humanPages, printed, sellerIds } from "../helpers/pages.js";

const BASE = "https://prices.example.org";

interface Built {
  out: string;
  feed: Feed;
  /** The ids of the sellers it lists, each with a page. */
  sellers: string[];
  manifest: Manifest;
  read: (p: string) => Promise<string>;
  bytes: (p: string) => Promise<Buffer>;
}

async function built(out: string): Promise<Built> {
  const read = (p: string) => fs.readFile(path.join(out, p), "utf8");
  return {
    out,
    read,
    bytes: (p) => fs.readFile(path.join(out, p)),
    feed: JSON.parse(await read("api/v1/feed.json")) as Feed,
    sellers: await sellerIds(out),
    manifest: JSON.parse(await read("_manifest.json")) as Manifest,
  };
}

/** The simulated market's data, with a base URL or without, built into `out`. */
async function sample(baseUrl?: string): Promise<string> {
  const data = await tempDir("pf-seo-");
  await writeSample({ out: data, nowMs: SAMPLE_NOW, days: 40, assets: 15, sellers: 14, seed: "pages", compact: true });
  if (baseUrl) {
    const site = JSON.parse(await fs.readFile(path.join(data, "site.json"), "utf8")) as object;
    await fs.writeFile(path.join(data, "site.json"), JSON.stringify({ ...site, baseUrl }));
  }
  return data;
}

let plain: Built;
let deployed: Built;
let again: Built;
beforeAll(async () => {
  const [a, b] = await Promise.all([sample(), sample(`${BASE}/`)]);
  await runBuild({ dataDir: a, outDir: path.join(a, "public"), nowMs: SAMPLE_NOW, saveState: false });
  await runBuild({ dataDir: b, outDir: path.join(b, "public"), nowMs: SAMPLE_NOW, saveState: false });
  // The same data built again elsewhere: no picture kept from the first build (another cache).
  await runBuild({ dataDir: b, outDir: path.join(b, "again"), nowMs: SAMPLE_NOW, saveState: false });
  [plain, deployed, again] = await Promise.all([
    built(path.join(a, "public")),
    built(path.join(b, "public")),
    built(path.join(b, "again")),
  ]);
}, 120_000);

const head = (html: string) => html.slice(0, html.indexOf("</head>"));
const files = (b: Built) => humanPages(b.feed, b.sellers).map((p) => ({ ...p, file: `${p.path.slice(1)}index.html` }));

describe("every page is found: Atom feeds, and with the base URL its canonical address and twins", () => {
  test("every page announces the Atom feed of every event; an asset page its own first, and both are built", async () => {
    for (const p of files(plain)) {
      const links = [
        ...head(await plain.read(p.file)).matchAll(
          /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="([^"]+)">/g,
        ),
      ].map((m) => new URL(m[1]!, `http://x${p.path}`).pathname);
      const slug = /^\/(?:ar\/)?assets\/([^/]+)\/$/.exec(p.path)?.[1];
      expect(links, p.path).toEqual([...(slug ? [`/api/v1/events/asset/${slug}.atom`] : []), "/api/v1/events.atom"]);
      for (const l of links)
        expect(plain.manifest.files[l.slice(1)]?.contentType, l).toMatch(/^application\/atom\+xml/);
    }
  });

  test("with the base URL: an absolute canonical to itself, hreflang en, ar and x-default, og:url", async () => {
    for (const p of files(deployed)) {
      const h = head(await deployed.read(p.file));
      const en = p.lang === "ar" ? p.path.slice(3) : p.path;
      expect(h, p.path).toContain(`<link rel="canonical" href="${BASE}${p.path}">`);
      expect(h).toContain(`<link rel="alternate" hreflang="en" href="${BASE}${en}">`);
      expect(h).toContain(`<link rel="alternate" hreflang="ar" href="${BASE}/ar${en}">`);
      expect(h).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}${en}">`);
      expect(h).toContain(`<meta property="og:url" content="${BASE}${p.path}">`);
      // Every hreflang is a language code and every link of the head is absolute (Lighthouse: "Relative href value").
      for (const m of h.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)) {
        expect(["en", "ar", "x-default"]).toContain(m[1]);
        expect(m[2]).toMatch(/^https:\/\//);
      }
    }
  });

  test("the page for an address with none: links absolute with the base URL, noindex, no address of its own, not in the sitemap", async () => {
    for (const [file, home] of [
      ["404.html", `${BASE}/`],
      ["ar/404.html", `${BASE}/ar/`],
    ] as const) {
      const page = await deployed.read(file);
      expect(page, file).toContain(`<a href="${home}">`);
      expect(page, file).toContain('<meta name="robots" content="noindex">');
      expect(head(page), file).not.toMatch(/rel="canonical"|<link rel="alternate" hreflang=|og:url|og:image/);
      // Served at any depth: no link relative to where it was found, none root-relative either (the
      // mirror serves it under its prefix).
      expect(
        [...page.matchAll(/ (?:href|src)="([^"#][^"]*)"/g)]
          .map((m) => m[1])
          .filter((h) => !/^(https:\/\/|data:)/.test(h!)),
        file,
      ).toEqual([]);
    }
    expect(await deployed.read("sitemap.xml")).not.toContain("404");
  });

  test("without it, none of them: a relative canonical or hreflang is an error to search engines", async () => {
    for (const p of files(plain)) {
      const h = head(await plain.read(p.file));
      expect(h, p.path).not.toMatch(/rel="canonical"|hreflang=|og:url|og:image/);
    }
    // The language switch still links the twin.
    expect(await plain.read("ar/index.html")).toContain('hreflang="en" lang="en" rel="alternate">English</a>');
  });

  test("robots.txt keeps crawlers out of the API and names the sitemap only with the base URL; the sitemap lists every page", async () => {
    expect(await plain.read("robots.txt")).toBe(
      "# The pages are for everyone; the API (/api/) is for programs, under rate limits.\nUser-agent: *\nDisallow: /api/\n",
    );
    expect(plain.manifest.files["sitemap.xml"]).toBeUndefined();
    await expect(plain.read("sitemap.xml")).rejects.toThrow();
    expect(await deployed.read("robots.txt")).toContain(`\nSitemap: ${BASE}/sitemap.xml\n`);
    const sitemap = await deployed.read("sitemap.xml");
    expect(deployed.manifest.files["sitemap.xml"]!.contentType).toBe("application/xml; charset=utf-8");
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(
      [
        ...humanPages(deployed.feed, deployed.sellers).map((p) => p.path),
        ...dayPaths(deployed).flatMap((p) => [p, `/ar${p}`]),
      ]
        .map((p) => `${BASE}${p}`)
        .sort(byPage(deployed)),
    );
    // Every past day's page, each with its twin: the list of days, then the days, oldest first.
    expect(dayPaths(deployed).length).toBeGreaterThan(30);
    expect(sitemap).toContain(
      `<url><loc>${BASE}/ar/</loc><xhtml:link rel="alternate" hreflang="en" href="${BASE}/"/><xhtml:link rel="alternate" hreflang="ar" href="${BASE}/ar/"/>`,
    );
  });
});

/** The list of days and every past day's page the build wrote, oldest first, by their English paths. */
const dayPaths = (b: Built) => [
  "/days/",
  ...Object.keys(b.manifest.files)
    .filter((f) => /^days\/\d{4}-\d{2}-\d{2}\/index\.html$/.test(f))
    .sort()
    .map((f) => `/${f.slice(0, -"index.html".length)}`),
];

/** The sitemap's order: each English page followed by its Arabic twin, the days after the other pages. */
const byPage = (b: Built) => {
  const order = [
    ...humanPages(b.feed, b.sellers)
      .filter((p) => p.lang === "en")
      .map((p) => p.path),
    ...dayPaths(b),
  ].flatMap((p) => [`${BASE}${p}`, `${BASE}/ar${p}`]);
  return (x: string, y: string) => order.indexOf(x) - order.indexOf(y);
};

describe("every asset is shared", () => {
  test("an og:image per asset page, absolute, 1200 × 630, with its words", async () => {
    for (const a of deployed.feed.assets)
      for (const prefix of ["", "/ar"]) {
        const h = head(await deployed.read(`${prefix.slice(1)}${prefix ? "/" : ""}assets/${a.slug}/index.html`));
        expect(h).toContain(`<meta property="og:image" content="${BASE}/assets/${a.slug}/card.png">`);
        expect(h).toContain(
          '<meta property="og:image:width" content="1200">\n<meta property="og:image:height" content="630">',
        );
        expect(h).toMatch(/<meta property="og:image:alt" content="[^"]+: /);
        expect(h).toContain('<meta name="twitter:card" content="summary_large_image">');
      }
  });

  test("the home page's og:image: the market's card, absolute, 1200 × 630, its words in the page's language", async () => {
    for (const [file, words] of [
      ["index.html", "Best licensed prices in Egypt. US Dollar: You buy at "],
      ["ar/index.html", "أفضل أسعار الجهات المرخصة في مصر. دولار أمريكي: تشتري بـ "],
    ] as const) {
      const h = head(await deployed.read(file));
      expect(h).toContain(`<meta property="og:image" content="${BASE}/card.png">`);
      expect(h).toContain(
        '<meta property="og:image:width" content="1200">\n<meta property="og:image:height" content="630">',
      );
      expect(h).toContain(`<meta property="og:image:alt" content="${words}`);
      expect(h).toContain('<meta name="twitter:card" content="summary_large_image">');
    }
    // Each headline asset's names are on it, in both languages, and its best prices.
    const svg = homeCardSvg(deployed.feed.assets, { simulated: true });
    for (const a of homeCardAssets(deployed.feed.assets)) {
      expect(svg).toContain(`>${a.name}</text>`);
      expect(svg).toContain(`>${printed(a.directions.sell.best!.value!, a.decimals)}</text>`);
    }
    expect(homeCardAssets(deployed.feed.assets).map((a) => a.id)).toEqual([
      "USD-EGP",
      "EUR-EGP",
      "GBP-EGP",
      "SAR-EGP",
      "KWD-EGP",
      "XAU21K-EGP",
      "XAU24K-EGP",
      "XAU18K-EGP",
      "GOLDPOUND-EGP",
    ]);
  });

  test("a WhatsApp link per asset page: the price and the page's address, percent-encoded", async () => {
    for (const [file, lang] of [
      ["assets/us-dollar/index.html", "en"],
      ["ar/assets/us-dollar/index.html", "ar"],
    ] as const) {
      const usd = deployed.feed.assets.find((a) => a.slug === "us-dollar")!;
      const href = (await deployed.read(file)).match(
        /<p class="share"><a href="(https:\/\/wa\.me\/\?text=[^"]+)">/,
      )![1]!;
      expect(href).toMatch(/^https:\/\/wa\.me\/\?text=[A-Za-z0-9%\-_.!~*'()]+$/);
      const text = decodeURIComponent(href.slice("https://wa.me/?text=".length).replace(/&#39;/g, "'"));
      const sell = usd.directions.sell.best!.value!.toFixed(2);
      expect(text).toContain(lang === "ar" ? `تشتري بـ ${sell} جنيه` : `You buy at ${sell} EGP`);
      expect(text.endsWith(` ${BASE}${lang === "ar" ? "/ar" : ""}/assets/us-dollar/`)).toBe(true);
    }
    // Without the base URL the page's address is not known: the price goes alone.
    const plainHref = (await plain.read("assets/us-dollar/index.html")).match(/wa\.me\/\?text=([^"]+)"/)![1]!;
    expect(decodeURIComponent(plainHref)).not.toContain("http");
  });
});

/** A PNG's pixels (8-bit RGBA, not interlaced, as resvg writes them). */
function pixels(png: Uint8Array): { width: number; height: number; at: (x: number, y: number) => number[] } {
  const { width, height } = pngSize(png)!;
  const chunks: Uint8Array[] = [];
  for (let o = 8; o < png.length;) {
    const len = new DataView(png.buffer, png.byteOffset + o).getUint32(0);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    if (type === "IDAT") chunks.push(png.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const bpp = 4;
  const stride = width * bpp;
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= bpp ? out[y * stride + i - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= bpp && y > 0 ? out[(y - 1) * stride + i - bpp]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, paeth][f]!) & 255;
    }
  }
  return { width, height, at: (x, y) => [...out.subarray(y * stride + x * bpp, y * stride + x * bpp + 4)] };
}

/** How many dark pixels (text) a box of a picture has. */
function ink(png: Uint8Array, x0: number, y0: number, x1: number, y1: number): number {
  const p = pixels(png);
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (
        p
          .at(x, y)
          .slice(0, 3)
          .every((v) => v < 90)
      )
        n++;
  return n;
}

describe("each asset's card as a PNG (src/jobs/card-images.ts)", () => {
  test("drawn only with a base URL, the only pages that name them (og:image)", () => {
    // The web app's icons are drawn either way (src/render/pages/app.ts); no card without a base URL.
    const cards = (files: object) => Object.keys(files).filter((f) => f.endsWith(".png") && !f.startsWith("icons/"));
    expect(cards(plain.manifest.files)).toEqual([]);
    // Each asset's, and the home page's.
    expect(cards(deployed.manifest.files)).toHaveLength(deployed.feed.assets.length + 1);
  });

  test("1200 × 630, listed as image/png, served as its bytes", async () => {
    for (const file of [...deployed.feed.assets.map((a) => `assets/${a.slug}/card.png`), "card.png"]) {
      const png = await deployed.bytes(file);
      expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
      expect(deployed.manifest.files[file]).toMatchObject({ contentType: "image/png", bytes: png.length });
    }
    const res = await handle(new Request("http://localhost/assets/gold-21k/card.png"), depsFor(deployed.out));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await res.arrayBuffer()).equals(await deployed.bytes("assets/gold-21k/card.png"))).toBe(true);
  });

  test("two builds of the same data give the same bytes and ETags, each drawn anew", async () => {
    for (const a of deployed.feed.assets) {
      const file = `assets/${a.slug}/card.png`;
      expect((await again.bytes(file)).equals(await deployed.bytes(file)), file).toBe(true);
      expect(again.manifest.files[file]!.etag).toBe(deployed.manifest.files[file]!.etag);
    }
    // Each build drew its own: the cards of the two sites are not the same file.
    const [x, y] = await Promise.all([
      fs.stat(path.join(deployed.out, "assets/us-dollar/card.png")),
      fs.stat(path.join(again.out, "assets/us-dollar/card.png")),
    ]);
    expect(x.ino).not.toBe(y.ino);
  });

  test("a rebuild keeps the cards that did not change, drawn once, and the cache keeps only what the site uses", async () => {
    const cache = cardCacheDir(again.out);
    const before = new Map(
      await Promise.all(
        (await fs.readdir(cache)).map(async (n) => [n, (await fs.stat(path.join(cache, n))).mtimeMs] as const),
      ),
    );
    // Each asset's card, the home page's, and the web app's four icons (src/render/pages/app.ts).
    expect(before.size).toBe(again.feed.assets.length + 1 + 4);
    await fs.writeFile(path.join(cache, "left-over.png"), "x");
    const data = path.dirname(again.out);
    await runBuild({ dataDir: data, outDir: again.out, nowMs: SAMPLE_NOW + 60_000, saveState: false });
    const after = await fs.readdir(cache);
    expect(after.sort()).toEqual([...before.keys()].sort());
    for (const n of after) expect((await fs.stat(path.join(cache, n))).mtimeMs, n).toBe(before.get(n));
    const card = await fs.stat(path.join(again.out, "assets/us-dollar/card.png"));
    expect(card.nlink).toBe(2); // the site's file is the cache's, linked
  });

  test("its Latin and Arabic text is drawn, in the fonts the build loads, not the machine's", async () => {
    const svg = (body: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" font-family="${CARD_FONT}"><rect width="1200" height="630" fill="#fff"/>${body}</svg>`;
    const blank = rasterize(svg(""));
    const latin = rasterize(svg('<text x="60" y="120" font-size="56" font-weight="700">US Dollar</text>'));
    const arabic = rasterize(
      svg(
        '<text x="1140" y="120" font-size="56" font-weight="700" text-anchor="end" direction="rtl">دولار أمريكي</text>',
      ),
    );
    expect(ink(blank, 0, 60, 1200, 140)).toBe(0);
    expect(ink(latin, 60, 60, 600, 140)).toBeGreaterThan(2000);
    expect(ink(arabic, 600, 60, 1140, 140)).toBeGreaterThan(2000);
    // The card itself: the English name at the start of its line, the Arabic one at the end of the next.
    const card = await deployed.bytes("assets/us-dollar/card.png");
    expect(ink(card, 60, 80, 600, 130)).toBeGreaterThan(2000);
    expect(ink(card, 700, 135, 1140, 190)).toBeGreaterThan(2000);
    expect(ink(card, 60, 135, 500, 190)).toBe(0);
  });
});

describe("what Lighthouse's SEO audit checks, on every page", () => {
  test("a title, a meta description, lang, a viewport; crawlable links; legible sizes and tap targets", async () => {
    for (const p of files(deployed)) {
      const html = await deployed.read(p.file);
      expect(html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${p.lang}" dir="(ltr|rtl)">`));
      expect(html).toMatch(/<title>[^<]{10,}<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{30,}">/);
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      for (const m of html.matchAll(/<a\b[^>]*>/g)) expect(m[0], p.path).toMatch(/ href="(?!javascript:)[^"]+"/);
    }
    // Legible: the body is 16 px and nothing is set under 12 px (0.75rem); the field and the share
    // link are 48 px tall (3rem), the size Lighthouse asks a tap target to be.
    const html = await deployed.read("assets/us-dollar/index.html");
    const style = html.slice(html.indexOf("<style>"), html.indexOf("</style>"));
    expect(style).toContain("font:16px/1.5");
    for (const m of style.matchAll(/font-size:([\d.]+)(rem|em|px)/g))
      expect(Number(m[1]) * (m[2] === "px" ? 1 : 16), m[0]).toBeGreaterThanOrEqual(12);
    expect(style).toMatch(/\.share a\{[^}]*min-height:3rem/);
    expect(style).toMatch(/\.amount input\{[^}]*min-height:3rem/);
  });
});
