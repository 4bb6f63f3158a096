/**
 * A file's text as UTF-8, encoded once into one buffer that the build reuses: the build hashes a
 * file (its ETag, src/io/hash.ts), measures it and writes it (src/io/site-writer.ts), and each of
 * those encoded the text again into bytes of its own. A page of 90 KB or a feed of 2 MB was then
 * three buffers allocated outside V8's heap and freed at once; glibc's malloc serves such sizes
 * from its arenas after it has seen one that large, and an arena's freed middle is not given back
 * to the system — the large hourly build's resident set held some 30–50 MB of it
 * (docs/performance.md "Memory").
 *
 * The bytes handed out are valid until the next call: use them at once, never keep them.
 */
// 8 MB, mapped once: only the pages written become resident, and the large dataset's largest file (a
// feed of 2 MB) fits under the bound below, so the buffer is never replaced — each replacement freed
// the old one, and a freed large buffer is what sets malloc on using its arenas.
let scratch = Buffer.allocUnsafeSlow(8 << 20);
let lastText: string | null = null;
let lastBytes = 0;

/** `text` as UTF-8 bytes, in the shared buffer: the same text twice in a row is encoded once. */
export function utf8Scratch(text: string): Buffer {
  // `===` of the same string is a pointer comparison; of an equal copy, one pass over the text.
  if (text === lastText) return scratch.subarray(0, lastBytes);
  // A UTF-16 code unit is at most three bytes of UTF-8 (a surrogate pair, two units, is four).
  if (text.length * 3 > scratch.length) {
    const need = Buffer.byteLength(text, "utf8");
    if (need > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(need, scratch.length * 2));
  }
  lastBytes = scratch.write(text, 0, "utf8");
  lastText = text;
  return scratch.subarray(0, lastBytes);
}
