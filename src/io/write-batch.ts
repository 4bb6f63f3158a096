/**
 * Text written in batches: pieces are joined and handed to `write` once they reach `size` characters
 * (the archive's part files, src/incremental/archive-part.ts; the by-day files, src/io/site-writer.ts),
 * so that a file made of thousands of pieces costs a few writes and is never held whole.
 */
export class WriteBatch {
  private pieces: string[] = [];
  private chars = 0;
  /** How many bytes were handed to `write`, as UTF-8. */
  written = 0;

  constructor(
    private readonly size: number,
    private readonly write: (text: string) => void,
  ) {}

  push(text: string): void {
    this.pieces.push(text);
    this.chars += text.length;
    if (this.chars >= this.size) this.flush();
  }

  flush(): void {
    if (this.pieces.length === 0) return;
    const text = this.pieces.join("");
    this.pieces = [];
    this.chars = 0;
    this.write(text);
    this.written += Buffer.byteLength(text);
  }
}
