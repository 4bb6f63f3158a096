/** `price-feed ingest`: every enabled source once; one line per source. Exit 2 when some failed. */
import type { Command } from "commander";
import { MAX_BODY_BYTES } from "../ingest/http.js";
import type { SourceReport } from "../jobs/ingest-logs.js";
import { CONCURRENCY, RUN_BUDGET_MS, SOURCE_BUDGET_MS } from "../jobs/ingest-schedule.js";
import { logSafe } from "../core/redact.js";
import { keptName, UNKNOWN_NAMES_LISTED } from "../core/unknown-names.js";
import { nowOption, positiveInt } from "./options.js";

export const SOURCES_FAILED = 2;

interface IngestFlags {
  data: string;
  sources?: string;
  timeout: number;
  maxBytes: number;
  now?: number;
  dryRun?: boolean;
  saveBodies?: string;
  sourceBudget: number;
  runBudget: number;
  concurrency: number;
}

/** Seconds as a flag takes them, as the milliseconds the job counts in. */
const seconds = (s: number) => s * 1000;

/**
 * Prints one line of the run's log. Whatever a source sent (a reason quoting its body, a name it
 * gave, an example) stays on its line and never starts a workflow command (src/core/redact.ts logSafe).
 */
const say = (line: string) => console.log(logSafe(line));

const price = (x: number | null) => (x === null ? "-" : String(x));

/** A dry run's lines for what a source read: one per observation, asset, prices and time. */
function observedLines(r: SourceReport): string[] {
  const o = r.observed;
  if (!o) return [];
  return [
    ...o.quotes.map(
      (q) => `  ${q.asset} buy ${price(q.buy)} sell ${price(q.sell)} at ${q.observedAt} (seller ${q.seller})`,
    ),
    ...o.official.map(
      (q) => `  ${q.asset} buy ${price(q.buy)} sell ${price(q.sell)} at ${q.observedAt} (official rate)`,
    ),
    ...o.global.map((g) => `  ${g.asset} value ${g.value} at ${g.observedAt} (global reference)`),
  ];
}

export function ingestCommand(program: Command, exit: (status: number) => void): void {
  program
    .command("ingest")
    .description(
      "run each enabled source once and append what it returns to data/ (quotes/, official/, global/); exit 2 if a source failed (the others still land)",
    )
    .option("--data <dir>", "the dataset", "data")
    .option("--sources <file>", "the sources file (default: <data>/sources.json)")
    .option(
      "--timeout <ms>",
      "per-request timeout in milliseconds (connecting, redirects and the whole body)",
      positiveInt,
      20_000,
    )
    .option(
      "--max-bytes <n>",
      "the largest answer read from a source, in bytes; a longer one fails that source",
      positiveInt,
      MAX_BODY_BYTES,
    )
    .option(
      "--dry-run",
      "ask every enabled source and print what each read (one line per quote: asset, buy, sell, time) or why it failed; write nothing to the data folder (no lines, no state, no lock)",
    )
    .option(
      "--save-bodies <dir>",
      "keep every answer the sources' requests met, byte for byte, in DIR outside the data folder: ok/<source>/ or failed/<source>/, <n>.body and <n>.json (URL, method, status, headers), and index.json",
    )
    .option(
      "--source-budget <seconds>",
      'one source\'s time budget, every request, retry, wait and parse together; a source over it fails ("over its 60 s budget")',
      positiveInt,
      SOURCE_BUDGET_MS / 1000,
    )
    .option(
      "--run-budget <seconds>",
      'the run\'s time budget for asking every source; sources not finished when it runs out fail ("run budget spent"), those finished are kept',
      positiveInt,
      RUN_BUDGET_MS / 1000,
    )
    .option(
      "--concurrency <n>",
      "sources asked at once, at most; sources naming a common host are asked one after another whatever it is",
      positiveInt,
      CONCURRENCY,
    )
    .addOption(nowOption())
    .action(async (o: IngestFlags) => {
      const { runIngest } = await import("../jobs/ingest.js");
      const { reports, files, warnings, probation, offline } = await runIngest({
        dataDir: o.data,
        ...(o.sources ? { sourcesFile: o.sources } : {}),
        nowMs: o.now ?? Date.now(),
        timeoutMs: o.timeout,
        maxBytes: o.maxBytes,
        ...(o.dryRun ? { dryRun: true } : {}),
        ...(o.saveBodies !== undefined ? { saveBodiesDir: o.saveBodies } : {}),
        sourceBudgetMs: seconds(o.sourceBudget),
        runBudgetMs: seconds(o.runBudget),
        concurrency: o.concurrency,
      });
      const appended = o.dryRun ? "would append" : "appended";
      for (const r of reports) {
        const skipped = Object.entries(r.skipped)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        say(
          r.ok
            ? `${r.id} (${r.adapter}): fetched ${r.fetched}, ${appended} ${r.appended}, already logged ${r.duplicates}${skipped ? `, skipped ${skipped}` : ""} in ${r.ms} ms`
            : `${r.id} (${r.adapter}): FAILED in ${r.ms} ms: ${r.error}`,
        );
        for (const line of observedLines(r)) say(line);
        for (const x of r.examples) say(`  ${x}`);
        if (r.unknownSellers?.length) {
          // Bounded as sources.json bounds them (src/core/unknown-names.ts): a page of strangers is one line.
          const shown = r.unknownSellers.slice(0, UNKNOWN_NAMES_LISTED).map((n) => JSON.stringify(keptName(n)));
          const more = r.unknownSellers.length - shown.length;
          say(
            `  names not in the registry (never sellers): ${shown.join(", ")}${more ? ` and ${more} more` : ""}: \`price-feed names "…"\` shows how each folds; add the seller, or an alias, to sellers.json`,
          );
        }
      }
      for (const m of probation ?? [])
        say(
          m.change.standing === "graduated"
            ? `${m.source}: graduated from probation: its quotes count from ${m.change.at} (${m.change.reason})`
            : `${m.source}: back on probation from ${m.change.at} (${m.change.reason})`,
        );
      for (const w of warnings) say(`warning: ${w}`);
      // Every source on the network failed to reach its server: the machine's fault, said once.
      if (offline) say(offline);
      const failed = reports.filter((r) => !r.ok);
      if (o.saveBodies !== undefined)
        say(
          `bodies saved in ${o.saveBodies} (index.json${failed.length ? `; failed/: ${failed.map((r) => r.id).join(", ")}` : ""})`,
        );
      say(
        o.dryRun
          ? `dry run: nothing written to ${o.data}; ${files.length} files would be appended to; ${reports.length - failed.length} of ${reports.length} sources succeeded`
          : `${files.length} files appended to; ${reports.length - failed.length} of ${reports.length} sources succeeded`,
      );
      if (failed.length) exit(SOURCES_FAILED);
    });
}
