/**
 * `price-feed ingest` as the CLI runs it: read the sources file, run each enabled source once,
 * append what it returns to data/, and report per source. A source that fails is reported and
 * skipped; the others still land. Lines reach the logs only after every source has run, one
 * whole-file replacement per day file (write a temporary file, flush, rename), so a run that dies
 * half-way, or meets a full disk, leaves no half-written source and no torn line behind. What is
 * logged is checked, and the lines appended, under the data folder's lock (src/io/data-lock.ts).
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { performance } from "node:perf_hooks";
import { Catalog, Sources } from "../schema/inputs.js";
import type { SourceConfig } from "../schema/sources.js";
import { DataError, SourceError, messageOf } from "../core/errors.js";
import { dataPaths, LOG_FOLDERS } from "../core/data-layout.js";
import { readJson } from "../io/json-file.js";
import { assertInside } from "../io/links.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { withDataLock } from "../io/data-lock.js";
import { processAlive, tornTail } from "../io/day-files.js";
import { loadSourceRuns, recordRuns, writeSourceRuns } from "../io/source-runs.js";
import { runAdapter, usesNetwork } from "../ingest/adapters/index.js";
import type { Observations } from "../ingest/adapters/types.js";
import { userAgent, type HttpOptions } from "../ingest/http.js";
import { LOG_KINDS, logPlace, planAppends } from "../ingest/log.js";

export interface IngestOptions {
  dataDir: string;
  sourcesFile?: string;
  nowMs: number;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  /** Per response, in bytes (src/ingest/http.ts MAX_BODY_BYTES by default). */
  maxBytes?: number;
  /** The longest Retry-After waited for (MAX_RETRY_AFTER_MS by default). */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** How long to wait for another writer of the data folder (src/io/data-lock.ts DATA_LOCK_WAIT_MS). */
  lockWaitMs?: number;
}

export interface SourceReport {
  id: string;
  adapter: string;
  ok: boolean;
  error?: string;
  fetched: number;
  appended: number;
  duplicates: number;
  skipped: Record<string, number>;
  examples: string[];
  ms: number;
}

/**
 * Why a source failed, in one line: our errors say it themselves; a file-system error names its
 * file (the error's own path, else the source's configured `file`, as a read of a folder has none).
 */
export function failureOf(e: unknown, file?: string): string {
  if (e instanceof SourceError) return `${e.message}${e.url ? ` (${e.url})` : ""}${e.hint ? `: ${e.hint}` : ""}`;
  const err = e as NodeJS.ErrnoException | null;
  const where = typeof err?.path === "string" ? err.path : file;
  if (err && typeof err.code === "string" && where !== undefined) {
    const what: Record<string, string> = {
      ENOENT: "does not exist",
      EISDIR: "is a folder, not a file",
      ENOTDIR: "is not inside a folder",
      EACCES: "is not readable by this user",
      EPERM: "is not permitted",
      ELOOP: "is a loop of symbolic links",
    };
    if (what[err.code]) return `${where} ${what[err.code]}`;
  }
  return messageOf(e);
}

const count = (xs: Array<{ reason: string }>) =>
  xs.reduce<Record<string, number>>((m, x) => ((m[x.reason] = (m[x.reason] ?? 0) + 1), m), {});

/**
 * The contact `init` writes (examples/egypt/sources.json), and any other at a domain reserved for
 * examples (RFC 2606 §2 ".example", §3 "example.com", "example.net", "example.org"): nobody reads a
 * message sent there, so a bank that wants to reach the operator about our requests cannot.
 */
