import { promises as fs } from "node:fs";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { DataError, OutputError } from "../../src/core/errors.js";
import { renderers } from "../../src/render/renderers.js";
import { HTML_TYPE, type Renderer } from "../../src/feed/site.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";

const NOW = Date.parse("2026-11-19T11:30:00Z");
const good = {
  source: "s1",
  seller: "alpha",
  asset: "USD-EGP",
  buy: 49.7,
  sell: 49.9,
  observedAt: "2026-11-19T10:00:00Z",
};
const line = (o: unknown) => `${JSON.stringify(o)}\n`;

async function dataset() {
  return writeDataset(await tempDir(), { quotes: [good, { ...good, seller: "beta" }], official: [], global: [] });
}

describe("a malformed data file stops the build with file, line and reason, and loses nothing", () => {
  test.each([
    {
      name: "a quote line that is not JSON",
      file: "quotes/2026-11-19.ndjson",
      text: line(good) + "{oops\n",
      where: "quotes/2026-11-19.ndjson:2",
      reason: "not valid JSON",
    },
    {
      name: "a price that is a string",
      file: "quotes/2026-11-19.ndjson",
      text: line(good) + line({ ...good, buy: "49.7" }),
      where: "quotes/2026-11-19.ndjson:2",
      reason: "buy: Invalid input: expected number",
    },
    {
      name: "a missing member",
      file: "quotes/2026-11-19.ndjson",
      text: line({ ...good, observedAt: undefined }),
      where: "quotes/2026-11-19.ndjson:1",
      reason: "observedAt",
    },
    {
      name: "an unknown member",
      file: "official/2026-11-19.ndjson",
      text: line({ source: "cbe", asset: "USD-EGP", buy: 1, sell: 2, observedAt: good.observedAt, rate: 3 }),
      where: "official/2026-11-19.ndjson:1",
      reason: 'Unrecognized key: "rate"',
    },
    {
      name: "a global value that is null",
      file: "global/2026-11-19.ndjson",
      text: line({ source: "g", asset: "USD-EGP", value: null, observedAt: good.observedAt }),
      where: "global/2026-11-19.ndjson:1",
      reason: "value",
    },
    {
      name: "a history record of another day",
      file: "history/2026-11-01.ndjson",
      text: line({
        date: "2026-11-02",
        asset: "USD-EGP",
        closes: [],
        sources: [],
        disagreements: [],
        observedAt: null,
      }),
      where: "history/2026-11-01.ndjson:2".replace(":2", ":1"),
      reason: "record dated 2026-11-02",
    },
    {
      name: "a catalog entry with negative decimals",
      file: "assets.json",
      text: JSON.stringify([
        {
          id: "USD-EGP",
          slug: "us-dollar",
          category: "currencies",
          kind: "currency",
          market: "competitive",
          unit: "EGP/USD",
          decimals: -1,
          defaultSide: "sell",
          name: "x",
          nameAr: "y",
        },
      ]),
      where: "assets.json",
      reason: "0.decimals",
    },
    {
      name: "a catalog that is not JSON, on its third line",
      file: "assets.json",
      text: "[\n{},\n}",
      where: "assets.json:3",
      reason: "not valid JSON",
    },
    {
      name: "a registry with a duplicate seller",
      file: "sellers.json",
      text: JSON.stringify(
        [1, 2].map(() => ({
          id: "alpha",
          name: "A",
          nameAr: null,
          kind: "bank",
          licensedBy: "CBE",
          categories: ["currencies"],
        })),
      ),
      where: "sellers.json",
      reason: 'duplicate seller id "alpha"',
    },
    {
      name: "a calendar without a category of the catalog",
      file: "calendar.json",
      text: JSON.stringify({ timezone: "Africa/Cairo", categories: { currencies: { sessions: [], holidays: [] } } }),
      where: "calendar.json",
      reason: 'no trading sessions for category "metals"',
    },
    {
      name: "a session that closes before it opens",
      file: "calendar.json",
      text: JSON.stringify({
        timezone: "Africa/Cairo",
        categories: { currencies: { sessions: [{ days: ["sun"], open: "17:00", close: "09:00" }], holidays: [] } },
      }),
      where: "calendar.json",
      reason: "must open before it closes",
    },
    {
      name: "a stray file among the quote days",
      file: "quotes/notes.txt",
      text: "hello",
      where: "quotes/notes.txt",
      reason: "unexpected file",
    },
    { name: "a missing registry", file: "sellers.json", text: null, where: "sellers.json", reason: "file is missing" },
    {
      name: "a corrupt publishing state",
      file: "state/published.json",
      text: '{"files": 3}',
      where: "state/published.json",
      reason: "files",
    },
  ])("$name → $where: $reason", async ({ file, text, where, reason }) => {
    const data = await dataset();
    const out = path.join(data, "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW });
    const before = await snapshot(out);
    const stateBefore = await fs.readFile(path.join(data, "state/published.json"), "utf8");
    const target = path.join(data, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (text === null) await fs.rm(target);
    else await fs.writeFile(target, text);

    const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).message).toContain(path.join(data, where));
    expect((err as DataError).message).toContain(reason);
    expect(await snapshot(out)).toEqual(before);
    if (file !== "state/published.json")
      expect(await fs.readFile(path.join(data, "state/published.json"), "utf8")).toBe(stateBefore);
    expect((await fs.readdir(data)).filter((f) => f.includes(".tmp-") || f.includes(".old-"))).toEqual([]);
  });
});

