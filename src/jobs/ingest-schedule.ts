/**
 * When each source of an ingest run is asked (src/jobs/ingest.ts; docs/operating.md "Time budgets and
 * landing"): concurrently, at most `concurrency` at once, one request at a time per host, and each
 * within a time budget of its own inside the run's.
 *
 * - **Per host**: sources that name a common host (the host name of `url`, `pageUrl`, any of `urls`,
 *   `token.url`; the port does not count, one machine is one site) form one lane and run one after
 *   another, in the sources file's order; a lane holds one slot of the pool. A source naming no host
 *   (`path`, `demo`) is a lane of its own. A redirect to another host does not join lanes: the rule is
 *   about what the operator configured, and a redirect is followed within the source's own turn.
 * - **Budgets**: a source's budget covers everything it does, every request, retry, wait and parse; the
 *   run's covers the asking of every source. Either running out aborts the source's requests and waits.
 * - **A host that does not resolve** fails the sources after it that name it at once (UnresolvedHosts):
 *   they are in its lane, and each would wait out the same failure and its retries. When every source
 *   on the network failed to resolve or connect, the run says once that the machine seems to have no
 *   network (offlineLine), rather than leave the operator to read it from each failure.
 */

/**
 * A source's budget: a minute, as long as three whole timeouts of one request (20 s each): a site
 * that has not answered by then is down for this hour, and the next run asks again.
 */
export const SOURCE_BUDGET_MS = 60_000;
/**
 * The run's: 10 minutes of the hourly job's 20 (.github/workflows/publish.yml timeout-minutes),
 * which leave the install, compact, build, commit and deploy several minutes each. Sources asked
 * concurrently take about the longest lane's time: a healthy run takes well under a minute.
 */
export const RUN_BUDGET_MS = 10 * 60_000;
/** Sources asked at once: four lanes of hosts, enough that eight slow sites cost about two of them. */
export const CONCURRENCY = 4;

/** What a source configuration names that reaches a host. */
interface Named {
  url?: string | undefined;
  pageUrl?: string | undefined;
  urls?: readonly string[] | undefined;
  token?: { url?: string | undefined } | undefined;
}

/** The host names a source configuration asks, lower case, without a trailing dot; none for a file or the demo. */
export function hostsOf(source: object): string[] {
  const cfg = source as Named;
  const urls = [cfg.url, cfg.pageUrl, ...(cfg.urls ?? []), cfg.token?.url].filter(
    (u): u is string => typeof u === "string" && u !== "",
  );
  const hosts = new Set<string>();
  for (const u of urls) {
    try {
      const host = new URL(u).hostname.toLowerCase().replace(/\.$/, "");
      if (host) hosts.add(host);
    } catch {
      // An unreadable URL is the source's own failure when it runs (the sources file's schema checks it).
    }
  }
  return [...hosts].sort();
}

/**
 * The lanes: indices of `sources` whose hosts overlap, joined (transitively: a source naming hosts a
 * and b joins a's lane to b's), each lane in the sources' order, lanes in the order of their first
 * source. Sources naming no host are each a lane alone.
 */
export function hostLanes(sources: readonly object[]): number[][] {
  const parent = sources.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const owner = new Map<string, number>();
  sources.forEach((s, i) => {
    for (const h of hostsOf(s)) {
      const o = owner.get(h);
      if (o === undefined) owner.set(h, i);
      else {
        const [a, b] = [find(o), find(i)];
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  });
  const lanes = new Map<number, number[]>();
  sources.forEach((_, i) => {
    const root = find(i);
    lanes.set(root, [...(lanes.get(root) ?? []), i]);
  });
  return [...lanes.values()].sort((a, b) => a[0]! - b[0]!);
}

/**
 * Runs each lane's items one after another, at most `concurrency` lanes at once, lanes taken in
 * order; resolves when every item has run. `run` is expected not to reject (it reports failures);
 * should it, the rejection is passed on once every running lane has stopped.
 */
export async function runLanes(
  lanes: readonly (readonly number[])[],
  concurrency: number,
  run: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < lanes.length) {
      const lane = lanes[next++]!;
      for (const i of lane) await run(i);
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(concurrency, lanes.length)) }, worker),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** A budget that ran out: its reason is the source's failure. */
export class BudgetSpent extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BudgetSpent";
  }
}

