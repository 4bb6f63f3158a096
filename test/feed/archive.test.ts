/**
 * The archive as published and served (docs/methodology.md §5.5, docs/api.md "The archive"): the
 * handler's ranges, aliases, problems and ETags; a closed day's file written once and kept until its
 * inputs change; and bad input stopping the build before anything is published.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { handle } from "../../src/edge/handler.js";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { historyCsv } from "../../src/feed/archive/csv.js";
import type { Day, History } from "../../src/schema/archive.js";
import { Manifest } from "../../src/schema/documents.js";
import { BUILT_AT, builtSite, depsFor } from "../helpers/site.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

let out: string;
beforeAll(async () => {
  ({ out } = await builtSite());
});

const get = (url: string, headers: Record<string, string> = {}) =>
  handle(new Request(`http://feed.test${url}`, { headers }), depsFor(out));
const file = async <T>(f: string) => JSON.parse(await fs.readFile(path.join(out, f), "utf8")) as T;

describe("by asset: ranges at the edge", () => {
  test.each([
    { q: "", from: null, to: null },
    { q: "?from=2026-11-15", from: "2026-11-15", to: null },
    { q: "?to=2026-11-10", from: null, to: "2026-11-10" },
    { q: "?from=2026-11-10&to=2026-11-12", from: "2026-11-10", to: "2026-11-12" },
    { q: "?from=2026-11-12&to=2026-11-12", from: "2026-11-12", to: "2026-11-12" },
    { q: "?from=2030-01-01", from: "2030-01-01", to: null },
  ])("$q: the inclusive range, in JSON and CSV alike", async ({ q, from, to }) => {
    const whole = await file<History>("api/v1/history/us-dollar.json");
    const want = whole.entries.filter((e) => (from === null || e.date >= from) && (to === null || e.date <= to));
    const res = await get(`/api/v1/history/us-dollar.json${q}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as History;
    expect(body.entries).toEqual(want);
    expect(body._self).toBe(`/api/v1/history/us-dollar.json${q}`);
    expect([body.from, body.to]).toEqual([want[0]?.date ?? null, want.at(-1)?.date ?? null]);
    const csv = await get(`/api/v1/history/us-dollar.csv${q}`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(await csv.text()).toBe(historyCsv(want));
  });

  test("the whole history is the published file; a slug or an id in any letter case is the same answer", async () => {
    const published = await fs.readFile(path.join(out, "api/v1/history/us-dollar.csv"), "utf8");
    const m = Manifest.parse(await file("_manifest.json"));
    for (const name of ["us-dollar", "US-DOLLAR", "usd-egp", "USD-EGP"]) {
      const res = await get(`/api/v1/history/${name}.csv`);
      expect(await res.text(), name).toBe(published);
      expect(res.headers.get("etag"), name).toBe(m.files["api/v1/history/us-dollar.csv"]!.etag);
    }
  });

  test("a narrowed answer has its own strong ETag, and revalidates with it", async () => {
    const whole = (await get("/api/v1/history/us-dollar.json")).headers.get("etag");
    const a = (await get("/api/v1/history/us-dollar.json?from=2026-11-15")).headers.get("etag")!;
    const b = (await get("/api/v1/history/us-dollar.json?from=2026-11-16")).headers.get("etag")!;
    const c = (await get("/api/v1/history/us-dollar.csv?from=2026-11-15")).headers.get("etag")!;
    expect(new Set([whole, a, b, c]).size).toBe(4);
    expect(a).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((await get("/api/v1/history/us-dollar.json?from=2026-11-15", { "If-None-Match": a })).status).toBe(304);
  });

  test.each([
    { q: "?from=2026-02-30", parameter: "from" },
    { q: "?to=2026-13-01", parameter: "to" },
    { q: "?from=19-11-2026", parameter: "from" },
    { q: "?from=2026-11-1", parameter: "from" },
    { q: "?from=", parameter: "from" },
    { q: "?from=2026-11-12&to=2026-11-10", parameter: "from" },
    { q: "?to=2026-11-10&to=2026-11-12", parameter: "to" },
  ])("$q: a 400 problem naming $parameter", async ({ q, parameter }) => {
    for (const ext of ["json", "csv"]) {
      const res = await get(`/api/v1/history/us-dollar.${ext}${q}`);
      expect(res.status).toBe(400);
      const p = (await res.json()) as Record<string, unknown>;
      expect(p).toMatchObject({ type: "/docs/#problem-invalid-date", parameter, status: 400 });
    }
  });

  test("an unknown asset is a 404 problem listing validAssets", async () => {
    const res = await get("/api/v1/history/bitcoin.json");
    expect(res.status).toBe(404);
    const m = Manifest.parse(await file("_manifest.json"));
    expect(await res.json()).toMatchObject({
      type: "/docs/#problem-unknown-asset-path",
      validAssets: m.assets.map((a) => a.slug),
    });
  });
});

describe("by day", () => {
  test("a date with data is its file; days.json lists every date with its weekday", async () => {
    const days = await file<{ days: Array<{ date: string; weekday: string; _self: string }> }>("api/v1/days.json");
    expect(days.days.length).toBeGreaterThan(10);
    const last = days.days.at(-1)!;
    expect(last).toMatchObject({ date: "2026-11-19", weekday: "Thursday", _self: "/api/v1/days/2026-11-19.json" });
    const day = (await (await get(last._self)).json()) as Day;
    expect(day.date).toBe(last.date);
    // Each asset's entry is its history's entry of that date; its sellers are the feed's rows but previous.
    for (const a of day.assets) {
      const h = await file<History>(`api/v1/history/${a.slug}.json`);
      expect(a.entry).toEqual(h.entries.find((e) => e.date === last.date));
      expect(a.sellers.length).toBe(a.entry.sellerCount);
    }
  });

  test("a date without data is a 404 problem naming the nearest earlier and later dates", async () => {
    const dates = (await file<{ days: Array<{ date: string }> }>("api/v1/days.json")).days.map((d) => d.date);
    const cases = [
      { date: "2020-01-01", earlier: null, later: dates[0] },
      { date: "2030-01-01", earlier: dates.at(-1), later: null },
    ];
    for (const c of cases) {
      const res = await get(`/api/v1/days/${c.date}.json`);
      expect(res.status, c.date).toBe(404);
      expect(await res.json()).toMatchObject({
        type: "/docs/#problem-no-such-day",
        earlier: c.earlier,
        later: c.later,
      });
    }
  });
});

describe("a closed day's file is written once", () => {
  test("kept (the same file) while its inputs stand; made again when its history or its references change", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const site = path.join(data, "public");
    // Compact at a later instant so that the first days become history/ (raw days are kept 7 days).
    await runCompact(data, BUILT_AT, () => {});
    const days = (await fs.readdir(path.join(data, "history"))).map((f) => f.slice(0, 10)).sort();
    expect(days.length).toBeGreaterThan(3);
    const first = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT });
    expect(first.archiveDaysKept).toBe(0);
    const ino = async (d: string) => (await fs.stat(path.join(site, `api/v1/days/${d}.json`))).ino;
    const before = new Map(await Promise.all(days.map(async (d) => [d, await ino(d)] as const)));
    const files1 = await snapshot(site);

    const second = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 3_600_000 });
    expect(second.archiveDaysKept).toBe(days.length);
    for (const d of days) expect(await ino(d), d).toBe(before.get(d)); // the very file, linked
    const files2 = await snapshot(site);
    for (const d of days) expect(files2.get(`api/v1/days/${d}.json`)).toBe(files1.get(`api/v1/days/${d}.json`));

    // One history day edited (a seller's close moved): that day is made again, the others are kept.
    const edited = days[1]!;
    const hist = path.join(data, "history", `${edited}.ndjson`);
    const text = await fs.readFile(hist, "utf8");
    await fs.writeFile(
      hist,
      text.replace(/"sell":(\d+)\.(\d+)/, (_, a: string, b: string) => `"sell":${Number(a) + 1}.${b}`),
    );
    const third = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 7_200_000 });
    expect(third.archiveDaysKept).toBe(days.length - 1);
    expect(await ino(edited)).not.toBe(before.get(edited));
    expect(third.site.report.changedFiles).toContain(`api/v1/days/${edited}.json`);
    for (const d of days.filter((x) => x !== edited)) expect(await ino(d), d).toBe(before.get(d));

    // A later official rate of another day: that day's references move, so its file is made again.
    const other = days[2]!;
    const officialFile = path.join(data, "official", `${other}.ndjson`);
    const row = JSON.parse((await fs.readFile(officialFile, "utf8")).split("\n")[0]!) as Record<string, unknown>;
    const later = new Date(Date.parse(String(row["observedAt"])) + 60_000).toISOString();
    await fs.appendFile(
      officialFile,
      `${JSON.stringify({ ...row, buy: Number(row["buy"]) + 0.5, sell: Number(row["sell"]) + 0.5, observedAt: later })}\n`,
    );
    const fourth = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 10_800_000 });
    expect(fourth.archiveDaysKept).toBe(days.length - 1);
    expect(fourth.site.report.changedFiles).toContain(`api/v1/days/${other}.json`);
    expect(await ino(edited)).not.toBe(before.get(edited));
  });

  test("an hourly build on the kept days gives the bytes and ETags a build from nothing gives", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const site = path.join(data, "public");
    await runCompact(data, BUILT_AT, () => {});
    await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT });
    // The next hour: a new quote of today, and the build keeps the closed days and part.
    const today = path.join(data, "quotes", "2026-11-19.ndjson");
    const last = JSON.parse((await fs.readFile(today, "utf8")).trimEnd().split("\n").at(-1)!) as Record<
      string,
      unknown
    >;
    await fs.appendFile(
      today,
      `${JSON.stringify({ ...last, sell: Number(last["sell"]) + 1, observedAt: "2026-11-19T12:10:00Z" })}\n`,
    );
    const hourly = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 3_600_000 });
    expect(hourly.archiveDaysKept).toBeGreaterThan(0);
    const fresh = path.join(await tempDir(), "public");
    await runBuild({ dataDir: data, outDir: fresh, nowMs: BUILT_AT + 3_600_000, saveState: false });
    const [a, b] = [await snapshot(site), await snapshot(fresh)];
    const etags = (m: string) =>
      Object.entries(Manifest.parse(JSON.parse(m)).files).map(([f, e]) => [f, e.etag, e.bytes]);
    expect(etags(a.get("_manifest.json")!)).toEqual(etags(b.get("_manifest.json")!));
    a.delete("_manifest.json");
    b.delete("_manifest.json");
    expect(a).toEqual(b);
  });

  test("a malformed history line stops the build naming file and line; the published site stays as it was", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const site = path.join(data, "public");
    await runCompact(data, BUILT_AT, () => {});
    await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT });
    const published = await snapshot(site);
    // The oldest day: one the build's own bounded read does not reach, only the archive does.
    const oldest = (await fs.readdir(path.join(data, "history"))).sort()[0]!;
    const hist = path.join(data, "history", oldest);
    await fs.appendFile(hist, '{"date":"oops"\n');
    const lines = (await fs.readFile(hist, "utf8")).trimEnd().split("\n").length;
    await expect(runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 3_600_000 })).rejects.toThrow(
      `history/${oldest}:${lines}: not valid JSON`,
    );
    expect(await snapshot(site)).toEqual(published);
  });
});
