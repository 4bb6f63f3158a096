/** What the tests of the real deployment's template (examples/egypt) share. */
import { readFileSync } from "node:fs";

/**
 * The real catalog's currencies as egrates names their pages (`usd`, `eur`, …), in the catalog's
 * order: `init` enables one egrates source per currency (`egrates-<code>`).
 */
export const EGRATES_CURRENCIES: readonly string[] = (
  JSON.parse(readFileSync(new URL("../../examples/egypt/assets.json", import.meta.url), "utf8")) as Array<{
    id: string;
    category: string;
  }>
)
  .filter((a) => a.category === "currencies")
  .map((a) => a.id.split("-")[0]!.toLowerCase());
