/**
 * Writes the measured figures of docs/performance.md from `.bench/results.json` (what `npm run bench`
 * last measured), between the `<!-- bench:start -->` and `<!-- bench:end -->` markers, each figure
 * beside its target: the page's tables are never typed by hand. Only the latest run is shown; the
 * earlier ones are in the page's git history.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

interface BuildRow {
  dataset: string;
  dataMB: number;
  outMB: number;
  buildMs: number;
  buildMinMs: number;
  buildMaxMs: number;
  peakRssMB: number;
  hourlyMs?: number;
  hourlyMinMs?: number;
  hourlyMaxMs?: number;
  hourlyPeakRssMB?: number;
  nextHourMs?: number;
  nextHourMinMs?: number;
  nextHourMaxMs?: number;
  nextHourPeakRssMB?: number;
  nextHourChanged?: number;
  files?: number;
  archiveDaysKept?: number;
  archiveEqualsSeries?: number;
  floorMs: number;
  buildOverFloor: number;
  inputFloorMs: number;
  buildOverInputFloor: number;
  wholeProcessMs?: number;
  wholeProcessMinMs?: number;
  wholeProcessMaxMs?: number;
  wholeNoCodeCacheMs?: number;
  calibrationMs?: string;
}
interface Results {
  machine: { cpus: number; cpu: string; memGB: number; node: string; runs: number };
  build: { rows: BuildRow[]; largeOverHalf: number };
  serve: {
    handler: Record<string, Record<string, { p50us: number; p99us: number }>>;
    http: Record<
      string,
      {
        ratio: number;
        cpuRatio?: number | null;
        generator?: "wrk" | "autocannon";
        rounds: Array<{
          ours: { rps: number; cpuMsPerRequest?: number | null };
          sirv: { rps: number; cpuMsPerRequest?: number | null };
        }>;
      }
    >;
  };
}

/**
 * The whole run's results, or the two halves' (`BENCH_ONLY=build` and `BENCH_ONLY=serve` write
 * results-build.json and results-serve.json), whichever is there.
 */
const read = (f: string) => JSON.parse(readFileSync(f, "utf8")) as Results;
const r: Results = existsSync(".bench/results.json")
  ? read(".bench/results.json")
  : { ...read(".bench/results-build.json"), serve: read(".bench/results-serve.json").serve };
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;

const build = r.build.rows.map((b) =>
  row([
    b.dataset,
    `${b.dataMB} MB → ${b.outMB} MB`,
    `${s(b.buildMs)} (${s(b.buildMinMs)}–${s(b.buildMaxMs)})`,
    `${b.peakRssMB} MB`,
    b.hourlyMs === undefined
      ? ""
      : `${s(b.hourlyMs)} (${s(b.hourlyMinMs!)}–${s(b.hourlyMaxMs!)}), ${b.hourlyPeakRssMB} MB`,
    b.nextHourMs === undefined
      ? ""
      : `${s(b.nextHourMs)} (${s(b.nextHourMinMs!)}–${s(b.nextHourMaxMs!)}), ${b.nextHourPeakRssMB} MB; ${b.nextHourChanged} of ${b.files} files changed, ${b.archiveDaysKept} closed days kept`,
    `${b.buildOverFloor}× (floor ${b.floorMs} ms)`,
    `${b.buildOverInputFloor}× (${b.inputFloorMs} ms)`,
    b.wholeProcessMs === undefined
      ? ""
      : `${s(b.wholeProcessMs)} (${s(b.wholeProcessMinMs!)}–${s(b.wholeProcessMaxMs!)})${b.wholeNoCodeCacheMs === undefined ? "" : `; ${s(b.wholeNoCodeCacheMs)} without compile cache`}`,
    b.calibrationMs === undefined ? "" : `${b.calibrationMs} ms`,
    b.dataset === "large"
      ? `hourly ≤ 3 s ${mark((b.hourlyMs ?? Infinity) <= 3000)} (next hour ${mark((b.nextHourMs ?? Infinity) <= 3000)}), ≤ 5× ${mark(b.buildOverFloor <= 5)}, ≤ 300 MB: first ${mark(b.peakRssMB <= 300)}, hourly ${mark((b.hourlyPeakRssMB ?? Infinity) <= 300)}, next hour ${mark((b.nextHourPeakRssMB ?? Infinity) <= 300)}`
      : b.dataset === "sample"
        ? `whole process ≤ 0.4 s ${mark((b.wholeProcessMs ?? Infinity) <= 400)}`
        : "",
  ]),
);
const targets: Record<string, number> = {
  "full feed 200": 1000,
  "20-asset filter 200": 1000,
  "100-asset filter 200": 3000,
};
const handler = Object.entries(r.serve.handler).flatMap(([dataset, cases]) =>
  Object.entries(cases).map(([name, v]) => {
    const t = dataset === "large" ? targets[name] : undefined;
    return row([`${dataset}: ${name}`, v.p50us, v.p99us, t === undefined ? "" : `≤ ${t} ${mark(v.p99us <= t)}`]);
  }),
);
const http = Object.entries(r.serve.http).map(([dataset, h]) =>
  row([
    dataset,
    h.rounds.map((x) => `${x.ours.rps} / ${x.sirv.rps}`).join(", "),
    h.ratio,
    `≥ 1.0 ${mark(h.ratio >= 1)}`,
    h.rounds.map((x) => `${x.ours.cpuMsPerRequest ?? "–"} / ${x.sirv.cpuMsPerRequest ?? "–"}`).join(", "),
    h.cpuRatio ?? "–",
  ]),
);

