/** `price-feed ingest`: every enabled source once; one line per source. Exit 2 when some failed. */
import type { Command } from "commander";
import { MAX_BODY_BYTES } from "../ingest/http.js";
import type { SourceReport } from "../jobs/ingest.js";
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
}

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
    .addOption(nowOption())
    .action(async (o: IngestFlags) => {
      const { runIngest } = await import("../jobs/ingest.js");
      const { reports, files, warnings } = await runIngest({
        dataDir: o.data,
        ...(o.sources ? { sourcesFile: o.sources } : {}),
        nowMs: o.now ?? Date.now(),
        timeoutMs: o.timeout,
        maxBytes: o.maxBytes,
        ...(o.dryRun ? { dryRun: true } : {}),
        ...(o.saveBodies !== undefined ? { saveBodiesDir: o.saveBodies } : {}),
      });
      const appended = o.dryRun ? "would append" : "appended";
      for (const r of reports) {
        const skipped = Object.entries(r.skipped)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        console.log(
          r.ok
            ? `${r.id} (${r.adapter}): fetched ${r.fetched}, ${appended} ${r.appended}, already logged ${r.duplicates}${skipped ? `, skipped ${skipped}` : ""} in ${r.ms} ms`
            : `${r.id} (${r.adapter}): FAILED in ${r.ms} ms: ${r.error}`,
        );
        for (const line of observedLines(r)) console.log(line);
        for (const x of r.examples) console.log(`  ${x}`);
      }
      for (const w of warnings) console.log(`warning: ${w}`);
      const failed = reports.filter((r) => !r.ok);
      if (o.saveBodies !== undefined)
        console.log(
          `bodies saved in ${o.saveBodies} (index.json${failed.length ? `; failed/: ${failed.map((r) => r.id).join(", ")}` : ""})`,
        );
      console.log(
        o.dryRun
          ? `dry run: nothing written to ${o.data}; ${files.length} files would be appended to; ${reports.length - failed.length} of ${reports.length} sources succeeded`
          : `${files.length} files appended to; ${reports.length - failed.length} of ${reports.length} sources succeeded`,
      );
      if (failed.length) exit(SOURCES_FAILED);
    });
}
