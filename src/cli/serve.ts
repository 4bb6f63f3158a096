/** `price-feed serve`: the edge handler over HTTP until SIGINT or SIGTERM. */
import { Option, type Command } from "commander";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import { nowOption, parseRate, port, positiveInt, type Rate } from "./options.js";

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
    .action(async (o: ServeFlags) => {
      const { startServer } = await import("../server/serve.js");
      const server = await startServer({
        dir: o.dir,
        port: o.port,
        host: o.host,
        limits: { ...o.rateLimit, daily: o.dailyLimit },
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
      const warning = await staleWarning(o.dir, o.now ?? Date.now(), o.now !== undefined);
      if (warning) console.log(warning);
      await stopped;
    });
}

/** The start-up warning when the site is not ready at the server's clock: what, why, and what to do. */
export async function staleWarning(dir: string, nowMs: number, pinned: boolean): Promise<string | null> {
  const [{ readiness }, { SiteReader }] = await Promise.all([
    import("../edge/readyz.js"),
    import("../server/serve.js"),
  ]);
  const r = readiness(await new SiteReader(dir).manifest(), nowMs);
  if (r.status === 200) return null;
  const stale = r.body.staleAssets.length;
  return (
    `warning: serving data that is not fresh at ${pinned ? "--now" : "the real clock"} ${new Date(nowMs).toISOString()}: /readyz answers 503 ` +
    `(${stale ? `${stale} of ${Object.keys(r.body.assets).length} assets stale` : "no asset stale"}; build made at ${r.body.generatedAt}).\n  ${r.body.action}\n` +
    `  To look at this build as it was, serve it with --now ${r.body.generatedAt}; for a live feed of the simulated market, run \`npm start\`.`
  );
}
