/** `price-feed ingest`: every enabled source once; one line per source. Exit 2 when some failed. */
import type { Command } from "commander";
import { MAX_BODY_BYTES } from "../ingest/http.js";
import { nowOption, positiveInt } from "./options.js";

export const SOURCES_FAILED = 2;

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
    .addOption(nowOption())
    .action(async (o: { data: string; sources?: string; timeout: number; maxBytes: number; now?: number }) => {
      const { runIngest } = await import("../jobs/ingest.js");
      const { reports, files, warnings } = await runIngest({
        dataDir: o.data,
        ...(o.sources ? { sourcesFile: o.sources } : {}),
        nowMs: o.now ?? Date.now(),
        timeoutMs: o.timeout,
        maxBytes: o.maxBytes,
      });
      for (const r of reports) {
        const skipped = Object.entries(r.skipped)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        console.log(
          r.ok
            ? `${r.id} (${r.adapter}): fetched ${r.fetched}, appended ${r.appended}, already logged ${r.duplicates}${skipped ? `, skipped ${skipped}` : ""} in ${r.ms} ms`
            : `${r.id} (${r.adapter}): FAILED in ${r.ms} ms: ${r.error}`,
        );
        for (const x of r.examples) console.log(`  ${x}`);
      }
      for (const w of warnings) console.log(`warning: ${w}`);
      const failed = reports.filter((r) => !r.ok).length;
      console.log(
        `${files.length} files appended to; ${reports.length - failed} of ${reports.length} sources succeeded`,
      );
      if (failed) exit(SOURCES_FAILED);
    });
}
