/**
 * An offline machine, said once (issue 50, item 7). With no network, `ingest --dry-run` took 59 s
 * and printed 26 near-identical getaddrinfo failures, the 18 pages of one aggregator asked one after
 * another on their host's lane, then "0 of 26 sources succeeded" with no hint. Now a host that does
 * not resolve fails the later sources of its lane at once, and when every source on the network
 * failed to resolve or connect, ingest says once that the machine seems to have no network, and
 * what to do. The hosts are under `.invalid` (RFC 6761: never resolves) and a closed loopback port:
 * no internet is needed, and none is used.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { runIngest } from "../../src/jobs/ingest.js";
import { globalSource, ingestArgv, localSeller, runMain, sourcesDataset, writeAlphaBoard } from "../helpers/ingest.js";

const NOW = "2026-11-19T10:00:00Z";
const NOW_MS = Date.parse(NOW);

/** Three sources on one host that does not resolve, two on another. */
const unresolvable = [
  globalSource("a1", "https://rates-a.invalid/usd.json"),
  globalSource("a2", "https://rates-a.invalid/eur.json"),
  globalSource("a3", "https://rates-a.invalid/gbp.json"),
  globalSource("b1", "https://rates-b.invalid/usd.json"),
  globalSource("b2", "https://rates-b.invalid/eur.json"),
];

/** The global fetch, counting the requests made to each host. */
function countingFetch(): { fetch: typeof fetch; asked: Map<string, number> } {
  const asked = new Map<string, number>();
  return {
    asked,
    fetch: (input, init) => {
      const host = new URL(String(input instanceof Request ? input.url : input)).hostname;
      asked.set(host, (asked.get(host) ?? 0) + 1);
      return fetch(input, init);
    },
  };
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("a host that does not resolve", () => {
  test("fails the later sources of its lane at once, each naming the host and the source that found it", async () => {
    const dir = await sourcesDataset(unresolvable);
    const { fetch, asked } = countingFetch();
    const r = await runIngest({ dataDir: dir, nowMs: NOW_MS, dryRun: true, fetch, sleep: async () => {} });
    expect(r.reports.map((x) => x.ok)).toEqual([false, false, false, false, false]);
    const [a1, a2, a3, b1, b2] = r.reports;
    expect(a1!.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
    for (const x of [a2, a3])
      expect(x!.error).toMatch(
        /^not asked: its host rates-a\.invalid did not resolve for a1 earlier in this run \((ENOTFOUND|EAI_AGAIN)\)$/,
      );
    expect(b1!.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(b2!.error).toMatch(/^not asked: its host rates-b\.invalid did not resolve for b1 earlier/);
    // Only the first source of each host was asked (with its retries): not three, and not two, times that.
    const perSource = asked.get("rates-a.invalid")!;
    expect(perSource).toBeGreaterThanOrEqual(1);
    expect(asked.get("rates-b.invalid")).toBe(perSource);
    expect(r.offline).toMatch(
      /^this machine seems to have no network: none of the 5 sources on the network could be reached \((ENOTFOUND|EAI_AGAIN)(, (ENOTFOUND|EAI_AGAIN))?\); check its connection, DNS and any proxy or firewall, then run ingest again/,
    );
  });
});

describe("the machine seems to have no network: said once", () => {
  test("price-feed ingest --dry-run: one line, with what to do, beside each source's failure; exit 2", async () => {
    const dir = await sourcesDataset(unresolvable);
    const { code, out } = await runMain(ingestArgv(dir, NOW, "--dry-run"));
    expect(code).toBe(2);
    const said = out.split("\n").filter((l) => /no network/.test(l));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/then run ingest again \(sources that read no network ran as usual\)$/);
    expect(out).toMatch(/0 of 5 sources succeeded$/);
  });

  test("nothing listening: connections refused are the same verdict; a source that reads no network still runs", async () => {
    const port = await closedPort();
    const dir = await sourcesDataset([
      globalSource("down1", `http://127.0.0.1:${port}/usd.json`),
      globalSource("down2", `http://localhost:${port}/eur.json`),
      localSeller,
    ]);
    await writeAlphaBoard(dir);
    const r = await runIngest({ dataDir: dir, nowMs: NOW_MS, dryRun: true, sleep: async () => {} });
    expect(r.reports.map((x) => [x.id, x.ok])).toEqual([
      ["down1", false],
      ["down2", false],
      ["local", true],
    ]);
    expect(r.offline).toMatch(/none of the 2 sources on the network could be reached \(ECONNREFUSED\)/);
  });

  test("a server that answers, even with an error, is a network: nothing is said", async () => {
    const server = createServer((_req, res) => res.writeHead(500).end("down for maintenance"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const dir = await sourcesDataset([
        globalSource("a1", "https://rates-a.invalid/usd.json"),
        globalSource("up", `http://127.0.0.1:${port}/usd.json`),
      ]);
      const r = await runIngest({ dataDir: dir, nowMs: NOW_MS, dryRun: true, sleep: async () => {} });
      expect(r.reports.map((x) => x.ok)).toEqual([false, false]);
      expect(r.reports[1]!.error).toMatch(/500/);
      expect(r.offline).toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
