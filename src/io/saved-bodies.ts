/**
 * `ingest --save-bodies DIR`: every answer each source's requests met, kept byte for byte, so that a
 * source that broke can be looked at as it was and turned into a test fixture (docs/operating.md
 * "When a source breaks"). The folder:
 *
 *   DIR/index.json                 the run: its --now, dry run or not, each source (ok, error, answers)
 *   DIR/ok/<source>/<n>.body       the body of the n-th answer (from 1), exactly as the source read it
 *   DIR/ok/<source>/<n>.json       its request and answer: URL, method, attempt, status, headers,
 *                                  receivedAt (the run's --now), size and SHA-256, or why no body
 *   DIR/failed/<source>/…          the same for a source that failed, and source.json: why it failed
 *
 * A redirect's body is not read, and a request that got no answer has no body: each has its `.json`
 * only. No secret is kept: the metadata leaves out credentials (Set-Cookie's values, Cookie,
 * Authorization, a token's header and value wherever it appears) and URLs' userinfo and query
 * values; a token's answer is saved as its shape only (src/ingest/document/fetch.ts). Nor is DIR
 * ever inside a build's output folder, which is published. Files a source reads by `path` are the operator's own, already on disk: not copied. Nothing
 * here is ever inside the data folder (the hourly job commits data/), and DIR is only replaced when
 * it holds the bodies of an earlier run.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import type { Answer } from "../ingest/http.js";
import { writeFailure } from "./atomic-write.js";
import { sha256Hex } from "./hash.js";

/** What index.json says it is, so that a later run knows the folder is its own to replace. */
const WRITTEN_BY = "price-feed ingest --save-bodies";

/** One source's run, as the bodies folder records it. */
export interface SourceAnswers {
  id: string;
  adapter: string;
  ok: boolean;
  error?: string | undefined;
  answers: readonly Answer[];
}

const inside = (dir: string, parent: string) => {
  const rel = path.relative(parent, dir);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/**
 * A path with its symbolic links resolved (realpath), also for a folder not made yet: its nearest
 * existing parent is resolved, and the rest appended. A link inside the data folder that leads out
 * of it, or one outside that leads in, is judged by where it leads.
 */
export async function resolvedPath(p: string): Promise<string> {
  const full = path.resolve(p);
  const rest: string[] = [];
  for (let at = full; ; at = path.dirname(at)) {
    try {
      return path.join(await fs.realpath(at), ...rest.reverse());
    } catch (e) {
      const parent = path.dirname(at);
      // A part that is not a folder (ENOTDIR) or cannot be read: the path as written; making it fails later, naming it.
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || parent === at) return full;
      rest.push(path.basename(at));
    }
  }
}

/**
 * The build's output folders the bodies must stay out of: `public/` (the build's `--out` default,
 * which Netlify publishes, netlify.toml) in the working folder and beside the data folder, with
 * what a build keeps beside it (`public.tmp-<pid>`, `public.old-<pid>`, `public.archive-cache`).
 */
export const outputFolders = (dataDir: string): string[] => [
  path.resolve("public"),
  path.join(path.dirname(path.resolve(dataDir)), "public"),
];

/** Inside `out`, or inside a sibling the build names after it (`public.tmp-4242`). */
const insideOutput = (dir: string, out: string) => {
  if (inside(dir, out)) return true;
  const rel = path.relative(path.dirname(out), dir);
  const first = rel.split(path.sep)[0] ?? "";
  return !rel.startsWith("..") && !path.isAbsolute(rel) && first.startsWith(`${path.basename(out)}.`);
};

/**
 * Checks DIR before any source is asked, and empties what an earlier run wrote there: refused
 * inside the data folder (the hourly job commits data/) and inside a build output folder (what is
 * there is published), symbolic links resolved; and refused when it holds anything but an earlier
 * run's bodies. The saved bodies are evidence for the operator, uploaded as a private artifact:
 * even with their secrets left out (saveBodies), they are not for the world.
 */
