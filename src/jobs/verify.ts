/**
 * `price-feed verify URL|DIR`: checks a deployment (over HTTP) or a built folder against the signed
 * statement of its build (docs/deployment.md "Signed builds"): the signature first, with the keys
 * given (`--key`: what the verifier pins) or else those the site itself publishes (which shows the
 * site is consistent, not who made it), then every listed file's SHA-256. One problem per file.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import {
  checkStatement,
  fileProblems,
  fromBase64url,
  keyIdOf,
  sha256Hex,
  type FileProblem,
  type TrustedKey,
} from "../core/statement.js";
import { MANIFEST_FILE, files } from "../feed/paths.js";
import { PublicKeys, type Statement } from "../schema/signing.js";
import { safePath, VerifyStopped, type SiteReader, type Stop } from "./verify-http.js";

export {
  MAX_FILE_BYTES,
  REQUEST_TIMEOUT_MS,
  RUN_TIMEOUT_MS,
  urlReader,
  VerifyStopped,
  type SiteReader,
  type Stop,
  type UrlReaderOptions,
} from "./verify-http.js";

export function folderReader(dir: string): SiteReader {
  return {
    where: dir,
    read: async (file) => {
      if (!safePath(file)) return "not a path inside the site";
      try {
        return new Uint8Array(await fs.readFile(path.join(dir, file)));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return code === "ENOENT" || code === "ENOTDIR" ? null : `cannot be read (${code ?? (e as Error).message})`;
      }
    },
    list: async () => {
      const out: string[] = [];
      for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
        if (!e.isDirectory()) out.push(path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
      return out;
    },
    check: async () => {
      const st = await fs.stat(dir).catch((e: NodeJS.ErrnoException) => e.code ?? "error");
      const hint = "pass a folder `price-feed build --out` wrote, or a deployment's URL (http:// or https://)";
      if (typeof st === "string")
        return { problem: st === "ENOENT" ? "no such folder" : `cannot be read (${st})`, hint };
      return st.isDirectory() ? null : { problem: "is a file, not a folder", hint };
    },
  };
}

/** What a --key names: a raw public key (43 characters of base64url) or a keys file (data/keys.json's form). */
export async function trustedKeys(values: readonly string[]): Promise<TrustedKey[]> {
  const out: TrustedKey[] = [];
  for (const v of values) {
    const raw = fromBase64url(v);
    if (/^[A-Za-z0-9_-]{43}$/.test(v) && raw?.length === 32) {
      out.push({ id: await keyIdOf(raw), publicKey: v });
      continue;
    }
    let text: string;
    try {
      text = await fs.readFile(v, "utf8");
    } catch {
      throw new UsageError(`--key ${v}: neither a public key (43 characters of base64url) nor a readable keys file`, {
        hint: "pass the key's publicKey from /.well-known/price-feed-keys.json, or the path of a copy of that file",
      });
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = null;
    }
    const r = PublicKeys.safeParse(doc);
    if (!r.success)
      throw new UsageError(`--key ${v}: not a keys file ({schemaVersion: 1, keys: [...]})`, {
        hint: "pass data/keys.json (or a copy of /.well-known/price-feed-keys.json), or a key's publicKey",
      });
    out.push(...r.data.keys);
  }
  return out;
}

export interface Verified {
  /** What stopped the check before the files (no statement, a bad signature); null when it went on to them. */
  fatal: string | null;
  /** What to do about `fatal`, in one line. */
  hint?: string | null;
  statement: Statement | null;
  keyId: string | null;
  /** Whose keys were used: the verifier's (--key) or the site's own. */
  trust: "pinned" | "published";
  checked: number;
  problems: FileProblem[];
}

/** What to do when the site does not answer as a deployment should. */
const reachHint = (where: string) =>
  `check that ${where} is the site's base URL (its path prefix included) or a built folder, and that it answers; then run verify again`;

/**
 * Why there is no statement, from the manifest (the build's own word): nothing built there, a build
 * made without a key, or a signed build whose statement did not reach the site.
 */
