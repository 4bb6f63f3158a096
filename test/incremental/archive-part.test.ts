/**
 * The archive's closed part as the build keeps it beside the site (src/incremental/archive-part.ts,
 * src/incremental/archive-days.ts, docs/performance.md "The archive is written once"): a raw day before
 * today is kept like a compacted one, a damaged part is made again rather than copied, and a
 * history day read a line at a time still names the first bad line of its file.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { cairoDate } from "../../src/core/cairo.js";
import { BUILT_AT } from "../helpers/site.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { Manifest } from "../../src/schema/documents.js";

const HOUR = 3_600_000;

/** A compacted data folder and its site, built once at BUILT_AT (state saved, the cache beside it). */
async function builtOnce() {
  const data = await writeDataset(await tempDir(), smallRows());
  const site = path.join(data, "public");
  await runCompact(data, BUILT_AT, () => {});
  await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT });
  return { data, site };
}

/**
 * The site's files and its manifest's ETags and sizes, and those of the same build from nothing
 * into a fresh folder: what an hourly build must equal (Last-Modified depends on the builds before).
 */
async function againstFromNothing(site: string, data: string, nowMs: number) {
  const fresh = path.join(await tempDir(), "public");
  await runBuild({ dataDir: data, outDir: fresh, nowMs, saveState: false });
  const of = async (dir: string) => {
    const files = await snapshot(dir);
    const manifest = Manifest.parse(JSON.parse(files.get("_manifest.json")!));
    files.delete("_manifest.json");
    return { files, etags: Object.entries(manifest.files).map(([f, e]) => [f, e.etag, e.bytes]) };
  };
  return [await of(site), await of(fresh)];
}

describe("the closed part", () => {
  test("a raw day before today is kept as published, as a compacted day is; today's file is made", async () => {
    const { data, site } = await builtOnce();
    const raw = (await fs.readdir(path.join(data, "quotes"))).map((f) => f.slice(0, 10)).sort();
    const today = cairoDate(BUILT_AT);
    const yesterday = raw.filter((d) => d < today).at(-1)!;
    expect(yesterday).toBeDefined();
    const ino = async (d: string) => (await fs.stat(path.join(site, `api/v1/days/${d}.json`))).ino;
    const [y, t] = [await ino(yesterday), await ino(today)];
    // The next hour brings a new quote of today: today's file changes, yesterday's does not.
    const log = path.join(data, "quotes", `${today}.ndjson`);
    const last = JSON.parse((await fs.readFile(log, "utf8")).trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    const later = new Date(BUILT_AT + HOUR / 2).toISOString();
    await fs.appendFile(log, `${JSON.stringify({ ...last, sell: Number(last["sell"]) + 1, observedAt: later })}\n`);
    const next = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + HOUR });
    expect(await ino(yesterday)).toBe(y); // the very file, linked
    expect(await ino(today)).not.toBe(t); // made again: today's entries are provisional
    expect(next.site.report.changedFiles).toContain(`api/v1/days/${today}.json`);
    expect(next.site.report.changedFiles).not.toContain(`api/v1/days/${yesterday}.json`);
    const [hourly, whole] = await againstFromNothing(site, data, BUILT_AT + HOUR);
    expect(hourly).toEqual(whole);
  });

  test("a part file damaged beside the site is not copied: the part is made again, the same bytes", async () => {
    const { data, site } = await builtOnce();
    const cache = `${site}.archive-cache`;
    const part = (await fs.readdir(cache, { withFileTypes: true })).find((e) => e.isDirectory())!.name;
    const file = path.join(cache, part, `${encodeURIComponent("USD-EGP")}.json`);
    const text = await fs.readFile(file, "utf8");
    await fs.writeFile(file, text.slice(0, -10)); // cut short, as by a full disk
    await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + HOUR });
    const [hourly, whole] = await againstFromNothing(site, data, BUILT_AT + HOUR);
    expect(hourly).toEqual(whole);
    // The part made again is whole: the next build keeps it and still gives the same bytes.
    const next = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 2 * HOUR });
    expect(next.archiveDaysKept).toBeGreaterThan(0);
    const [later, wholeLater] = await againstFromNothing(site, data, BUILT_AT + 2 * HOUR);
    expect(later).toEqual(wholeLater);
  });

  test("a history line that still starts as compact writes it but is not JSON stops the build naming it", async () => {
    const { data, site } = await builtOnce();
    const published = await snapshot(site);
    const oldest = (await fs.readdir(path.join(data, "history"))).sort()[0]!;
    const hist = path.join(data, "history", oldest);
    const lines = (await fs.readFile(hist, "utf8")).trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)!.startsWith('{"asset":"')).toBe(true);
    // Its asset is still found by the line's start (the day is read a line at a time), but the
    // line does not parse: the error is the whole day's, naming that line.
    lines[lines.length - 1] = lines.at(-1)!.replace('"closes":[', '"closes":[oops');
    await fs.writeFile(hist, `${lines.join("\n")}\n`);
    await expect(runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + HOUR })).rejects.toThrow(
      `history/${oldest}:${lines.length}: not valid JSON`,
    );
    expect(await snapshot(site)).toEqual(published);
  });
});
