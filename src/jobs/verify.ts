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

/** Where the site's files are read: a folder, or a base URL (its path prefix included). */
export interface SiteReader {
  /** The file's bytes; null when it is not there (404, ENOENT); a string says what else went wrong. */
  read(file: string): Promise<Uint8Array<ArrayBuffer> | null | string>;
  /** Every file the folder holds (a URL cannot be listed: null). */
  list(): Promise<string[] | null>;
  where: string;
}

/** The largest file read over HTTP: far above the largest the build writes (a history, a few MB). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A path of the statement, before it is joined to a folder or a URL: relative, forward slashes, no
 * `..` or empty segment. A statement is checked before it is believed, but the path is read first.
 */
const safePath = (p: string) => /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(p) && !p.split("/").includes("..");

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
  };
}

export function urlReader(base: string, fetchFn: typeof fetch = fetch): SiteReader {
  const root = base.replace(/\/+$/, "");
  return {
    where: root,
    read: async (file) => {
      if (!safePath(file)) return "not a path inside the site";
      let res: Response;
      try {
        res = await fetchFn(`${root}/${file}`, { headers: { "User-Agent": "price-feed verify" } });
      } catch (e) {
        return `could not be fetched: ${(e as Error).message}`;
      }
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) {
        await res.body?.cancel();
        return `answered ${res.status}`;
      }
      const length = Number(res.headers.get("Content-Length") ?? NaN);
      if (length > MAX_FILE_BYTES) {
        await res.body?.cancel();
        return `announced ${length} bytes, more than ${MAX_FILE_BYTES}`;
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      return bytes.length > MAX_FILE_BYTES ? `longer than ${MAX_FILE_BYTES} bytes` : bytes;
    },
    list: async () => null,
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
    const r = PublicKeys.safeParse(JSON.parse(text));
    if (!r.success) throw new UsageError(`--key ${v}: not a keys file ({schemaVersion: 1, keys: [...]})`);
    out.push(...r.data.keys);
  }
  return out;
}

export interface Verified {
  /** What stopped the check before the files (no statement, a bad signature); null when it went on to them. */
  fatal: string | null;
  statement: Statement | null;
  keyId: string | null;
  /** Whose keys were used: the verifier's (--key) or the site's own. */
  trust: "pinned" | "published";
  checked: number;
  problems: FileProblem[];
}

/** Verifies a site: the statement's signature, then each file (`concurrency` at a time over HTTP). */
export async function verifySite(
  reader: SiteReader,
  pinned: readonly TrustedKey[],
  concurrency = 8,
): Promise<Verified> {
  const trust = pinned.length ? "pinned" : "published";
  const none = (fatal: string): Verified => ({ fatal, statement: null, keyId: null, trust, checked: 0, problems: [] });
  const [statementBytes, sig] = await Promise.all([reader.read(files.statement), reader.read(files.statementSig)]);
  if (statementBytes === null)
    return none(`${files.statement} is missing: the build is not signed (its manifest says "signed": false)`);
  if (typeof statementBytes === "string") return none(`${files.statement} ${statementBytes}`);
  if (sig === null || typeof sig === "string") return none(`${files.statementSig} ${sig ?? "is missing"}`);
  let keys = pinned;
  if (!pinned.length) {
    const published = await reader.read(files.keys);
    if (published === null || typeof published === "string")
      return none(`${files.keys} ${published ?? "is missing"}, and no --key was given`);
    const r = PublicKeys.safeParse(JSON.parse(new TextDecoder().decode(published)));
    if (!r.success) return none(`${files.keys} is not a keys file`);
    keys = r.data.keys;
  }
  const trusted = await checkStatement(statementBytes, new TextDecoder().decode(sig), keys);
  if (typeof trusted === "string") return none(`${files.statement}: ${trusted}`);
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
  const extra = ((await reader.list()) ?? []).filter((p) => !own.has(p) && !Object.hasOwn(trusted.statement.files, p));
  const problems = [
    ...other,
    ...fileProblems(trusted.statement, digests).filter((x) => !other.some((o) => o.path === x.path)),
    ...fileProblems({ ...trusted.statement, files: {} }, new Map(), extra.sort()),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { fatal: null, statement: trusted.statement, keyId: trusted.keyId, trust, checked: listed.length, problems };
}
