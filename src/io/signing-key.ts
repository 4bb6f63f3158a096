/**
 * The build's signing key and `price-feed keygen`: an Ed25519 private key (RFC 8032) as PKCS#8 PEM
 * (RFC 8410 §7, what `openssl genpkey -algorithm ed25519` writes), read from the environment only —
 * never from a file of the repository — and the public half as the entry data/keys.json holds.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { existsSync } from "node:fs";
import { DataError, UsageError } from "../core/errors.js";
import { dataPaths } from "../core/data-layout.js";
import { base64url, fromBase64url, keyIdOf } from "../core/statement.js";
import { PublicKeys, type PublicKeyEntry } from "../schema/signing.js";
import { readJson } from "./json-file.js";

/** The environment variable that holds the private key (the hourly job's secret of the same name). */
export const SIGNING_KEY_VAR = "PRICE_FEED_SIGNING_KEY";

export interface SigningKey {
  id: string;
  /** The 32 raw bytes of the public key, base64url (RFC 8032 §5.1.5). */
  publicKey: string;
  /** The detached signature of `bytes`, base64url (RFC 8032 §5.1.6: pure Ed25519, no pre-hash). */
  sign(bytes: Uint8Array): string;
}

/** The raw 32 bytes of an Ed25519 public key, base64url: the JWK's `x` (RFC 8037 §2). */
const rawPublic = (k: KeyObject): string => (k.export({ format: "jwk" }) as { x: string }).x;

/** The signing key the environment holds, or null when it holds none (a blank value counts as none). */
export async function signingKeyFrom(env: NodeJS.ProcessEnv): Promise<SigningKey | null> {
  const pem = env[SIGNING_KEY_VAR];
  if (pem === undefined || pem.trim() === "") return null;
  let key: KeyObject;
  try {
    // A secret pasted with its line breaks turned into "\n" (some CI forms do) is read as well.
    key = createPrivateKey({ key: pem.includes("\\n") ? pem.replace(/\\n/g, "\n") : pem, format: "pem" });
  } catch (e) {
    throw new UsageError(`${SIGNING_KEY_VAR} is not a private key in PEM: ${(e as Error).message}`, {
      hint: "set it to the whole PKCS#8 PEM, -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----, as `price-feed keygen` printed it",
    });
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new UsageError(`${SIGNING_KEY_VAR} is a ${key.asymmetricKeyType ?? "?"} key, not Ed25519`, {
      hint: "make one with `price-feed keygen` (or `openssl genpkey -algorithm ed25519`)",
    });
  const publicKey = rawPublic(createPublicKey(key));
  const id = await keyIdOf(fromBase64url(publicKey)!);
  return { id, publicKey, sign: (bytes) => base64url(sign(null, bytes, key)) };
}

/** A new key pair: the private half as PKCS#8 PEM, the public half as data/keys.json's entry, valid from `nowMs`. */
export async function newKeyPair(nowMs: number): Promise<{ privatePem: string; entry: PublicKeyEntry }> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = rawPublic(publicKey);
  return {
    privatePem: privateKey.export({ format: "pem", type: "pkcs8" }) as string,
    entry: {
      id: await keyIdOf(fromBase64url(raw)!),
      alg: "Ed25519",
      publicKey: raw,
      validFrom: new Date(Math.floor(nowMs / 1000) * 1000).toISOString().replace(".000Z", "Z"),
      validUntil: null,
    },
  };
}

/**
 * data/keys.json, the public keys that may sign (published at /.well-known/price-feed-keys.json);
 * null when the data folder has none. Each id must be its key's (keyIdOf), and listed once.
 */
export async function loadKeys(dataDir: string): Promise<PublicKeys | null> {
  const file = dataPaths(dataDir).keys;
  if (!existsSync(file)) return null;
  const keys = await readJson(file, PublicKeys);
  const seen = new Set<string>();
  for (const [i, k] of keys.keys.entries()) {
    const id = await keyIdOf(fromBase64url(k.publicKey)!);
    if (k.id !== id)
      throw new DataError(
        file,
        `keys[${i}]: id ${k.id} is not its publicKey's, which is ${id} (the first 8 bytes of its SHA-256)`,
      );
    if (seen.has(k.id)) throw new DataError(file, `keys[${i}]: key ${k.id} is listed twice`);
    if (k.validUntil !== null && Date.parse(k.validUntil) <= Date.parse(k.validFrom))
      throw new DataError(file, `keys[${i}]: key ${k.id} has its validUntil before its validFrom`);
    seen.add(k.id);
  }
  return keys;
}

/**
 * Refuses to sign with a key that data/keys.json does not list as valid at the build instant: a
 * statement no client could check (an unknown key), or one signed by a retired key, is not published.
 */
export function assertListed(keys: PublicKeys | null, key: SigningKey, nowMs: number, dataDir: string): void {
  const file = dataPaths(dataDir).keys;
  const entry = keys?.keys.find((k) => k.id === key.id);
  const hint = `add the entry \`price-feed keygen\` printed for it to ${file} (and commit it), or set ${SIGNING_KEY_VAR} to a key it lists`;
  if (!entry || entry.publicKey !== key.publicKey)
    throw new UsageError(`${SIGNING_KEY_VAR} holds key ${key.id}, which ${file} does not list`, { hint });
  if (nowMs < Date.parse(entry.validFrom) || (entry.validUntil !== null && nowMs >= Date.parse(entry.validUntil)))
    throw new UsageError(
      `${SIGNING_KEY_VAR} holds key ${key.id}, which ${file} says is valid from ${entry.validFrom} until ${entry.validUntil ?? "retired"}, not at the build instant ${new Date(nowMs).toISOString()}`,
      { hint: 'sign with the key in service (docs/operating.md "Signing keys")' },
    );
}

/** The keys data/keys.json lists as valid at `nowMs` (validFrom ≤ now < validUntil). */
export const keysInService = (keys: PublicKeys | null, nowMs: number): PublicKeyEntry[] =>
  (keys?.keys ?? []).filter(
    (k) => Date.parse(k.validFrom) <= nowMs && (k.validUntil === null || nowMs < Date.parse(k.validUntil)),
  );

/**
 * Signing is never turned off by accident (docs/operating.md "Signing keys"): when data/keys.json
 * lists a key valid at the build instant, clients pin it and refuse an unsigned build, so a build
 * with no key (the secret missing, empty or misnamed) refuses rather than publish one. Publishing
 * unsigned anyway takes `build --unsigned`, which the summary then says.
 */
export function assertUnkeyed(keys: PublicKeys | null, nowMs: number, dataDir: string): void {
  const live = keysInService(keys, nowMs);
  if (!live.length) return;
  const file = dataPaths(dataDir).keys;
  throw new UsageError(
    `${SIGNING_KEY_VAR} is empty or not set, and ${file} lists key ${live.map((k) => k.id).join(", ")} valid at the build instant ${new Date(nowMs).toISOString()}: clients that pin it would refuse an unsigned build`,
    {
      hint: `set ${SIGNING_KEY_VAR} to that key's private half (the hourly job's secret), or pass --unsigned to publish unsigned on purpose`,
    },
  );
}
