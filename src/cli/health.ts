/**
 * `price-feed health`: where each source stands, whether the feed is ready, how the last build
 * went, and what needs the operator (exit 3); `--notify` turns the problems into GitHub issues and
 * webhook posts (src/jobs/health-notify.ts). docs/operating.md "When something breaks" says what
 * each problem means.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { nowOption } from "./options.js";

/** `--after`: a whole number of hours, at least 1. */
function hours(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 24 * 366)
    throw new InvalidArgumentError(`"${value}" is not a whole number of hours from 1 to 8784`);
  return n;
}

interface Flags {
  data: string;
  out: string;
  now?: number;
  after: number;
  json: boolean;
  notify: boolean;
  publishResult?: string;
}

export function healthCommand(program: Command, exit: (status: number) => void): void {
  program
    .command("health")
    .description(
      "say where each source stands (its standing, last success, failures in a row inside its trading sessions, last reason), whether the feed is ready as /readyz judges it, and the last build's outcome; exit 3 when something needs the operator",
    )
    .option("--data <dir>", "the data folder", "data")
    .option("--out <dir>", "the published site's folder (the build's --out), whose manifest /readyz judges", "public")
    .addOption(nowOption())
    .addOption(
      new Option(
        "--after <hours>",
        "a source failing this many hourly runs in a row inside its trading sessions is a problem (the official and reference sources: at most a trading day's)",
      )
        .default(6)
        .argParser(hours),
    )
    .addOption(
      new Option(
        "--publish-result <result>",
        "how the hourly run's publish job ended (the workflow passes needs.publish.result): anything but success is a problem, unless a refused build says why",
      ).choices(["success", "failure", "cancelled", "skipped"]),
    )
    .option("--json", "print the report as JSON", false)
    .option(
      "--notify",
      "open a GitHub issue per problem, comment when it changes, close it when it clears (GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL); post the openings and closings to PRICE_FEED_ALERT_WEBHOOK when set. A failure there is a warning, never an error",
      false,
    )
    .action(async (o: Flags) => {
      const { checkHealth } = await import("../jobs/health.js");
      const { healthText } = await import("./health-text.js");
      const nowMs = o.now ?? Date.now();
      const report = await checkHealth({
        dataDir: o.data,
        outDir: o.out,
        nowMs,
        afterHours: o.after,
        publishResult: o.publishResult ?? null,
      });
      console.log(o.json ? JSON.stringify(report, null, 2) : healthText(report));
      if (o.notify) {
        const { notifyHealth } = await import("../jobs/health-notify.js");
        const { logSafe } = await import("../core/redact.js");
        const r = await notifyHealth(report.problems, nowMs, process.env);
        for (const line of r.done) console.error(`price-feed health --notify: ${line}`);
        for (const w of r.warnings) console.error(`price-feed health: warning: ${logSafe(w)}`);
      }
      if (report.problems.length) exit(3);
    });
}
