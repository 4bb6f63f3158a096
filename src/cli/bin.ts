#!/usr/bin/env node
/**
 * The `price-feed` bin (package.json), compiled to dist/cli/bin.js: no TypeScript loader at run time,
 * and the command line's bundle run with V8's code cache (launch.ts).
 */
import { runCli } from "./launch.js";

// A reader that stops early (`price-feed --help | head -3`) closes the pipe: not a failure of ours,
// and no reason for a stack trace. Any other error of the standard streams still is one.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });

process.exitCode = await runCli(process.argv);
