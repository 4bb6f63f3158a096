/**
 * A document made of many items, written as they are made (a by-day archive file: 200 assets' tables,
 * ~0.9 MB). Each item is hashed, checked and written, then dropped: the whole text is never made.
 * Made whole, each such text and its check's parse were several megabytes that V8 puts straight into
 * its old generation (a string over ~128 KB is a large object there), where they waited for a full
 * collection: 336 of them made a first build's heap grow to 500–900 MB (docs/performance.md "Memory").
 */
import type { Hashing } from "../core/canonical.js";

/** A file whose body is `head`, the items joined by commas, then `tail` (src/feed/archive/json.ts itemsCut). */
export interface ItemsFile {
  path: string;
  contentType: string;
  head: string;
  tail: string;
  /** Each item's JSON, made when it is asked for. */
  items: AsyncIterable<string> | Iterable<string>;
}

/** Where a sink writes an ItemsFile (src/io/site-writer.ts SiteFolder.openItems). */
export interface ItemsWriter {
  /** Text that is not an item: the head, a comma, the tail. */
  raw(text: string): void;
  /** One item: checked, then written. */
  item(json: string): void;
  /** The file is complete: it is put in the site. */
  end(): void;
  /** What was written is removed (an earlier build's file with the same ETag is kept instead). */
  drop(): void;
}

/**
 * Writes the file into the sink, hashing the same bytes as they go: its ETag and size, or, when
 * `unchanged` gives the file of the site being replaced with the same ETag, that file (what was
 * written is dropped). Where the hashing takes no pieces (Web Crypto), the file made whole instead,
 * to be hashed and put as any other.
 */
export async function putItems<Kept>(
  f: ItemsFile,
  sink: { openItems(path: string, head: string, tail: string): ItemsWriter },
  hashing: Hashing,
  unchanged?: (path: string, etag: string) => Kept | null,
): Promise<
  | { etag: string; bytes: number }
  | { kept: Kept }
  | { path: string; body: string; contentType: string; etagInput: () => string }
> {
  if (!hashing.pieces) {
    const body = await itemsBody(f);
    return { path: f.path, body, contentType: f.contentType, etagInput: () => body };
  }
  const w = sink.openItems(f.path, f.head, f.tail);
  let out: { etag: string; bytes: number };
  try {
    out = await writeItems(f, w, { ...hashing, pieces: hashing.pieces });
  } catch (e) {
    w.drop();
    throw e;
  }
  const same = unchanged?.(f.path, out.etag);
  if (same) {
    w.drop();
    return { kept: same };
  }
  w.end();
  return out;
}

async function writeItems(
  f: ItemsFile,
  w: ItemsWriter,
  hashing: Required<Hashing>,
): Promise<{ etag: string; bytes: number }> {
  const h = hashing.pieces();
  let bytes = 0;
  const raw = (text: string) => {
    h.update(text);
    bytes += hashing.byteLength(text);
    w.raw(text);
  };
  raw(f.head);
  let first = true;
  for await (const item of f.items) {
    if (!first) raw(",");
    first = false;
    h.update(item);
    bytes += hashing.byteLength(item);
    w.item(item);
  }
  raw(f.tail);
  return { etag: h.etag(), bytes };
}

/** The file's body, made whole: where the hashing cannot take pieces (Web Crypto). */
async function itemsBody(f: ItemsFile): Promise<string> {
  const items: string[] = [];
  for await (const item of f.items) items.push(item);
  return `${f.head}${items.join(",")}${f.tail}`;
}
