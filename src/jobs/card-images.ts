/**
 * The build's pictures: each asset's card (src/render/pages/card-image.ts) drawn as SVG by the pages
 * and made a PNG here, with resvg (@resvg/resvg-js, a native module from npm) and the DejaVu Sans
 * fonts of the dejavu-fonts-ttf package — never the machine's own fonts, which another machine may
 * lack: the same SVG gives the same bytes anywhere the same packages are installed.
 *
 * A PNG is a function of its SVG and of the rasterizer (resvg's and the fonts' versions), so it is
 * named by their digest, which is also its ETag, and kept in a folder beside the site,
 * `<site>.card-cache/`: a card whose SVG did not change since the last build is not drawn again but
 * put in the site as a kept file (SiteSink.keep: a hard link). After the build is published the
 * folder keeps only the pictures it used. Drawing one costs about 20 ms; an hourly build draws only
 * the assets whose price, move, month or time changed.
 *
 * It lives with the build job, which alone wires it; its place is with the site's writing and what
 * a build reuses (src/io/, src/incremental/) once those folders settle.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { KeptFile } from "../feed/archive/types.js";
import { PNG_TYPE, type ImageFile } from "../feed/site.js";
import { CARD } from "../render/pages/card-image.js";
import { nodeHashing } from "../io/hash.js";

/** Packages resolved from here at run time (the command line's bundle too: resvg is native code). */
const load = createRequire(import.meta.url);
const FONTS = ["dejavu-fonts-ttf/ttf/DejaVuSans.ttf", "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"];

/** What the bytes depend on besides the SVG: resvg's version and the fonts'. */
function rasterizerId(): string {
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
 * few cards; the build lets the finalizers run between two cards (CardImages.image). A build of
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

/** A PNG's width and height from its header (PNG §11.2.2 IHDR), or null when it is not one. */
export function pngSize(head: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length < 24 || signature.some((b, i) => head[i] !== b)) return null;
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

/** The folder beside the site where the pictures are kept from one build to the next. */
export const cardCacheDir = (outDir: string) => `${path.resolve(outDir)}.card-cache`;

export class CardImages {
  private readonly used = new Set<string>();
  private id: string | undefined;
  /** How many pictures this build drew, and how many it kept as drawn before. */
  drawn = 0;
  kept = 0;

  constructor(private readonly dir: string) {}

  /** The picture of an SVG: kept from the folder when it is there, else drawn into it. */
  async image(f: ImageFile): Promise<KeptFile> {
    this.id ??= rasterizerId();
    const etag = nodeHashing.etag(`${this.id}\n${f.svg}`) as string;
    const name = `${etag.slice(1, -1)}.png`;
    const at = path.join(this.dir, name);
    this.used.add(name);
    const had = this.header(at);
    if (had) {
      this.kept++;
      return { path: f.path, from: at, etag, contentType: PNG_TYPE, bytes: had.bytes };
    }
    // A turn of the event loop first: the finalizers of the cards drawn before free their pixels.
    await new Promise((resolve) => setImmediate(resolve));
    const png = rasterize(f.svg);
    const size = pngSize(png);
    if (!size || size.width < CARD.width || size.height < CARD.height)
      throw new Error(`${f.path}: the rasterizer made no PNG of at least ${CARD.width} × ${CARD.height}`);
    mkdirSync(this.dir, { recursive: true });
    // Whole or not at all: a build that stops half-way leaves a temporary file, never half a picture.
    const tmp = `${at}.tmp-${process.pid}`;
    writeFileSync(tmp, png);
    renameSync(tmp, at);
    this.drawn++;
    return { path: f.path, from: at, etag, contentType: PNG_TYPE, bytes: png.byteLength };
  }

  /** A kept picture's size, when the file is there and begins as a PNG of the card's size. */
  private header(at: string): { bytes: number } | null {
    let fd: number;
    try {
      fd = openSync(at, "r");
    } catch {
      return null;
    }
    try {
      const head = new Uint8Array(24);
      readSync(fd, head, 0, 24, 0);
      const size = pngSize(head);
      if (!size || size.width !== CARD.width || size.height !== CARD.height) return null;
      return { bytes: fstatSync(fd).size };
    } finally {
      closeSync(fd);
    }
  }

  /** After the site is published: the folder keeps only this build's pictures (and nothing half-written). */
  prune(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const n of names) if (!this.used.has(n)) rmSync(path.join(this.dir, n), { force: true });
  }
}
