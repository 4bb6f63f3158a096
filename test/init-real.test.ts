/**
 * A real deployment from one command: `price-feed init DIR`, the recorded Banque Misr page and
 * Ta3weem's relay of CIB served on loopback, `ingest`, then `build`: the feed's USD table holds the
 * real banks with their Arabic names, the prices the pages show, and where and when each was seen.
 */
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { runBuild } from "../src/jobs/build.js";
import { runIngest } from "../src/jobs/ingest.js";
import { Feed } from "../src/schema/outputs.js";
import { SourceHealth } from "../src/schema/documents.js";
import { tempDir } from "./helpers/dataset.js";
import { sourcesServer } from "./helpers/sources-server.js";

const FIXTURES = path.resolve("test/fixtures/sellers");
let server: Awaited<ReturnType<typeof sourcesServer>>;
let data: string;

beforeAll(async () => {
  const page = (file: string) => (_: unknown, res: import("node:http").ServerResponse) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(readFileSync(path.join(FIXTURES, file)));
  server = await sourcesServer({
    "GET /banque-misr": page("banquemisr-rates-2026-reduced-fixture.html"),
    "GET /ta3weem-cib": page("ta3weem-cib-2026-reduced-fixture.html"),
  });
  data = path.join(await tempDir("pf-init-"), "data");
  expect(await main(["node", "price-feed", "init", data])).toBe(0);
  // Point the two recorded pages at the loopback server; every other source stays as init wrote it
  // but disabled, since this machine has no internet.
  const file = path.join(data, "sources.json");
  const cfg = JSON.parse(await fs.readFile(file, "utf8")) as { sources: Array<Record<string, unknown>> };
  cfg.sources = cfg.sources.map((s) =>
    s["id"] === "banque-misr" || s["id"] === "ta3weem-cib"
      ? { ...s, enabled: true, url: `${server.url}/${s["id"] as string}` }
      : { ...s, enabled: false },
  );
  // A real contact: ingest refuses to send init's placeholder to real sources (docs/operating.md).
  (cfg as Record<string, unknown>)["contact"] = "mailto:ops@price-feed.test";
  await fs.writeFile(file, JSON.stringify(cfg));
});
afterAll(() => server.close());

async function buildAt(iso: string) {
  const nowMs = Date.parse(iso);
  const out = path.join(await tempDir("pf-init-out-"), "public");
  await runBuild({ dataDir: data, outDir: out, nowMs, renderers: [] });
  const read = async (f: string) => JSON.parse(await fs.readFile(path.join(out, f), "utf8")) as unknown;
  return {
    feed: Feed.parse(await read("api/v1/feed.json")),
    health: SourceHealth.parse(await read("api/v1/sources.json")),
  };
}

describe("price-feed init, then the hourly loop on real pages", () => {
  test("init refuses a folder that is not empty", async () => {
    expect(await main(["node", "price-feed", "init", data])).toBe(1);
  });

  test("the seller tables hold real banks, their Arabic names and the pages' prices", async () => {
    const { reports } = await runIngest({
      dataDir: data,
      nowMs: Date.parse("2026-09-13T12:30:00Z"),
      retries: 0,
      backoffMs: 1,
      timeoutMs: 5000,
    });
    expect(reports.map((r) => [r.id, r.ok])).toEqual([
      ["banque-misr", true],
      ["ta3weem-cib", true],
    ]);

    // 10 September, after Banque Misr's 14:28 update (Cairo, UTC+3).
    const sep10 = await buildAt("2026-09-10T12:00:00Z");
    const usd = sep10.feed.assets.find((a) => a.id === "USD-EGP")!;
    expect(usd.asOf).toBe("2026-09-10");
    expect(usd.sellers).toEqual([
      {
        id: "banque-misr",
        seller: "Banque Misr",
        sellerAr: "بنك مصر",
        buy: 51.27,
        sell: 51.37,
        observedAt: "2026-09-10T11:28:09Z",
        source: "banque-misr",
        sources: ["banque-misr"],
        previous: null, // the first day the feed has: no previous close
      },
    ]);
    expect(sep10.feed.assets.find((a) => a.id === "EUR-EGP")!.sellers).toMatchObject([
      { id: "banque-misr", buy: 59.59, sell: 59.8 },
    ]);

    // 13 September: CIB's rate as the aggregator relays it; the quote is CIB's, the source Ta3weem's.
    const sep13 = await buildAt("2026-09-13T12:30:00Z");
    expect(sep13.feed.assets.find((a) => a.id === "USD-EGP")!.sellers).toEqual([
      {
        id: "commercial-international-bank",
        seller: "Commercial International Bank (CIB)",
        sellerAr: "البنك التجاري الدولي",
        buy: 51.34,
        sell: 51.44,
        observedAt: "2026-09-13T11:54:00Z",
        source: "ta3weem-cib",
        sources: ["ta3weem-cib"],
        previous: null,
      },
    ]);
    const health = new Map(sep13.health.sources.map((s) => [s.id, s]));
    expect(health.get("ta3weem-cib")).toMatchObject({
      kind: "aggregator",
      assets: ["USD-EGP"],
      lastSuccessAt: "2026-09-13T12:30:00.000Z",
      lastFailure: null,
    });
    expect(health.get("banque-misr")).toMatchObject({ kind: "seller", lastSuccessAt: "2026-09-13T12:30:00.000Z" });
  });
});
