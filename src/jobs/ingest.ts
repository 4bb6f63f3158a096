/**
 * `price-feed ingest` as the CLI runs it: read the sources file, run each enabled source once,
 * append what it returns to data/, and report per source. A source that fails is reported and
 * skipped; the others still land. Lines reach the logs only after every source has run, one
 * append per file, so a run that dies half-way leaves no half-written source behind.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { performance } from "node:perf_hooks";
import { Catalog, Sources } from "../schema/inputs.js";
import type { SourceConfig } from "../schema/sources.js";
import { DataError, SourceError, messageOf } from "../core/errors.js";
import { dataPaths } from "../core/data-layout.js";
import { readJson } from "../io/json-file.js";
import { assertInside } from "../io/links.js";
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

export async function runIngest(o: IngestOptions): Promise<{ reports: SourceReport[]; files: string[] }> {
  const p = dataPaths(o.dataDir);
  const sourcesFile = o.sourcesFile ?? p.sources;
  const [sources, catalog] = await Promise.all([
    readJson(sourcesFile, Sources),
    readJson(p.catalog, Catalog, o.dataDir),
  ]);
  const enabled = sources.sources.filter((s) => s.enabled);
  if (!sources.contact && enabled.some(usesNetwork))
    throw new DataError(
      sourcesFile,
      'network sources need a "contact" (a URL or an e-mail address) for the User-Agent',
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

  /** Per log file, the lines it holds or this run will append: what a new line is checked against. */
  const cache = new Map<string, Set<string>>();
  const unterminated = new Set<string>(); // a file whose last line has no newline (written by hand)
  const existing = (file: string) => cache.get(file) ?? new Set<string>();
  const load = async (file: string) => {
    if (cache.has(file)) return;
    await assertInside(o.dataDir, path.join(o.dataDir, file)); // never append through a link leaving data/
    const text = await fs
      .readFile(path.join(o.dataDir, file), "utf8")
      .catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? "" : Promise.reject(e)));
    if (text && !text.endsWith("\n")) unterminated.add(file);
    cache.set(file, new Set(text.split("\n").filter(Boolean)));
  };
  const historyDates = new Set(
    (await fs.readdir(p.history).catch(() => [] as string[])).map((f) => f.replace(/\.ndjson$/, "")),
  );
  const compacted = (date: string) => historyDates.has(date) && !cache.get(`quotes/${date}.ndjson`)?.size;

  const known = new Set(catalog.map((a) => a.id));
  const reports: SourceReport[] = [];
  const appends = new Map<string, string[]>();
  for (const cfg of enabled) reports.push(await runOne(cfg));

  async function runOne(cfg: SourceConfig): Promise<SourceReport> {
    const started = performance.now();
    const r: SourceReport = {
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
    try {
      const obs: Observations = await runAdapter(cfg, ctx);
      // Read each day file the observations fall on, so duplicates are known before planning.
      for (const kind of LOG_KINDS)
        for (const x of obs[kind]) {
          const place = logPlace(kind, x);
          if (place) await load(place.file);
        }
      const plan = planAppends(obs, known, existing, compacted);
      for (const [file, lines] of plan.appends) {
        appends.set(file, [...(appends.get(file) ?? []), ...lines]);
        for (const l of lines) cache.get(file)!.add(l);
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
      // Whatever goes wrong inside one source — connect, headers, body, parse, a file of its own —
      // is that source's failure, with its reason: it never costs the others (docs/operating.md "What can go wrong").
      r.ok = false;
      r.error = failureOf(
        e,
        "path" in cfg && typeof cfg.path === "string" ? path.resolve(ctx.dataDir, cfg.path) : undefined,
      );
    }
    r.ms = Math.round(performance.now() - started);
    return r;
  }

  for (const [file, lines] of appends) {
    const full = path.join(o.dataDir, file);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.appendFile(full, (unterminated.has(file) ? "\n" : "") + lines.map((l) => `${l}\n`).join(""));
  }
  // Each source's last success and failure, for the published source health (/api/v1/sources.json).
  await writeSourceRuns(
    o.dataDir,
    recordRuns(await loadSourceRuns(o.dataDir), reports, new Date(o.nowMs).toISOString()),
  );
  return { reports, files: [...appends.keys()].sort() };
}
