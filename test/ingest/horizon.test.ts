/**
 * docs/methodology.md §2.1 test 4, at ingest: a quote observed before the compaction horizon — the
 * start of the Cairo day RAW_RETENTION_DAYS (7) days before the run's instant — is never appended.
 * Such a day is closed or about to be: only a source's wrong clock, or a date misread ("22/11/26"
 * read as year 26), gives one, and once appended it would be compacted and published for ever.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { planAppends } from "../../src/ingest/log.js";
import { retentionStart } from "../../src/rules/compact.js";
import { runIngest } from "../../src/jobs/ingest.js";
import { sourcesDataset, runMain, ingestArgv } from "../helpers/ingest.js";

const NOW = Date.parse("2026-11-19T10:30:00Z"); // Thursday 12:30 in Cairo: the horizon is 12 November
const quote = (observedAt: string) => ({
  source: "local",
  seller: "alpha",
  asset: "USD-EGP",
  buy: 47.7,
  sell: 47.85,
  observedAt,
});

describe("the horizon", () => {
  test("is the start of the Cairo day 7 days before the run", () => {
    expect(retentionStart(NOW)).toBe("2026-11-12");
    // 23:30 UTC on the 18th is already the 19th in Cairo (UTC+2).
    expect(retentionStart(Date.parse("2026-11-18T23:30:00Z"))).toBe("2026-11-12");
  });

  test.each([
    ["0001-01-01T00:00:00Z", "skipped"], // a source's clock at its zero
    ["2019-03-05T10:00:00Z", "skipped"], // years behind
    ["0026-11-22T10:00:00Z", "skipped"], // "22/11/26" read as the year 26
    ["2026-11-11T21:59:59Z", "skipped"], // 23:59:59 on the 11th in Cairo: the day before the horizon
    ["2026-11-11T22:00:00Z", "appended"], // midnight of the 12th in Cairo: the horizon's first instant
    ["2026-11-19T10:00:00Z", "appended"], // today
  ])("a quote observed at %s is %s", (observedAt, expected) => {
    const plan = planAppends(
      { quotes: [quote(observedAt)], official: [], global: [] },
      new Map([["USD-EGP", 2]]),
      () => new Set(),
      () => false,
      retentionStart(NOW),
    );
    expect(plan.appended === 1 ? "appended" : "skipped").toBe(expected);
    if (expected === "skipped")
      expect(plan.skipped).toEqual([
        {
          reason: "observed before the compaction horizon",
          detail: expect.stringContaining(`alpha USD-EGP observed at ${observedAt}`),
        },
      ]);
  });

  test("an official or global rate of an older day is still logged: the CBE's backfill of business days reaches past a week", () => {
    const plan = planAppends(
      {
        quotes: [],
        official: [{ source: "cbe", asset: "USD-EGP", buy: 47.7, sell: 47.8, observedAt: "2026-11-09T10:00:00Z" }],
        global: [],
      },
      new Map([["USD-EGP", 2]]),
      () => new Set(),
      () => false,
      retentionStart(NOW),
    );
    expect(plan.appended).toBe(1);
  });
});

describe("an ingest run", () => {
  const seller = {
    id: "local",
    name: "Alpha's board",
    adapter: "seller-document",
    path: "alpha.json",
    format: "json",
    fields: { seller: { const: "alpha" }, asset: "code", buy: "buy", sell: "sell", time: "at" },
    assets: { USD: "USD-EGP" },
  };
  const board = [
    { code: "USD", buy: 47.7, sell: 47.85, at: "0001-01-01T00:00:00Z" },
    { code: "USD", buy: 15.6, sell: 15.7, at: "2019-03-05T09:00:00Z" },
    { code: "USD", buy: 47.72, sell: 47.87, at: "2026-11-19T10:00:00Z" },
  ];

  test("appends today's quote, names the old ones and why in its output, and writes nothing for their days", async () => {
    const dir = await sourcesDataset([seller]);
    await fs.writeFile(path.join(dir, "alpha.json"), JSON.stringify(board));
    const { code, out } = await runMain(ingestArgv(dir, "2026-11-19T10:30:00Z"));
    expect(code).toBe(0);
    expect(out).toMatch(
      /local \(seller-document\): fetched 3, appended 1, .*skipped observed before the compaction horizon 2/,
    );
    expect(out).toContain(
      "alpha USD-EGP observed at 0001-01-01T00:00:00.000Z: its Cairo day 0001-01-01 is before 2026-11-12",
    );
    expect(out).toContain("alpha USD-EGP observed at 2019-03-05T09:00:00.000Z: its Cairo day 2019-03-05");
    expect(existsSync(path.join(dir, "quotes/0001-01-01.ndjson"))).toBe(false);
    expect(existsSync(path.join(dir, "quotes/2019-03-05.ndjson"))).toBe(false);
    expect((await fs.readdir(path.join(dir, "quotes"))).sort()).toEqual(["2026-11-19.ndjson"]);
  });

  test("a dry run says the same", async () => {
    const dir = await sourcesDataset([seller]);
    await fs.writeFile(path.join(dir, "alpha.json"), JSON.stringify(board));
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, dryRun: true });
    expect(reports[0]).toMatchObject({ appended: 1, skipped: { "observed before the compaction horizon": 2 } });
  });
});
