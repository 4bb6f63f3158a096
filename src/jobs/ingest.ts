/**
 * `price-feed ingest` as the CLI runs it: read the sources file, run each enabled source once,
 * append what it returns to data/, and report per source. A source that fails is reported and
 * skipped; the others still land.
 *
 * Sources are asked concurrently, a few at once and one at a time per host, each within a time
 * budget of its own (fetch and parse together) inside the run's budget (src/jobs/ingest-schedule.ts).
 * Each source lands as soon as it is done: its lines appended, its run recorded in
 * data/state/sources.json and its answers saved, so a run killed at any point keeps every source
 * that finished. An append is one whole-file replacement per day file (write a temporary file,
 * flush, rename), so no half-written source or torn line is ever left behind; what is logged is
 * checked, and the lines appended, under the data folder's lock (src/io/data-lock.ts), taken per
 * landing. Which source lands first changes the order of lines in a day file, never what a build
 * makes of it: the rules pick by observedAt then source rank, never by the order of reading across
 * sources (src/rules/closes.ts), and one source's lines keep their order.
 *
 * `--dry-run` asks every source the same way and writes nothing: no line, no state, no lock; its
 * reports carry what each source read. `--save-bodies DIR` keeps every answer the sources' requests
 * met, byte for byte, in DIR (src/io/saved-bodies.ts), with a real run or a dry one.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Catalog, Registry, Sources } from "../schema/inputs.js";
import { DataError } from "../core/errors.js";
import { dataPaths } from "../core/data-layout.js";
import { readJson } from "../io/json-file.js";
import { withDataLock } from "../io/data-lock.js";
import { recordProbation, type StandingMove } from "./probation-runs.js";
import { loadProbation } from "../io/probation-state.js";
import { prepareBodiesDir, saveBodies, type SourceAnswers } from "../io/saved-bodies.js";
import { runAdapter, usesNetwork } from "../ingest/adapters/index.js";
import type { AdapterContext, Observations } from "../ingest/adapters/types.js";
import type { SourceConfig } from "../schema/sources.js";
import { networkFailureOf, userAgent, type Answer, type HttpOptions, type NetworkFailure } from "../ingest/http.js";
import { failureOf, planLogs, writeLogs, type SourceReport } from "./ingest-logs.js";
import {
  abortion,
  bound,
  CONCURRENCY,
  hostLanes,
  hostsOf,
  offlineLine,
  UnresolvedHosts,
  overSourceBudget,
  RUN_BUDGET_MS,
  runBudgetSpent,
  runLanes,
  SOURCE_BUDGET_MS,
} from "./ingest-schedule.js";

export { failureOf, type SourceReport } from "./ingest-logs.js";
export { CONCURRENCY, RUN_BUDGET_MS, SOURCE_BUDGET_MS } from "./ingest-schedule.js";

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
  /** Each report carries what its source read (`observed`) in a real run too, as a dry run's do (src/rehearse: probation's replay). */
  keepObserved?: boolean;
  /** Keep every answer the sources' requests met in this folder, outside the data folder (`--save-bodies`). */
  saveBodiesDir?: string;
  /** One source's budget, fetch and parse together, in ms (`--source-budget`; SOURCE_BUDGET_MS). */
  sourceBudgetMs?: number;
  /** The run's budget for asking every source, in ms (`--run-budget`; RUN_BUDGET_MS). */
  runBudgetMs?: number;
  /** Sources asked at once, at most (`--concurrency`; CONCURRENCY); one at a time per host whatever it is. */
  concurrency?: number;
  /** Injected for tests: a monotonic clock in ms (performance.now), for the budgets and each report's time. */
  clock?: () => number;
}

/** The contact `init` writes (examples/egypt/sources.json), for the operator to replace. */
export const PLACEHOLDER_CONTACT = "mailto:operator@your-domain.example";

/**
 * Why a contact reaches nobody, as the words after `"contact"`, or null when it may: `init`'s
 * placeholder, or an address at a domain reserved for examples (RFC 2606 §2 ".example", §3
 * "example.com", "example.net", "example.org"). Nobody reads a message sent there, so a bank that
 * wants to reach the operator about our requests cannot.
 */
