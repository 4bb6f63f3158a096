/**
 * The build hashes and measures its files with Node's crypto and Buffer (src/io/hash.ts
 * nodeHashing); the edge and the default use Web Crypto and TextEncoder (src/core/canonical.ts
 * webHashing). A client sees ETags from both, so they must agree on every text.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { webHashing } from "../../src/core/canonical.js";
import { nodeHashing } from "../../src/io/hash.js";

const samples = [
  "",
  "{}",
  '{"asset":"USD-EGP","sell":48.05}',
  "دولار أمريكي — ٤٨٫٠٥ جنيه",
  "gold 🥇 24k",
  "lone \ud800 high and \udc00 low surrogates",
  "x".repeat(100_000),
];

describe("node and web hashing agree", () => {
  test.each(samples)("on %j", async (text) => {
    expect(nodeHashing.etag(text)).toBe(await webHashing.etag(text));
    expect(nodeHashing.byteLength(text)).toBe(webHashing.byteLength(text));
  });

  test("on any string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary" }), async (text) => {
        expect(nodeHashing.etag(text)).toBe(await webHashing.etag(text));
        expect(nodeHashing.byteLength(text)).toBe(webHashing.byteLength(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe("node hashing in pieces (a file written item by item, src/feed/site-items.ts)", () => {
  test("is the ETag of the pieces joined", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 8 }), async (pieces) => {
        const h = nodeHashing.pieces!();
        let bytes = 0;
        for (const p of pieces) {
          h.update(p);
          bytes += nodeHashing.byteLength(p);
        }
        expect(h.etag()).toBe(await webHashing.etag(pieces.join("")));
        expect(bytes).toBe(webHashing.byteLength(pieces.join("")));
      }),
      { numRuns: 300 },
    );
  });
});
