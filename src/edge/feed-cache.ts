import { canonical } from "../core/canonical.js";
import type { Manifest } from "../schema/documents.js";

/** Per build: the feed's header and each asset's canonical JSON, for answers composed on request. */
export class FeedCache {
  private key = "";
  private parsed: Promise<{ header: Record<string, unknown>; assets: Map<string, Uint8Array> }> | null = null;
  private readonly etags = new Map<string, Promise<string>>();
  private readonly encoded = new Map<string, Uint8Array<ArrayBuffer>>();
  private encodedBytes = 0;
  private readonly encoder = new TextEncoder();

  /**
   * A body's UTF-8 bytes, made once per ETag and URL rather than on every request (one URL has
   * one body per ETag: its `_self` is the URL); `body` runs only on a miss. A new build brings new
   * ETags; the old entries are dropped when the cache passes its size. The bytes are answered as
   * they are: a Uint8Array is the body @hono/node-server's Response hands to the socket uncopied
   * (a string would be encoded on every write); Deno copies it once, as the Fetch standard says.
   */
  bytes(key: string, body: () => string | Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    let b = this.encoded.get(key);
    if (!b) {
      const made = body();
      b = typeof made === "string" ? this.encoder.encode(made) : made;
      if (this.encodedBytes + b.length > 64 * 1024 * 1024) {
        this.encoded.clear();
        this.encodedBytes = 0;
      }
      this.encoded.set(key, b);
      this.encodedBytes += b.length;
    }
    return b;
  }

  /**
   * The feed of this build, prepared once: its header, and each asset's canonical JSON as UTF-8
   * bytes (encoded once, so never a rope walked again), for answers composed on request.
   */
  feed(m: Manifest, read: () => Promise<string | null>) {
    if (this.key !== m.generatedAt || !this.parsed) {
      this.key = m.generatedAt;
      this.etags.clear();
      this.parsed = read().then((text) => {
        if (text === null) throw new Error("the published feed is missing");
        const { assets, ...header } = JSON.parse(text) as { assets: Array<{ slug: string }> };
        return { header, assets: new Map(assets.map((a) => [a.slug, this.encoder.encode(canonical(a))])) };
      });
      this.parsed.catch(() => (this.parsed = null));
    }
    return this.parsed;
  }

  encode(text: string): Uint8Array<ArrayBuffer> {
    return this.encoder.encode(text);
  }

  etag(key: string, make: () => Promise<string>): Promise<string> {
    let e = this.etags.get(key);
    if (!e) this.etags.set(key, (e = make()));
    return e;
  }
}
