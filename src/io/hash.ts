/** Hashing with Node's crypto: what names the bytes a cache was made from, and the site's ETags. */
import { createHash } from "node:crypto";
import type { Hashing } from "../core/canonical.js";
import { utf8Scratch } from "./utf8-scratch.js";

/** Lower-case hex SHA-256: what a summary or a closed day names the bytes it was made from by. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** core/canonical.ts Hashing with Node's crypto and Buffer: the same ETags and lengths as webHashing (tested). */
export const nodeHashing: Hashing = {
  // Through the build's one encoding buffer: the site writer writes the same bytes (utf8-scratch.ts).
  etag: (text) => `"${createHash("sha256").update(utf8Scratch(text)).digest("base64url")}"`,
  byteLength: (text) => utf8Scratch(text).length,
  pieces: () => {
    const h = createHash("sha256");
    // Through the same buffer: byteLength of the piece just hashed (site-items.ts) is not encoded again.
    return { update: (text) => h.update(utf8Scratch(text)), etag: () => `"${h.digest("base64url")}"` };
  },
};
