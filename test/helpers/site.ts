/** A built site of the small test dataset, and handler deps over it. */
import path from "node:path";
import { runBuild } from "../../src/jobs/build.js";
import { MemoryStore, type CounterStore } from "../../src/edge/counters.js";
import type { HandlerDeps } from "../../src/edge/deps.js";
import { FeedCache } from "../../src/edge/feed-cache.js";
import { SiteReader, startServer, type RunningServer } from "../../src/server/serve.js";
import { tempDir, writeDataset } from "./dataset.js";
import { smallRows } from "./rows.js";

export const BUILT_AT = Date.parse("2026-11-19T11:30:00Z");

export async function builtSite(nowMs = BUILT_AT): Promise<{ data: string; out: string }> {
  const data = await writeDataset(await tempDir(), smallRows());
  const out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs });
  return { data, out };
}

export function depsFor(
  out: string,
  o: Partial<HandlerDeps> & { reads?: string[]; counters?: CounterStore } = {},
): HandlerDeps {
  const site = new SiteReader(out);
  const reads = o.reads;
  return {
    readFile: (p) => {
      reads?.push(p);
      return site.readFile(p);
    },
    readBytes: (p) => site.readBytes(p),
    manifest: () => site.manifest(),
    counters: o.counters ?? new MemoryStore(),
    now: () => BUILT_AT + 60_000,
    clientAddress: "192.0.2.1",
    limits: { window: 240, windowSeconds: 60, daily: 1000 },
    serveSite: true,
    cache: new FeedCache(),
    ...o,
  };
}

/**
 * `price-feed serve` on a free loopback port over a built site, at a clock just after its build, with
 * generous limits and its log lines kept in `logs`; `o` overrides any of it.
 */
export function testServer(
  dir: string,
  o: Partial<Parameters<typeof startServer>[0]> = {},
  logs: string[] = [],
): Promise<RunningServer> {
  return startServer({
    dir,
    port: 0,
    host: "127.0.0.1",
    nowMs: BUILT_AT + 60_000,
    limits: { window: 240, windowSeconds: 60, daily: 1000 },
    trustProxy: false,
    log: (l) => logs.push(l),
    ...o,
  });
}

/** A build of the committed sample data (data/) at its usual instant, into a fresh folder, leaving data/ as it is. */
export async function builtSample(prefix = "pf-sample-"): Promise<string> {
  const out = path.join(await tempDir(prefix), "public");
  await runBuild({
    dataDir: path.resolve("data"),
    outDir: out,
    nowMs: Date.parse("2026-11-19T12:30:00Z"),
    saveState: false,
    force: true,
  });
  return out;
}