export const PLACEHOLDER_CONTACT = "mailto:operator@your-domain.example";
export function isPlaceholderContact(contact: string): boolean {
  const host = /@([^/?#>\s]+)|^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(contact.trim());
  const name = (host?.[1] ?? host?.[2] ?? "").toLowerCase().replace(/\.$/, "");
  return (
    contact.trim() === PLACEHOLDER_CONTACT ||
    name === "example" ||
    name.endsWith(".example") ||
    /(^|\.)example\.(com|net|org)$/.test(name)
  );
}

/** What ingest does besides each source's report: the day logs it repaired (a torn last line cut). */
export interface IngestResult {
  reports: SourceReport[];
  files: string[];
  warnings: string[];
}

export async function runIngest(o: IngestOptions): Promise<IngestResult> {
  const p = dataPaths(o.dataDir);
  const sourcesFile = o.sourcesFile ?? p.sources;
  const [sources, catalog] = await Promise.all([
    readJson(sourcesFile, Sources),
    readJson(p.catalog, Catalog, o.dataDir),
  ]);
  const enabled = sources.sources.filter((s) => s.enabled);
  const network = enabled.filter(usesNetwork);
  if (!sources.contact && network.length)
    throw new DataError(
      sourcesFile,
      'network sources need a "contact" (a URL or an e-mail address) for the User-Agent',
    );
  // Every request names the contact in its User-Agent (src/ingest/http.ts): `init`'s placeholder
  // would tell the banks to write to nobody. Sources that read no network (demo, a local path) run.
  if (sources.contact && network.length && isPlaceholderContact(sources.contact))
    throw new DataError(
      sourcesFile,
      `"contact" is still the placeholder ${JSON.stringify(sources.contact)}, and ${network.length} enabled source(s) (${network
        .slice(0, 3)
        .map((s) => s.id)
        .join(", ")}${network.length > 3 ? ", …" : ""}) would send it to real sites in the User-Agent`,
      {
        hint: `set "contact" in ${sourcesFile} to a URL or an e-mail address where the sites can reach you (docs/operating.md "Configuring sources")`,
      },
    );
  const http: HttpOptions = {
    userAgent: userAgent(sources.contact ?? "offline"),
    timeoutMs: o.timeoutMs ?? 20_000,
    retries: o.retries ?? 2,
    backoffMs: o.backoffMs ?? 1000,
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
    ...(o.maxBytes ? { maxBytes: o.maxBytes } : {}),
    ...(o.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: o.maxRetryAfterMs } : {}),
  };
  const ctx = { nowMs: o.nowMs, http, dataDir: path.dirname(sourcesFile), catalog, demo: sources.demo };

  // 1. Every source is asked, outside the lock: minutes of network never hold back another writer.
  const fetched: Array<{ cfg: SourceConfig; report: SourceReport; obs: Observations | null }> = [];
  for (const cfg of enabled) {
    const started = performance.now();
    const report: SourceReport = {
      id: cfg.id,
      adapter: cfg.adapter,
      ok: true,
      fetched: 0,
      appended: 0,
      duplicates: 0,
      skipped: {},
      examples: [],
      ms: 0,
    };
    let obs: Observations | null = null;
    try {
      obs = await runAdapter(cfg, ctx);
    } catch (e) {
      // Whatever goes wrong inside one source — connect, headers, body, parse, a file of its own —
      // is that source's failure, with its reason: it never costs the others (docs/operating.md "What can go wrong").
      report.ok = false;
      report.error = failureOf(
        e,
        "path" in cfg && typeof cfg.path === "string" ? path.resolve(ctx.dataDir, cfg.path) : undefined,
      );
    }
    report.ms = Math.round(performance.now() - started);
    fetched.push({ cfg, report, obs });
  }

  // 2. Check what is logged, then append, under the data folder's lock (src/io/data-lock.ts): two
  // ingests at once would both find a line missing and both append it.
  return withDataLock(
    o.dataDir,
    { command: "ingest", nowMs: o.nowMs, ...(o.lockWaitMs ? { waitMs: o.lockWaitMs } : {}) },
    () => appendUnlocked(o, fetched, new Set(catalog.map((a) => a.id))),
  );
}

async function appendUnlocked(
  o: IngestOptions,
  fetched: Array<{ report: SourceReport; obs: Observations | null }>,
  known: ReadonlySet<string>,
): Promise<IngestResult> {
  const p = dataPaths(o.dataDir);
  // Nothing is read from or appended through a folder that leaves data/ (docs/operating.md "What
  // can go wrong"); checked before anything in them is listed.
  for (const folder of [...Object.values(LOG_FOLDERS).map((f) => path.join(o.dataDir, f)), p.history])
    await assertInside(o.dataDir, folder, "folder");

  /** Per log file, what it holds now (a torn last line cut, src/io/day-files.ts tornTail) and its lines. */
  const logs = new Map<string, { text: string; lines: Set<string> }>();
  const warnings: string[] = [];
  const load = async (file: string) => {
    if (logs.has(file)) return;
    const full = path.join(o.dataDir, file);
    await assertInside(o.dataDir, full); // never append through a link leaving data/
    let bytes = await fs
      .readFile(full)
      .catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? Buffer.alloc(0) : Promise.reject(e)));
    // A last line cut short by a full disk or a crash (before appends were atomic, or by another
    // tool) is cut off here, so that no newline is ever glued after the fragment: the append below
    // then rewrites the file without it (docs/data-formats.md "A torn last line").
    const torn = tornTail(bytes);
    if (torn) {
      warnings.push(
        `${full}:${torn.line}: a torn last line (no newline at its end, not valid JSON: a write cut short) was cut before appending`,
      );
      bytes = bytes.subarray(0, torn.keep);
    }
    let text = bytes.toString("utf8");
    // A complete last line written by hand without its newline gets one, so the next line is its own.
    if (text && !text.endsWith("\n")) text += "\n";
    logs.set(file, { text, lines: new Set(text.split("\n").filter(Boolean)) });
  };
  const historyDates = new Set(
    (await fs.readdir(p.history).catch(() => [] as string[])).map((f) => f.replace(/\.ndjson$/, "")),
  );
  const compacted = (date: string) => historyDates.has(date) && !logs.get(`quotes/${date}.ndjson`)?.lines.size;
  const existing = (file: string) => logs.get(file)?.lines ?? new Set<string>();

  const appends = new Map<string, string[]>();
  for (const { report: r, obs } of fetched) {
    if (!obs) continue;
    const started = performance.now();
    try {
      // Read each day file the observations fall on, so duplicates are known before planning.
      for (const kind of LOG_KINDS)
        for (const x of obs[kind]) {
          const place = logPlace(kind, x);
          if (place) await load(place.file);
        }
      const plan = planAppends(obs, known, existing, compacted);
      for (const [file, lines] of plan.appends) {
        appends.set(file, [...(appends.get(file) ?? []), ...lines]);
        for (const l of lines) logs.get(file)!.lines.add(l);
      }
      const skipped = [...obs.skipped, ...plan.skipped];
      Object.assign(r, {
        fetched: obs.fetched,
        appended: plan.appended,
        duplicates: plan.duplicates,
        skipped: count(skipped),
        examples: skipped.slice(0, 3).map((s) => `${s.reason}: ${s.detail}`),
      });
    } catch (e) {
      r.ok = false;
      r.error = failureOf(e);
    }
    r.ms += Math.round(performance.now() - started);
  }

  // Each day file is replaced whole — what it held, then the new lines — through a temporary file in
  // its folder, flushed, then renamed over it (src/io/atomic-write.ts): a full disk or a crash
  // half-way leaves the file as it was, never a torn line. A day file is at most a few hundred KB.
  // The temporary name is hidden, so a build listing the folder meanwhile never sees it.
  for (const [file, lines] of appends) {
    const full = path.join(o.dataDir, file);
    await removeLeftovers(full);
    await writeFileAtomic(full, logs.get(file)!.text + lines.map((l) => `${l}\n`).join(""), {
      durable: true,
      hidden: true,
    });
  }
  // Each source's last success and failure, for the published source health (/api/v1/sources.json).
  await writeSourceRuns(
    o.dataDir,
    recordRuns(
      await loadSourceRuns(o.dataDir),
      fetched.map((f) => f.report),
      new Date(o.nowMs).toISOString(),
    ),
  );
  return { reports: fetched.map((f) => f.report), files: [...appends.keys()].sort(), warnings };
}

/**
 * The hidden temporary files of `file` (`.<day>.ndjson.tmp-<pid>`) that an ingest killed half-way
 * left: under the lock no other writer runs, so one whose process is gone is removed, with a line.
 */
async function removeLeftovers(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.tmp-`;
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (pid === process.pid || processAlive(pid)) continue;
    await fs.rm(path.join(dir, name), { force: true });
    console.error(`price-feed: removed ${path.join(dir, name)}, left by an interrupted ingest of process ${pid}`);
  }
}
