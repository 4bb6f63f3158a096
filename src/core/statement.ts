/**
 * The signed statement of a build (docs/deployment.md "Signed builds"), as pure functions: its
 * bytes, a key's id, and the checks a verifier runs — the signature (Ed25519, RFC 8032, through Web
 * Crypto, so the same code runs in Node, Deno and a browser), the key's window, then each file's
 * SHA-256. What is signed is the statement file's exact bytes, never a value re-serialized: a
 * verifier in any language needs no canonical JSON of its own, only the bytes it fetched.
 */
import { canonical } from "./canonical.js";
import { STATEMENT_KIND, Statement, StatementSignature, type PublicKeyEntry } from "../schema/signing.js";

/** A key a verifier trusts: its id and raw public key, and optionally the window in which it may sign. */
export type TrustedKey = Pick<PublicKeyEntry, "id" | "publicKey"> &
  Partial<Pick<PublicKeyEntry, "validFrom" | "validUntil">>;

const encoder = new TextEncoder();

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a base64url text; null when it is not one. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const b of d) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/**
 * A key's id: the first 8 bytes of the SHA-256 of its 32 raw bytes (RFC 8032 §5.1.5, the encoding
 * RFC 8410 §4 puts in a SubjectPublicKeyInfo), base64url — short enough to read aloud, long enough
 * that no two keys of one deployment share it.
 */
export async function keyIdOf(publicKey: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", publicKey));
  return base64url(d.subarray(0, 8));
}

/** The statement's bytes, as written and signed: canonical JSON (sorted keys, no white space). */
export function statementText(s: Omit<Statement, "kind" | "schemaVersion">): string {
  const files: Record<string, string> = {};
  for (const p of Object.keys(s.files).sort()) files[p] = s.files[p]!;
  return canonical({ kind: STATEMENT_KIND, schemaVersion: 1, ...s, files });
}

/** A statement whose signature and key were checked. */
export interface Trusted {
  statement: Statement;
  keyId: string;
}

/**
 * Checks a statement's signature and returns what it says; a string names what is wrong. The key
 * must be one of `keys` (what the verifier pins: a key the statement's own host publishes proves
 * nothing by itself) and the build instant within its window: a retired key (validUntil) signs
 * nothing after it, so a key that leaks after its retirement cannot vouch for a new build.
 */
export async function checkStatement(
  statementBytes: Uint8Array<ArrayBuffer>,
  signatureText: string,
  keys: readonly TrustedKey[],
): Promise<Trusted | string> {
  let sig: StatementSignature;
  try {
    const r = StatementSignature.safeParse(JSON.parse(signatureText));
    if (!r.success) return "the signature file is not {alg: Ed25519, keyId, sig}";
    sig = r.data;
  } catch {
    return "the signature file is not JSON";
  }
  const key = keys.find((k) => k.id === sig.keyId);
  if (!key)
    return `signed with key ${sig.keyId}, which is not among the trusted keys (${keys.map((k) => k.id).join(", ") || "none"})`;
  const raw = fromBase64url(key.publicKey);
  const signature = fromBase64url(sig.sig);
  if (!raw || raw.length !== 32 || !signature) return `key ${key.id} is not 32 bytes of base64url`;
  let ok: boolean;
  try {
    const k = await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
    ok = await crypto.subtle.verify({ name: "Ed25519" }, k, signature, statementBytes);
  } catch (e) {
    return `key ${key.id} could not check the signature: ${(e as Error).message}`;
  }
  if (!ok) return `the signature does not match the statement's bytes for key ${key.id}`;
  let statement: Statement;
  try {
    const r = Statement.safeParse(JSON.parse(new TextDecoder().decode(statementBytes)));
    if (!r.success) return "the statement is signed but is not a price-feed build statement";
    statement = r.data;
  } catch {
    return "the statement is signed but is not JSON";
  }
  const at = Date.parse(statement.generatedAt);
  if (key.validFrom && at < Date.parse(key.validFrom))
    return `key ${key.id} signed a build of ${statement.generatedAt}, before its validFrom ${key.validFrom}`;
  if (key.validUntil && at >= Date.parse(key.validUntil))
    return `key ${key.id} signed a build of ${statement.generatedAt}, after it was retired (validUntil ${key.validUntil})`;
  return { statement, keyId: key.id };
}

/** A problem with one file: its path, and what is wrong. */
export interface FileProblem {
  path: string;
  problem: string;
}

/**
 * Each listed file against what was found (`digests`: its SHA-256 hex, or null when it could not be
 * had), then each file found that the statement does not list (`extra`): one problem per file.
 */
export function fileProblems(
  statement: Statement,
  digests: ReadonlyMap<string, string | null>,
  extra: readonly string[] = [],
): FileProblem[] {
  const out: FileProblem[] = [];
  for (const [p, want] of Object.entries(statement.files)) {
    const got = digests.get(p);
    if (got === undefined || got === null) out.push({ path: p, problem: "missing" });
    else if (got !== want) out.push({ path: p, problem: `differs: SHA-256 ${got}, the statement says ${want}` });
  }
  for (const p of extra) out.push({ path: p, problem: "not in the statement: the build did not publish it" });
  return out;
}

/** The bytes of a text, as a file holds it (UTF-8). */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text) as Uint8Array<ArrayBuffer>;
