/**
 * The fast tier, `npm run test:unit`: the test files that run in this process alone, without the
 * compile of dist/ (test/helpers/compile.ts) that `npm test` does first. A file is left to `npm test`
 * when its text, or that of a test helper it imports, shows that it starts another program or needs
 * a build of the code:
 *
 *   node:child_process        spawns something: the CLI, npm, a shell, tsc, a validator, Deno
 *   helpers/redis             a redis-server
 *   playwright                a browser
 *   dist/cli, bundle          the compiled CLI, its bundle, or an esbuild bundle made by the test
 *
 * so a new test file lands in the tier it belongs to without being listed here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const NOT_UNIT = /node:child_process|helpers\/redis|playwright|\bdist\/cli|bundle/i;
const TEST_DIR = fileURLToPath(new URL("./test/", import.meta.url));

/** The file's text and that of the test files it imports (helpers), followed through their imports. */
function textWithHelpers(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return "";
  seen.add(file);
  const text = readFileSync(file, "utf8");
  const imported = [...text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)\.js["']/g)]
    .map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`))
    .filter((f) => f.startsWith(TEST_DIR) && existsSync(f));
  return [text, ...imported.map((f) => textWithHelpers(f, seen))].join("\n");
}

export const unitFiles = readdirSync(TEST_DIR, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts"))
  .filter((f) => !NOT_UNIT.test(textWithHelpers(path.join(TEST_DIR, f))))
  .map((f) => `test/${f.split(path.sep).join("/")}`)
  .sort();

export default defineConfig({
  test: {
    include: unitFiles,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: Math.max(2, availableParallelism()),
    isolate: false,
  },
});
