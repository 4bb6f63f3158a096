/**
 * `npm run bench`: performance figures, never timed tests. Prints a table and writes
 * `.bench/results.json`. Datasets are generated once into `.bench/` (git-ignored):
 *   sample: the committed data/; large: 200 assets × 40 sellers × 400 days; half: 100 assets of it.
 * Targets (issue 14, "Fast at any size"), printed beside each figure: large build ≤ 3 s and ≤ 5× its
 * output floor, large peak RSS ≤ 300 MB, sample build as a whole process (`node dist/cli/bin.js
 * build`) ≤ 0.4 s, handler p99 full feed and 20-asset filter ≤ 1 ms, 100-asset ≤ 3 ms, serve ÷ sirv ≥ 1.0.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const BENCH = path.resolve(".bench");
const NOW = "2026-11-19T12:30:00Z";
const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
const cli = path.resolve("dist/cli/bin.js");
const child = path.resolve("scripts/bench-build-child.mjs");

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function dataset(name: string, args: string[]): Promise<string> {
  const dir = path.join(BENCH, name);
  if (!(await exists(path.join(dir, "assets.json")))) {
    console.error(`generating ${name} (${args.join(" ")}) …`);
    await fs.rm(dir, { recursive: true, force: true });
    await run("node", [cli, "sample", "--out", dir, "--now", NOW, "--compact", ...args], { maxBuffer: 1 << 26 });
  }
  return dir;
}

/**
 * A whole `price-feed build` process, as a developer or the hourly job runs it: wall time. With
 * Node's compile cache (which the bin turns on; written by the untimed run before the timed ones) or
 * without it (NODE_DISABLE_COMPILE_CACHE: a first run, or a fresh runner as the hourly job has).
 */
async function wholeProcess(data: string, out: string, codeCache = true) {
  // A first build, as every run of the whole process measures: no site (and so no archive) to keep.
  for (const f of [out, `${out}.archive-cache`]) await fs.rm(f, { recursive: true, force: true });
  const t0 = performance.now();
  // Node reads the variable's presence, not its value: set, even empty, it turns the cache off.
  const { NODE_DISABLE_COMPILE_CACHE: _, ...env } = process.env;
  if (!codeCache) env["NODE_DISABLE_COMPILE_CACHE"] = "1";
  const child = execFile("node", [cli, "build", "--no-state", "--force", "--data", data, "--out", out, "--now", NOW], {
    maxBuffer: 1 << 26,
    env,
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`build exited ${code}`))));
  });
  return performance.now() - t0;
}

/** The V8 flag the hourly job's build runs under (.github/workflows/publish.yml, "Build and validate"). */
const JOB_NODE_FLAGS = ["--max-semi-space-size=8"];

async function measure(mode: "build" | "build-hourly" | "floor" | "floor+input", ...args: string[]) {
  const flags = mode.startsWith("build") ? JOB_NODE_FLAGS : [];
  const { stdout } = await run("node", [...flags, child, mode, ...args], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    ms: number;
    maxRssMB: number;
    files?: number;
    changed?: number;
    archiveDaysKept?: number;
  };
}

/** An hour later than NOW: the hourly job's next run. */
const NEXT_HOUR = new Date(Date.parse(NOW) + 3_600_000).toISOString().replace(".000Z", "Z");

/**
 * The next hour's quotes, as the hourly job finds them: today's latest batch again, observed an hour
 * later, every price moved by one unit of its last decimal (so every asset's today moves). Appended
 * to today's log for `run`, and the log put back as it was afterwards.
 */
async function withNextHour<T>(dir: string, run: () => Promise<T>): Promise<T> {
  const file = path.join(dir, "quotes", `${NOW.slice(0, 10)}.ndjson`);
  const before = await fs.readFile(file, "utf8");
  const lines = before
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const latest = lines
    .map((q) => String(q["observedAt"]))
    .sort()
    .at(-1)!;
  const later = new Date(Date.parse(latest) + 3_600_000).toISOString();
  const bump = (v: unknown) => (typeof v === "number" ? +(v * 1.0005).toPrecision(8) : v);
  const next = lines
    .filter((q) => q["observedAt"] === latest)
    .map((q) => JSON.stringify({ ...q, buy: bump(q["buy"]), sell: bump(q["sell"]), observedAt: later }));
  await fs.appendFile(file, `${next.join("\n")}\n`);
  try {
    return await run();
  } finally {
    await fs.writeFile(file, before);
  }
}

