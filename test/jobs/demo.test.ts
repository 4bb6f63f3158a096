/**
 * The live demo (`npm start` → `price-feed demo`): on a working copy of the committed data/, the
 * simulated market brought up to the demo's clock, built and served, and the hourly job run on the
 * hour. Here the demo runs on timers the test moves by hand (the command's own clock, realClock,
 * over a stand-in for the machine's time), two hours on without waiting for them; then the real
 * command once, through `npm start`: it serves at --now, arms the hour, and stops on SIGTERM.
 */
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { realClock, startDemo, type RunningDemo } from "../../src/jobs/demo/loop.js";
import { UsageError } from "../../src/core/errors.js";
import type { HourlyRun } from "../../src/jobs/demo/hourly.js";
import { runBuild } from "../../src/jobs/build.js";
import { writeSample } from "../../src/jobs/sample.js";
import { ManualTimers } from "../helpers/clock.js";
import { tempDir } from "../helpers/dataset.js";
import { freePort } from "../helpers/redis.js";

const ROOT = path.resolve(".");
const DATA = path.join(ROOT, "data");

/**
 * `npm start -- --now <iso>` on a machine whose time the test moves: the demo's clock reads `iso`
 * at start and advances with the machine's, whose timers fire only when the test moves it on.
 */
function pinned(iso: string) {
  const timers = new ManualTimers(Date.now());
  const offset = Date.parse(iso) - timers.now();
  return {
    timers,
    startMs: Date.parse(iso),
    /** Moves the demo's clock to `at`: the timers due by then fire. */
    to: (at: string) => timers.advanceTo(Date.parse(at) - offset),
    /** The instant, on the demo's clock, of the next timer the demo sets. */
    nextWake: async () => new Date((await timers.nextTimer()) + offset).toISOString(),
  };
}

