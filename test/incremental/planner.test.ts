/**
 * The one planner (src/incremental/planner.ts): every keep-or-make of a build is one decision with
 * its reason (src/incremental/decisions.ts), the report counts them and `build --explain` lists them.
 * A first build keeps nothing and says why; the next hour's build keeps everything it may; each thing
 * a newcomer might change or break between two builds is made again for its own reason — and the
 * bytes are always those of a build that kept nothing.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { writeSample } from "../../src/jobs/sample.js";
import { runBuild, type BuildResult } from "../../src/jobs/build.js";
import { cardCacheDir } from "../../src/incremental/card-cache.js";
import { explainLine, REASONS, type Decision, type Output } from "../../src/incremental/decisions.js";
import { dataPaths } from "../../src/core/data-layout.js";
import { files } from "../../src/feed/paths.js";
import { snapshot, tempDir } from "../helpers/dataset.js";

const NOW = Date.parse("2026-11-19T12:30:00Z");
const TODAY = "2026-11-19";
const cfg = { nowMs: NOW, days: 40, assets: 4, sellers: 5, seed: "planner", compact: true };

/** A dataset whose site.json has a base URL (the share cards are drawn only then). */
async function dataset(): Promise<string> {
  const data = await tempDir();
  await writeSample({ ...cfg, out: data });
  const site = JSON.parse(await fs.readFile(path.join(data, "site.json"), "utf8")) as Record<string, unknown>;
  await fs.writeFile(path.join(data, "site.json"), JSON.stringify({ ...site, baseUrl: "https://prices.example" }));
  return data;
}

const build = (data: string, out: string, saveState = true) =>
  runBuild({ dataDir: data, outDir: out, nowMs: NOW, saveState });

/** Each kind of thing's decisions, subject → reason. */
function byOutput(r: BuildResult): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const d of r.decisions) (out[d.output] ??= {})[d.subject] = d.reason;
  return out;
}

const reasonsOf = (r: BuildResult, output: Output) =>
  new Set(r.decisions.filter((d) => d.output === output).map((d) => d.reason));

/** The built site's bytes, without the report beside it. */
const bytes = (out: string) => snapshot(out);

