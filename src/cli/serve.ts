/** `price-feed serve`: the edge handler over HTTP until SIGINT or SIGTERM. */
import { InvalidArgumentError, Option, type Command } from "commander";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import { nowOption, parseRate, port, positiveInt, type Rate } from "./options.js";
import type { LocalCommands } from "../feed/readiness.js";

interface ServeFlags {
  dir: string;
  port: number;
  host: string;
  now?: number;
  rateLimit: Rate;
  dailyLimit: number;
  redisUrl?: string;
  trustProxy: boolean;
  trustedProxies?: string[];
  clientIpHeader?: string;
  busyThreshold?: { limit: number; seconds: number };
}

/**
 * `--busy-threshold N/SECONDS` (the same form as PRICE_FEED_BUSY_THRESHOLD, src/edge/policy.ts).
 * Parsed here rather than by policy.ts's parser at start-up, so a bad value is refused like any flag.
 */
function busyThreshold(value: string): { limit: number; seconds: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1 || !Number.isSafeInteger(Number(m[1])))
    throw new InvalidArgumentError(`"${value}" is not N/SECONDS, e.g. 2000/60`);
  return { limit: Number(m[1]), seconds: Number(m[2]) };
}

/** A word as a POSIX shell reads it back: unquoted when it is safe, else in single quotes. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/**
 * The commands that serve this site again as it is served now, and build into its folder, without
 * --now: what the stale-site hint completes with `--now <an instant at which the build is ready>`
 * (src/feed/readiness.ts localHint). Only what decides where and what is served is kept: the
 * folder, the port and the host; the build is `npm run build`'s (`--no-state`, leaving data/ as it
 * was), with `--force`, since the folder may hold a build made later.
 */
export function localCommands(o: { dir: string; port: number; host: string }): LocalCommands {
  const serve = ["npx", "price-feed", "serve", "--dir", shellWord(o.dir)];
  if (o.port !== 8888) serve.push("--port", String(o.port));
  if (o.host !== "127.0.0.1") serve.push("--host", shellWord(o.host));
  const build = ["npx", "price-feed", "build", "--no-state", "--force", "--out", shellWord(o.dir)];
  return { serve: serve.join(" "), build: build.join(" ") };
}

export function serveCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the built site over HTTP with the edge handler: /api/v1, /readyz and the pages")
    .option("--dir <dir>", "the built site", "public")
    .addOption(new Option("--port <n>", "the port (0: any free port)").argParser(port).default(8888).env("PORT"))
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .addOption(nowOption())
    // Defaults are shown as a user would type them, not as the parsed value.
    .addOption(
      new Option("--rate-limit <n/seconds>", "requests per window per client address")
        .argParser(parseRate)
        .default({ window: WINDOW_LIMIT, windowSeconds: WINDOW_SECONDS }, `${WINDOW_LIMIT}/${WINDOW_SECONDS}`),
    )
    .option("--daily-limit <n>", "requests per Cairo day per client address", positiveInt, DAILY_LIMIT)
    .option("--redis-url <url>", "share the counters through Redis (default: in memory)")
    .option(
      "--trust-proxy",
      "the socket's peer is a proxy: the client is the rightmost X-Forwarded-For hop that is not a trusted proxy",
      false,
    )
    .option(
      "--trusted-proxies <list>",
      "with --trust-proxy: further proxies (addresses or CIDR blocks, comma-separated) whose hops are skipped",
      (v: string) =>
        v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
    )
    .option(
      "--client-ip-header <name>",
      "with --trust-proxy: read the client address from this header the proxy sets (e.g. x-real-ip) instead of X-Forwarded-For",
    )
    .addOption(
      new Option(
        "--busy-threshold <n/seconds>",
        "the service is busy past N requests per SECONDS from all addresses together (counted in Redis with --redis-url): anonymous callers are then limited to a quarter of the burst, callers naming a URL or e-mail address in X-Contact or User-Agent keep it (default: never busy)",
      )
        .argParser(busyThreshold)
        .env("PRICE_FEED_BUSY_THRESHOLD"),
    )
    .action(async (o: ServeFlags) => {
      const { startServer } = await import("../server/serve.js");
      const local = localCommands(o);
      const server = await startServer({
        dir: o.dir,
        port: o.port,
        host: o.host,
        local,
        limits: { ...o.rateLimit, daily: o.dailyLimit, ...(o.busyThreshold ? { busy: o.busyThreshold } : {}) },
        trustProxy: o.trustProxy,
        ...(o.trustedProxies ? { trustedProxies: o.trustedProxies } : {}),
        ...(o.clientIpHeader ? { clientIpHeader: o.clientIpHeader } : {}),
        ...(o.now === undefined ? {} : { nowMs: o.now }),
        ...(o.redisUrl ? { redisUrl: o.redisUrl } : {}),
      });
      // The signal handlers come before the address is printed: whoever reads it may stop us at once.
      const stopped = new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          console.log(`${signal}: closing`);
          void server.close().then(resolve);
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      console.log(
        `serving ${o.dir} on ${server.url} (feed: ${server.url}/api/v1/feed.json); counters: ${o.redisUrl ? "redis" : "memory"}`,
      );
      const warning = await staleWarning(o.dir, o.now ?? Date.now(), o.now !== undefined, local);
      if (warning) console.log(warning);
      await stopped;
    });
}

/**
 * The start-up warning when the site is not ready at the server's clock: what, why, and what to do —
 * the last line what shows this build's data ready (src/feed/readiness.ts localHint), never at the
 * clock that gave this warning.
 */
export async function staleWarning(
  dir: string,
  nowMs: number,
  pinned: boolean,
  local = localCommands({ dir, port: 8888, host: "127.0.0.1" }),
): Promise<string | null> {
  const [{ readiness, localHint }, { SiteReader }] = await Promise.all([
    import("../feed/readiness.js"),
    import("../server/serve.js"),
  ]);
  const manifest = await new SiteReader(dir).manifest();
  const r = readiness(manifest, nowMs);
  if (r.status === 200) return null;
  const stale = r.body.staleAssets.length;
  return (
    `warning: serving data that is not fresh at ${pinned ? "--now" : "the real clock"} ${new Date(nowMs).toISOString()}: /readyz answers 503 ` +
    `(${stale ? `${stale} of ${Object.keys(r.body.assets).length} assets stale` : "no asset stale"}; build made at ${r.body.generatedAt}).\n  ${r.body.action}\n` +
    `  ${localHint(manifest, local)}`
  );
}
