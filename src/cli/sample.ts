/** `price-feed sample`: the simulated market as a dataset. */
import type { Command } from "commander";
import { nowOption, positiveInt } from "./options.js";

export function sampleCommand(program: Command): void {
  program
    .command("sample")
    .description("write a simulated, deterministic dataset (fictional sellers) ending at --now")
    .option("--out <dir>", "where to write it: a new or empty folder, or a simulated dataset", "data")
    .addOption(nowOption())
    .option("--days <n>", "days of history", positiveInt, 130)
    .option("--assets <n>", "assets (15 real-looking ones, then synthetic currencies)", positiveInt, 15)
    .option("--sellers <n>", "licensed sellers (14 fictional ones, then synthetic)", positiveInt, 14)
    .option("--seed <s>", "seed of the simulation", "price-feed")
    .option("--compact", "write days older than the retention as daily closes, as `compact` would", false)
    .action(
      async (o: {
        out: string;
        now?: number;
        days: number;
        assets: number;
        sellers: number;
        seed: string;
        compact: boolean;
      }) => {
        const { writeSample } = await import("../jobs/sample.js");
        const r = await writeSample({ ...o, nowMs: o.now ?? Date.now() });
        console.log(`wrote ${r.files} files, ${(r.bytes / 1e6).toFixed(2)} MB, into ${o.out}`);
      },
    );
}
