/**
 * Serving figures for `npm run bench`: (1) in-process time per request of the handler, p50/p99, for
 * the full feed, a 304, a three-asset filter and a 400; (2) requests per second over loopback of
 * `price-feed serve` (all headers, counting on) against sirv on the same files, under the same load,
 * and each server's CPU time per request meanwhile. The load comes from wrk when it is installed
 * (Debian: `apt-get install wrk`), else from autocannon (an npm package, always there).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { getRequestListener } from "@hono/node-server";
import type { HandlerDeps } from "../src/edge/deps.js";
import { FeedCache } from "../src/edge/feed-cache.js";
import { handle } from "../src/edge/handler.js";
import { MemoryStore } from "../src/edge/counters.js";
import { SiteReader } from "../src/server/serve.js";

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/**
 * In-process time per request of the handler as `price-feed serve` runs it: under @hono/node-server's
 * Response (installed by getRequestListener, as serve does), which keeps a string or Uint8Array body
 * as given and hands it to the socket; so the time until the Response is ready is the handler's cost.
 */
export async function inProcess(dir: string, n = 3000) {
  getRequestListener(() => new Response(null)); // installs the adapter's Response, as `serve` does
  const site = new SiteReader(dir);
  const m = await site.manifest();
  const deps: HandlerDeps = {
    readFile: (p) => site.readFile(p),
    manifest: () => site.manifest(),
    counters: new MemoryStore(),
    now: () => Date.parse(m.generatedAt),
    clientAddress: "192.0.2.1",
    limits: { window: 1e9, windowSeconds: 60, daily: 1e9 },
    cache: new FeedCache(),
    serveSite: true,
  };
  const feedEtag = m.files["api/v1/feed.json"]!.etag;
  // Every other asset, so that a selection is never a category's (those are files of their own).
  const pick = (k: number) =>
    m.assets
      .filter((_, i) => i % 2 === 0)
      .slice(0, k)
      .map((a) => a.slug);
  const cases: Record<string, () => Request> = {
    "full feed 200": () => new Request("http://x/api/v1/feed.json"),
    "304": () => new Request("http://x/api/v1/feed.json", { headers: { "If-None-Match": feedEtag } }),
    "400": () => new Request("http://x/api/v1/feed.json?category=nope"),
  };
  for (const k of [1, 3, 20, 100]) {
    const slugs = pick(k);
    if (slugs.length === k)
      cases[`${k}-asset filter 200`] = () => new Request(`http://x/api/v1/feed.json?asset=${slugs.join(",")}`);
  }
  const out: Record<string, { p50us: number; p99us: number }> = {};
  for (const [name, make] of Object.entries(cases)) {
    for (let i = 0; i < 200; i++) await handle(make(), deps); // warm up
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const req = make();
      const t0 = performance.now();
      await handle(req, deps);
      times.push(performance.now() - t0);
    }
    const us = (xs: number[], q: number) => Math.round(quantile(xs, q) * 1000);
    out[name] = { p50us: us(times, 0.5), p99us: us(times, 0.99) };
  }
  return out;
}

function startChild(cmd: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
    let buf = "";
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      if (ready.test(buf)) {
        child.stdout!.removeAllListeners("data");
        child.stdout!.resume();
        resolve(child);
      }
    });
    child.once("exit", (code) => reject(new Error(`${cmd} exited ${code}`)));
  });
}

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system), in ms; null where there is no /proc (not Linux). */
function cpuMs(pid: number): number | null {
  try {
    // Fields 14 and 15 (utime, stime), counted after the command's closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return null;
  }
}

/**
 * The load generator. Both share the machine's two cores with the server they load. autocannon is
 * JavaScript: on the large feed's 1.3 MB body it is the bottleneck (110–125 % of a core while each
 * server took under 20 %), so requests per second then measure it, not the server. wrk is C with
 * one thread: it leaves the server a core, and requests per second measure the server.
 */