export async function prepareBodiesDir(dir: string, dataDir: string, outDirs = outputFolders(dataDir)): Promise<void> {
  const full = path.resolve(dir);
  const real = await resolvedPath(dir);
  const data = await resolvedPath(dataDir);
  if (inside(full, path.resolve(dataDir)) || inside(real, data))
    throw new UsageError(`--save-bodies ${dir} is inside the data folder ${dataDir}`, {
      hint: "save the bodies outside it (the hourly job commits data/), e.g. --save-bodies /tmp/bodies",
    });
  for (const out of outDirs) {
    const outReal = await resolvedPath(out);
    if (insideOutput(full, path.resolve(out)) || insideOutput(real, outReal))
      throw new UsageError(`--save-bodies ${dir} is inside the build's output folder ${out}, which is published`, {
        hint: "save the bodies outside it, e.g. --save-bodies /tmp/bodies",
      });
  }
  const entries = await fs.readdir(full).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [] as string[];
    throw new UsageError(`--save-bodies ${dir}: not a folder that can be read (${e.code ?? e.message})`, {
      hint: "pass a new folder, or one an earlier --save-bodies wrote",
      cause: e,
    });
  });
  if (entries.length) {
    const index = await fs.readFile(path.join(full, "index.json"), "utf8").catch(() => "");
    if (!index.includes(`"writtenBy": "${WRITTEN_BY}"`))
      throw new UsageError(`--save-bodies ${dir} is not empty and holds no saved bodies of an earlier run`, {
        hint: "pass a new or empty folder: the bodies replace what an earlier run saved there, and nothing else",
      });
    for (const name of ["ok", "failed", "index.json"])
      await fs.rm(path.join(full, name), { recursive: true, force: true }).catch((e: unknown) => {
        throw writeFailure(path.join(full, name), e);
      });
  }
  await fs.mkdir(full, { recursive: true }).catch((e: unknown) => {
    throw writeFailure(full, e);
  });
}

/** What a secret is written as in saved metadata. */
export const REDACTED = "REDACTED";

/**
 * A URL as saved: without its userinfo (RFC 3986 §3.2.1, `user:password@`) and fragment, and with
 * each query parameter's value replaced (`?apikey=REDACTED&day=REDACTED`): the names say what was
 * asked, a value may be a key. Text that is not a URL is returned as it is.
 */
export function redactUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return text;
  }
  u.username = "";
  u.password = "";
  u.hash = "";
  if (u.search !== "") {
    const names = [...u.searchParams.keys()];
    u.search = names.map((n) => `${encodeURIComponent(n)}=${REDACTED}`).join("&");
  }
  return u.href;
}

/** A character that ends a URL in running text (whitespace, quotes, angle brackets). */
const URL_END = /[\s"'<>]/;

/**
 * Text as saved (an error, a header's value): each URL in it redacted (redactUrl), and every
 * secret value (a token, a cookie's value; four characters or more, so that a two-letter cookie
 * does not blank every word) replaced. URLs are found by indexOf and a scan to their end: linear.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = "";
  let at = 0;
  const lower = text.toLowerCase();
  for (;;) {
    const a = lower.indexOf("http://", at);
    const b = lower.indexOf("https://", at);
    const start = a < 0 ? b : b < 0 ? a : Math.min(a, b);
    if (start < 0) break;
    let end = start;
    while (end < text.length && !URL_END.test(text[end]!)) end++;
    out += text.slice(at, start) + redactUrl(text.slice(start, end));
    at = end;
  }
  out += text.slice(at);
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out;
}

/** Headers whose values are credentials, whoever sends them (RFC 9110 §11.6, RFC 6265 §4). */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token"]);

/**
 * An answer's headers as JSON, names in lower case, each Set-Cookie kept apart (a list) as its
 * name and attributes with the value left out (`sid=REDACTED; Path=/; HttpOnly`); credentials and
 * the request's credential headers (`secretHeaders`, echoed back) as REDACTED; URLs redacted; and
 * the secrets' values nowhere.
 */
export function headersOf(
  h: Headers | null,
  secretHeaders: readonly string[] = [],
  secrets: readonly string[] = [],
): Record<string, string | string[]> | null {
  if (!h) return null;
  const hidden = new Set([...SECRET_HEADERS, ...secretHeaders.map((n) => n.toLowerCase())]);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of h) {
    if (name === "set-cookie") continue;
    out[name] = hidden.has(name) ? REDACTED : redactText(value, secrets); // Location's URL, a token echoed back
  }
  const cookies = h.getSetCookie();
  if (cookies.length)
    out["set-cookie"] = cookies.map((c) => {
      const [pair = "", ...attributes] = c.split(";");
      const eq = pair.indexOf("=");
      const name = eq < 0 ? "" : pair.slice(0, eq).trim();
      return [`${name}=${REDACTED}`, ...attributes.map((x) => redactText(x.trim(), secrets))].join("; ");
    });
  return out;
}

