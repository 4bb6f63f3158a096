/**
 * Text written in batches of UTF-8 bytes through one buffer made once (the archive's part files,
 * src/incremental/archive-part.ts, and the by-day files, src/io/site-writer.ts openItems). Batches joined as
 * strings were each a new string, and one of 64 K two-byte characters is over V8's 128 KB limit for
 * its young generation: it went straight to the old one, where it waited for a full collection.
 */
export class ByteBatch {
  private readonly buffer: Buffer;
  private used = 0;
  /** How many bytes were handed to `write`. */
  written = 0;

  constructor(
    size: number,
    private readonly write: (bytes: Uint8Array) => void,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  private out(bytes: Uint8Array): void {
    this.write(bytes);
    this.written += bytes.length;
  }

  push(text: string): void {
    const n = Buffer.byteLength(text);
    if (this.used + n > this.buffer.length) this.flush();
    if (n > this.buffer.length) this.out(Buffer.from(text));
    else this.used += this.buffer.write(text, this.used);
  }

  flush(): void {
    if (this.used > 0) this.out(this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}
