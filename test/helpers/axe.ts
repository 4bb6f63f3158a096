/**
 * axe-core in a page as served, under the pages' own policy: the script is not added as a <script>
 * (the policy's script-src 'self' refuses it, as it must) but evaluated by the browser's debugging
 * protocol, which the policy does not govern; nothing of the page's policy is bypassed. Every
 * violation, of any impact, as one line naming the page, the rule and where.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    type Axe = {
      run: (
        ctx: Document,
        o: object,
      ) => Promise<{
        violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
      }>;
    };
    return (globalThis as unknown as { axe: Axe }).axe.run(document, { resultTypes: ["violations"] });
  });
  const where = new URL(page.url()).pathname;
  return result.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(", ")}`,
  );
}

/** Every <details> opened, as a reader who taps them all sees the page. */
export const openAll = (page: Page) =>
  page.evaluate(() => {
    for (const d of document.querySelectorAll("details")) d.open = true;
  });