/**
 * The machine's speed at this moment: a fixed allocation-heavy loop (what a build mostly is), run in
 * a fresh process beside each dataset's builds. When it is slow, every figure beside it is too: this
 * machine's speed drifts by a third within an hour.
 */
async function calibration(): Promise<number> {
  const loop =
    "let k=[];const t=performance.now();for(let i=0;i<3e6;i++){k.push({a:i,b:'x'+(i%100),c:[i]});if(k.length>1e5)k=[]}console.log(performance.now()-t)";
  const { stdout } = await run("node", ["-e", loop]);
  return Math.round(Number(stdout.trim()));
}

async function dirBytes(dir: string): Promise<number> {
  let n = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) n += (await fs.stat(path.join(e.parentPath, e.name))).size;
  return n;
}

/**
 * docs/methodology.md §5.5 on a built site: every asset's last SERIES_WINDOW_DAYS history entries
 * are its feed series, value for value (test/rules/archive.test.ts checks the sample; this, every
 * dataset the bench builds). Throws on the first asset that differs; else the number checked.
 */
async function archiveMatchesSeries(out: string): Promise<number> {
  type Entry = Record<string, unknown> & { date: string };
  const feed = JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")) as {
    assets: Array<{ slug: string; series: Entry[] }>;
  };
  const keys = ["date", "buyLo", "buyHi", "sellLo", "sellHi", "bench"];
  for (const a of feed.assets) {
    const h = JSON.parse(await fs.readFile(path.join(out, `api/v1/history/${a.slug}.json`), "utf8")) as {
      entries: Entry[];
    };
    const last = h.entries.slice(-a.series.length || h.entries.length).map((e) => keys.map((k) => e[k]));
    if (JSON.stringify(last) !== JSON.stringify(a.series.map((e) => keys.map((k) => e[k]))))
      throw new Error(`${out}: the archive of ${a.slug} does not end with its series`);
  }
  return feed.assets.length;
}

