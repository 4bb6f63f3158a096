/**
 * For the fault tests that run `price-feed` as real processes (test/faults/disk.test.ts,
 * test/faults/race.test.ts): the compiled CLI run to its end, and a seller document of many quotes
 * served on loopback (closed after each test) with its sources entry, so an ingest appends lines
 * that can be counted.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { CONTACT, closedAfterEach } from "./ingest.js";
import { sourcesServer, type Route } from "./sources-server.js";

export const BIN = path.resolve("dist/cli/bin.js");
/** Not a placeholder (src/jobs/ingest.ts unreachableContact): `.test` is reserved for tests (RFC 2606 §2). */
export { CONTACT };

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node dist/cli/bin.js …args`, to its exit. */
export function runCli(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `price-feed build --data <dataDir> --out <out> --now <now>`, to its exit. */
export const buildCli = (dataDir: string, out: string, now: string): Promise<CliRun> =>
  runCli(["build", "--data", dataDir, "--out", out, "--now", now]);

/**
 * `n` quotes of Alpha Bank for the US dollar, one every 10 s from 08:00 Cairo time of `date` (UTC+2
 * in November), as a seller document's records; `from` skips the first ones (another batch).
 */
export function quoteRecords(n: number, date: string, from = 0): object[] {
  const start = Date.parse(`${date}T06:00:00Z`);
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      bank: "Alpha Bank",
      currency: "USD",
      buy: (47 + (i % 100) / 1000).toFixed(3),
      sell: (47.2 + (i % 100) / 1000).toFixed(3),
      updated: new Date(start + i * 10_000).toISOString(),
    };
  });
}

/** The sources entry reading such a document at `url`. */
export const documentSource = (id: string, url: string) => ({
  id,
  name: id,
  adapter: "seller-document",
  url,
  format: "json",
  records: "rates",
  fields: { seller: "bank", asset: "currency", buy: "buy", sell: "sell", time: "updated" },
  sellers: { "Alpha Bank": "alpha" },
  assets: { USD: "USD-EGP" },
});

/**
 * A loopback server's routes answering `GET /rates` with `records(k)`, k counting the requests from
 * 0. With `barrier`, the answers wait until that many requests have arrived (no timer: each arrival
 * releases the waiting ones once the count is reached), so that that many ingests go on to their
 * append at one instant.
 */
function documentRoutes(records: (k: number) => object[], barrier: number): Record<string, Route> {
  let arrived = 0;
  const waiting: Array<() => void> = [];
  const route: Route = async (_q, res) => {
    const k = arrived++;
    if (arrived < barrier) await new Promise<void>((r) => waiting.push(r));
    else while (waiting.length) waiting.shift()!();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ rates: records(k) }));
  };
  return { "GET /rates": route };
}

/**
 * For a test file: `documentServer(records, barrier = 0)` starts a loopback server of those routes
 * (documentRoutes), closed after the test that started it (helpers/ingest.ts closedAfterEach).
 */
export function documentServers(): (
  records: (k: number) => object[],
  barrier?: number,
) => ReturnType<typeof sourcesServer> {
  const serve = closedAfterEach();
  return (records, barrier = 0) => serve(documentRoutes(records, barrier));
}

/** Writes a sources file of these entries with the contact. */
export async function writeSources(dataDir: string, sources: object[], contact: string = CONTACT): Promise<void> {
  await fs.writeFile(path.join(dataDir, "sources.json"), JSON.stringify({ contact, sources }));
}

/**
 * The data folder's sources become its own, still listed (its quotes name them) but disabled (they
 * are demo sources without a market), and documentSource("alpha-site") reading `url`.
 */
export async function addAlphaSite(dataDir: string, url: string): Promise<void> {
  const own = JSON.parse(await fs.readFile(path.join(dataDir, "sources.json"), "utf8")) as { sources: object[] };
  await writeSources(dataDir, [
    ...own.sources.map((x) => ({ ...x, enabled: false })),
    documentSource("alpha-site", url),
  ]);
}

/** The lines of a day log, and how many of them are there more than once. */
export async function logLines(file: string): Promise<{ lines: string[]; duplicates: number; torn: boolean }> {
  const text = await fs.readFile(file, "utf8");
  const lines = text.split("\n").filter(Boolean);
  const torn = text.length > 0 && !text.endsWith("\n");
  return { lines, duplicates: lines.length - new Set(lines).size, torn };
}
