/**
 * `price-feed ingest` as the CLI runs it: read the sources file, run each enabled source once,
 * append what it returns to data/, and report per source. A source that fails is reported and
 * skipped; the others still land. Lines reach the logs only after every source has run, one
 * whole-file replacement per day file (write a temporary file, flush, rename), so a run that dies
 * half-way, or meets a full disk, leaves no half-written source and no torn line behind. What is
 * logged is checked, and the lines appended, under the data folder's lock (src/io/data-lock.ts).
 *
 * `--dry-run` asks every source the same way and writes nothing: no line, no state, no lock; its
 * reports carry what each source read. `--save-bodies DIR` keeps every answer the sources' requests
 * met, byte for byte, in DIR (src/io/saved-bodies.ts), with a real run or a dry one.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Catalog, Sources } from "../schema/inputs.js";
import { DataError } from "../core/errors.js";
import { dataPaths } from "../core/data-layout.js";
import { readJson } from "../io/json-file.js";
import { withDataLock } from "../io/data-lock.js";
import { prepareBodiesDir, saveBodies, type SourceAnswers } from "../io/saved-bodies.js";
import { runAdapter, usesNetwork } from "../ingest/adapters/index.js";
import type { Observations } from "../ingest/adapters/types.js";
import { userAgent, type Answer, type HttpOptions } from "../ingest/http.js";
import { failureOf, planLogs, writeLogs, type SourceReport } from "./ingest-logs.js";

export { failureOf, type SourceReport } from "./ingest-logs.js";

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
  /** Ask every source, print what it read, and write nothing to the data folder (`--dry-run`). */
  dryRun?: boolean;
  /** Keep every answer the sources' requests met in this folder, outside the data folder (`--save-bodies`). */
  saveBodiesDir?: string;
}

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

/**
 * What ingest did: each source's report, the day logs appended to (a dry run: that would be), and
 * what it says besides (a torn last line cut, bodies that could not be saved).
 */
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
  // Before any source is asked: a folder that cannot take the bodies stops the run here (exit 1).
  if (o.saveBodiesDir !== undefined) await prepareBodiesDir(o.saveBodiesDir, o.dataDir);

  // 1. Every source is asked, outside the lock: minutes of network never hold back another writer.
  const fetched: Array<{ report: SourceReport; obs: Observations | null; answers: Answer[] }> = [];
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
    // Every answer this source's requests meet, when they are to be saved (src/ingest/http-answers.ts).
    const answers: Answer[] = [];
    const own =
      o.saveBodiesDir === undefined
        ? ctx
        : { ...ctx, http: { ...http, onAnswer: (a: Answer) => void answers.push(a) } };
    let obs: Observations | null = null;
    try {
      obs = await runAdapter(cfg, own);
      if (o.dryRun) report.observed = { quotes: obs.quotes, official: obs.official, global: obs.global };
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
    fetched.push({ report, obs, answers });
  }

  // 2. The bodies, as each source met them, before anything is appended: a disk that refuses them
  // costs a warning, never the data.
  const warnings: string[] = [];
  if (o.saveBodiesDir !== undefined) {
    const saved: SourceAnswers[] = fetched.map(({ report: r, answers }) => ({ ...r, answers }));
    await saveBodies(o.saveBodiesDir, { nowMs: o.nowMs, dryRun: o.dryRun === true }, saved).catch((e: unknown) =>
      warnings.push(`the bodies could not all be saved in ${o.saveBodiesDir}: ${failureOf(e)}`),
    );
  }

  // 3. Check what is logged, then append, under the data folder's lock (src/io/data-lock.ts): two
  // ingests at once would both find a line missing and both append it. A dry run only reads the
  // logs, to say what would be appended: no lock, no write.
  const known = new Set(catalog.map((a) => a.id));
  const reports = fetched.map((f) => f.report);
  if (o.dryRun) {
    const plan = await planLogs(o.dataDir, fetched, known, o.nowMs, true);
    return { reports, files: [...plan.appends.keys()].sort(), warnings: [...warnings, ...plan.warnings] };
  }
  return withDataLock(
    o.dataDir,
    { command: "ingest", nowMs: o.nowMs, ...(o.lockWaitMs ? { waitMs: o.lockWaitMs } : {}) },
    async () => {
      const plan = await planLogs(o.dataDir, fetched, known, o.nowMs);
      const files = await writeLogs(o.dataDir, o.nowMs, plan, reports);
      return { reports, files, warnings: [...warnings, ...plan.warnings] };
    },
  );
}
