/**
 * The build's pictures: each asset's card (src/render/pages/card-image.ts) drawn as SVG by the pages
 * and made a PNG here, with resvg (@resvg/resvg-js, a native module from npm) and the DejaVu Sans
 * fonts of the dejavu-fonts-ttf package — never the machine's own fonts, which another machine may
 * lack: the same SVG gives the same bytes anywhere the same packages are installed.
 *
 * A PNG is a function of its SVG and of the rasterizer, so the plan keeps the one drawn before of the
 * same SVG (src/incremental/card-cache.ts) and this draws only the others: about 20 ms each; an
 * hourly build draws only the assets whose price, move, month or time changed.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { KeptFile } from "../feed/archive/types.js";
import { PNG_TYPE, type ImageFile } from "../feed/site.js";
import type { PictureTarget } from "../feed/plan.js";
import { pngSize } from "../incremental/card-cache.js";

/** Packages resolved from here at run time (the command line's bundle too: resvg is native code). */
const load = createRequire(import.meta.url);
const FONTS = ["dejavu-fonts-ttf/ttf/DejaVuSans.ttf", "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"];

/** What the bytes depend on besides the SVG: resvg's version and the fonts' (the cards' cache key, src/incremental/card-cache.ts). */
export function rasterizerId(): string {
  const version = (p: string) => (load(`${p}/package.json`) as { version: string }).version;
  return `resvg-js ${version("@resvg/resvg-js")}; dejavu-fonts-ttf ${version("dejavu-fonts-ttf")}; png`;
}

type Resvg = typeof import("@resvg/resvg-js");
let resvg: Resvg | undefined;

/**
 * The SVG as PNG, at its own size, in the card's fonts only.
 *
 * resvg-js 2.6 holds each rendering's pixels (3 MB for a card) outside V8's sight until the
 * collector finalizes its object (thx/resvg-js#216): nothing made the collector run, and a build of
 * 200 cards grew by 640 MB. Reading `pixels` hands V8 a copy it counts, so that it collects every
 * few cards; the build lets the finalizers run between two cards (drawCard). A build of
 * 200 cards then stays within about 100 MB of one without them.
 */
export function rasterize(svg: string): Uint8Array {
  resvg ??= load("@resvg/resvg-js") as Resvg;
  const rendered = new resvg.Resvg(svg, {
    font: {
      loadSystemFonts: false,
      fontFiles: FONTS.map((f) => load.resolve(f)),
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
    fitTo: { mode: "original" },
  }).render();
  const png = rendered.asPng();
  void rendered.pixels.byteLength;
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * Draws a picture the plan did not keep (src/incremental/card-cache.ts) where it says — a share
 * card, or an icon of the web app (src/render/pages/app.ts) — the PNG of the SVG, checked to be of
 * the picture's size, written whole or not at all (a build that
 * stops half-way leaves a temporary file, never half a picture).
 */
export async function drawCard(f: ImageFile, to: PictureTarget): Promise<KeptFile> {
  // A turn of the event loop first: the finalizers of the cards drawn before free their pixels.
  await new Promise((resolve) => setImmediate(resolve));
  const png = rasterize(f.svg);
  const size = pngSize(png);
  if (!size || size.width !== f.width || size.height !== f.height)
    throw new Error(`${f.path}: the rasterizer made no PNG of ${f.width} × ${f.height}`);
  mkdirSync(path.dirname(to.at), { recursive: true });
  const tmp = `${to.at}.tmp-${process.pid}`;
  writeFileSync(tmp, png);
  renameSync(tmp, to.at);
  return { path: f.path, from: to.at, etag: to.etag, contentType: PNG_TYPE, bytes: png.byteLength };
}
