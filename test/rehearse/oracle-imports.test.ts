/**
 * The rehearsal's oracle is a second implementation of the rulebook (issue 49): it must never reach
 * the build's own rules, or a mistake in them would be repeated instead of found. Every module it
 * loads, followed through its relative imports, stays out of src/rules, src/feed, src/incremental
 * and src/jobs; of src/core it uses only the Cairo calendar.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "../../src");
const ORACLE = path.join(SRC, "rehearse/oracle");
const FORBIDDEN = ["rules", "feed", "incremental", "jobs"].map((d) => path.join(SRC, d) + path.sep);
const CORE_ALLOWED = new Set([path.join(SRC, "core/cairo.ts")]);

/** The relative imports of a module (static `import … from`, `export … from`, dynamic `import("…")`). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g))
    out.push((m[1] ?? m[2])!);
  return out;
}

/** Every module reached from the oracle's files, and which reached it. */
async function reach(): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const todo = (await fs.readdir(ORACLE)).filter((f) => f.endsWith(".ts")).map((f) => path.join(ORACLE, f));
  for (const f of todo) seen.set(f, "(the oracle)");
  while (todo.length) {
    const file = todo.pop()!;
    for (const spec of importsOf(await fs.readFile(file, "utf8"))) {
      if (!spec.startsWith(".")) continue; // a package: zod, luxon, node:*
      const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts"));
      if (seen.has(target)) continue;
      seen.set(target, file);
      // Follow only what the oracle owns: a schema or the calendar is read, not walked for its own reasons.
      if (target.startsWith(ORACLE)) todo.push(target);
      else if (target.startsWith(path.join(SRC, "schema"))) todo.push(target);
      else if (CORE_ALLOWED.has(target)) todo.push(target);
    }
  }
  return seen;
}

describe("the oracle's imports", () => {
  it("never reach src/rules, src/feed, src/incremental or src/jobs, and of src/core only cairo.ts", async () => {
    const bad = [...(await reach())]
      .filter(
        ([target]) =>
          FORBIDDEN.some((d) => target.startsWith(d)) ||
          (target.startsWith(path.join(SRC, "core") + path.sep) && !CORE_ALLOWED.has(target)),
      )
      .map(([target, from]) => `${path.relative(SRC, from)} → ${path.relative(SRC, target)}`);
    expect(bad).toEqual([]);
  });

  it("the scan sees every form of import, so it can fail", () => {
    const text = [
      `import { acceptDay } from "../../rules/acceptance.js";`,
      `export { runBuild } from "../../jobs/build.js";`,
      `import type {\n  Asset,\n} from "../../feed/assets.js";`,
      `const m = await import("../../incremental/planner.js");`,
    ].join("\n");
    expect(importsOf(text)).toEqual([
      "../../rules/acceptance.js",
      "../../jobs/build.js",
      "../../feed/assets.js",
      "../../incremental/planner.js",
    ]);
  });
});
