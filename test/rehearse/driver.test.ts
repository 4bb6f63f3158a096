/**
 * The rehearsal's driver (src/rehearse/run.ts) with the real jobs — ingest, compact, build (signed),
 * verify — against a small stand-in internet of its own on loopback: two banks' JSON boards and a
 * global reference, every price a function of the hour. The stand-in oracle only holds the feed to
 * itself (each side's best is the best of its rows); the real oracle's checks are in rehearse.test.ts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rehearse, type Difference, type Oracle, type StartWorld } from "../../src/rehearse/run.js";
import { faultSchedule, NET_FAULTS, PROCESS_FAULTS } from "../../src/rehearse/schedule.js";
import { KILL_POINTS } from "../../src/io/site-writer.js";
import { STATE_FILES } from "../../src/rehearse/faults.js";
import { summaryJson, summaryText } from "../../src/rehearse/summary.js";
import type { Sources } from "../../src/schema/inputs.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";

const HOUR = 3_600_000;
// Wednesday 2026-11-18 00:00 Cairo: the span runs into Thursday, then the weekend.
const FROM = Date.parse("2026-11-17T22:00:00Z");

/** A board: alpha and beta quote USD, beta 5 piastres dearer on both sides; prices drift with the hour. */
const board = (seller: string, nowMs: number) => {
  const h = Math.floor((nowMs - FROM) / HOUR);
  const mid = 47.8 + 0.01 * ((h * 7) % 11) + (seller === "beta" ? 0.05 : 0);
  return [{ code: "USD", buy: Math.round((mid - 0.07) * 100) / 100, sell: Math.round((mid + 0.07) * 100) / 100 }];
};

/** The stand-in internet: each source's document at /<id>, an outage answering 500. */
const standIn: StartWorld = async ({ sources }) => {
  let now = FROM;
  let down = new Set<string>();
  const server = createServer((req, res) => {
    const id = (req.url ?? "/").slice(1);
    if (down.has(id) || down.has("*")) return void res.writeHead(500).end("down");
    const src = sources.sources.find((s) => s.id === id);
    if (!src) return void res.writeHead(404).end();
    const body =
      src.adapter === "global-rates"
        ? { date: new Date(now).toISOString().slice(0, 10), usd: { egp: board("alpha", now)[0]!.sell - 0.05 } }
        : board(id.split("-")[0]!, now);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    served: sources.sources.map((s) => s.id),
    unserved: [],
    pointSources: (file: Sources) => ({
      ...file,
      sources: file.sources.map((s) =>
        s.adapter === "global-rates" ? { ...s, urls: [`${url}/${s.id}`] } : { ...s, url: `${url}/${s.id}` },
      ) as Sources["sources"],
    }),
    setHour(nowMs, faults) {
      now = nowMs;
      down = new Set(faults.filter((f) => f.kind === "outage" || f.kind === "unavailable").map((f) => f.source));
    },
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())),
  };
};

/** The stand-in oracle: each side's published best is the best of the published rows (buy: highest, sell: lowest). */
const selfConsistent: Oracle = {
  expectFeed: () => Promise.resolve(null),
  async compareFeed(_e, publicDir) {
    const feed = JSON.parse(await fs.readFile(path.join(publicDir, "api/v1/feed.json"), "utf8")) as {
      assets: Array<{
        id: string;
        sellers: Array<{ buy: number | null; sell: number | null }>;
        directions: Record<"buy" | "sell", { best: { value: number } | null }>;
      }>;
    };
    const out: Difference[] = [];
    for (const a of feed.assets)
      for (const side of ["buy", "sell"] as const) {
        const values = a.sellers.map((r) => r[side]).filter((v): v is number => v !== null);
        const want = values.length ? (side === "buy" ? Math.max(...values) : Math.min(...values)) : null;
        const got = a.directions[side].best?.value ?? null;
        if (want !== got)
          out.push({
            invariant: "feed",
            asset: a.id,
            path: `directions.${side}.best.value`,
            expected: want,
            published: got,
          });
      }
    return out;
  },
};

const seller = (id: string) => ({
  id: `${id}-board`,
  name: `${id}'s board`,
  kind: "seller",
  adapter: "seller-document",
  url: "https://example.invalid/",
  format: "json",
  fields: { seller: { const: id }, asset: "code", buy: "buy", sell: "sell" },
  assets: { USD: "USD-EGP" },
});

let config: string;
beforeAll(async () => {
  config = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
  await fs.writeFile(
    path.join(config, "sources.json"),
    JSON.stringify({
      contact: "mailto:operator@your-domain.example", // init's placeholder: the rehearsal names its own
      sources: [
        seller("alpha"),
        seller("beta"),
        {
          id: "glob",
          name: "glob",
          adapter: "global-rates",
          urls: ["https://example.invalid/"],
          base: "usd",
          assets: [{ asset: "USD-EGP", currency: "usd" }],
        },
      ],
    }),
  );
});
afterAll(async () => {});

const run = (o: { days: number; seed: string; faults: boolean; tamper?: "worst-as-best" }) =>
  rehearse({ dataDir: config, fromMs: FROM, startWorld: standIn, oracle: selfConsistent, ...o });

