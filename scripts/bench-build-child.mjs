/**
 * One measured run for `npm run bench`, in its own process so that peak RSS is its own:
 * `build DATA OUT NOW` times a whole build; `build-hourly DATA OUT NOW` one on the state (the raw
 * days kept closed) and the site (the archive's closed days kept, src/incremental/archive-days.ts) that a
 * `build` left; `floor OUT` times only serializing, hashing and writing
 * the same files again, with the build's own means (canonical JSON, Node's SHA-256, synchronous
 * folders and writes); `floor+input OUT FLOOR DATA` the same plus reading the input a build needs:
 * every raw quote, official and global day as text and JSON, and of the history days the bounded
 * load reads, their summaries as JSON and their bytes hashed. A build runs the bin's bundle, as the
 * hourly job does; the floors use the compiled modules of dist/. Prints one JSON line.
 */
import { promises as fs } from "node:fs";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import module from "node:module";
import { nodeHashing, sha256Hex } from "../dist/io/hash.js";
import { canonical, withoutGeneratedAt } from "../dist/core/canonical.js";
import { loadForBuild } from "../dist/io/load-build.js";
import { readBuffer } from "../dist/io/day-files.js";

const [mode, a, b, c] = process.argv.slice(2);
/** @param {string} dir @returns {Promise<string[]>} */
async function listFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(path.join(e.parentPath, e.name));
  return out;
}

if (mode === "build" || mode === "build-hourly") {
  // The program the hourly job runs: the bin's bundle under Node's compile cache, as src/cli/bin.ts
  // loads it, with its compiled output checks, in this process so that its peak RSS is this
  // process's. build: from no state, saving it (closes the raw days and keeps them,
  // src/incremental/closed-days.ts); build-hourly: on the state a build saved, as the next hour's job finds
  // it, not saving it again (--no-state).
  const argv = ["node", "price-feed", "build", "--data", a, "--out", b, "--now", c];
  if (mode === "build-hourly") argv.push("--no-state");
  // What the command prints, taken from this process's standard output.
  const printed = [];
  const write = process.stdout.write;
  process.stdout.write = (chunk, ...rest) => {
    printed.push(String(chunk));
    const done = rest.find((r) => typeof r === "function");
    if (done) done();
    return true;
  };
  const t0 = performance.now();
  module.enableCompileCache?.();
  let status;
  try {
    const { main } = module.createRequire(import.meta.url)("../dist/cli/main.bundle.cjs");
    status = await main(argv);
  } finally {
    process.stdout.write = write;
  }
  const ms = performance.now() - t0;
  const out = printed.join("");
  if (status !== 0) throw new Error(`build exited ${status}:\n${out}`);
  // What the command prints (src/cli/build.ts): "built N files into OUT (M changed)" and
  // "archive: … K kept as published".
  const built = /^built (\d+) files into .* \((\d+) changed\)/m.exec(out);
  const kept = /^archive: .*, (\d+) kept as published/m.exec(out);
  if (!built || !kept) throw new Error(`the build's summary was not understood:\n${out}`);
  console.log(
    JSON.stringify({
      ms,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
      files: Number(built[1]),
      changed: Number(built[2]),
      archiveDaysKept: Number(kept[1]),
    }),
  );
} else {
  // The floor: the same documents as values (parsed ahead, untimed), serialized, hashed and written.
  const files = await listFiles(a);
  const docs = await Promise.all(
    files.map(async (f) => ({ rel: path.relative(a, f), body: await fs.readFile(f, "utf8") })),
  );
  const values = docs.map((d) => ({ rel: d.rel, value: d.rel.endsWith(".json") ? JSON.parse(d.body) : d.body }));
  const out = `${b}`;
  await fs.rm(out, { recursive: true, force: true });
  const data = mode === "floor+input" ? c : null;
  // Which history days a build reads (untimed): the bounded load's own choice.
  const readDays = data
    ? new Set(
        (await loadForBuild(data, Date.parse("9999-12-31T00:00:00Z"), readBuffer())).historyDays.map(
          (/** @type {{date: string}} */ d) => d.date,
        ),
      )
    : null;
  const t0 = performance.now();
  if (data) {
    for (const folder of ["quotes", "official", "global", "summaries", "history"]) {
      for (const name of (await fs.readdir(path.join(data, folder)).catch(() => [])).sort()) {
        const day = name.slice(0, 10);
        if ((folder === "history" || folder === "summaries") && !readDays.has(day)) continue;
        const bytes = readFileSync(path.join(data, folder, name));
        if (folder === "history") sha256Hex(bytes);
        else if (folder === "summaries") JSON.parse(bytes.toString("utf8"));
        else JSON.parse(`[${bytes.toString("utf8").trimEnd().replaceAll("\n", ",")}]`);
      }
    }
  }
  const dirs = new Set(values.map((v) => path.dirname(path.join(out, v.rel))));
  for (const d of [...dirs].sort()) mkdirSync(d, { recursive: true });
  for (const v of values) {
    const body = typeof v.value === "string" ? v.value : canonical(v.value);
    nodeHashing.etag(withoutGeneratedAt(body));
    nodeHashing.byteLength(body);
    writeFileSync(path.join(out, v.rel), body);
  }
  console.log(JSON.stringify({ ms: performance.now() - t0, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
}
