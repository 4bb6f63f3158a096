/**
 * What the ingest tests share: an empty dataset whose sources.json lists the sources under test,
 * loopback source servers closed after each test, and `price-feed ingest` run in process with what
 * it prints kept.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import { main } from "../../src/cli/main.js";
import { userAgent, type HttpOptions } from "../../src/ingest/http.js";
import { tempDir, writeDataset } from "./dataset.js";
import { sourcesServer } from "./sources-server.js";

/** The contact the test datasets name (the User-Agent carries it). */
export const CONTACT = "mailto:ops@price-feed.test";

/** A dataset with no logs whose sources.json lists `sources` (and `extra` members) under CONTACT. */
export async function sourcesDataset(sources: unknown[], extra: object = {}): Promise<string> {
  const dir = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
  await fs.writeFile(path.join(dir, "sources.json"), JSON.stringify({ contact: CONTACT, sources, ...extra }));
  return dir;
}

/** HTTP options for requestBytes as a test run wants them: CONTACT's User-Agent, a 2 s timeout, 2 quick retries; `o` overrides. */
export const httpOptions = (o: Partial<HttpOptions> = {}): HttpOptions => ({
  userAgent: userAgent(CONTACT),
  timeoutMs: 2000,
  retries: 2,
  backoffMs: 5,
  ...o,
});

/** A global-rates source of USD-EGP at `url`; `more` adds or overrides members. */
export const globalSource = (id: string, url: string, more: object = {}) => ({
  id,
  name: id,
  adapter: "global-rates",
  urls: [url],
  base: "usd",
  assets: [{ asset: "USD-EGP", currency: "usd" }],
  ...more,
});

/** A seller document read from the data folder: Alpha's board, alpha.json (writeAlphaBoard writes it). */
export const localSeller = {
  id: "local",
  name: "Alpha's board",
  adapter: "seller-document",
  path: "alpha.json",
  format: "json",
  fields: { seller: { const: "alpha" }, asset: "code", buy: "buy", sell: "sell" },
  assets: { USD: "USD-EGP" },
};

/** Alpha's board in `dir`: US dollars bought at 47.7, sold at 47.85. */
export const writeAlphaBoard = (dir: string) =>
  fs.writeFile(path.join(dir, "alpha.json"), JSON.stringify([{ code: "USD", buy: 47.7, sell: 47.85 }]));

/** For a test file: starts helpers/sources-server.ts servers that are closed after each test. */
export function closedAfterEach(): (routes: Parameters<typeof sourcesServer>[0]) => ReturnType<typeof sourcesServer> {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    while (servers.length) await servers.pop()!.close();
  });
  return async (routes) => {
    const s = await sourcesServer(routes);
    servers.push(s);
    return s;
  };
}

/** `price-feed ingest --data <dir> --now <now> <flags…>`: the arguments after the program's name. */
export const ingestArgs = (dir: string, now: string, ...flags: string[]): string[] => [
  "ingest",
  "--data",
  dir,
  "--now",
  now,
  ...flags,
];

/** The same command line as main() takes it (process.argv). */
export const ingestArgv = (dir: string, now: string, ...flags: string[]): string[] => [
  "node",
  "price-feed",
  ...ingestArgs(dir, now, ...flags),
];

/** Runs a command line in process; resolves to its exit code and what it printed to stdout. */
export async function runMain(argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => void lines.push(line);
  try {
    const code = await main(argv);
    return { code, out: lines.join("\n") };
  } finally {
    console.log = log;
  }
}

/**
 * For a test file of the ingest against loopback sources: `serve` starts sources servers closed after
 * each test (closedAfterEach), `dataset` writes a dataset listing the sources (sourcesDataset), `http`
 * gives a run's HTTP options (httpOptions), and `ingest` runs `price-feed ingest --data <dir> --now
 * <now> <flags…>` in process (runMain).
 */
export function ingestHarness() {
  return {
    serve: closedAfterEach(),
    dataset: sourcesDataset,
    http: httpOptions,
    ingest: (dir: string, now: string, ...flags: string[]) => runMain(ingestArgv(dir, now, ...flags)),
  };
}
