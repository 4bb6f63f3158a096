#!/usr/bin/env node
/**
 * The `price-feed` bin (package.json), compiled to dist/cli/bin.js: no TypeScript loader at run time,
 * and the command line's bundle run with V8's code cache (launch.ts).
 */
import { runCli } from "./launch.js";

process.exitCode = await runCli(process.argv);