async function noStatement(reader: SiteReader): Promise<Stop> {
  const bytes = await reader.read(MANIFEST_FILE);
  if (typeof bytes === "string")
    return { problem: `${files.statement} is missing, and ${MANIFEST_FILE} ${bytes}`, hint: reachHint(reader.where) };
  if (bytes === null)
    return {
      problem: `${files.statement} is missing, and so is ${MANIFEST_FILE}: no build of price-feed is there`,
      hint: reachHint(reader.where),
    };
  let signed: unknown;
  try {
    signed = (JSON.parse(new TextDecoder().decode(bytes)) as { signed?: unknown }).signed;
  } catch {
    return {
      problem: `${files.statement} is missing, and ${MANIFEST_FILE} is not JSON`,
      hint: reachHint(reader.where),
    };
  }
  if (signed === true)
    return {
      problem: `${files.statement} is missing, though ${MANIFEST_FILE} says the build is signed: the deployment is incomplete`,
      hint: "deploy the whole build again (public/ as the build wrote it), then verify",
    };
  return {
    problem: `the build is not signed (${files.statement} is missing and ${MANIFEST_FILE} says "signed": ${JSON.stringify(signed ?? null)})`,
    hint: 'build it with PRICE_FEED_SIGNING_KEY set to a key data/keys.json lists (docs/operating.md "Signing keys")',
  };
}

/**
 * Verifies a site: the statement's signature, then each file (`concurrency` at a time over HTTP),
 * in time linear in the statement's files (a hostile statement may list any number).
 */
export async function verifySite(
  reader: SiteReader,
  pinned: readonly TrustedKey[],
  concurrency = 8,
): Promise<Verified> {
  const trust = pinned.length ? "pinned" : "published";
  const none = (fatal: string, hint: string | null = null): Verified => ({
    fatal,
    hint,
    statement: null,
    keyId: null,
    trust,
    checked: 0,
    problems: [],
  });
  try {
    const unreadable = await reader.check?.();
    if (unreadable) return none(unreadable.problem, unreadable.hint);
    const [statementBytes, sig] = await Promise.all([reader.read(files.statement), reader.read(files.statementSig)]);
    if (statementBytes === null) {
      const why = await noStatement(reader);
      return none(why.problem, why.hint);
    }
    if (typeof statementBytes === "string")
      return none(`${files.statement} ${statementBytes}`, reachHint(reader.where));
    if (sig === null || typeof sig === "string")
      return none(
        `${files.statementSig} ${sig ?? "is missing"}`,
        sig === null ? "deploy the whole build again, then verify" : reachHint(reader.where),
      );
    let keys = pinned;
    if (!pinned.length) {
      const published = await reader.read(files.keys);
      const hint = "pass --key with the key you trust (data/keys.json, or its publicKey)";
      if (published === null || typeof published === "string")
        return none(`${files.keys} ${published ?? "is missing"}, and no --key was given`, hint);
      let r: ReturnType<typeof PublicKeys.safeParse>;
      try {
        r = PublicKeys.safeParse(JSON.parse(new TextDecoder().decode(published)));
      } catch {
        return none(`${files.keys} is not JSON, and no --key was given`, hint);
      }
      if (!r.success) return none(`${files.keys} is not a keys file, and no --key was given`, hint);
      keys = r.data.keys;
    }
    const trusted = await checkStatement(statementBytes, new TextDecoder().decode(sig), keys);
    if (typeof trusted === "string")
      return none(
        `${files.statement}: ${trusted}`,
        "do not trust this site's files: check that --key names the key in service (data/keys.json), else the site serves a build the job did not sign",
      );
    const listed = Object.keys(trusted.statement.files);
    const digests = new Map<string, string | null>();
    const other: FileProblem[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.max(1, concurrency) }, async () => {
        for (let i = next++; i < listed.length; i = next++) {
          const p = listed[i]!;
          const bytes = await reader.read(p);
          if (typeof bytes === "string") other.push({ path: p, problem: bytes });
          else digests.set(p, bytes === null ? null : await sha256Hex(bytes));
        }
      }),
    );
    const own = new Set<string>([files.statement, files.statementSig, MANIFEST_FILE]);
    const extra = ((await reader.list()) ?? []).filter(
      (p) => !own.has(p) && !Object.hasOwn(trusted.statement.files, p),
    );
    // A file that could not be read is named once, with why: a set, not a search per file (linear).
    const unread = new Set(other.map((o) => o.path));
    const problems = [
      ...other,
      ...fileProblems(trusted.statement, digests).filter((x) => !unread.has(x.path)),
      ...fileProblems({ ...trusted.statement, files: {} }, new Map(), extra.sort()),
    ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { fatal: null, statement: trusted.statement, keyId: trusted.keyId, trust, checked: listed.length, problems };
  } catch (e) {
    if (e instanceof VerifyStopped) return none(e.message, e.hint);
    throw e;
  } finally {
    reader.close?.();
  }
}
