/**
 * `price-feed demo` (what `npm start` runs): the whole loop, live, on a git-ignored working copy of
 * `data/`. It brings the simulated market up to the demo's clock, builds and serves, and then, on
 * every hour, runs the hourly job on the copy (the demo sources through ingest, compact, build),
 * so the feed stays `fresh` (or `closed`), /readyz answers 200 and the ETags move with the hour's
 * data. Build and serve read one clock: the real one, or one that starts at `--now` and advances.
 */
import net from "node:net";
import path from "node:path";
import { cairoDate, isoUtc } from "../../core/cairo.js";
import { messageOf, PriceFeedError, UsageError } from "../../core/errors.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import type { Limits } from "../../edge/deps.js";
import {
  catchUp,
  checkWork,
  demoPaths,
  freshnessSummary,
  hourlyRun,
  hourOf,
  HOUR_MS,
  lockWork,
  prepareCopy,
  type CatchUp,
  type DemoPaths,
  type HourlyRun,
} from "./hourly.js";
import { startServer } from "../../server/serve.js";

/**
 * What the demo's clock runs on: the machine's time and its timers. The command uses the real ones
 * (systemTimers); tests pass stand-ins they move by hand, so an hour passes without waiting for it.
 */
export interface Timers {
  now(): number;
  /** Calls `fn` once, `ms` from now; returns what cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** The demo's clock: what time it is, and a wait until a time on it. */
export interface DemoClock {
  now(): number;
  /** Resolves at `untilMs` on this clock (or a little before: the caller checks), or when `signal` aborts. */
  sleepUntil(untilMs: number, signal: AbortSignal): Promise<void>;
}

/** The machine's clock, or one that reads `startMs` now and advances with the machine's from there. */
export function realClock(startMs?: number, timers: Timers = systemTimers): DemoClock {
  const offset = startMs === undefined ? 0 : startMs - timers.now();
  const now = () => timers.now() + offset;
  return {
    now,
    sleepUntil: (untilMs, signal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          cancel();
          signal.removeEventListener("abort", done);
          resolve();
        };
        // A long timer is split, so a clock change or a suspended machine is noticed within a minute.
        const cancel = timers.setTimer(done, Math.min(60_000, Math.max(0, untilMs - now())));
        signal.addEventListener("abort", done, { once: true });
      }),
  };
}

export interface DemoOptions {
  /** The dataset to copy (the committed `data/`); only read. */
  data: string;
  /** The working folder (git-ignored): the copy, the built site. */
  work: string;
  port: number;
  host: string;
  /** `--now`: the clock starts at this instant and advances from there; the machine's clock without it. */
  startMs?: number;
  /** What the clock runs on (default: the machine's time and timers). */
  timers?: Timers;
  limits?: Limits;
  /** Where the demo's lines go (stdout); the server's request lines too. */
  log?: (line: string) => void;
  /** Called after each hourly run (tests wait on it). */
  onRun?: (run: HourlyRun) => void;
  onRunError?: (e: unknown) => void;
}

export interface RunningDemo {
  url: string;
  port: number;
  paths: DemoPaths;
  caughtUp: CatchUp;
  /** The run at start; later ones go to onRun. */
  first: HourlyRun;
  /** Stops the hourly loop and the server and frees the working folder. */
  stop(): Promise<void>;
}

const hhmm = (ms: number) => `${isoUtc(ms).slice(11, 16)}Z`;
/** An instant to the minute, `2026-11-22T09:00Z`. */
const minute = (ms: number) => `${isoUtc(ms).slice(0, 16)}Z`;
/** A path as the user would type it: relative to where they are, unless it is elsewhere. */
const shown = (p: string) => {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : p;
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Fails early, before anything is copied or built, when the port is taken. */
async function assertPortFree(host: string, p: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE")
        reject(
          new UsageError(`port ${p} on ${host} is already in use (another demo or server?)`, {
            hint: "stop the other server, or take any free port: `npm start -- --port 0` (or --port N)",
            cause: e,
          }),
        );
      else resolve(); // anything else is for the real listen to report
    });
    probe.listen(p, host, () => probe.close(() => resolve()));
  });
}

