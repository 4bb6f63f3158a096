/**
 * One measured run for `npm run bench`, in its own process so that peak RSS is its own:
 * `build DATA OUT NOW` times a whole build; `floor OUT` times only serializing, hashing and writing
 * the same files again; `floor+input OUT FLOOR DATA` the same plus reading, as text and JSON, the
 * input a build needs (every raw quote, official and global day; as many newest history days as the
 * bounded load reads). Prints one JSON line.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { runBuild } from "../src/io/build.js";
import { canonical, strongEtag, withoutGeneratedAt } from "../src/core/canonical.js";
import { parseInstant } from "../src/core/cairo.js";
import { loadDataset } from "../src/io/data.js";

const [mode, a, b, c] = process.argv.slice(2);
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(path.join(e.parentPath, e.name));
  return out;
}

if (mode === "build") {
  const t0 = performance.now();
  await runBuild({ dataDir: a!, outDir: b!, nowMs: parseInstant(c!)! });
  console.log(JSON.stringify({ ms: performance.now() - t0, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
} else {
  // The floor: the same documents as values (parsed ahead, untimed), serialized, hashed and written.
  const files = await listFiles(a!);
  const docs = await Promise.all(
    files.map(async (f) => ({ rel: path.relative(a!, f), body: await fs.readFile(f, "utf8") })),
  );
  const values = docs.map((d) => ({ rel: d.rel, value: d.rel.endsWith(".json") ? JSON.parse(d.body) : d.body }));
  const out = `${b!}`;
  await fs.rm(out, { recursive: true, force: true });
  const data = mode === "floor+input" ? c! : null;
  // Which history days a build reads (untimed): the bounded load's own choice.
  const readDays = data
    ? new Set((await loadDataset(data, { upTo: "9999-12-31", bounded: true })).historyDays.map((d) => d.date))
    : null;
  const t0 = performance.now();
  if (data) {
    for (const folder of ["quotes", "official", "global", "history"]) {
      for (const name of (await fs.readdir(path.join(data, folder)).catch(() => [] as string[])).sort()) {
        if (folder === "history" && !readDays!.has(name.slice(0, 10))) continue;
        const text = await fs.readFile(path.join(data, folder, name), "utf8");
        JSON.parse(`[${text.trimEnd().replaceAll("\n", ",")}]`);
      }
    }
  }
  for (const v of values) {
    const body = typeof v.value === "string" ? v.value : canonical(v.value);
    await strongEtag(withoutGeneratedAt(body));
    await fs.mkdir(path.dirname(path.join(out, v.rel)), { recursive: true });
    await fs.writeFile(path.join(out, v.rel), body);
  }
  console.log(JSON.stringify({ ms: performance.now() - t0, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
}
