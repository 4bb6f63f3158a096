/**
 * The raw days an earlier build closed (data/state/closed-days/, src/incremental/closed-days.ts): a build takes
 * a day's closes and rejections from its entry only while everything they depend on is as it was —
 * the day file's bytes, the catalog, the registry, the sources' order and kinds, the official rate in
 * force, the code, and an instant no earlier than the day's latest quote — and the built bytes never
 * depend on whether an entry was there.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { describe, expect, test } from "vitest";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild } from "../../src/jobs/build.js";
import { ClosedDayEntry } from "../../src/incremental/closed-days.js";
import { sourceFingerprint } from "../../src/incremental/fingerprint.js";
import { dataPaths } from "../../src/core/data-layout.js";
import { snapshot, tempDir } from "../helpers/dataset.js";

const NOW = Date.parse("2026-11-19T12:30:00Z");
const TODAY = "2026-11-19";
const cfg = { nowMs: NOW, days: 30, assets: 5, sellers: 6, seed: "closed-days", compact: true };

async function sampleData(): Promise<string> {
  const dir = await tempDir();
  await writeSample({ ...cfg, out: dir });
  return dir;
}

/**
 * A build into a fresh folder: its files, report (without the plan's counts, which say what was
 * kept), how many raw days it took from entries, and why the plan kept or closed each raw day.
 */
async function build(data: string, o: { nowMs?: number; saveState?: boolean } = {}) {
  const out = path.join(data, `out-${Math.random().toString(36).slice(2)}`);
  const r = await runBuild({ dataDir: data, outDir: out, nowMs: o.nowMs ?? NOW, saveState: o.saveState ?? false });
  const { plan: _, ...report } = { ...r.site.report, changedFiles: [] };
  const files = await snapshot(out);
  await fs.rm(out, { recursive: true });
  const closes = Object.fromEntries(r.decisions.filter((d) => d.output === "closes").map((d) => [d.subject, d.reason]));
  return { files, report, used: r.closedDaysUsed, closes };
}

/** The same build with no entries at all (they are moved aside and back). */
async function coldBuild(data: string, nowMs = NOW) {
  const folder = dataPaths(data).closedDays;
  const aside = `${folder}-aside`;
  await fs.rename(folder, aside).catch(() => {});
  try {
    const b = await build(data, { nowMs });
    expect(b.used).toBe(0);
    return b;
  } finally {
    await fs.rename(aside, folder).catch(() => {});
  }
}

const entryDates = async (data: string) =>
  (await fs.readdir(dataPaths(data).closedDays).catch(() => [] as string[])).map((n) => n.slice(0, 10)).sort();
const rawDates = async (data: string) =>
  (await fs.readdir(path.join(data, "quotes"))).map((n) => n.slice(0, 10)).sort();
const entryFile = (data: string, date: string) => path.join(dataPaths(data).closedDays, `${date}.json`);
const readEntry = async (data: string, date: string) =>
  ClosedDayEntry.parse(JSON.parse(await fs.readFile(entryFile(data, date), "utf8")));
const writeEntry = (data: string, e: ClosedDayEntry) => fs.writeFile(entryFile(data, e.date), JSON.stringify(e));

/** A dataset whose past raw days have entries, made by a build that saved its state. */
async function withEntries() {
  const data = await sampleData();
  await build(data, { saveState: true });
  const past = (await rawDates(data)).filter((d) => d < TODAY);
  expect(past.length).toBeGreaterThanOrEqual(5);
  expect(await entryDates(data)).toEqual(past);
  return { data, past };
}

async function editJson(file: string, edit: (v: unknown) => unknown) {
  await fs.writeFile(file, JSON.stringify(edit(JSON.parse(await fs.readFile(file, "utf8")))));
}

