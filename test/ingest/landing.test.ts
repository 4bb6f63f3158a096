/**
 * Issue 42 items 1 and 2: sources are asked concurrently (bounded, one at a time per host), each
 * within a budget of its own inside the run's, and each lands as it finishes, so a run killed or
 * cut short keeps every source that finished. Real HTTP on loopback: 127.0.0.1, 127.0.0.2, … are
 * different hosts (Linux answers the whole of 127/8); two ports of one address are one host.
 * Concurrency is checked by counting requests in flight on the servers, never by timing.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { runIngest } from "../../src/jobs/ingest.js";
import { hostLanes, hostsOf, durationWords, runLanes } from "../../src/jobs/ingest-schedule.js";
import { runBuild } from "../../src/jobs/build.js";
import { localSeller, sourcesDataset } from "../helpers/ingest.js";
import { BIN } from "../helpers/ingest-fixture.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const NOW = "2026-11-19T10:30:00Z";
const NOW_MS = Date.parse(NOW);
/** A seller document of Alpha's board: one USD quote. */
const BOARD = JSON.stringify([{ code: "USD", buy: 47.7, sell: 47.85 }]);

/** Requests in flight over every server of a test, and the most seen at once (overall and per host). */
class InFlight {
  now = 0;
  max = 0;
  byHost = new Map<string, { now: number; max: number }>();
  enter(host: string) {
    this.max = Math.max(this.max, ++this.now);
    const h = this.byHost.get(host) ?? { now: 0, max: 0 };
    h.max = Math.max(h.max, ++h.now);
    this.byHost.set(host, h);
  }
  leave(host: string) {
    this.now--;
    this.byHost.get(host)!.now--;
  }
}

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

/** A server on `address` (127.0.0.x): `handle` answers; what is in flight is counted in `flight`. */
async function hostServer(
  address: string,
  flight: InFlight,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  const server = createServer((req, res) => {
    flight.enter(address);
    let left = false;
    const leave = () => void (left || (flight.leave(address), (left = true)));
    res.on("finish", leave).on("close", leave);
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  servers.push({ close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())) });
  return `http://${address}:${(server.address() as AddressInfo).port}`;
}

/** A source reading Alpha's board at `url`. */
const board = (id: string, url: string) => ({ ...localSeller, id, path: undefined, url: `${url}/board.json` });

/**
 * A gate the handlers wait at: every request is held until `want` are in flight at once (or, should
 * fewer ever come, until `hold` ms have passed: the count then says so), then answered.
 */
function gate(flight: InFlight, want: number, hold = 3000) {
  const waiting: Array<() => void> = [];
  return (_req: IncomingMessage, res: ServerResponse) => {
    const answer = () => res.writeHead(200, { "content-type": "application/json" }).end(BOARD);
    waiting.push(answer);
    if (flight.now >= want) while (waiting.length) waiting.shift()!();
    else setTimeout(() => waiting.includes(answer) && (waiting.splice(waiting.indexOf(answer), 1), answer()), hold);
  };
}

const lines = async (dir: string, file: string) =>
  (await fs.readFile(path.join(dir, file), "utf8").catch(() => "")).split("\n").filter(Boolean);
const state = async (dir: string) =>
  JSON.parse(await fs.readFile(path.join(dir, "state/sources.json"), "utf8")) as {
    sources: Record<string, { lastSuccessAt: string | null; lastFailure: { reason: string } | null }>;
  };