let found: "wrk" | "autocannon" | undefined;
/** Which generator loads the servers: looked for once, when the first load starts (not on import). */
export function generator(): "wrk" | "autocannon" {
  if (found) return found;
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    found = "wrk";
  } catch (e) {
    // wrk --version prints its usage and exits 1: installed all the same.
    found = (e as { status?: number }).status === 1 ? "wrk" : "autocannon";
  }
  return found;
}

const toSeconds = (n: number, unit: string) =>
  n * ({ us: 1e-6, ms: 1e-3, s: 1, m: 60 } as Record<string, number>)[unit]!;

/** wrk's summary, parsed: requests, duration, p99 latency, non-2xx/3xx answers and socket errors. */
export function parseWrk(out: string) {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(out);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  if (!total || !p99) throw new Error(`wrk: unexpected output:\n${out}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requests: Number(total[1]),
    seconds: toSeconds(Number(total[2]), total[3]!),
    p99ms: +(toSeconds(Number(p99[1]), p99[2]!) * 1000).toFixed(3),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    errors: errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
  };
}

async function generate(url: string, seconds: number, connections: number) {
  if (generator() === "wrk") {
    const { stdout } = await promisify(execFile)("wrk", ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", url]);
    const r = parseWrk(stdout);
    return {
      rps: Math.round(r.requests / r.seconds),
      requests: r.requests,
      p99ms: r.p99ms,
      non2xx: r.non2xx,
      errors: r.errors,
    };
  }
  const r = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return {
    rps: Math.round(r.requests.average),
    requests: r.requests.total,
    p99ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** One load of `seconds` on the server `pid` listens as: its requests per second, and the server's own CPU time per request. */
async function load(url: string, seconds: number, connections: number, pid: number) {
  const before = cpuMs(pid);
  const { requests, ...r } = await generate(url, seconds, connections);
  const after = cpuMs(pid);
  const cpuMsPerRequest =
    before === null || after === null || !requests ? null : +((after - before) / requests).toFixed(3);
  return { ...r, cpuMsPerRequest };
}

export async function overHttp(dir: string, seconds = 8, connections = 16) {
  const ours = await startChild(
    "node",
    [
      path.resolve("dist/cli/bin.js"),
      "serve",
      "--dir",
      dir,
      "--port",
      "18901",
      "--rate-limit",
      "1000000000/60",
      "--daily-limit",
      "1000000000",
    ],
    /serving/,
  );
  const theirs = await startChild("node", [path.resolve("scripts/bench-sirv.mjs"), dir, "18902"], /ready/);
  // The server logs a line per request; send it to /dev/null-equivalent by not reading more.
  try {
    const rounds: Array<{ ours: Awaited<ReturnType<typeof load>>; sirv: Awaited<ReturnType<typeof load>> }> = [];
    for (let i = 0; i < 2; i++) {
      rounds.push({
        ours: await load("http://127.0.0.1:18901/api/v1/feed.json", seconds, connections, ours.pid!),
        sirv: await load("http://127.0.0.1:18902/api/v1/feed.json", seconds, connections, theirs.pid!),
      });
    }
    const best = (k: "ours" | "sirv") => Math.max(...rounds.map((r) => r[k].rps));
    // The least CPU per request each server took in a round: sirv's ÷ ours, above 1 when ours costs less.
    const leastCpu = (k: "ours" | "sirv") => {
      const xs = rounds.map((r) => r[k].cpuMsPerRequest).filter((x): x is number => x !== null);
      return xs.length ? Math.min(...xs) : null;
    };
    const [oursCpu, sirvCpu] = [leastCpu("ours"), leastCpu("sirv")];
    return {
      rounds,
      ratio: +(best("ours") / best("sirv")).toFixed(2),
      cpuRatio: oursCpu && sirvCpu ? +(sirvCpu / oursCpu).toFixed(2) : null,
      connections,
      seconds,
      generator: generator(),
    };
  } finally {
    ours.kill("SIGTERM");
    theirs.kill("SIGTERM");
  }
}