export async function benchBuild() {
  await fs.mkdir(BENCH, { recursive: true });
  const sample = path.join(BENCH, "sample");
  await fs.rm(sample, { recursive: true, force: true });
  await fs.cp("data", sample, { recursive: true });
  const sets = {
    sample,
    half: await dataset("half", ["--days", "400", "--assets", "100", "--sellers", "40"]),
    large: await dataset("large", ["--days", "400", "--assets", "200", "--sellers", "40"]),
  };
  const rows: Record<string, unknown>[] = [];
  for (const [name, dir] of Object.entries(sets)) {
    const out = path.join(BENCH, `${name}-public`);
    // Each round times a build, then its two floors, then whole processes, one after the other: a
    // build is divided by the floors measured beside it, not by floors of another moment (the
    // machine's speed drifts by a third within an hour, and its page cache is emptied within ~20 s).
    const calibrations = [await calibration()];
    const builds = [];
    const floors = [];
    const inputFloors = [];
    const whole = [];
    const cold = [];
    // The sample's whole process is the target; it is short, so each round runs it three times.
    const wholePerRound = name === "sample" ? 3 : 1;
    // Every cold run starts from no state and no site (so the archive is made whole); the in-process
    // build saves the state, the whole processes do not.
    const noState = async () => {
      await fs.rm(path.join(dir, "state"), { recursive: true, force: true });
      for (const o of [out, path.join(BENCH, `${name}-whole`)])
        for (const f of [o, `${o}.archive-cache`]) await fs.rm(f, { recursive: true, force: true });
    };
    await wholeProcess(dir, path.join(BENCH, `${name}-whole`)); // untimed: writes the compile cache if it is missing
    for (let i = 0; i < RUNS; i++) {
      await noState();
      builds.push(await measure("build", dir, out, NOW));
      floors.push(await measure("floor", out, path.join(BENCH, `${name}-floor`)));
      // The floor plus reading the input a build needs: every raw quote day, official and global, and
      // the history days the bounded load reads (the same count), as text and JSON.parse, no checks.
      inputFloors.push(await measure("floor+input", out, path.join(BENCH, `${name}-floor`), dir));
      await noState();
      for (let k = 0; k < wholePerRound; k++) {
        whole.push(await wholeProcess(dir, path.join(BENCH, `${name}-whole`)));
        cold.push(await wholeProcess(dir, path.join(BENCH, `${name}-whole`), false));
      }
    }
    // The hourly job's case: the raw days before today were closed and kept by the previous build,
    // and the archive's closed days by the site it left. First with nothing new (a rebuild), then
    // with the next hour's quotes: what changes, and how long it takes.
    await measure("build", dir, out, NOW);
    const hourly = [];
    for (let i = 0; i < RUNS; i++) hourly.push(await measure("build-hourly", dir, out, NOW));
    const nextHour = [];
    for (let i = 0; i < RUNS; i++)
      nextHour.push(await withNextHour(dir, () => measure("build-hourly", dir, out, NEXT_HOUR)));
    const outBytes = await dirBytes(out);
    const seriesChecked = await archiveMatchesSeries(out);
    await noState();
    calibrations.push(await calibration());
    const ms = builds.map((b) => b.ms);
    // Each build over the floors of its own round; the median of those ratios.
    const over = (floorRuns: { ms: number }[]) => +median(ms.map((m, i) => m / floorRuns[i]!.ms)).toFixed(1);
    rows.push({
      dataset: name,
      dataMB: +((await dirBytes(dir)) / 1e6).toFixed(1),
      outMB: +(outBytes / 1e6).toFixed(1),
      buildMs: Math.round(median(ms)),
      buildMinMs: Math.round(Math.min(...ms)),
      buildMaxMs: Math.round(Math.max(...ms)),
      peakRssMB: Math.round(Math.max(...builds.map((b) => b.maxRssMB))),
      hourlyMs: Math.round(median(hourly.map((b) => b.ms))),
      hourlyMinMs: Math.round(Math.min(...hourly.map((b) => b.ms))),
      hourlyMaxMs: Math.round(Math.max(...hourly.map((b) => b.ms))),
      hourlyPeakRssMB: Math.round(Math.max(...hourly.map((b) => b.maxRssMB))),
      nextHourMs: Math.round(median(nextHour.map((b) => b.ms))),
      nextHourMinMs: Math.round(Math.min(...nextHour.map((b) => b.ms))),
      nextHourMaxMs: Math.round(Math.max(...nextHour.map((b) => b.ms))),
      nextHourPeakRssMB: Math.round(Math.max(...nextHour.map((b) => b.maxRssMB))),
      nextHourChanged: nextHour[0]?.changed ?? 0,
      files: nextHour[0]?.files ?? 0,
      archiveDaysKept: nextHour[0]?.archiveDaysKept ?? 0,
      archiveEqualsSeries: seriesChecked,
      floorMs: Math.round(median(floors.map((f) => f.ms))),
      buildOverFloor: over(floors),
      inputFloorMs: Math.round(median(inputFloors.map((f) => f.ms))),
      buildOverInputFloor: over(inputFloors),
      ...(whole.length
        ? {
            wholeProcessMs: Math.round(median(whole)),
            wholeProcessMinMs: Math.round(Math.min(...whole)),
            wholeProcessMaxMs: Math.round(Math.max(...whole)),
            wholeNoCodeCacheMs: Math.round(median(cold)),
          }
        : {}),
      target: name === "large" ? "≤ 3000 ms, ≤ 5× floor, ≤ 300 MB" : name === "sample" ? "whole process ≤ 400 ms" : "",
      calibrationMs: `${Math.min(...calibrations)}–${Math.max(...calibrations)}`,
    });
  }
  const half = rows.find((r) => r["dataset"] === "half")!;
  const large = rows.find((r) => r["dataset"] === "large")!;
  return { rows, largeOverHalf: +((large["buildMs"] as number) / (half["buildMs"] as number)).toFixed(2) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.env["BENCH_ONLY"]; // "build", "serve" or "rehearse"
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memGB: Math.round(os.totalmem() / 1e9),
    node: process.version,
    runs: RUNS,
  };
  const results: Record<string, unknown> = { machine };
  if (only === undefined || only === "build") {
    const build = await benchBuild();
    console.log("\nBuild (median of runs; peak RSS is the maximum):");
    console.table(build.rows);
    console.log(`large ÷ half build time: ${build.largeOverHalf} (2.0 = linear in assets)`);
    results["build"] = build;
  }
  if (only === undefined || only === "serve") {
    const { inProcess, overHttp } = await import("./bench-serve.js");
    const sampleOut = path.join(BENCH, "sample-public");
    const largeOut = path.join(BENCH, "large-public");
    for (const [name, dir] of [
      ["sample", sampleOut],
      ["large", largeOut],
    ] as const) {
      if (!(await exists(path.join(dir, "_manifest.json"))))
        await run("node", [
          cli,
          "build",
          "--data",
          name === "sample" ? "data" : path.join(BENCH, "large"),
          "--out",
          dir,
          "--now",
          NOW,
          "--no-state", // data/ is the repository's: leave its state as it is
        ]);
    }
    const handler = { sample: await inProcess(sampleOut), large: await inProcess(largeOut) };
    console.log("\nHandler in process, µs per request:");
    console.table(
      Object.fromEntries(
        Object.entries(handler).flatMap(([ds, r]) => Object.entries(r).map(([k, v]) => [`${ds}: ${k}`, v])),
      ),
    );
    console.log("targets: p99 full feed ≤ 1000 µs, 20-asset ≤ 1000 µs, 100-asset ≤ 3000 µs");
    const http = { sample: await overHttp(sampleOut), large: await overHttp(largeOut) };
    for (const [ds, h] of Object.entries(http)) {
      console.log(`\nOver loopback HTTP, ${ds}, full feed, requests/s (${h.generator}):`);
      console.table(
        h.rounds.map((r) => ({
          ours: r.ours.rps,
          sirv: r.sirv.rps,
          oursP99ms: r.ours.p99ms,
          sirvP99ms: r.sirv.p99ms,
          oursNon2xx: r.ours.non2xx,
          sirvNon2xx: r.sirv.non2xx,
          oursCpuMsPerReq: r.ours.cpuMsPerRequest,
          sirvCpuMsPerReq: r.sirv.cpuMsPerRequest,
        })),
      );
      console.log(`price-feed serve ÷ sirv (${ds}): ${h.ratio} (target ≥ 1.0)`);
      console.log(`server CPU per request, sirv ÷ ours (${ds}): ${h.cpuRatio ?? "not measured (no /proc)"}`);
    }
    results["serve"] = { handler, http };
  }
  if (only === undefined || only === "rehearse") {
    // The rehearsal's 14 days of init's configuration (test/rehearse/rehearse.test.ts): its wall time.
    const { benchRehearse } = await import("./bench-rehearse.js");
    await fs.mkdir(BENCH, { recursive: true });
    const r = await benchRehearse(BENCH);
    console.log(
      `\nRehearsal (${r.args}, faults on): ${r.hours} hours in ${r.wholeProcessS} s, ${r.hoursPerSecond} hours simulated per second, ${r.cpuSecondsPerHour} s of CPU an hour; ${r.checksFailed} check(s) failed`,
    );
    console.table([
      { step: "wall s", ...r.steps },
      { step: "CPU s", ...r.cpu },
    ]);
    results["rehearse"] = r;
  }
  await fs.writeFile(
    path.join(BENCH, only ? `results-${only}.json` : "results.json"),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  console.log(JSON.stringify(results));
}