/** Every secret a source's requests carried (tokens, cookies' values): none is written anywhere in its folder's metadata. */
const secretsOf = (s: SourceAnswers): string[] => [...new Set(s.answers.flatMap((a) => a.secrets ?? []))];

/** Writes every source's answers into DIR (prepared by prepareBodiesDir), and the run's index. */
export async function saveBodies(
  dir: string,
  run: { nowMs: number; dryRun: boolean },
  sources: readonly SourceAnswers[],
): Promise<void> {
  const receivedAt = new Date(run.nowMs).toISOString();
  const write = (file: string, data: string | Uint8Array) =>
    fs.writeFile(file, data).catch((e: unknown) => Promise.reject(writeFailure(file, e)));
  const index = [];
  for (const s of sources) {
    const folder = path.join(s.ok ? "ok" : "failed", s.id);
    index.push({
      id: s.id,
      adapter: s.adapter,
      ok: s.ok,
      ...(s.ok ? {} : { error: redactText(s.error ?? "failed", secretsOf(s)) }),
      answers: s.answers.length,
      folder: s.answers.length || !s.ok ? folder.split(path.sep).join("/") : null,
    });
    if (!s.answers.length && s.ok) continue;
    await fs.mkdir(path.join(dir, folder), { recursive: true }).catch((e: unknown) => {
      throw writeFailure(path.join(dir, folder), e);
    });
    if (!s.ok)
      await write(
        path.join(dir, folder, "source.json"),
        `${JSON.stringify({ id: s.id, adapter: s.adapter, error: redactText(s.error ?? "failed", secretsOf(s)), at: receivedAt }, null, 1)}\n`,
      );
    for (const [i, a] of s.answers.entries()) {
      const n = i + 1;
      const secrets = secretsOf(s);
      if (a.bytes) await write(path.join(dir, folder, `${n}.body`), a.bytes);
      const meta = {
        source: s.id,
        n,
        attempt: a.attempt,
        method: a.method,
        url: redactUrl(a.url),
        status: a.status,
        statusText: redactText(a.statusText, secrets),
        headers: headersOf(a.headers, a.secretHeaders, secrets),
        receivedAt,
        body: a.bytes ? `${n}.body` : null,
        bytes: a.bytes ? a.bytes.byteLength : null,
        sha256: a.bytes ? sha256Hex(Buffer.from(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength)) : null,
        ...(a.error !== undefined ? { error: redactText(a.error, secrets) } : {}),
      };
      await write(path.join(dir, folder, `${n}.json`), `${JSON.stringify(meta, null, 1)}\n`);
    }
  }
  const failed = sources.filter((s) => !s.ok).map((s) => s.id);
  await write(
    path.join(dir, "index.json"),
    `${JSON.stringify({ writtenBy: WRITTEN_BY, now: receivedAt, dryRun: run.dryRun, failed, sources: index }, null, 1)}\n`,
  );
}