describe("one plan: every keep-or-make of a build, with its reason", () => {
  let data: string;
  let first: BuildResult;
  let second: BuildResult;
  let out: string;
  beforeAll(async () => {
    data = await dataset();
    out = path.join(data, "site");
    first = await build(data, out);
    second = await build(data, out);
  });

  test("a first build keeps nothing of the site and says why; the summaries, made by compact, stand", () => {
    const d = byOutput(first);
    expect(new Set(Object.values(d["page"] ?? {}))).toEqual(new Set(["none"]));
    expect(new Set(Object.values(d["card"] ?? {}))).toEqual(new Set(["none"]));
    expect(d["archive-part"]).toEqual({ "closed days": "none" });
    expect(new Set(Object.values(d["archive-day"] ?? {}))).toEqual(new Set(["none"]));
    expect(d["closes"]?.[TODAY]).toBe("open");
    expect(new Set(Object.values(d["summary"] ?? {}))).toEqual(new Set(["kept"]));
    // One card per asset, the home page's, and the web app's four icons (src/render/pages/app.ts).
    expect(Object.keys(d["card"] ?? {}).length).toBe(cfg.assets + 1 + 4);
  });

  test("the next build keeps every past day's page, card, the archive's part and the raw days' closes", () => {
    const d = byOutput(second);
    for (const output of ["page", "card", "archive-part"] as const)
      expect(new Set(Object.values(d[output] ?? {})), output).toEqual(new Set(["kept"]));
    const closes = Object.entries(d["closes"] ?? {});
    expect(closes.filter(([date]) => date < TODAY).every(([, reason]) => reason === "kept")).toBe(true);
    expect(closes.length).toBeGreaterThan(1);
    // The part stood whole, so no day was asked one by one.
    expect(d["archive-day"]).toBeUndefined();
  });

  test("the report counts the decisions the build took, kind by kind", () => {
    const counts: Record<string, { keep: number; make: number; reasons: Record<string, number> }> = {};
    for (const x of second.decisions) {
      const c = (counts[x.output] ??= { keep: 0, make: 0, reasons: {} });
      c[x.keep ? "keep" : "make"]++;
      c.reasons[x.reason] = (c.reasons[x.reason] ?? 0) + 1;
    }
    expect(second.site.report.plan).toEqual(counts);
  });

  test("every decision is explained in one line: keep or make, what, which, why", () => {
    for (const x of [...first.decisions, ...second.decisions]) {
      const line = explainLine(x);
      expect(line.startsWith(x.keep ? "keep  " : "make  ")).toBe(true);
      expect(line).toContain(x.subject);
      expect(line).toContain(REASONS[x.reason]);
      expect(x.keep).toBe(x.reason === "kept");
    }
  });

  /** Each thing that may change or break between two builds: what is made again, and why. */
  const cases: Array<{
    what: string;
    change: (data: string, out: string) => Promise<void>;
    output: Output;
    subject?: (d: readonly Decision[]) => string;
    reason: string;
  }> = [
    {
      what: "a past day's page deleted from the site",
      change: async (_, out) => fs.rm(path.join(out, "days", "2026-11-17", "index.html")),
      output: "page",
      subject: () => "days/2026-11-17/index.html",
      reason: "not-published",
    },
    {
      what: "the site's manifest lists a page under another ETag",
      change: async (_, out) => {
        const file = path.join(out, "_manifest.json");
        const m = JSON.parse(await fs.readFile(file, "utf8")) as { files: Record<string, { etag: string }> };
        m.files["days/2026-11-16/index.html"]!.etag = '"other"';
        await fs.writeFile(file, JSON.stringify(m));
      },
      output: "page",
      subject: () => "days/2026-11-16/index.html",
      reason: "made-of",
    },
    {
      what: "the cards' cache emptied",
      change: async (_, out) => fs.rm(cardCacheDir(out), { recursive: true }),
      output: "card",
      reason: "none",
    },
    {
      what: "a history file edited after compact summarized it",
      change: async (data) => {
        const history = dataPaths(data).history;
        const [newest] = (await fs.readdir(history)).sort().reverse();
        const file = path.join(history, newest!);
        const lines = (await fs.readFile(file, "utf8")).trimEnd().split("\n");
        const close = JSON.parse(lines[0]!) as { closes: Array<{ sell: number | null }> };
        for (const c of close.closes) if (c.sell !== null) c.sell += 0.01;
        lines[0] = JSON.stringify(close);
        await fs.writeFile(file, `${lines.join("\n")}\n`);
      },
      output: "summary",
      reason: "bytes",
    },
    {
      what: "a raw day's closes edited in data/state/closed-days/",
      change: async (data) => {
        const folder = dataPaths(data).closedDays;
        const [name] = (await fs.readdir(folder)).sort();
        const file = path.join(folder, name!);
        const e = JSON.parse(await fs.readFile(file, "utf8")) as { read: number };
        await fs.writeFile(file, JSON.stringify({ ...e, read: e.read + 1 }));
      },
      output: "closes",
      reason: "edited",
    },
    {
      what: "the archive's cache beside the site removed",
      change: async (_, out) => fs.rm(`${path.resolve(out)}.archive-cache`, { recursive: true }),
      output: "archive-part",
      reason: "none",
    },
  ];

  test.each(cases)("$what: made again, for that reason, and the bytes are a cold build's", async (c) => {
    const d2 = await dataset();
    const o2 = path.join(d2, "site");
    await build(d2, o2);
    await c.change(d2, o2);
    const after = await build(d2, o2, false);
    const reasons = reasonsOf(after, c.output);
    expect(reasons, [...reasons].join()).toContain(c.reason);
    if (c.subject) {
      const s = c.subject(after.decisions);
      expect(after.decisions.find((x) => x.output === c.output && x.subject === s)?.reason).toBe(c.reason);
    }
    // What the plan made again is the bytes a build that kept nothing makes.
    const cold = path.join(d2, "cold");
    await fs.rm(path.dirname(dataPaths(d2).state), { recursive: true, force: true });
    await build(d2, cold, false);
    const [a, b] = [await bytes(o2), await bytes(cold)];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [p, text] of a) if (p !== files.statement) expect(text, p).toEqual(b.get(p));
  });
});
