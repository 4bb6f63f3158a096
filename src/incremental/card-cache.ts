/**
 * The share cards' PNGs a build keeps from the builds before it, in a folder beside the site,
 * `<site>.card-cache/`. A PNG is a function of its SVG and of the rasterizer (resvg's and the fonts'
 * versions: src/jobs/card-images.ts rasterizerId), so it is named by their digest, which is also its
 * ETag: a card whose SVG did not change since the last build is not drawn again but put in the site
 * as a kept file (a hard link). Not keyed by the program: a change of code that draws the same SVG
 * keeps the picture. After the build is published the folder keeps only the pictures it used.
 */
import { closeSync, fstatSync, openSync, readSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { KeptFile } from "../feed/archive/types.js";
import { PNG_TYPE, type ImageFile } from "../feed/site.js";
import type { PictureTarget } from "../feed/plan.js";
import { nodeHashing } from "../io/hash.js";
import type { Decisions } from "./decisions.js";

/** The folder beside the site where the pictures are kept from one build to the next. */
export const cardCacheDir = (outDir: string) => `${path.resolve(outDir)}.card-cache`;

/** A PNG's width and height from its header (PNG §11.2.2 IHDR), or null when it is not one. */
export function pngSize(head: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length < 24 || signature.some((b, i) => head[i] !== b)) return null;
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

export class CardCache {
  private readonly used = new Set<string>();
  private id: string | undefined;

  /** `rasterizer`: what the PNG's bytes depend on besides the SVG, asked once, when a card is first asked for. */
  constructor(
    private readonly dir: string,
    private readonly decisions: Decisions,
    private readonly rasterizer: () => string,
  ) {}

  /** The picture of an SVG: kept from the folder when it is there whole, else where to draw it. */
  picture(f: ImageFile): KeptFile | PictureTarget {
    this.id ??= this.rasterizer();
    const etag = nodeHashing.etag(`${this.id}\n${f.svg}`) as string;
    const name = `${etag.slice(1, -1)}.png`;
    const at = path.join(this.dir, name);
    this.used.add(name);
    const had = this.header(at, f);
    if (!had) {
      this.decisions.make("card", f.path, "none");
      return { at, etag };
    }
    this.decisions.keep("card", f.path);
    return { path: f.path, from: at, etag, contentType: PNG_TYPE, bytes: had.bytes };
  }

  /** A kept picture's size, when the file is there and begins as a PNG of the picture's size. */
  private header(at: string, want: { width: number; height: number }): { bytes: number } | null {
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
      if (!size || size.width !== want.width || size.height !== want.height) return null;
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