describe("the driver, against a stand-in internet", () => {
  test("two quiet days: every hour checked, both banks graduate, the configuration untouched", async () => {
    const before = await fs.readFile(path.join(config, "sources.json"), "utf8");
    const r = await run({ days: 2, seed: "quiet", faults: false });
    expect(r.failures).toEqual([]);
    expect(r.hours).toBe(48);
    expect(r.faults).toEqual({});
    // Per hour: job, data; per build: verify, feed, events.
    expect(r.checks.byInvariant["job"]).toEqual({ passed: 48, failed: 0 });
    expect(r.checks.byInvariant["verify"]).toEqual({ passed: 48, failed: 0 });
    expect(r.checks.byInvariant["events"]).toEqual({ passed: 48, failed: 0 });
    expect(r.sources.map((s) => [s.source, s.standing])).toEqual([
      ["alpha-board", "graduated"],
      ["beta-board", "graduated"],
    ]);
    expect(await fs.readFile(path.join(config, "sources.json"), "utf8")).toBe(before);
    expect(await fs.readdir(config)).not.toContain("state");
  }, 300_000);

  test("a build publishing the worst seller as the best is caught once two sellers count", async () => {
    const lines: string[] = [];
    const r = await rehearse({
      dataDir: config,
      fromMs: FROM,
      days: 2,
      seed: "tamper",
      faults: false,
      tamper: "worst-as-best",
      startWorld: standIn,
      oracle: selfConsistent,
      log: (l) => lines.push(l),
    });
    const feed = r.failures.filter((f) => f.invariant === "feed");
    expect(feed.length).toBeGreaterThan(0);
    expect(feed[0]!.hour).toBeLessThan(48);
    expect(feed[0]!.what).toMatch(/USD-EGP directions\.(buy|sell)\.best\.value: expected 4\d\.\d+, published 4\d\.\d+/);
    // Each failure says how to replay it.
    expect(lines.find((l) => l.startsWith("FAIL"))).toMatch(
      /replay: price-feed rehearse .*--seed tamper --from 2026-11-17T22:00:00Z --days 2/,
    );
    expect(summaryText(r)).toMatch(/failed/);
  }, 300_000);

  test("three days of process faults and outages: each refused or recovered, nothing lost", async () => {
    const r = await run({ days: 3, seed: "faults-3", faults: true });
    expect(r.failures).toEqual([]);
    for (const k of PROCESS_FAULTS) expect(r.faults[k]).toBeGreaterThan(0);
    expect(r.checks.failed).toBe(0);
    // What each met: a kill at a swap step, a lost cache, a state file cut short and refused in one line.
    const met = r.incidents.map((i) => i.what).join("\n");
    expect(met).toMatch(
      /build killed at (before-renames|between-renames|after-renames|before-removal): the site served is/,
    );
    expect(met).toMatch(/the site's cache lost/);
    expect(met).toMatch(
      /state\/\w+\.json cut short: (\w+ refused in one line \(data\/state\/\w+\.json.*\); restored as committed|the build went on and its report says so)/,
    );
  }, 300_000);
});

describe("a state file cut short", () => {
  test("events.json: the build goes on, says so, and its new record is kept, not the old one put back", async () => {
    // Seed cut-5 cuts state/events.json in hour 20 of 48 (found by drawing the schedule).
    const r = await run({ days: 2, seed: "cut-5", faults: true });
    expect(r.incidents.map((i) => [i.hour, i.what])).toContainEqual([
      20,
      "state/events.json cut short: the build went on and its report says so",
    ]);
    expect(r.failures).toEqual([]);
  }, 300_000);
});

describe("the fault schedule", () => {
  const input = (seed: string, hours = 14 * 24) => ({
    seed,
    hours,
    targets: Object.fromEntries(NET_FAULTS.map((k) => [k, ["a", "b", "c"]])),
    killPoints: KILL_POINTS,
    stateFiles: STATE_FILES,
  });

  test("a pure function of the seed: the same seed, the same schedule; another seed, another", () => {
    expect(faultSchedule(input("s1"))).toEqual(faultSchedule(input("s1")));
    expect(faultSchedule(input("s1"))).not.toEqual(faultSchedule(input("s2")));
  });

  test("fourteen days meet every kind at least once, none in the first hour, within the span", () => {
    const s = faultSchedule(input("any"));
    expect(new Set(s.map((f) => f.kind))).toEqual(new Set([...NET_FAULTS, ...PROCESS_FAULTS]));
    expect(Math.min(...s.map((f) => f.hour))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...s.map((f) => f.hour))).toBeLessThan(14 * 24);
    expect(s.filter((f) => f.kind === "reference-down").every((f) => f.hours === 24)).toBe(true);
  });

  test("a kind without a target is never scheduled", () => {
    const s = faultSchedule({ ...input("x"), targets: { outage: ["a"] } });
    expect(new Set(s.map((f) => f.kind))).toEqual(new Set(["outage", ...PROCESS_FAULTS]));
  });
});

describe("the summary", () => {
  test("the JSON replays byte for byte: the wall-clock figures are apart", async () => {
    const a = await run({ days: 1, seed: "same", faults: true });
    const b = await run({ days: 1, seed: "same", faults: true });
    expect(summaryJson(a).replay).toBe(summaryJson(b).replay);
    expect(summaryJson(a).replay).not.toMatch(/hoursPerSecond|seconds/);
  }, 300_000);
});
