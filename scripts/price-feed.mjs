#!/usr/bin/env node
// The `price-feed` bin: runs the TypeScript CLI through tsx's loader (no build step needed).
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