/** Every file of a folder with its hash: data/ must be exactly as it was. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else
        out[path.relative(dir, full)] = createHash("sha256")
          .update(await fs.readFile(full))
          .digest("hex");
    }
  };
  await walk(dir);
  return out;
}

interface FeedAsset {
  slug: string;
  observedAt: string | null;
  freshness: { state: string };
  sellers: unknown;
}

async function feed(url: string, etag?: string) {
  const res = await fetch(`${url}/api/v1/feed.json`, etag ? { headers: { "If-None-Match": etag } } : {});
  const body = res.status === 200 ? ((await res.json()) as { generatedAt: string; assets: FeedAsset[] }) : null;
  return { status: res.status, etag: res.headers.get("etag")!, body };
}

async function readyz(url: string) {
  const res = await fetch(`${url}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as {
      status: string;
      checkedAt: string;
      staleAssets: string[];
      action: string | null;
      assets: Record<string, string>;
    },
  };
}

const running: RunningDemo[] = [];
afterAll(async () => {
  for (const d of running) await d.stop();
});

describe("the demo's clock (realClock: what --now sets)", () => {
  test("reads --now at start and advances with the machine; a wait is a timer of at most a minute, ended at its instant or by an abort", async () => {
    const machine = new ManualTimers(Date.parse("2026-11-23T08:00:00Z"));
    expect(realClock(undefined, machine).now()).toBe(machine.now());
    const clock = realClock(Date.parse("2026-11-22T09:59:45Z"), machine);
    expect(clock.now()).toBe(Date.parse("2026-11-22T09:59:45Z"));
    machine.advance(5_000);
    expect(clock.now()).toBe(Date.parse("2026-11-22T09:59:50Z"));

    const abort = new AbortController();
    // An hour away: a minute's timer, after which the caller looks at the clock again.
    const long = clock.sleepUntil(Date.parse("2026-11-22T11:00:00Z"), abort.signal);
    expect(machine.pending()).toEqual([machine.now() + 60_000]);
    machine.advance(60_000);
    await long;
    expect(machine.pending()).toEqual([]);
    // Ten seconds away: one timer, due at the instant.
    const short = clock.sleepUntil(clock.now() + 10_000, abort.signal);
    expect(machine.pending()).toEqual([machine.now() + 10_000]);
    machine.advance(10_000);
    await short;
    expect(clock.now()).toBe(Date.parse("2026-11-22T10:01:00Z"));
    // Aborted: ends at once, its timer cancelled; an aborted signal sets none.
    const aborted = clock.sleepUntil(clock.now() + 30_000, abort.signal);
    abort.abort();
    await aborted;
    await clock.sleepUntil(clock.now() + 30_000, abort.signal);
    expect(machine.pending()).toEqual([]);
  });
});

describe("the demo on a pinned clock", () => {
  test("starts as npm start does, then two hours on: new quotes, new ETags, fresh assets, /readyz 200, data/ untouched", async () => {
    const before = await snapshot(DATA);
    const work = await tempDir("pf-demo-");
    const clock = pinned("2026-11-22T09:30:00Z"); // Sunday 11:30 in Cairo: both sessions open
    const lines: string[] = [];
    let runs: HourlyRun[] = [];
    let ran: (() => void) | null = null;
    const errors: unknown[] = [];
    const demo = await startDemo({
      data: "data", // what `npm start` copies, from the project's root
      work,
      port: 0,
      host: "127.0.0.1",
      startMs: clock.startMs,
      timers: clock.timers,
      log: (l) => lines.push(l),
      onRun: (r) => {
        runs.push(r);
        ran?.();
      },
      onRunError: (e) => errors.push(e),
    });
    running.push(demo);
    const advanceTo = async (iso: string) => {
      const done = new Promise<void>((resolve) => (ran = resolve));
      clock.to(iso);
      await done; // the run is served from the moment it is reported
    };

    // Caught up from the committed data (which ends 2026-11-19) hour by hour, built, served.
    expect(demo.caughtUp).toMatchObject({ how: "ingested" });
    expect(demo.caughtUp.hours).toBeGreaterThan(48);
    const log = lines.join("\n");
    expect(log).toContain("caught the simulated market up to 2026-11-22T09:00Z");
    expect(log).toMatch(/09:30Z hourly run: .*assets: 15 fresh; \/readyz 200/);
    expect(log).toContain(`serving ${demo.url}/ (the market page), on a clock set to 2026-11-22T09:30Z`);
    expect(log).toContain("next at 10:00Z");

    const at0930 = await feed(demo.url);
    expect(at0930.status).toBe(200);
    expect(at0930.body!.generatedAt).toBe("2026-11-22T09:30:00.000Z");
    expect(at0930.body!.assets.map((a) => a.freshness.state)).toEqual(Array(15).fill("fresh"));
    const usd0930 = at0930.body!.assets.find((a) => a.slug === "us-dollar")!;
    expect(usd0930.observedAt).toBe("2026-11-22T09:00:00.000Z");
    const r0930 = await readyz(demo.url);
    expect(r0930).toMatchObject({
      status: 200,
      body: { status: "ready", checkedAt: "2026-11-22T09:30:00.000Z", staleAssets: [], action: null },
    });

    // Nothing happens between hours: woken a second before it, the demo goes back to sleep until the hour.
    const rearmed = clock.nextWake();
    clock.to("2026-11-22T09:59:59Z");
    expect(await rearmed).toBe("2026-11-22T10:00:00.000Z");
    expect(runs).toHaveLength(0);
    expect((await feed(demo.url, at0930.etag)).status).toBe(304);

    // 10:00: the hourly job runs on the copy; the feed has the new hour's quotes and a new ETag.
    await advanceTo("2026-11-22T10:00:00Z");
    expect(runs.map((r) => r.generatedAt)).toEqual(["2026-11-22T10:00:00.000Z"]);
    expect(runs[0]!.appended).toBeGreaterThan(0);
    const at1000 = await feed(demo.url, at0930.etag);
    expect(at1000.status).toBe(200);
    expect(at1000.etag).not.toBe(at0930.etag);
    const usd1000 = at1000.body!.assets.find((a) => a.slug === "us-dollar")!;
    expect(usd1000.observedAt).toBe("2026-11-22T10:00:00.000Z");
    expect(usd1000.sellers).not.toEqual(usd0930.sellers);
    expect((await feed(demo.url, at1000.etag)).status).toBe(304);

    // 11:00: once more.
    runs = [];
    await advanceTo("2026-11-22T11:00:00Z");
    expect(runs.map((r) => r.generatedAt)).toEqual(["2026-11-22T11:00:00.000Z"]);
    const at1100 = await feed(demo.url, at1000.etag);
    expect(at1100.status).toBe(200);
    expect(new Set([at0930.etag, at1000.etag, at1100.etag]).size).toBe(3);
    expect(at1100.body!.assets.find((a) => a.slug === "gold-24k")!.observedAt).toBe("2026-11-22T11:00:00.000Z");
    expect(at1100.body!.assets.map((a) => a.freshness.state)).toEqual(Array(15).fill("fresh"));
    expect(await readyz(demo.url)).toMatchObject({
      status: 200,
      body: { checkedAt: "2026-11-22T11:00:00.000Z", action: null },
    });
    expect(lines.join("\n")).toMatch(/11:00Z hourly run: ingest appended \d+ lines, .*\/readyz 200/);

    // The hours landed in the working copy's log; the committed data/ is exactly as it was.
    const today = await fs.readFile(path.join(work, "data/quotes/2026-11-22.ndjson"), "utf8");
    expect(today).toContain('"observedAt":"2026-11-22T11:00:00Z"');
    expect(await snapshot(DATA)).toEqual(before);

    expect(errors).toEqual([]);
    await demo.stop();
    running.pop();
    await expect(fs.access(path.join(work, "demo.pid"))).rejects.toMatchObject({ code: "ENOENT" });
  }, 120_000); // three builds of the sample: 9 s alone, past 30 s beside the 14-day rehearsal on 2 cores

  test("a machine that slept catches up every hour it missed at the next run", async () => {
    const work = await tempDir("pf-demo-");
    const clock = pinned("2026-11-22T09:10:00Z");
    const runs: HourlyRun[] = [];
    let ran: (() => void) | null = null;
    const demo = await startDemo({
      data: DATA,
      work,
      port: 0,
      host: "127.0.0.1",
      startMs: clock.startMs,
      timers: clock.timers,
      log: () => {},
      onRun: (r) => (runs.push(r), ran?.()),
    });
    running.push(demo);
    const done = new Promise<void>((resolve) => (ran = resolve));
    clock.to("2026-11-22T13:20:00Z");
    await done;
    expect(runs[0]).toMatchObject({ hours: 4, generatedAt: "2026-11-22T13:20:00.000Z" });
    const text = await fs.readFile(path.join(work, "data/quotes/2026-11-22.ndjson"), "utf8");
    for (const h of ["10", "11", "12", "13"]) expect(text).toContain(`"observedAt":"2026-11-22T${h}:00:00Z"`);
  });

  test("data more than a month behind the clock is regenerated as `sample --compact` ending now", async () => {
    const work = await tempDir("pf-demo-");
    const { startMs, timers } = pinned("2027-02-14T08:30:00Z"); // a Sunday, 10:30 in Cairo
    const demo = await startDemo({ data: DATA, work, port: 0, host: "127.0.0.1", startMs, timers, log: () => {} });
    running.push(demo);
    expect(demo.caughtUp.how).toBe("regenerated");
    expect(demo.first.readiness.status).toBe(200);
    expect((await readyz(demo.url)).status).toBe(200);
    const quotes = await fs.readdir(path.join(work, "data/quotes"));
    expect(quotes.at(-1)).toBe("2027-02-14.ndjson");
    expect(quotes.every((f) => f >= "2027-02-07")).toBe(true); // older days are daily closes, not raw files
  });

  test("one demo per working folder, never over someone's files; a port in use is refused before anything is copied", async () => {
    const work = await tempDir("pf-demo-");
    const { startMs, timers } = pinned("2026-11-22T09:30:00Z");
    const clock = { startMs, timers };
    const first = await startDemo({ data: DATA, work, port: 0, host: "127.0.0.1", ...clock, log: () => {} });
    running.push(first);
    const second = await startDemo({ data: DATA, work, port: 0, host: "127.0.0.1", ...clock, log: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(UsageError);
    expect((second as UsageError).message).toContain(`another demo (process ${process.pid}) is running in ${work}`);

    const other = await tempDir("pf-demo-");
    const busy = await startDemo({
      data: DATA,
      work: other,
      port: first.port,
      host: "127.0.0.1",
      ...clock,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(UsageError);
    expect((busy as UsageError).message).toBe(
      `port ${first.port} on 127.0.0.1 is already in use (another demo or server?)`,
    );
    expect((busy as UsageError).hint).toContain("--port 0");
    expect(await fs.readdir(other)).toEqual([]);

    const foreign = await tempDir("pf-demo-");
    await fs.writeFile(path.join(foreign, "notes.txt"), "mine");
    const refused = await startDemo({
      data: DATA,
      work: foreign,
      port: 0,
      host: "127.0.0.1",
      ...clock,
      log: () => {},
    }).catch((e: unknown) => e);
    expect((refused as UsageError).message).toContain("holds files the demo did not make (notes.txt)");
    expect(await fs.readdir(foreign)).toEqual(["notes.txt"]);

    const missing = await startDemo({
      data: path.join(other, "nope"),
      work: other,
      port: 0,
      host: "127.0.0.1",
      ...clock,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as UsageError).message).toContain("no such folder (--data)");
  });
});

describe("npm run sample over data/", () => {
  test("leaves no raw file of a day it compacted (nor closes of a day it wrote raw): the next build does not warn", async () => {
    const data = await tempDir("pf-sample-");
    await fs.cp(DATA, data, { recursive: true });
    const nowMs = Date.parse("2026-11-22T09:00:00Z");
    await writeSample({ out: data, nowMs, days: 130, compact: true, seed: "price-feed", assets: 15, sellers: 14 });
    expect((await fs.readdir(path.join(data, "quotes"))).filter((f) => f < "2026-11-15")).toEqual([]);
    const { site } = await runBuild({ dataDir: data, outDir: path.join(data, "public"), nowMs, saveState: false });
    expect(site.report.warnings.filter((w) => w.includes("compacted day"))).toEqual([]);

    // And the other way: raw days written over their closes.
    await writeSample({ out: data, nowMs, days: 20, compact: false, seed: "price-feed", assets: 15, sellers: 14 });
    expect((await fs.readdir(path.join(data, "history"))).filter((f) => f >= "2026-11-03")).toEqual([]);
    const again = await runBuild({
      dataDir: data,
      outDir: path.join(data, "public"),
      nowMs: nowMs + 60_000,
      saveState: false,
    });
    expect(again.site.report.warnings.filter((w) => w.includes("compacted day"))).toEqual([]);
  });
});

describe("npm start", () => {
  test(
    "runs the demo on the clock --now sets: serves at once, the hourly job armed for the top of the hour; stops cleanly on SIGTERM, leaves data/ as it was",
    { timeout: 90_000 },
    async () => {
      const before = await snapshot(DATA);
      const work = await tempDir("pf-demo-");
      const port = await freePort();
      // Half an hour before the hour on the demo's clock: the hourly run itself is the pinned tests' (same code, timers moved by hand).
      const child = spawn(
        "npm",
        ["start", "--silent", "--", "--now", "2026-11-22T09:30:00Z", "--port", String(port), "--work", work],
        {
          cwd: ROOT,
          stdio: ["ignore", "pipe", "pipe"],
          detached: true, // its own process group: npm, its shell and node get the signal together
        },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      // 'close': npm and everything it started (which share its stdout) have exited.
      const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
      /** Resolves when stdout has shown `re` (read after the handler above has added each chunk). */
      const printed = (re: RegExp) =>
        new Promise<void>((resolve, reject) => {
          const look = () => re.test(out) && (child.stdout.off("data", look), resolve());
          child.stdout.on("data", look);
          void closed.then(() => reject(new Error(`npm start exited without ${re}; stdout:\n${out}\nstderr:\n${err}`)));
          look();
        });
      try {
        await printed(/Ctrl-C stops/);
        const url = `http://127.0.0.1:${port}`;
        // The clock started at --now and runs: a slow start may have taken it a minute on.
        expect(out).toMatch(new RegExp(`serving ${url}/ \\(the market page\\), on a clock set to 2026-11-22T09:3\\dZ`));
        expect(out).toMatch(/09:3\dZ hourly run: .*assets: 15 fresh; \/readyz 200/);
        expect(out).toContain("next at 10:00Z. Ctrl-C stops.");
        const first = await feed(url);
        expect(first.status).toBe(200);
        expect(first.body!.generatedAt).toMatch(/^2026-11-22T09:30:/);
        expect((await readyz(url)).status).toBe(200);
      } finally {
        process.kill(-child.pid!, "SIGTERM");
      }
      await closed;
      expect(out).toContain("SIGTERM: stopping the demo");
      expect(err).not.toMatch(/\n\s+at /); // no stack trace
      await expect(fs.access(path.join(work, "demo.pid"))).rejects.toMatchObject({ code: "ENOENT" });
      expect(await snapshot(DATA)).toEqual(before);
    },
  );

  test("the working folder and the build's by-products are git-ignored", () => {
    const ignored = execFileSync(
      "git",
      [
        "check-ignore",
        ".demo/data/quotes/2026-11-22.ndjson",
        ".demo/public/api/v1/feed.json",
        ".demo/public.build-report.json",
        "public/index.html",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(ignored.trim().split("\n")).toHaveLength(4);
  });
});
