/**
 * The build hashes and measures its files with Node's crypto and Buffer (src/io/hash.ts
 * nodeHashing); the edge and the default use Web Crypto and TextEncoder (src/core/canonical.ts
 * webHashing). A client sees ETags from both, so they must agree on every text.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { webHashing } from "../src/core/canonical.js";
import { nodeHashing } from "../src/io/hash.js";
import { utf8Scratch } from "../src/io/utf8-scratch.js";

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
  test("is the ETag of the pieces joined, whatever else is encoded between them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 8 }), async (pieces) => {
        const h = nodeHashing.pieces!();
        let bytes = 0;
        for (const p of pieces) {
          h.update(p);
          bytes += nodeHashing.byteLength(p);
          utf8Scratch("something else in between");
        }
        expect(h.etag()).toBe(await webHashing.etag(pieces.join("")));
        expect(bytes).toBe(webHashing.byteLength(pieces.join("")));
      }),
      { numRuns: 300 },
    );
  });
});

describe("the build's one encoding buffer (src/io/utf8-scratch.ts)", () => {
  const big = [
    "x".repeat(400_000), // one byte a character: fits 1 MB until the 3-bytes-a-unit bound says no
    "د".repeat(700_000), // 1.4 MB of UTF-8: past the first buffer, which grows
    "🥇".repeat(300_000), // surrogate pairs: four bytes for two units
  ];
  test.each([...samples, ...big].map((t) => [t.slice(0, 20), t]))("encodes %j as Buffer.from does", (_, text) => {
    expect(Buffer.compare(utf8Scratch(text), Buffer.from(text, "utf8"))).toBe(0);
    // Asked again, the same bytes (not encoded again).
    expect(Buffer.compare(utf8Scratch(text), Buffer.from(text, "utf8"))).toBe(0);
  });

  test("texts asked in turn, each encoded as Buffer.from does", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 200 }), { maxLength: 8 }), (texts) => {
        for (const t of [...texts, ...texts.reverse()])
          expect(utf8Scratch(t).toString("hex")).toBe(Buffer.from(t, "utf8").toString("hex"));
      }),
      { numRuns: 200 },
    );
  });
});
