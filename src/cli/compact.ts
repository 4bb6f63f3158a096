/** `price-feed compact`: raw quote days past retention become daily closes. */
import type { Command } from "commander";
import { nowOption } from "./options.js";

export function compactCommand(program: Command): void {
  program
    .command("compact")
    .description(
      "turn raw quote days older than the retention (7 Cairo days) into daily closes in data/history/ (and their summaries in data/summaries/)",
    )
    .option("--data <dir>", "the dataset", "data")
    .addOption(nowOption())
    .action(async (o: { data: string; now?: number }) => {
      const { runCompact } = await import("../jobs/compact.js");
      const { days, summaries, finished } = await runCompact(o.data, o.now ?? Date.now(), (w) =>
        console.log(`warning: ${w}`),
      );
      if (finished.length)
        console.log(
          `finished ${finished.length} interrupted compaction(s): ${finished.join(", ")} (each history matched its raw quotes; the raw file was removed)`,
        );
      console.log(
        days.length ? `compacted ${days.length} days: ${days[0]!.date} … ${days.at(-1)!.date}` : "nothing to compact",
      );
      if (summaries.written || summaries.removed)
        console.log(
          `summaries/: ${summaries.written} rewritten (missing or stale), ${summaries.removed} removed (no history day)`,
        );
    });
}