describe("a bad file half-way through publishing (src/io/site-writer.ts SiteFolder)", () => {
  /** A built site, then a second build whose renderers are `renderers`, which must fail. */
  async function failedRebuild(renderers: Renderer[]) {
    const data = await dataset();
    const out = path.join(data, "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW });
    const before = await snapshot(out);
    const stateBefore = await fs.readFile(path.join(data, "state/published.json"), "utf8");
    const err = await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 3_600_000, renderers }).catch(
      (e: unknown) => e,
    );
    /** The published site, the state and the data folder are as they were. */
    const lostNothing = async () => {
      expect(await snapshot(out)).toEqual(before);
      expect(await fs.readFile(path.join(data, "state/published.json"), "utf8")).toBe(stateBefore);
      expect((await fs.readdir(data)).filter((f) => f.includes(".tmp-") || f.includes(".old-"))).toEqual([]);
    };
    return { err, lostNothing };
  }
  const page = (p: string, body = "<!doctype html>") => ({
    path: p,
    body,
    contentType: HTML_TYPE,
    etagInput: () => body,
  });

  test("stops the build naming the file; the published site, the state and the data folder are as they were", async () => {
    // Every file of the site is made and written into the new folder, then a page that is no HTML.
    const made: string[] = [];
    const broken: Renderer = function* (ctx) {
      for (const r of renderers)
        for (const f of r(ctx)) {
          made.push(f.path);
          yield f;
        }
      yield page("late/index.html", "plain text");
    };
    const { err, lostNothing } = await failedRebuild([broken]);
    expect(made.length).toBeGreaterThan(10);
    expect(err).toBeInstanceOf(OutputError);
    expect((err as OutputError).message).toContain("late/index.html");
    await lostNothing();
  });

  test("a path made twice stops the build naming it, and the published site stays", async () => {
    const twice: Renderer = function* () {
      yield page("twice/index.html");
      yield page("twice/index.html");
    };
    const { err, lostNothing } = await failedRebuild([twice]);
    expect(err).toBeInstanceOf(OutputError);
    expect((err as OutputError).message).toContain("twice/index.html: invalid output: made twice in one build");
    await lostNothing();
  });

  test("a file and a folder of one path (the disk refuses it) stop the build; the published site stays", async () => {
    const clash: Renderer = function* () {
      yield page("clash/index.html");
      yield page("clash/index.html/inner.html");
    };
    const { err, lostNothing } = await failedRebuild([clash]);
    expect(err).toBeInstanceOf(Error);
    await lostNothing();
  });
});

describe("the price-feed command", () => {
  const run = promisify(execFile);
  const bin = path.resolve("dist/cli/bin.js");
  let data: string;
  beforeAll(async () => {
    data = await dataset();
  });

  test("build prints what it did and exits 0", async () => {
    const { stdout } = await run("node", [
      bin,
      "build",
      "--data",
      data,
      "--out",
      path.join(data, "public"),
      "--now",
      "2026-11-19T11:30:00Z",
    ]);
    expect(stdout).toMatch(/^built \d+ files into .*public \(\d+ changed\) at 2026-11-19T11:30:00.000Z/);
  });

  test("a malformed file exits 1 naming file, line and reason", async () => {
    await fs.appendFile(path.join(data, "quotes/2026-11-19.ndjson"), "not json\n");
    const err = (await run("node", [
      bin,
      "build",
      "--data",
      data,
      "--out",
      path.join(data, "public"),
      "--now",
      "2026-11-19T11:30:00Z",
    ]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(1);
    expect(err.stderr).toContain(`${path.join(data, "quotes/2026-11-19.ndjson")}:3: not valid JSON`);
    expect(err.stderr).toContain("nothing was published");
    expect(err.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  test("a bad --now is a usage error", async () => {
    const err = (await run("node", [bin, "build", "--now", "tomorrow"]).catch((e: unknown) => e)) as {
      code: number;
      stderr: string;
    };
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('"tomorrow" is not an ISO 8601 instant');
  });

  test.each(["build", "compact", "sample"])("%s --help lists its flags", async (cmd) => {
    const { stdout } = await run("node", [bin, cmd, "--help"]);
    expect(stdout).toContain("--now <iso>");
  });
});
