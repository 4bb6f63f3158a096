/** Hashing with Node's crypto: what names the bytes a cache was made from, and the site's ETags. */
import { createHash } from "node:crypto";
import type { Hashing } from "../core/canonical.js";

/** Lower-case hex SHA-256: what a summary or a closed day names the bytes it was made from by. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** core/canonical.ts Hashing with Node's crypto and Buffer: the same ETags and lengths as webHashing (tested). */
export const nodeHashing: Hashing = {
  etag: (text) => `"${createHash("sha256").update(text).digest("base64url")}"`,
  byteLength: (text) => Buffer.byteLength(text),
  pieces: () => {
    const h = createHash("sha256");
    return { update: (text) => h.update(text), etag: () => `"${h.digest("base64url")}"` };
  },
};
