/**
 * What an ingest run does to the logs of data/ once every source has been asked (src/jobs/ingest.ts):
 * plan — read each day file the observations fall on, and count per source what is new, already
 * logged or skipped — then write the new lines and each source's run. A dry run (`ingest --dry-run`)
 * plans and writes nothing: it reads the logs to say what would be appended, takes no lock, cuts no
 * torn line, removes no leftover.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { performance } from "node:perf_hooks";
import { SourceError, errnoIs, messageOf } from "../core/errors.js";
import { redactUrls } from "../core/redact.js";
import { dataPaths, LOG_FOLDERS } from "../core/data-layout.js";
import { assertInside } from "../io/links.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { processAlive, tornTail } from "../io/day-files.js";
import { loadSourceRuns, recordRuns, writeSourceRuns } from "../io/source-runs.js";
import type { Observations } from "../ingest/adapters/types.js";
import { LOG_KINDS, logPlace, planAppends, type LogKind } from "../ingest/log.js";
import { retentionStart } from "../rules/compact.js";

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
  /** A dry run's: what the source read, every observation (`ingest --dry-run` prints them). */
  observed?: Pick<Observations, LogKind>;
  /** Seller names the source gave that the registry does not know (never sellers), as written. */
  unknownSellers?: string[];
}

/**
 * Why a source failed, in one line: our errors say it themselves; a file-system error names its
 * file (the error's own path, else the source's configured `file`, as a read of a folder has none).
 * Every URL in it loses its userinfo, query and fragment (src/core/redact.ts): the reason is
 * committed in data/state and published, and an operator's API key lives in a URL's query.
 */
export function failureOf(e: unknown, file?: string): string {
  return redactUrls(reasonOf(e, file));
}

function reasonOf(e: unknown, file?: string): string {
  if (e instanceof SourceError) return `${e.message}${e.url ? ` (${e.url})` : ""}${e.hint ? `: ${e.hint}` : ""}`;
  const err = e as NodeJS.ErrnoException | null;
  const where = typeof err?.path === "string" ? err.path : file;
  const is = errnoIs(e);
  if (is !== undefined && where !== undefined) return `${where} ${is}`;
  return messageOf(e);
}

const count = (xs: Array<{ reason: string }>) =>
  xs.reduce<Record<string, number>>((m, x) => ((m[x.reason] = (m[x.reason] ?? 0) + 1), m), {});

/** What the logs hold and what is to be appended to them. */
export interface LogPlan {
  /** Per log file, what it holds now (a torn last line cut, src/io/day-files.ts tornTail) and its lines. */
  logs: Map<string, { text: string; lines: Set<string> }>;
  /** Per log file, its new lines in order. */
  appends: Map<string, string[]>;
  warnings: string[];
}

/**
 * Reads each day file the observations fall on and plans what to append, filling in each report's
 * counts (a source whose plan fails is failed with the reason). Reads only.
 */
export async function planLogs(
  dataDir: string,
  fetched: ReadonlyArray<{ report: SourceReport; obs: Observations | null }>,
  known: ReadonlyMap<string, number>,
  nowMs: number,
  dryRun = false,
): Promise<LogPlan> {
  const p = dataPaths(dataDir);
  // Nothing is read from or appended through a folder that leaves data/ (docs/operating.md "What
  // can go wrong"); checked before anything in them is listed.
  for (const folder of [...Object.values(LOG_FOLDERS).map((f) => path.join(dataDir, f)), p.history])
    await assertInside(dataDir, folder, "folder");

  const logs: LogPlan["logs"] = new Map();
  const warnings: string[] = [];
  const load = async (file: string) => {
    if (logs.has(file)) return;
    const full = path.join(dataDir, file);
    await assertInside(dataDir, full); // never append through a link leaving data/
    let bytes = await fs
      .readFile(full)
      .catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? Buffer.alloc(0) : Promise.reject(e)));
    // A last line cut short by a full disk or a crash (before appends were atomic, or by another
    // tool) is cut off here, so that no newline is ever glued after the fragment: the append
    // then rewrites the file without it (docs/data-formats.md "A torn last line").
    const torn = tornTail(bytes);
    if (torn) {
      warnings.push(
        `${full}:${torn.line}: a torn last line (no newline at its end, not valid JSON: a write cut short) ${dryRun ? "would be cut" : "was cut"} before appending`,
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

  const appends: LogPlan["appends"] = new Map();
  for (const { report: r, obs } of fetched) {
    if (!obs) continue;
    const started = performance.now();
    try {
      // Read each day file the observations fall on, so duplicates are known before planning (not
      // those of quotes before the horizon: they are skipped, and their day need not exist).
      for (const kind of LOG_KINDS)
        for (const x of obs[kind]) {
          const place = logPlace(kind, x);
          if (place && !(kind === "quotes" && place.date < retentionStart(nowMs))) await load(place.file);
        }
      const plan = planAppends(obs, known, existing, compacted, retentionStart(nowMs));
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
        // Printed in the job's log, which a public repository publishes: no URL's query either.
        examples: skipped.slice(0, 3).map((s) => redactUrls(`${s.reason}: ${s.detail}`)),
      });
    } catch (e) {
      r.ok = false;
      r.error = failureOf(e);
    }
    r.ms += Math.round(performance.now() - started);
  }
  return { logs, appends, warnings };
}

/**
 * Writes what `plan` appends, and each source's last success and failure (data/state/sources.json,
 * for /api/v1/sources.json). Under the data folder's lock; returns the files appended to.
 */
export async function writeLogs(
  dataDir: string,
  nowMs: number,
  plan: LogPlan,
  reports: readonly SourceReport[],
): Promise<string[]> {
  // Each day file is replaced whole — what it held, then the new lines — through a temporary file in
  // its folder, flushed, then renamed over it (src/io/atomic-write.ts): a full disk or a crash
  // half-way leaves the file as it was, never a torn line. A day file is at most a few hundred KB.
  // The temporary name is hidden, so a build listing the folder meanwhile never sees it.
  for (const [file, lines] of plan.appends) {
    const full = path.join(dataDir, file);
    await removeLeftovers(full);
    await writeFileAtomic(full, plan.logs.get(file)!.text + lines.map((l) => `${l}\n`).join(""), {
      durable: true,
      hidden: true,
    });
  }
  await writeSourceRuns(dataDir, recordRuns(await loadSourceRuns(dataDir), reports, new Date(nowMs).toISOString()));
  return [...plan.appends.keys()].sort();
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
