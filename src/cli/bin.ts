#!/usr/bin/env node
/**
 * The `price-feed` bin (package.json), compiled to dist/cli/bin.js: no TypeScript loader at run time.
 * It turns on Node's compile cache (module.enableCompileCache: V8's compiled code of what a run loads,
 * kept by Node for the next run; in os.tmpdir()/node-compile-cache unless NODE_COMPILE_CACHE names a
 * folder, and off with NODE_DISABLE_COMPILE_CACHE=1), then runs the command line's one-file bundle,
 * dist/cli/main.bundle.cjs (scripts/bundle-cli.mjs). Without the bundle (only tsc has run), or with
 * PRICE_FEED_DEBUG set, it loads the modules as they are, so that a stack names their files. Every
 * command runs on the main thread, on V8's own heap settings (docs/performance.md "Starting").
 */
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// package.json "engines": a Node without the compile cache and require(esm) stops here, in one line.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `price-feed: Node ${process.version} is too old: it needs Node 22.12 or later (on Linux x64, \`npm ci\` installs Node 24 and \`npx price-feed\` runs on it)`,
  );
  process.exit(1);
}

// Not in @types/node 20's declarations; there on every Node that passes the check above.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that stops early (`price-feed --help | head -3`) closes the pipe: not a failure of ours,
// and no reason for a stack trace. Any other error of the standard streams still is one.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });

type Main = (argv: string[]) => Promise<number>;
const bundle = fileURLToPath(new URL("./main.bundle.cjs", import.meta.url));
const { main } = (
  process.env["PRICE_FEED_DEBUG"] || !existsSync(bundle)
    ? await import("./main.js")
    : module.createRequire(import.meta.url)(bundle)
) as { main: Main };

process.exitCode = await main(process.argv);
