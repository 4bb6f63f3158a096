/**
 * The `price-feed` command: a thin map from subcommands to modules. Only this file reads the clock,
 * the environment and decides exit codes.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { parseInstant } from "../src/core/cairo.js";
import { DataError } from "../src/core/errors.js";
import { runIngest } from "../src/io/ingest.js";
import { runBuild, runCompact } from "../src/io/build.js";
import { writeSample } from "../src/sample/write.js";
import { OutputError } from "../src/feed/validate.js";
import { startServer } from "../src/server/serve.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../src/core/limits.js";

export function parseRate(value: string): { window: number; windowSeconds: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new InvalidArgumentError(`"${value}" is not N/SECONDS, e.g. 240/60`);
  return { window: Number(m[1]), windowSeconds: Number(m[2]) };
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`"${value}" is not a port number`);
  return n;
}

export function parseNow(value: string): number {
  const ms = parseInstant(value);
  if (ms === null) throw new InvalidArgumentError(`"${value}" is not an ISO 8601 instant with an offset, e.g. 2026-11-19T12:00:00Z`);
  return ms;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

const nowOption = () => new Option("--now <iso>", "the instant to act at, ISO 8601 (default: the real clock)").argParser(parseNow);

export function program(): Command {
  const cli = new Command("price-feed")
    .description("Egypt's licensed money market as a static JSON API: ingest quotes, build the site, serve it.")
    .showHelpAfterError();

  cli
    .command("build")
    .description("build public/ from data/: feed, variants, index, changelog, OpenAPI, pages, manifest")
    .option("--data <dir>", "the input dataset", "data")
    .option("--out <dir>", "the output folder, replaced atomically", "public")
    .addOption(nowOption())
    .action(async (o: { data: string; out: string; now?: number }) => {
      const { site, reportFile } = await runBuild({ dataDir: o.data, outDir: o.out, nowMs: o.now ?? Date.now() });
      const r = site.report;
      console.log(
        `built ${r.files} files into ${o.out} (${r.changedFiles.length} changed) at ${r.generatedAt}\n` +
          `quotes: ${r.quotes.read} read on ${r.rawDays.length} raw days, ${r.quotes.accepted} accepted, ${r.quotes.rejected} rejected` +
          `${Object.keys(r.rejectedByReason).length ? ` (${Object.entries(r.rejectedByReason).map(([k, v]) => `${k} ${v}`).join(", ")})` : ""}; ` +
          `${r.compactedDays} compacted days`,
      );
      for (const d of r.disagreements.slice(-5)) console.log(`disagreement: ${d.date} ${d.asset} ${d.seller}: ${d.sources.join(" vs ")} ${d.side} ${d.diffPct}%`);
      for (const w of r.warnings) console.log(`warning: ${w}`);
      console.log(`report: ${reportFile}`);
    });

  cli
    .command("ingest")
    .description("run each enabled source once and append what it returns to data/ (quotes/, official/, global/); exit 2 if a source failed (the others still land), 1 on bad input")
    .option("--data <dir>", "the dataset", "data")
    .option("--sources <file>", "the sources file (default: <data>/sources.json)")
    .option("--timeout <ms>", "per-request timeout", positiveInt, 20_000)
    .addOption(nowOption())
    .action(async (o: { data: string; sources?: string; timeout: number; now?: number }) => {
      const { reports, files } = await runIngest({ dataDir: o.data, ...(o.sources ? { sourcesFile: o.sources } : {}), nowMs: o.now ?? Date.now(), timeoutMs: o.timeout });
      for (const r of reports) {
        const skipped = Object.entries(r.skipped).map(([k, v]) => `${k} ${v}`).join(", ");
        console.log(
          r.ok
            ? `${r.id} (${r.adapter}): fetched ${r.fetched}, appended ${r.appended}, already logged ${r.duplicates}${skipped ? `, skipped ${skipped}` : ""} in ${r.ms} ms`
            : `${r.id} (${r.adapter}): FAILED in ${r.ms} ms: ${r.error}`,
        );
        for (const x of r.examples) console.log(`  ${x}`);
      }
      const failed = reports.filter((r) => !r.ok);
      console.log(`${files.length} files appended to; ${reports.length - failed.length} of ${reports.length} sources succeeded`);
      if (failed.length) ingestFailed = true;
    });

  cli
    .command("compact")
    .description("turn raw quote days older than the retention (7 Cairo days) into daily closes in data/history/")
    .option("--data <dir>", "the dataset", "data")
    .addOption(nowOption())
    .action(async (o: { data: string; now?: number }) => {
      const days = await runCompact(o.data, o.now ?? Date.now());
      console.log(days.length ? `compacted ${days.length} days: ${days[0]!.date} … ${days.at(-1)!.date}` : "nothing to compact");
    });

  cli
    .command("sample")
    .description("write a simulated, deterministic dataset (fictional sellers) ending at --now")
    .option("--out <dir>", "where to write it", "data")
    .addOption(nowOption())
    .option("--days <n>", "days of history", positiveInt, 130)
    .option("--assets <n>", "assets (15 real-looking ones, then synthetic currencies)", positiveInt, 15)
    .option("--sellers <n>", "licensed sellers (14 fictional ones, then synthetic)", positiveInt, 14)
    .option("--seed <s>", "seed of the simulation", "price-feed")
    .option("--compact", "write days older than the retention as daily closes, as `compact` would", false)
    .action(async (o: { out: string; now?: number; days: number; assets: number; sellers: number; seed: string; compact: boolean }) => {
      const r = await writeSample({ ...o, nowMs: o.now ?? Date.now() });
      console.log(`wrote ${r.files} files, ${(r.bytes / 1e6).toFixed(2)} MB, into ${o.out}`);
    });

  cli
    .command("serve")
    .description("serve the built site over HTTP with the edge handler: /api/v1, /readyz and the pages")
    .option("--dir <dir>", "the built site", "public")
    .addOption(new Option("--port <n>", "the port (0: any free port)").argParser(port).default(8888).env("PORT"))
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .addOption(nowOption())
    .option("--rate-limit <n/seconds>", "requests per window per client address", parseRate, { window: WINDOW_LIMIT, windowSeconds: WINDOW_SECONDS })
    .option("--daily-limit <n>", "requests per Cairo day per client address", positiveInt, DAILY_LIMIT)
    .option("--redis-url <url>", "share the counters through Redis (default: in memory)")
    .option("--trust-proxy", "take the client address from the first X-Forwarded-For hop", false)
    .action(async (o: { dir: string; port: number; host: string; now?: number; rateLimit: { window: number; windowSeconds: number }; dailyLimit: number; redisUrl?: string; trustProxy: boolean }) => {
      const server = await startServer({
        dir: o.dir, port: o.port, host: o.host, limits: { ...o.rateLimit, daily: o.dailyLimit }, trustProxy: o.trustProxy,
        ...(o.now === undefined ? {} : { nowMs: o.now }),
        ...(o.redisUrl ? { redisUrl: o.redisUrl } : {}),
      });
      console.log(`serving ${o.dir} on ${server.url} (feed: ${server.url}/api/v1/feed.json); counters: ${o.redisUrl ? "redis" : "memory"}`);
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          console.log(`${signal}: closing`);
          void server.close().then(resolve);
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });

  return cli;
}

/** Set by ingest when a source failed: the others landed, and the exit status (2) says so. */
let ingestFailed = false;

export async function main(argv: string[]): Promise<number> {
  try {
    ingestFailed = false;
    await program().parseAsync(argv);
    return ingestFailed ? 2 : 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" && String((e as Error).message).includes("_manifest.json")) {
      console.error("price-feed: nothing is built there yet: run `npm run build` (or `price-feed build --out DIR`) first.");
      return 1;
    }
    if (e instanceof DataError || e instanceof OutputError) {
      console.error(`price-feed: ${e.message}\nnothing was published; the previous site and all data are as they were.`);
      return 1;
    }
    throw e;
  }
}
