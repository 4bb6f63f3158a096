/** `price-feed init DIR`: start a real deployment's data folder in one command. */
import type { Command } from "commander";

export function initCommand(program: Command): void {
  program
    .command("init")
    .description(
      "create a data folder for a real deployment (CBE-licensed banks, the real catalog, the official, global and bank sources) with empty logs",
    )
    .argument("<dir>", "the new data folder (must be empty or absent)")
    .action(async (dir: string) => {
      const { initDataFolder } = await import("../jobs/init.js");
      const { files } = await initDataFolder(dir);
      console.log(
        `created ${dir}: ${files.join(", ")}, and empty quotes/, official/, global/, history/, summaries/, state/`,
      );
      console.log(
        `next: edit ${dir}/sources.json (contact, enabled sources), then \`npx price-feed ingest --data ${dir}\` and \`npx price-feed build --data ${dir}\``,
      );
    });
}
