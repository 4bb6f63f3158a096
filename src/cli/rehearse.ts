/** `price-feed rehearse`'s flags; the rehearsal itself (src/rehearse/run.ts) is loaded only when it runs. */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import { DateTime } from "luxon";
import { CAIRO, instantString } from "../core/cairo.js";
import { parseNow, positiveInt } from "./options.js";

/**
 * The days an operator's rehearsal lives by default: a month of the deployment (issue 49), so that
 * compaction (7 days) comes round four times and the events' retention (30 days) once; about half
 * an hour of an idle core for init's configuration (docs/operating.md "Before going live").
 */
export const DEFAULT_DAYS = 30;

interface RehearseFlags {
  data?: string;
  from?: number;
  days: number;
  seed?: string;
  json?: string;
  faults: boolean;
}

/** `--from`: an instant with an offset, or a date, taken as that day's Cairo midnight. */
export function parseFrom(value: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = DateTime.fromISO(value, { zone: CAIRO });
    if (!d.isValid) throw new InvalidArgumentError(`"${value}" is not a date (YYYY-MM-DD)`);
    return d.toMillis();
  }
  return parseNow(value);
}

/** `--seed`: letters, digits, dot, dash and underscore, so it can be typed back as it was printed. */
export function parseSeed(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value))
    throw new InvalidArgumentError(`"${value}" is not a seed (1 to 64 letters, digits, ".", "_" or "-")`);
  return value;
}

/**
 * The configuration rehearsed without --data: data/ when it is a deployment (it enables a source that
 * reads the network), else what `init` makes, the real deployment's template — the project's own
 * data/ is the simulated market's, which has nothing to rehearse against.
 */
async function defaultData(): Promise<{ dir: string; why: string | null }> {
  const { DEPLOYMENT_TEMPLATE } = await import("../jobs/init.js");
  const { usesNetwork } = await import("../ingest/adapters/index.js");
  const { Sources } = await import("../schema/inputs.js");
  try {
    const sources = Sources.parse(JSON.parse(await fs.readFile(path.join("data", "sources.json"), "utf8")));
    if (sources.sources.some((s) => s.enabled && usesNetwork(s))) return { dir: "data", why: null };
  } catch {
    // No data/ here, or not a deployment's: init's configuration.
  }
  const rel = path.relative(process.cwd(), DEPLOYMENT_TEMPLATE);
  return {
    dir: rel.startsWith("..") ? DEPLOYMENT_TEMPLATE : rel,
    why: "data/ holds no deployment (no enabled source reads the network): rehearsing what `price-feed init` makes",
  };
}

export function rehearseCommand(program: Command, exit: (status: number) => void): void {
  program
    .command("rehearse")
    .description(
      "live a data folder's configuration on a copy, hour by hour on a virtual clock, against a loopback internet that answers each source in its own format, with faults on a seeded schedule and every hour checked (ingest, compact, build, sign, verify); exit 1 when a check failed",
    )
    .addOption(
      new Option(
        "--data <dir>",
        "the data folder whose configuration is rehearsed, only read: the rehearsal runs on a copy (default: data when it is a deployment, else init's configuration)",
      ),
    )
    .addOption(
      new Option(
        "--from <iso>",
        "the span's first hour: an instant with an offset, or a date, its Cairo midnight (default: the Cairo midnight --days days before today)",
      ).argParser(parseFrom),
    )
    .addOption(
      new Option("--days <n>", "how many days to live, hour by hour").argParser(positiveInt).default(DEFAULT_DAYS),
    )
    .addOption(
      new Option(
        "--seed <seed>",
        "the seed of the market and the faults; the same seed replays the same run (default: a random one, printed)",
      ).argParser(parseSeed),
    )
    .option("--json <file>", "also write the summary as JSON to this file")
    .option("--no-faults", "a quiet run: no fault injected")
    .action(async (o: RehearseFlags) => {
      const { rehearse } = await import("../rehearse/run.js");
      const { summaryJson, summaryText } = await import("../rehearse/summary.js");
      const chosen = o.data === undefined ? await defaultData() : { dir: o.data, why: null };
      const seed = o.seed ?? randomBytes(4).toString("hex");
      const fromMs = o.from ?? DateTime.now().setZone(CAIRO).startOf("day").minus({ days: o.days }).toMillis();
      if (chosen.why) console.log(chosen.why);
      console.log(
        `rehearsing ${chosen.dir}: ${o.days} day(s) from ${instantString(Math.floor(fromMs / 3_600_000) * 3_600_000)}, seed ${seed}${o.faults ? "" : ", no faults"}`,
      );
      // Ctrl-C ends the hour being lived, removes the copy and prints what was checked so far.
      const stop = new AbortController();
      const onSignal = () => {
        console.error("stopping after this hour…");
        stop.abort();
      };
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      const r = await rehearse({
        signal: stop.signal,
        dataDir: chosen.dir,
        fromMs,
        days: o.days,
        seed,
        faults: o.faults,
        log: (line) => console.error(line),
      });
      process.stdout.write(summaryText(r));
      if (o.json !== undefined) await fs.writeFile(o.json, summaryJson(r).text);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (r.checks.failed || r.interruptedAfter !== undefined) exit(1);
    });
}