export function unreachableContact(contact: string): string | null {
  if (contact.trim() === PLACEHOLDER_CONTACT)
    return `is still the placeholder ${JSON.stringify(contact)} that init writes`;
  const host = /@([^/?#>\s]+)|^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(contact.trim());
  const name = (host?.[1] ?? host?.[2] ?? "").toLowerCase().replace(/\.$/, "");
  const reserved = name === "example" || name.endsWith(".example") || /(^|\.)example\.(com|net|org)$/.test(name);
  return reserved
    ? `${JSON.stringify(contact)} is at ${name}, a domain reserved for examples (RFC 2606) where nobody reads it`
    : null;
}

/**
 * What ingest did: each source's report, the day logs appended to (a dry run: that would be), and
 * what it says besides (a torn last line cut, bodies that could not be saved).
 */
export interface IngestResult {
  reports: SourceReport[];
  files: string[];
  warnings: string[];
  /** Sources that graduated from probation or went back on it this run (docs/methodology.md §2.4). */
  probation?: StandingMove[];
  /** Said once when every source on the network failed to resolve or connect (ingest-schedule.ts offlineLine). */
  offline?: string;
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
  const unreachable = sources.contact && network.length ? unreachableContact(sources.contact) : null;
  if (unreachable) {
    const named = `${network
      .slice(0, 3)
      .map((s) => s.id)
      .join(", ")}${network.length > 3 ? ", …" : ""}`;
    throw new DataError(
      sourcesFile,
      `"contact" ${unreachable}: ${network.length} enabled source${network.length === 1 ? "" : "s"} (${named}) ` +
        `would send it to real sites in the User-Agent of every request, and a site could not reach you about them`,
      {
        hint: `set "contact" in ${sourcesFile} to a URL or an e-mail address of your own, where the sites can reach you, then run ingest again (docs/operating.md "Configuring sources")`,
      },
    );
  }
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
  // Sources whose records name their sellers (an aggregator's page of many banks) match each name to
  // the registry: a name it does not give is never a seller (rule 1), and is named in the report.
  const namesSellers = enabled.some((s) => "fields" in s && s.fields.seller !== undefined);
  const registry = namesSellers ? await readJson(p.registry, Registry, o.dataDir) : undefined;
  const ctx = {
    nowMs: o.nowMs,
    http,
    dataDir: path.dirname(sourcesFile),
    catalog,
    ...(registry ? { registry } : {}),
    demo: sources.demo,
  };
  // Before any source is asked: a folder that cannot take the bodies stops the run here (exit 1).
  if (o.saveBodiesDir !== undefined) await prepareBodiesDir(o.saveBodiesDir, o.dataDir);
  // The probation record is read (and checked: src/schema/probation.ts) before anything is appended:
  // found corrupt after the logs were written, the run stopped with "nothing was appended" while ten
  // quote lines had been (issue 50). A record that is not believed stops the run here, untouched.
  if (!o.dryRun) await loadProbation(o.dataDir);

  const clock = o.clock ?? (() => performance.now());
  const sourceBudgetMs = o.sourceBudgetMs ?? SOURCE_BUDGET_MS;
  const runBudgetMs = o.runBudgetMs ?? RUN_BUDGET_MS;
  const known = new Map(catalog.map((a) => [a.id, a.decimals])); // asset → decimals, for the safe-price check
  const lock = { command: "ingest", nowMs: o.nowMs, ...(o.lockWaitMs ? { waitMs: o.lockWaitMs } : {}) };
  const warnings: string[] = [];
  const files = new Set<string>();
  /** Every source's result, by its place in the sources file; filled as each lands. */
  const results: Array<SourceResult | undefined> = enabled.map(() => undefined);

  // Each source lands as soon as it is done, one landing at a time (a chain of promises: two
  // landings of one process must not plan against the same day file at once, and the data lock is
  // re-entrant within a chain of calls, so it alone would not keep them apart).
  let landings: Promise<void> = Promise.resolve();
  const land = (i: number, r: SourceResult) => {
    results[i] = r;
    landings = landings.then(() => landSource(r));
    return landings;
  };
  const landSource = async (r: SourceResult) => {
    try {
      // A dry run plans once every source is in (below), and writes nothing.
      if (!o.dryRun) {
        // The lock is taken per landing, not for the run: asking sources takes minutes (the run's
        // budget), and a build or compact waiting that long for the data folder would give up
        // (DATA_LOCK_WAIT_MS); a landing holds it for the few milliseconds of one source's append.
        const written = await withDataLock(o.dataDir, lock, async () => {
          const plan = await planLogs(o.dataDir, [r], known, o.nowMs);
          return writeLogs(o.dataDir, o.nowMs, plan, [r.report]).then((f) => ({ f, w: plan.warnings }));
        });
        for (const f of written.f) files.add(f);
        warnings.push(...written.w);
      }
    } finally {
      // The bodies, outside the data folder, however the landing went: a disk that refuses them
      // costs a warning, never the data. saveBodies writes the whole folder's index, so it is given
      // every source landed so far (their files are written again, the same bytes).
      if (o.saveBodiesDir !== undefined) {
        // In the sources file's order, whichever landed first: the index is the same for the same run.
        r.landed = true;
        const saved: SourceAnswers[] = results
          .filter((x): x is SourceResult => x?.landed === true)
          .map(({ report, answers }) => ({ ...report, answers }));
        await saveBodies(o.saveBodiesDir, { nowMs: o.nowMs, dryRun: o.dryRun === true }, saved).catch((e: unknown) => {
          const w = `the bodies could not all be saved in ${o.saveBodiesDir}: ${failureOf(e)}`;
          if (!warnings.includes(w)) warnings.push(w);
        });
      }
    }
  };

  // The run's budget: when it runs out, every source still being asked is aborted and reported
  // failed, and those not yet started are not asked; every source already landed stays.
  const run = new AbortController();
  const runTimer = setTimeout(() => run.abort(runBudgetSpent(runBudgetMs, true)), runBudgetMs);
  // A landing that fails (a disk that refuses the day file, another writer holding the lock too
  // long) stops the run: no further source is asked, and the error is the run's (exit 1).
  let landingFailed: unknown;
  // A host that did not resolve fails the later sources of its lane at once (ingest-schedule.ts).
  const unresolved = new UnresolvedHosts();
  try {
    await runLanes(hostLanes(enabled), o.concurrency ?? CONCURRENCY, async (i) => {
      const cfg = enabled[i]!;
      if (landingFailed !== undefined) return;
      const blocked = unresolved.reason(cfg);
      if (blocked) {
        const report = newReport(cfg);
        report.ok = false;
        report.error = blocked.text;
        const network = { kind: "resolve" as const, code: blocked.code, host: blocked.host };
        await land(i, { report, obs: null, answers: [], landed: false, network }).catch(
          (e: unknown) => (landingFailed ??= e),
        );
        return;
      }
      if (run.signal.aborted) {
        const report = newReport(cfg);
        report.ok = false;
        report.error = runBudgetSpent(runBudgetMs, false).message;
        await land(i, { report, obs: null, answers: [], landed: false }).catch((e: unknown) => (landingFailed ??= e));
        return;
      }
      const r = await askSource(cfg, {
        ctx,
        http,
        saveAnswers: o.saveBodiesDir !== undefined,
        dryRun: o.dryRun === true,
        keepObserved: o.keepObserved === true,
        sourceBudgetMs,
        run: run.signal,
        clock,
        base: { fetch: o.fetch, sleep: o.sleep },
      });
      if (r.network?.kind === "resolve") {
        const host = r.network.host ?? hostsOf(cfg)[0];
        if (host) unresolved.note(host, cfg.id, r.network.code);
      }
      await land(i, r).catch((e: unknown) => {
        landingFailed ??= e;
        run.abort(e);
      });
    });
  } finally {
    clearTimeout(runTimer);
  }
  await landings.catch(() => {});
  if (landingFailed !== undefined) throw landingFailed;

  // The run's end: every source's result — its report, what it observed, what its requests met —
  // in the sources file's order.
  const done = results.map((r) => r!);
  const reports = done.map((r) => r.report);
  // Every source on the network failed to reach its server: said once (ingest-schedule.ts offlineLine).
  const reached = done.filter((r, i) => usesNetwork(enabled[i]!) && !r.report.ok && r.network);
  const offline = offlineLine(
    network.length,
    reached.map((r) => r.network!),
  );
  const said = offline ? { offline } : {};
  if (o.dryRun) {
    const plan = await planLogs(o.dataDir, done, known, o.nowMs, true);
    return { reports, files: [...plan.appends.keys()].sort(), warnings: [...warnings, ...plan.warnings], ...said };
  }
  // Each source's standing on probation after this run (docs/methodology.md §2.4), judged against the
  // day as now logged and recorded in data/state/probation.json under the data folder's lock. A run
  // killed before here keeps what landed; its probation run is simply not counted.
  const { moves: probation, notes } = await withDataLock(o.dataDir, lock, () =>
    recordProbation(
      o.dataDir,
      o.nowMs,
      done.map((r) => ({ id: r.report.id, ok: r.report.ok, quotes: r.obs?.quotes ?? [] })),
    ),
  );
  warnings.push(...notes);
  return { reports, files: [...files].sort(), warnings, ...(probation.length ? { probation } : {}), ...said };
}

/** One source's run: its report, what it observed (null when it failed) and the answers its requests met. */
export interface SourceResult {
  report: SourceReport;
  obs: Observations | null;
  answers: Answer[];
  /** Its bodies are in the --save-bodies folder's index. */
  landed: boolean;
  /** Why it reached no server, when that is why it failed (src/ingest/http.ts networkFailureOf). */
  network?: NetworkFailure | null;
}

const newReport = (cfg: SourceConfig): SourceReport => ({
  id: cfg.id,
  adapter: cfg.adapter,
  ok: true,
  fetched: 0,
  appended: 0,
  duplicates: 0,
  skipped: {},
  examples: [],
  ms: 0,
});

/**
 * Asks one source within its budget: the adapter — every request, retry, wait and parse — raced
 * against the source's deadline and the run's. When either runs out, the source's requests and waits
 * are aborted and it fails with that budget as its reason. A parse that holds the thread past the
 * deadline (no timer fires meanwhile) is caught when it returns: over budget is over budget.
 */
async function askSource(
  cfg: SourceConfig,
  a: {
    ctx: AdapterContext;
    http: HttpOptions;
    saveAnswers: boolean;
    dryRun: boolean;
    keepObserved: boolean;
    sourceBudgetMs: number;
    run: AbortSignal;
    clock: () => number;
    base: { fetch?: typeof fetch | undefined; sleep?: ((ms: number) => Promise<void>) | undefined };
  },
): Promise<SourceResult> {
  const started = a.clock();
  const report = newReport(cfg);
  // Every answer this source's requests meet, when they are to be saved (src/ingest/http-answers.ts).
  const answers: Answer[] = [];
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(overSourceBudget(a.sourceBudgetMs)), a.sourceBudgetMs);
  const signal = AbortSignal.any([own.signal, a.run]);
  const http: HttpOptions = {
    ...a.http,
    ...bound(signal, a.base),
    ...(a.saveAnswers ? { onAnswer: (x: Answer) => void answers.push(x) } : {}),
  };
  let obs: Observations | null = null;
  let network: NetworkFailure | null = null;
  try {
    const got = await Promise.race([runAdapter(cfg, { ...a.ctx, http }), abortion(signal)]);
    if (a.clock() - started > a.sourceBudgetMs) throw overSourceBudget(a.sourceBudgetMs);
    obs = got;
    if (a.dryRun || a.keepObserved)
      report.observed = { quotes: got.quotes, official: got.official, global: got.global };
    // Names the registry does not know are never sellers (rule 1): named so the operator can add the bank.
    if (got.unknownSellers.length) report.unknownSellers = [...got.unknownSellers];
  } catch (e) {
    // Whatever goes wrong inside one source — connect, headers, body, parse, a file of its own, its
    // budget — is that source's failure, with its reason: it never costs the others (docs/operating.md "What can go wrong").
    report.ok = false;
    report.error = signal.aborted
      ? failureOf(signal.reason)
      : failureOf(e, "path" in cfg && typeof cfg.path === "string" ? path.resolve(a.ctx.dataDir, cfg.path) : undefined);
    if (!signal.aborted) network = networkFailureOf(e);
  } finally {
    clearTimeout(timer);
    // Whatever the source left running (a request of an adapter that raced ahead) is stopped.
    own.abort(overSourceBudget(a.sourceBudgetMs));
  }
  report.ms = Math.round(a.clock() - started);
  return { report, obs, answers, landed: false, network };
}