/** "60 s", "10 min", "1.5 s", "250 ms": a budget as the reasons say it. */
export function durationWords(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** A source's reason when its own budget ran out. */
export const overSourceBudget = (ms: number) =>
  new BudgetSpent(`over its ${durationWords(ms)} budget (fetch and parse together)`);

/** A source's reason when the run's budget ran out while it was asked, or before its turn. */
export const runBudgetSpent = (ms: number, started: boolean) =>
  new BudgetSpent(
    started
      ? `run budget spent: the run's ${durationWords(ms)} ran out before this source finished`
      : `run budget spent: the run's ${durationWords(ms)} ran out before this source's turn (not asked)`,
  );

/** Rejects with the signal's reason once it aborts (never resolves). */
export function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
  });
}

/**
 * `fetch` and `sleep` bound to `signal`: every request's own signal joined with it (so a budget that
 * runs out aborts a request in flight and frees its socket), and a wait (a backoff, a Retry-After)
 * cut short by it. Without `sleep`, a timer of our own that is cleared when cut short, so no wait
 * outlives the run.
 */
export function bound(
  signal: AbortSignal,
  base: { fetch?: typeof fetch | undefined; sleep?: ((ms: number) => Promise<void>) | undefined },
): { fetch: typeof fetch; sleep: (ms: number) => Promise<void> } {
  const doFetch = base.fetch ?? fetch;
  return {
    fetch: (input, init) =>
      doFetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal }),
    sleep: (ms) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason as Error);
        const stop = () => {
          if (timer !== undefined) clearTimeout(timer);
          reject(signal.reason as Error);
        };
        const done = () => (signal.removeEventListener("abort", stop), resolve());
        let timer: NodeJS.Timeout | undefined;
        signal.addEventListener("abort", stop, { once: true });
        if (base.sleep) base.sleep(ms).then(done, reject);
        else timer = setTimeout(done, ms);
      }),
  };
}

/**
 * The hosts found not to resolve in this run, each with the source that found it: a later source
 * naming one (its lane's next) fails at once, without waiting out the same failure and its retries.
 */
export class UnresolvedHosts {
  private readonly found = new Map<string, { by: string; code: string }>();

  /** A source failed because `host` did not resolve. */
  note(host: string, by: string, code: string): void {
    if (!this.found.has(host)) this.found.set(host, { by, code });
  }

  /** Why `source` is not asked: the first of its hosts found not to resolve; null when none was. */
  reason(source: object): { host: string; code: string; text: string } | null {
    for (const host of hostsOf(source)) {
      const f = this.found.get(host);
      if (f)
        return {
          host,
          code: f.code,
          text: `not asked: its host ${host} did not resolve for ${f.by} earlier in this run (${f.code})`,
        };
    }
    return null;
  }
}

/**
 * The one line said when every source on the network failed to reach its server — its host did not
 * resolve, or no connection could be made — and there was at least one: the fault is most likely
 * the machine's, not the sources'.
 */
export function offlineLine(
  networkSources: number,
  failures: ReadonlyArray<{ kind: string; code: string }>,
): string | null {
  if (networkSources === 0 || failures.length !== networkSources) return null;
  const codes = [...new Set(failures.map((f) => f.code))].sort().join(", ");
  return `this machine seems to have no network: none of the ${networkSources} sources on the network could be reached (${codes}); check its connection, DNS and any proxy or firewall, then run ingest again (sources that read no network ran as usual)`;
}
