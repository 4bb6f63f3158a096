/**
 * Compiles the command line only when something it is compiled from changed: `npm run build`,
 * `npm start`, `npm run sample`, `npm run bench` and `npm run build:netlify` start with
 * `node scripts/compile.mjs`, which costs a Node start-up and a few milliseconds of `stat` when dist/
 * is up to date (a whole compile is several seconds, most of them tsc's). `npm run compile` (and
 * `prepare`, on `npm ci`) is `node scripts/compile.mjs --force`: always compile.
 *
 * A compile is `tsc -p tsconfig.build.json` (the modules in dist/, the bin among them) and
 * scripts/bundle-cli.mjs (the one-file bundle the bin runs), side by side: neither reads the other's
 * output. After both succeeded it leaves a stamp, dist/.compiled, whose modification time is the
 * compile's start (a file created then and renamed at the end, so that its time is the file system's
 * own clock, at its own resolution). dist/ is fresh when the stamp is there, every output is there,
 * and every input is older than the stamp; an input modified during a compile is newer than the stamp
 * and is compiled next time. The inputs (INPUTS): every file and folder under src/ (a folder's time
 * changes when a file in it is added, removed or renamed), docs/methodology.md (rendered into the
 * bundle), the TypeScript configurations, package.json and package-lock.json (the packages bundled),
 * and the compile's own scripts. Times, not contents: a `git checkout` that rewrites a file gives it
 * the time of the checkout, so it counts as changed.
 *
 * `--allow-type-errors` (the tests' global setup, test/helpers/compile.ts): type errors do not stop
 * the compile (tsc still emits; `npm run check` reports them), but a compile that had them leaves no
 * stamp, so the next `npm run build` compiles again and shows them.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What the compiled output is made from; a folder stands for itself and everything below it. */
export const INPUTS = [
  "src",
  "docs/methodology.md",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
  "scripts/compile.mjs",
  "scripts/bundle-cli.mjs",
  "scripts/output-checks.ts",
];

/** What a compile writes that the commands run: the bin, the unbundled entry, the bundle. */
export const OUTPUTS = ["dist/cli/bin.js", "dist/cli/main.js", "dist/cli/main.bundle.cjs"];

export const STAMP = "dist/.compiled";

/**
 * Whether dist/ must be compiled again, and why. `stampMs`: the stamp's modification time, or null
 * when there is none; `missingOutputs`: the OUTPUTS not there; `inputs`: every input file or folder
 * with its modification time, null for a listed input that does not exist. A time equal to the
 * stamp's counts as newer: with a coarse clock, an edit in the same tick as the compile's start may
 * have come after it.
 */
export function staleness({ stampMs, missingOutputs, inputs }) {
  if (stampMs === null) return { stale: true, why: "dist/ has not been compiled (no stamp)" };
  if (missingOutputs.length > 0) return { stale: true, why: `${missingOutputs[0]} is missing` };
  const gone = inputs.find((i) => i.mtimeMs === null);
  if (gone) return { stale: true, why: `${gone.path} is missing` };
  const newer = inputs.filter((i) => i.mtimeMs >= stampMs);
  if (newer.length > 0) {
    const more = newer.length > 1 ? ` and ${newer.length - 1} more` : "";
    return { stale: true, why: `${newer[0].path}${more} changed since the last compile` };
  }
  return { stale: false, why: "dist/ is up to date" };
}

const mtimeOrNull = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/** The inputs as they are on disk now: every file and folder below a listed folder, with its time. */
export function readInputs(root = ROOT) {
  const out = [];
  for (const input of INPUTS) {
    const at = path.join(root, input);
    const mtimeMs = mtimeOrNull(at);
    out.push({ path: input, mtimeMs });
    if (mtimeMs === null || !statSync(at).isDirectory()) continue;
    for (const e of readdirSync(at, { recursive: true, withFileTypes: true })) {
      const file = path.join(e.parentPath, e.name);
      out.push({ path: path.relative(root, file), mtimeMs: mtimeOrNull(file) ?? 0 });
    }
  }
  return out;
}

/** staleness() of the tree at root as it is now. */
export function checkTree(root = ROOT) {
  return staleness({
    stampMs: mtimeOrNull(path.join(root, STAMP)),
    missingOutputs: OUTPUTS.filter((f) => mtimeOrNull(path.join(root, f)) === null),
    inputs: readInputs(root),
  });
}

const runNode = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });

/** tsc and the bundle, side by side; the stamp after both succeeded. Resolves to the exit status. */
export async function compile({ allowTypeErrors = false } = {}) {
  const stamp = path.join(ROOT, STAMP);
  // One per process: two compiles at once (two test runs in one tree) each stamp their own start.
  const started = `${stamp}.${process.pid}`;
  mkdirSync(path.dirname(stamp), { recursive: true });
  rmSync(stamp, { force: true });
  writeFileSync(started, `compiled by scripts/compile.mjs on Node ${process.version}; inputs older than this file\n`);
  try {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const [typed, bundled] = await Promise.all([
      runNode([tsc, "-p", "tsconfig.build.json"]),
      runNode([path.join(ROOT, "scripts/bundle-cli.mjs")]),
    ]);
    if (bundled !== 0) {
      console.error("compile: scripts/bundle-cli.mjs failed");
      return 1;
    }
    // The package's bin (package.json "bin") is run directly by `npx price-feed`: executable from the
    // moment it is compiled, not only once npm's bin linking gets to it (a test that ran `npx` while
    // another was linking saw "Permission denied").
    const bin = path.join(ROOT, "dist/cli/bin.js");
    if (existsSync(bin)) chmodSync(bin, 0o755);
    if (typed !== 0) {
      if (!allowTypeErrors) {
        console.error("compile: tsc -p tsconfig.build.json reported errors");
        return 1;
      }
      console.error("compile: tsc reported type errors (emitted anyway); no stamp, so the next compile runs again");
      return 0;
    }
    renameSync(started, stamp);
    return 0;
  } finally {
    rmSync(started, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== "--force" && a !== "--allow-type-errors");
  if (unknown.length) {
    console.error(`compile: unknown argument ${unknown[0]} (usage: compile.mjs [--force] [--allow-type-errors])`);
    process.exit(1);
  }
  const force = args.includes("--force");
  const state = force ? { stale: true, why: "--force" } : checkTree();
  // Said only when it was not asked for: it explains why this command takes seconds rather than less.
  if (state.stale && !force) console.error(`compile: ${state.why}: compiling`);
  if (state.stale) process.exitCode = await compile({ allowTypeErrors: args.includes("--allow-type-errors") });
}
