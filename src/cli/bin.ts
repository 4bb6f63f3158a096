#!/usr/bin/env node
/** The `price-feed` bin (package.json), compiled to dist/cli/bin.js: no TypeScript loader at run time. */
import { main } from "./main.js";

process.exitCode = await main(process.argv);