describe("which sources share a lane: the hosts their configuration names", () => {
  test.each([
    ["a page", { url: "https://www.Bank.example/rates?x=1" }, ["www.bank.example"]],
    ["the port does not count", { url: "http://127.0.0.1:8080/a" }, ["127.0.0.1"]],
    ["CBE's page", { pageUrl: "https://www.cbe.org.eg/en/x" }, ["www.cbe.org.eg"]],
    [
      "fallbacks",
      { urls: ["https://a.example/1", "https://b.example/2", "https://a.example/3"] },
      ["a.example", "b.example"],
    ],
    [
      "a token's host too",
      { url: "https://api.example/fetch", token: { url: "https://auth.example/t" } },
      ["api.example", "auth.example"],
    ],
    ["a trailing dot", { url: "https://bank.example./" }, ["bank.example"]],
    ["a file", { path: "alpha.json" }, []],
    ["the demo", { adapter: "demo" }, []],
  ])("%s", (_name, cfg, hosts) => expect(hostsOf(cfg)).toEqual(hosts));

  test("lanes join sources naming a common host, transitively, in the sources' order", () => {
    expect(
      hostLanes([
        { url: "https://a.example/" }, // 0
        { path: "x.json" }, // 1: alone
        { urls: ["https://b.example/", "https://c.example/"] }, // 2
        { url: "https://a.example/other" }, // 3: with 0
        { url: "https://c.example/", token: { url: "https://a.example/t" } }, // 4: joins 0 and 2
        { url: "https://d.example/" }, // 5
      ]),
    ).toEqual([[0, 2, 3, 4], [1], [5]]);
  });

  test("the pool runs at most n lanes at once, each lane's items one after another", async () => {
    let now = 0;
    let max = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const done = runLanes([[0, 1], [2], [3], [4]], 2, async (i) => {
      max = Math.max(max, ++now);
      order.push(i);
      await new Promise<void>((r) => releases.push(r));
      now--;
    });
    while (order.length < 5) {
      await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    }
    while (releases.length) releases.shift()!();
    await done;
    expect(max).toBe(2);
    expect(order.indexOf(1)).toBeGreaterThan(order.indexOf(0));
  });

  test.each([
    [250, "250 ms"],
    [1500, "1.5 s"],
    [60_000, "60 s"],
    [600_000, "10 min"],
  ])("%d ms reads %s", (ms, words) => expect(durationWords(ms)).toBe(words));
});

describe("sources asked concurrently, one request at a time per host", () => {
  test("eight slow sources on eight hosts are asked together (up to --concurrency), and all land", async () => {
    for (const [concurrency, want] of [
      [8, 8],
      [undefined, 4], // the default
    ] as const) {
      const flight = new InFlight();
      const hold = gate(flight, want);
      const urls = [];
      for (let k = 1; k <= 8; k++) urls.push(await hostServer(`127.0.0.${k}`, flight, hold));
      const dir = await sourcesDataset(urls.map((u, k) => board(`s${k + 1}`, u)));
      const { reports, files } = await runIngest({
        dataDir: dir,
        nowMs: NOW_MS,
        ...(concurrency ? { concurrency } : {}),
      });
      expect(flight.max).toBe(want);
      expect(reports.map((r) => [r.id, r.ok, r.appended])).toEqual(urls.map((_, k) => [`s${k + 1}`, true, 1]));
      expect(files).toEqual(["quotes/2026-11-19.ndjson"]);
      expect(await lines(dir, files[0]!)).toHaveLength(8);
      while (servers.length) await servers.pop()!.close();
    }
  }, 30_000);

  test("sources on one host never overlap (two ports of it too); another host's source is asked meanwhile", async () => {
    const flight = new InFlight();
    // Each answers only after the one on the other host has come in, or after 300 ms: overlap shows.
    const slow = (_req: IncomingMessage, res: ServerResponse) =>
      void setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(BOARD), 300);
    const a = await hostServer("127.0.0.1", flight, slow);
    const b = await hostServer("127.0.0.1", flight, slow);
    const other = await hostServer("127.0.0.2", flight, slow);
    const dir = await sourcesDataset([board("a1", a), board("b1", b), board("a2", a), board("o", other)]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW_MS, concurrency: 8 });
    expect(reports.every((r) => r.ok)).toBe(true);
    expect(flight.byHost.get("127.0.0.1")!.max).toBe(1);
    expect(flight.max).toBe(2);
  }, 20_000);
});

