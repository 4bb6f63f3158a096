/**
 * Checking what a home serves against the signed statement of its build (docs/deployment.md "Signed
 * builds" in the price-feed repository): the statement, api/v1/statement.json, lists every file of
 * the build with its SHA-256, and api/v1/statement.sig.json is the Ed25519 signature (RFC 8032) of
 * the statement's exact bytes. The signature is checked with the keys the app pins — never with keys
 * fetched from the home being checked — through Web Crypto (Node 22+, Deno, current browsers).
 */

/** A key the app trusts, as /.well-known/price-feed-keys.json lists it; the window is optional. */
export interface TrustedKey {
  id: string;
  /** The 32 bytes of the Ed25519 public key, base64url (RFC 8032 §5.1.5). */
  publicKey: string;
  validFrom?: string;
  validUntil?: string | null;
}

/** What a statement says: the build's instant, the feed's ETag, and each file's SHA-256 (hex) by its path. */
export interface Statement {
  kind: "price-feed build statement";
  schemaVersion: 1;
  generatedAt: string;
  feedEtag: string;
  site: string | null;
  files: Record<string, string>;
}

export const STATEMENT_PATH = "/api/v1/statement.json";
export const SIGNATURE_PATH = "/api/v1/statement.sig.json";

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The SHA-256 of a text's UTF-8 bytes, lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let hex = "";
  for (const b of d) hex += b.toString(16).padStart(2, "0");
  return hex;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The statement, once its signature is checked against a trusted key and its build instant is within
 * that key's window (a retired key vouches for nothing built after its validUntil); else what is wrong.
 */
export async function checkStatement(
  statementText: string,
  signatureText: string,
  keys: readonly TrustedKey[],
): Promise<Statement | string> {
  let sig: unknown;
  try {
    sig = JSON.parse(signatureText);
  } catch {
    return "its signature file is not JSON";
  }
  if (!isRecord(sig) || sig["alg"] !== "Ed25519" || typeof sig["keyId"] !== "string" || typeof sig["sig"] !== "string")
    return "its signature file is not {alg: Ed25519, keyId, sig}";
  const key = keys.find((k) => k.id === sig["keyId"]);
  if (!key) return `it is signed with key ${sig["keyId"]}, which the client does not trust`;
  const raw = fromBase64url(key.publicKey);
  const signature = fromBase64url(sig["sig"]);
  if (!raw || raw.length !== 32 || !signature || signature.length !== 64)
    return `key ${key.id} or the signature is not base64url of the right length`;
  let ok: boolean;
  try {
    const k = await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
    ok = await crypto.subtle.verify({ name: "Ed25519" }, k, signature, new TextEncoder().encode(statementText));
  } catch (e) {
    return `this platform could not check an Ed25519 signature (${e instanceof Error ? e.message : String(e)})`;
  }
  if (!ok) return `its signature does not match key ${key.id}`;
  let s: unknown;
  try {
    s = JSON.parse(statementText);
  } catch {
    return "it is signed but not JSON";
  }
  if (
    !isRecord(s) ||
    s["kind"] !== "price-feed build statement" ||
    s["schemaVersion"] !== 1 ||
    typeof s["generatedAt"] !== "string" ||
    !isRecord(s["files"])
  )
    return "it is signed but is not a price-feed build statement";
  const statement = s as unknown as Statement;
  const at = Date.parse(statement.generatedAt);
  if (Number.isNaN(at)) return `its build instant ${statement.generatedAt} is not an instant`;
  if (key.validFrom && at < Date.parse(key.validFrom))
    return `key ${key.id} signed a build of ${statement.generatedAt}, before its validFrom`;
  if (key.validUntil && at >= Date.parse(key.validUntil))
    return `key ${key.id} signed a build of ${statement.generatedAt}, after it was retired (validUntil ${key.validUntil})`;
  return statement;
}
