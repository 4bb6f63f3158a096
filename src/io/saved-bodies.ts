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
 * only. Files a source reads by `path` are the operator's own, already on disk: not copied. Nothing
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
 * Checks DIR before any source is asked, and empties what an earlier run wrote there: refused
 * inside the data folder, and refused when it holds anything but an earlier run's bodies.
 */
export async function prepareBodiesDir(dir: string, dataDir: string): Promise<void> {
  const [full, data] = [path.resolve(dir), path.resolve(dataDir)];
  if (inside(full, data))
    throw new UsageError(`--save-bodies ${dir} is inside the data folder ${dataDir}`, {
      hint: "save the bodies outside it (the hourly job commits data/), e.g. --save-bodies /tmp/bodies",
    });
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

/** An answer's headers as JSON: names in lower case, each Set-Cookie kept apart (a list). */
function headersOf(h: Headers | null): Record<string, string | string[]> | null {
  if (!h) return null;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of h) if (name !== "set-cookie") out[name] = value;
  const cookies = h.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  return out;
}

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
      ...(s.ok ? {} : { error: s.error ?? "failed" }),
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
        `${JSON.stringify({ id: s.id, adapter: s.adapter, error: s.error ?? "failed", at: receivedAt }, null, 1)}\n`,
      );
    for (const [i, a] of s.answers.entries()) {
      const n = i + 1;
      if (a.bytes) await write(path.join(dir, folder, `${n}.body`), a.bytes);
      const meta = {
        source: s.id,
        n,
        attempt: a.attempt,
        method: a.method,
        url: a.url,
        status: a.status,
        statusText: a.statusText,
        headers: headersOf(a.headers),
        receivedAt,
        body: a.bytes ? `${n}.body` : null,
        bytes: a.bytes ? a.bytes.byteLength : null,
        sha256: a.bytes ? sha256Hex(Buffer.from(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength)) : null,
        ...(a.error !== undefined ? { error: a.error } : {}),
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