const generator = Object.values(r.serve.http)[0]?.generator ?? "autocannon";
const generatorNote =
  generator === "wrk"
    ? "The load generator, wrk (C, one thread), shares the two cores with the server it loads and leaves it one: requests per second measure the server. Each server's own CPU time per request is from `/proc/<pid>/stat`."
    : "The load generator, autocannon (wrk was not installed), shares the two cores: on the large feed's 1.3 MB body it is the bottleneck (110–125 % of a core, each server under 20 %), so requests per second there measure it and come out even; each server's own CPU time per request (from `/proc/<pid>/stat`) is what tells them apart.";

const section = `<!-- bench:start -->
Measured by \`npm run bench\` on ${r.machine.cpus} cores (${r.machine.cpu}), Node ${r.machine.node}, ${r.machine.memGB} GB; builds are the median of ${r.machine.runs} runs (min–max) of the bin's bundle (\`dist/cli/main.bundle.cjs\` under Node's compile cache and \`--max-semi-space-size=8\`, as the hourly job runs it), timed in a process of their own from the bin's first call, its peak RSS that process's (the whole-process figure is \`node dist/cli/bin.js build\`, start-up included, with the compile cache an earlier run wrote, and beside it the median without it, as on a fresh checkout). The first build starts from no state and no site: it makes the whole archive (every day's file). The hourly figure is the same build on the state and the site the previous build left, as the hourly job finds them: the raw days before today already closed (data/state/closed-days) and the archive's closed days kept (public.archive-cache/); the next-hour figure is that build with the next hour's quotes appended to today's log (today's latest batch again, an hour later, every price moved by 0.05 %), at an instant an hour later, with the number of files whose ETag changed. The output floor serializes, hashes and writes the same files with the build's own means; the second floor also reads the input a build reads. Each round times a build and then its two floors, and a ratio is the median of each build over the floors of its own round (the whole processes follow in the same round: three with the compile cache and three without on the sample, one each on the others). The calibration column is a fixed allocation-heavy loop run before and after each dataset's runs: when it is slow, every figure beside it is slow too (on 2026-11-22 the same loop took from 325 to 705 ms within two hours).

| build | input → output | first build (no state, no site) | peak RSS | hourly, nothing new | next hour, new quotes | ÷ output floor | ÷ floor + input read | whole process | calibration | target |
|---|---|---|---|---|---|---|---|---|---|---|
${build.join("\n")}

Large ÷ half build time: ${r.build.largeOverHalf} (2.0 is linear in the number of assets). ${r.build.rows.every((b) => b.archiveEqualsSeries) ? `The archive's last 30 entries equal the feed's series for every asset (${r.build.rows.map((b) => `${b.dataset}: ${b.archiveEqualsSeries}`).join(", ")} assets checked).` : ""}

| handler, in process | p50 (µs) | p99 (µs) | target (p99) |
|---|---|---|---|
${handler.join("\n")}

| \`serve\` vs \`sirv\`, full feed over loopback (${generator}, 16 connections, 8 s) | req/s ours / sirv per round | ratio | target | server CPU ms per request, ours / sirv per round | sirv's least ÷ ours' |
|---|---|---|---|---|---|
${http.join("\n")}

${generatorNote}
<!-- bench:end -->`;

const PAGE = "docs/performance.md";
const page = readFileSync(PAGE, "utf8");
const start = page.indexOf("<!-- bench:start -->");
const end = page.indexOf("<!-- bench:end -->");
if (start < 0 || end < 0) throw new Error(`${PAGE} has no <!-- bench:start --> … <!-- bench:end --> markers`);
writeFileSync(PAGE, page.slice(0, start) + section + page.slice(end + "<!-- bench:end -->".length));
console.log(`${PAGE}: figures written from .bench/results.json`);
