/**
 * Canonical JSON and strong ETags. Keys are sorted (fast-json-stable-stringify) so the same value
 * always gives the same bytes; the ETag hashes those bytes without `generatedAt`, so an hourly
 * rebuild of unchanged data keeps its ETag (docs/data-formats.md "The output: `public/`"). Web Crypto only: the edge
 * computes ETags of filtered answers too.
 */
import stringify from "fast-json-stable-stringify";
import { flat } from "./flat.js";

/** The canonical JSON of a value, flattened (flat.ts): the serializer builds it piece by piece. */
export function canonical(value: unknown): string {
  return flat(stringify(value));
}

const encoder = new TextEncoder();

/** A strong entity tag (RFC 9110 §8.8.3): SHA-256, base64url, quoted. */
export async function strongEtag(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return `"${btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}"`;
}

/**
 * How a composed site's files are hashed and measured. The default works anywhere (Web Crypto,
 * TextEncoder); the build passes Node's (src/io/hash.ts nodeHashing), which answers each hash at once
 * instead of through a crypto job: the same values, a tenth of a second less on a 200-asset site.
 */
export interface Hashing {
  etag(text: string): string | Promise<string>;
  byteLength(text: string): number;
  /**
   * The ETag of a text given in pieces, the same as etag() of their concatenation; where there is
   * one (Web Crypto has no digest in pieces), a file made in pieces is never held whole.
   */
  pieces?(): { update(text: string): void; etag(): string };
}

export const webHashing: Hashing = { etag: strongEtag, byteLength: (text) => encoder.encode(text).length };

/**
 * The canonical JSON of a top-level object minus its `generatedAt` member. Canonical key order puts
 * the top-level member after `assets`, so it is the last occurrence; Asset has no such member.
 */
export function withoutGeneratedAt(json: string): string {
  const at = json.lastIndexOf('"generatedAt":');
  if (at < 0) return json;
  const end = json.indexOf('"', json.indexOf('"', at + 14) + 1) + 1; // closing quote of the value
  const before = json[at - 1] === "," ? at - 1 : at;
  const after = before === at && json[end] === "," ? end + 1 : end;
  return json.slice(0, before) + json.slice(after);
}

/**
 * The canonical JSON of `{ ...header, assets }` from the asset members already serialized: the same
 * bytes as canonical() of the whole object (arrays keep order; each object sorts its own keys), without
 * serializing each asset once per variant. A string value cannot contain `"assets":[]` unescaped.
 */
export function composeWithAssets(header: Record<string, unknown>, assetJson: readonly string[]): string {
  const h = canonical({ ...header, assets: [] });
  const at = h.indexOf('"assets":[]');
  return flat(`${h.slice(0, at)}"assets":[${assetJson.join(",")}]${h.slice(at + 11)}`);
}