function describeCatchUp(c: CatchUp, p: DemoPaths, ms: number): string {
  const took = `${(ms / 1000).toFixed(1)} s`;
  if (c.how === "regenerated")
    return `generated the simulated market afresh in ${shown(p.data)}, ending ${minute(c.toMs)} (the data ${c.fromMs === null ? "had no logs" : `was more than a month behind`}) in ${took}`;
  if (c.fromMs === null || c.fromMs > c.toMs)
    return `nothing to catch up: the data in ${shown(p.data)} already reaches ${c.fromMs === null ? "the clock" : cairoDate(c.fromMs)}, past the clock (${minute(c.toMs)})`;
  return `caught the simulated market up to ${minute(c.toMs)}: ingested the demo sources for ${plural(c.hours, "hour")} from ${minute(c.fromMs)} into ${shown(p.data)} in ${took}`;
}

export function describeRun(r: HourlyRun, out: string): string {
  const ready = r.readiness.body;
  return (
    `${hhmm(r.nowMs)} hourly run: ingest appended ${plural(r.appended, "line")}${r.hours > 1 ? ` (${r.hours} hours)` : ""}, compacted ${plural(r.compactedDays.length, "day")}, ` +
    `built ${r.files} files into ${shown(out)} (${r.changedFiles.length} changed, feed ETag ${r.feedEtag}); assets: ${freshnessSummary(ready.assets)}; /readyz ${r.readiness.status}` +
    (ready.action ? `\n  ${ready.action}` : "")
  );
}

/**
 * Starts the demo and returns once it serves; the hourly loop then runs until stop(). Its clock is
 * realClock(--now) on the machine's timers; tests pass timers they move by hand.
 */
export async function startDemo(o: DemoOptions): Promise<RunningDemo> {
  const log = o.log ?? ((line: string) => console.log(line));
  const machine = o.timers ?? systemTimers;
  const clock = realClock(o.startMs, machine);
  const p = demoPaths(path.resolve(o.work));
  await checkWork(o.data, p);
  if (o.port !== 0) await assertPortFree(o.host, o.port);
  const release = await lockWork(p);
  let caughtUp: CatchUp;
  let first: HourlyRun;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    await prepareCopy(o.data, p);
    log(
      `price-feed demo: the simulated market (fictional sellers), on a copy of ${shown(path.resolve(o.data))}/ in ${shown(p.work)}/ (git-ignored; ${shown(path.resolve(o.data))}/ is only read)`,
    );
    const started = performance.now();
    caughtUp = await catchUp(p.data, clock.now());
    log(describeCatchUp(caughtUp, p, performance.now() - started));
    first = await hourlyRun(p, clock.now());
    log(describeRun(first, p.out));
    server = await startServer({
      dir: p.out,
      port: o.port,
      host: o.host,
      limits: o.limits ?? { window: WINDOW_LIMIT, windowSeconds: WINDOW_SECONDS, daily: DAILY_LIMIT },
      trustProxy: false,
      clock: () => clock.now(),
      log,
    });
  } catch (e) {
    await release();
    throw e;
  }
  const clockNote = Math.abs(clock.now() - machine.now()) > 60_000 ? `, on a clock set to ${minute(clock.now())}` : "";
  log(
    `serving ${server.url}/ (the market page)${clockNote}\n` +
      `  feed     ${server.url}/api/v1/feed.json   e.g. curl -i '${server.url}/api/v1/feed.json?asset=us-dollar,gold-24k'\n` +
      `  index    ${server.url}/api/v1\n` +
      `  docs     ${server.url}/docs/\n` +
      `  readyz   ${server.url}/readyz   (${first.readiness.status}: ${freshnessSummary(first.readiness.body.assets)})\n` +
      `every hour on the hour the demo runs the hourly job on its copy (ingest the demo sources, compact, build); next at ${hhmm(hourOf(clock.now()) + HOUR_MS)}. Ctrl-C stops.`,
  );

  const abort = new AbortController();
  const loop = (async () => {
    let last = first.nowMs;
    while (!abort.signal.aborted) {
      const next = hourOf(clock.now()) + HOUR_MS;
      while (clock.now() < next && !abort.signal.aborted) await clock.sleepUntil(next, abort.signal);
      if (abort.signal.aborted) break;
      try {
        const run = await hourlyRun(p, clock.now(), last);
        server.reload(); // the new build is served from the next request on
        last = run.nowMs;
        log(describeRun(run, p.out));
        o.onRun?.(run);
      } catch (e) {
        // The previous build stays served; the next hour tries again.
        log(
          `${hhmm(clock.now())} hourly run failed, still serving the previous build: ${e instanceof PriceFeedError ? e.message : messageOf(e)}`,
        );
        o.onRunError?.(e);
      }
    }
  })();

  return {
    url: server.url,
    port: server.port,
    paths: p,
    caughtUp,
    first,
    stop: async () => {
      abort.abort();
      await loop;
      await server.close();
      await release();
    },
  };
}
