/** `price-feed serve`: the edge handler over HTTP until SIGINT or SIGTERM. */
import { Option, type Command } from "commander";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import { startServer } from "../server/serve.js";
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
    .option("--trust-proxy", "take the client address from the first X-Forwarded-For hop", false)
    .action(async (o: ServeFlags) => {
      const server = await startServer({
        dir: o.dir,
        port: o.port,
        host: o.host,
        limits: { ...o.rateLimit, daily: o.dailyLimit },
        trustProxy: o.trustProxy,
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
}