describe("budgets", () => {
  test("a source over its budget fails saying so, its request is aborted, and the others land", async () => {
    const flight = new InFlight();
    let hungUp = false;
    const never = await hostServer("127.0.0.1", flight, (req) => req.socket.on("close", () => (hungUp = true)));
    const fine = await hostServer("127.0.0.2", flight, gate(flight, 1));
    const dir = await sourcesDataset([board("never", never), board("fine", fine)]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW_MS, sourceBudgetMs: 300 });
    expect(reports).toMatchObject([
      { id: "never", ok: false, error: "over its 300 ms budget (fetch and parse together)" },
      { id: "fine", ok: true, appended: 1 },
    ]);
    expect(hungUp).toBe(true);
    expect(await lines(dir, "quotes/2026-11-19.ndjson")).toEqual([expect.stringContaining('"source":"fine"')]);
    expect((await state(dir)).sources["never"]!.lastFailure!.reason).toMatch(/over its 300 ms budget/);
  });

  test("the run's budget: finished sources land, the one asked fails, the one behind it is not asked", async () => {
    const flight = new InFlight();
    const never = await hostServer("127.0.0.1", flight, () => {});
    const fine = await hostServer("127.0.0.2", flight, gate(flight, 1));
    const dir = await sourcesDataset([board("never", never), board("queued", never), board("fine", fine)]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW_MS, runBudgetMs: 400 });
    expect(reports).toMatchObject([
      { id: "never", ok: false, error: "run budget spent: the run's 400 ms ran out before this source finished" },
      {
        id: "queued",
        ok: false,
        error: "run budget spent: the run's 400 ms ran out before this source's turn (not asked)",
      },
      { id: "fine", ok: true, appended: 1 },
    ]);
    expect(flight.byHost.get("127.0.0.1")!.max).toBe(1); // "queued" was never asked
    const runs = (await state(dir)).sources;
    expect(runs["fine"]!.lastSuccessAt).toBe("2026-11-19T10:30:00.000Z");
    expect(runs["never"]!.lastFailure!.reason).toMatch(/run budget spent/);
    expect(runs["queued"]!.lastFailure!.reason).toMatch(/not asked/);
  });

  test("a run killed half-way (SIGKILL) keeps the finished source's lines, run and bodies", async () => {
    const flight = new InFlight();
    const never = await hostServer("127.0.0.1", flight, () => {});
    const fine = await hostServer("127.0.0.2", flight, gate(flight, 1, 0));
    const dir = await sourcesDataset([board("never", never), board("fine", fine)]);
    const bodies = path.join(await tempDir(), "bodies");
    const child = spawn(process.execPath, [BIN, "ingest", "--data", dir, "--now", NOW, "--save-bodies", bodies], {
      stdio: "ignore",
    });
    const exited = new Promise((r) => child.on("exit", r));
    // Waits for the finished source's record (the last thing its landing writes but the bodies).
    for (let i = 0; i < 600 && !(await fs.stat(path.join(bodies, "ok/fine/1.body")).catch(() => null)); i++)
      await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    await exited;
    expect(await lines(dir, "quotes/2026-11-19.ndjson")).toEqual([expect.stringContaining('"source":"fine"')]);
    expect((await state(dir)).sources).toEqual({
      fine: { lastRunAt: "2026-11-19T10:30:00.000Z", lastSuccessAt: "2026-11-19T10:30:00.000Z", lastFailure: null },
    });
    expect(await fs.readFile(path.join(bodies, "ok/fine/1.body"), "utf8")).toBe(BOARD);
  }, 60_000);
});

describe("landing order never changes what a build makes", () => {
  test("a day file whose sources' blocks come in another order builds the same site", async () => {
    const rows = smallRows();
    const [a, b] = [await tempDir(), await tempDir()];
    await writeDataset(a, rows);
    // The same lines, each source's block in its own order, the sources' blocks reversed.
    const bySource = new Map<string, typeof rows.quotes>();
    for (const q of rows.quotes) bySource.set(q.source, [...(bySource.get(q.source) ?? []), q]);
    await writeDataset(b, { ...rows, quotes: [...bySource.values()].reverse().flat() });
    const dayFile = (await fs.readdir(path.join(a, "quotes"))).at(-1)!;
    const [ta, tb] = [await lines(a, `quotes/${dayFile}`), await lines(b, `quotes/${dayFile}`)];
    expect(ta).not.toEqual(tb); // the test means something: the bytes differ…
    expect([...ta].sort()).toEqual([...tb].sort()); // …the lines do not
    const built = async (d: string) => {
      await runBuild({ dataDir: d, outDir: path.join(d, "public"), nowMs: NOW_MS });
      return snapshot(path.join(d, "public"));
    };
    expect(await built(b)).toEqual(await built(a));
  }, 60_000);
});
