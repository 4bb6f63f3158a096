/**
 * What a signed build publishes besides its documents (docs/deployment.md "Signed builds"): the
 * statement of the build (every published file's path and SHA-256), its detached Ed25519 signature
 * (RFC 8032), and the public keys that may sign, as `data/keys.json` holds them and
 * `/.well-known/price-feed-keys.json` (RFC 8615) publishes them. No node:* imports: the edge and the
 * client's twin of these checks read the same shapes.
 */
import { z } from "zod";
import { IsoInstant } from "./outputs.js";

/** What the statement says it is: a signature over any other JSON made with the same key never passes as one. */
export const STATEMENT_KIND = "price-feed build statement";

/** base64url without padding (RFC 4648 §5). */
const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);

/** A key's id: the first 8 bytes of the SHA-256 of its 32 raw bytes (RFC 8032 §5.1.5), base64url: 11 characters. */
export const KeyId = z.string().regex(/^[A-Za-z0-9_-]{11}$/);

export const PublicKeyEntry = z
  .strictObject({
    id: KeyId,
    alg: z.literal("Ed25519"),
    /** The 32 bytes of the public key (RFC 8032 §5.1.5), base64url: 43 characters. */
    publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    /** The first build instant the key may sign. */
    validFrom: IsoInstant,
    /** From this instant on the key signs nothing (retired); null while it is in service. */
    validUntil: IsoInstant.nullable(),
    /** Free text for the people who read the file: who made the key, where its private half lives. */
    note: z.string().optional(),
  })
  .meta({ id: "PublicKey" });
export type PublicKeyEntry = z.infer<typeof PublicKeyEntry>;

export const PublicKeys = z
  .strictObject({
    schemaVersion: z.literal(1),
    keys: z.array(PublicKeyEntry),
  })
  .meta({ id: "PublicKeys" });
export type PublicKeys = z.infer<typeof PublicKeys>;

/** The statement of a build: what its signature vouches for, byte for byte. */
export const Statement = z.strictObject({
  kind: z.literal(STATEMENT_KIND),
  schemaVersion: z.literal(1),
  /** The build's instant: a client refuses a statement older than one it has already trusted from the same home. */
  generatedAt: IsoInstant,
  /** The feed's ETag in that build (api/v1/feed.json). */
  feedEtag: z.string().regex(/^"[^"]+"$/),
  /** The deployment's primary home (data/site.json baseUrl), null when it names none. */
  site: z.string().nullable(),
  /** Every published file but the statement, its signature and the manifest: its path in the site, its SHA-256 in lower-case hex. */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type Statement = z.infer<typeof Statement>;

/** The detached signature: of the statement file's exact bytes, with the key `keyId` (RFC 8032 Ed25519, pure). */
export const StatementSignature = z.strictObject({
  alg: z.literal("Ed25519"),
  keyId: KeyId,
  /** The 64-byte signature, base64url: 86 characters. */
  sig: Base64url.length(86),
});
export type StatementSignature = z.infer<typeof StatementSignature>;