describe("closed raw days kept in data/state/closed-days", () => {
  test("a build that saves its state keeps every raw day before its date, never today's; the next build takes them and makes the same bytes", async () => {
    const { data, past } = await withEntries();
    const warm = await build(data);
    expect(warm.used).toBe(past.length);
    // The plan says why: each past day kept, today's made (its file still grows); with no entries, none kept.
    expect(warm.closes).toEqual({ ...Object.fromEntries(past.map((d) => [d, "kept"])), [TODAY]: "open" });
    const cold = await coldBuild(data);
    expect(cold.closes).toEqual({ ...Object.fromEntries(past.map((d) => [d, "none"])), [TODAY]: "open" });
    expect(warm.files).toEqual(cold.files);
    expect(warm.report).toEqual(cold.report);
    expect(warm.report.warnings).toEqual([]);
  });

  test("an entry is used only with the bytes it was written with: a forged one is named and its day closed from its quotes", async () => {
    const { data, past } = await withEntries();
    const e = await readEntry(data, past.at(-1)!);
    await writeEntry(data, { ...e, read: e.read + 1000 }); // its keys stand; its seal is the old one
    const forged = await build(data);
    const cold = await coldBuild(data);
    expect(forged.used).toBe(past.length - 1);
    expect(forged.closes[past.at(-1)!]).toBe("edited");
    expect(forged.report.warnings).toEqual([
      `${entryFile(data, past.at(-1)!)}: its bytes do not match the digest recorded when it was made: remade`,
    ]);
    expect(forged.files).toEqual(cold.files);
    expect({ ...forged.report, warnings: [] }).toEqual(cold.report);
  });

  test("without --state nothing is written; entries of days no longer raw are removed", async () => {
    const data = await sampleData();
    await build(data);
    expect(await entryDates(data)).toEqual([]);
    await build(data, { saveState: true });
    const [first] = await rawDates(data);
    const orphan = await readEntry(data, first!);
    await writeEntry(data, { ...orphan, date: "2026-10-01" });
    await fs.rename(entryFile(data, first!), entryFile(data, "2026-10-01"));
    await build(data, { saveState: true });
    expect(await entryDates(data)).not.toContain("2026-10-01");
    expect(await entryDates(data)).toContain(first);
  });

  /** Each thing a day's result depends on: changed, the entries it touches are not used. */
  const changes: Array<{
    what: string;
    change: (data: string, past: string[]) => Promise<void>;
    /** How many past days may still be taken from entries afterwards (at most, unless `exact`). */
    stillUsed: (past: string[]) => number;
    exact?: boolean;
    /** Why the plan closes a touched day again (src/incremental/decisions.ts REASONS). */
    reason: string;
  }> = [
    {
      what: "a late quote appended to a past day's file",
      change: async (data, past) => {
        const file = path.join(data, "quotes", `${past[2]}.ndjson`);
        const [line] = (await fs.readFile(file, "utf8")).split("\n");
        await fs.appendFile(file, `${line}\n`);
      },
      stillUsed: (past) => past.length - 1,
      exact: true,
      reason: "bytes",
    },
    {
      what: "the catalog",
      change: (data) =>
        editJson(path.join(data, "assets.json"), (v) =>
          (v as Array<Record<string, unknown>>).map((a, i) => (i === 0 ? { ...a, name: `${String(a["name"])}!` } : a)),
        ),
      stillUsed: () => 0,
      reason: "inputs",
    },
    {
      what: "the registry",
      change: (data) =>
        editJson(path.join(data, "sellers.json"), (v) =>
          (v as Array<Record<string, unknown>>).map((s, i) => (i === 0 ? { ...s, name: `${String(s["name"])}!` } : s)),
        ),
      stillUsed: () => 0,
      reason: "inputs",
    },
    {
      what: "the sources' order of trust",
      change: (data) =>
        editJson(path.join(data, "sources.json"), (v) => {
          const o = v as { sources: unknown[] };
          return { ...o, sources: [...o.sources].reverse() };
        }),
      stillUsed: () => 0,
      reason: "inputs",
    },
    {
      what: "the official rate in force on one day",
      change: async (data, past) => {
        const file = path.join(data, "official", `${past[0]}.ndjson`);
        const lines = (await fs.readFile(file, "utf8")).trimEnd().split("\n");
        const first = JSON.parse(lines[0]!) as { buy: number; sell: number };
        lines[0] = JSON.stringify({ ...first, buy: first.buy + 0.01, sell: first.sell + 0.01 });
        await fs.writeFile(file, `${lines.join("\n")}\n`);
      },
      // That day's rate stays in force on the following days until the next one: at least its own day misses.
      stillUsed: (past) => past.length - 1,
      reason: "inputs",
    },
    {
      what: "the code (an entry made by other code)",
      change: async (data, past) => {
        for (const d of past) await writeEntry(data, { ...(await readEntry(data, d)), codeSha256: "0".repeat(64) });
      },
      stillUsed: () => 0,
      reason: "program",
    },
  ];

  test.each(changes)("$what: the entries it touches are not used, and the bytes are a cold build's", async (c) => {
    const { data, past } = await withEntries();
    await c.change(data, past);
    const after = await build(data);
    if (c.exact) expect(after.used).toBe(c.stillUsed(past));
    else expect(after.used).toBeLessThanOrEqual(c.stillUsed(past));
    // Every past day not taken is closed again for this change's reason, and said so.
    const remade = past.filter((d) => after.closes[d] !== "kept");
    expect(remade.length).toBe(past.length - after.used);
    for (const d of remade) expect(after.closes[d]).toBe(c.reason);
    const cold = await coldBuild(data);
    expect(after.files).toEqual(cold.files);
    expect(after.report).toEqual(cold.report);
  });

  test("an earlier instant than a day's latest quote does not take its entry (rule 4 would reject those quotes)", async () => {
    const { data, past } = await withEntries();
    const yesterday = past.at(-1)!;
    const e = await readEntry(data, yesterday);
    expect(e.latestObservedMs).not.toBeNull();
    // Mid-day of yesterday, before its last quotes: a rebuild of that hour (--force over a later site).
    const earlier = e.latestObservedMs! - 3 * 3_600_000;
    const then = await build(data, { nowMs: earlier });
    // At that instant yesterday is the build's own day: still open, closed from its quotes.
    expect(then.closes[yesterday]).toBe("open");
    const cold = await coldBuild(data, earlier);
    expect(then.files).toEqual(cold.files);
    expect(then.report).toEqual(cold.report);
    expect(then.report.rejectedByReason["observed-in-future"] ?? 0).toBeGreaterThan(0);
  });

  test("a past day with a quote later than the build instant is not kept: later, rule 4 no longer rejects it", async () => {
    const data = await sampleData();
    const past = (await rawDates(data)).filter((d) => d < TODAY);
    const file = path.join(data, "quotes", `${past[1]}.ndjson`);
    const [line] = (await fs.readFile(file, "utf8")).split("\n");
    const ahead = "2027-03-01T10:00:00Z"; // a seller's clock months ahead, filed under a past day
    await fs.appendFile(file, `${JSON.stringify({ ...JSON.parse(line!), observedAt: ahead })}\n`);
    const first = await build(data, { saveState: true });
    expect(first.report.rejectedByReason["observed-in-future"] ?? 0).toBeGreaterThan(0);
    expect(await entryDates(data)).toEqual(past.filter((d) => d !== past[1]));
    // At that instant the same quote is rejected for its day instead; a kept entry would have said "future".
    const later = Date.parse(ahead) + 3_600_000;
    const then = await build(data, { nowMs: later });
    expect(then.files).toEqual((await coldBuild(data, later)).files);
    expect(then.report.rejectedByReason["wrong-day-file"] ?? 0).toBeGreaterThan(0);
  });

  test("an unreadable entry is named in the report and the day is closed from its quotes; saving repairs it", async () => {
    const { data, past } = await withEntries();
    await fs.writeFile(entryFile(data, past[1]!), "{ not json");
    const r = await build(data, { saveState: true });
    expect(r.used).toBe(past.length - 1);
    expect(r.report.warnings).toEqual([
      expect.stringMatching(new RegExp(`closed-days/${past[1]}\\.json: not usable .*closed from its quotes`)),
    ]);
    const again = await build(data);
    expect(again.used).toBe(past.length);
    expect(again.report.warnings).toEqual([]);

    // An entry that is a symbolic link out of the data folder is not read, as no day file of data/ is.
    const outside = path.join(await tempDir(), "entry.json");
    await fs.rename(entryFile(data, past[2]!), outside);
    await fs.symlink(outside, entryFile(data, past[2]!));
    const linked = await build(data);
    expect(linked.used).toBe(past.length - 1);
    expect(linked.report.warnings).toEqual([
      expect.stringMatching(new RegExp(`closed-days/${past[2]}\\.json.*not usable .*closed from its quotes`)),
    ]);
    expect(linked.files).toEqual(again.files);
    await fs.rm(entryFile(data, past[2]!));

    // A stray file makes the folder unreadable as day files: named, and the build goes on without it.
    await fs.writeFile(path.join(dataPaths(data).closedDays, "notes.txt"), "mine");
    const stray = await build(data);
    expect(stray.used).toBe(0);
    expect(stray.report.warnings).toEqual([expect.stringMatching(/notes\.txt.*no raw day was taken from/)]);
    expect(stray.files).toEqual(again.files);
  });

  test("the code's fingerprint covers every file of the code root and the lockfile beside it", async () => {
    const root = await tempDir();
    const code = path.join(root, "src");
    await fs.mkdir(path.join(code, "rules"), { recursive: true });
    await fs.writeFile(path.join(code, "rules", "a.ts"), "export const a = 1;\n");
    await fs.writeFile(path.join(code, "b.ts"), "export const b = 2;\n");
    const before = sourceFingerprint(code);
    expect(sourceFingerprint(code)).toBe(before);
    await fs.writeFile(path.join(code, "rules", "a.ts"), "export const a = 2;\n");
    const edited = sourceFingerprint(code);
    expect(edited).not.toBe(before);
    await fs.writeFile(path.join(root, "package-lock.json"), "{}\n");
    expect(sourceFingerprint(code)).not.toBe(edited);
    await fs.rename(path.join(code, "b.ts"), path.join(code, "c.ts"));
    expect(sourceFingerprint(code)).not.toBe(edited);
  });
});
