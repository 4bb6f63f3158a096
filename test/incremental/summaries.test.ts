/**
 * Whether a history day's summary stands for it (src/incremental/summaries.ts), case by case: the
 * summary file and the day's bytes → its ranges (keep) or null (make: the day is read in full), the
 * decision's reason, and the report's warning.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { describe, expect, test } from "vitest";
import { historySummaries } from "../../src/incremental/summaries.js";
import { Decisions } from "../../src/incremental/decisions.js";
import { sha256Hex } from "../../src/io/hash.js";
import { tempDir } from "../helpers/dataset.js";

const DATE = "2026-11-10";
const BYTES = new TextEncoder().encode('{"date":"2026-11-10"}\n');
const range = { asset: "USD-EGP", buyLo: 48.1, buyHi: 48.3, sellLo: 48.4, sellHi: 48.6 };
const summary = (o: Record<string, unknown> = {}) =>
  JSON.stringify({ date: DATE, historySha256: sha256Hex(BYTES), ranges: [range], ...o });

const cases: Array<{ what: string; text: string | null; reason: string; warning?: RegExp }> = [
  { what: "made from these very bytes", text: summary(), reason: "kept" },
  {
    what: "no summary (compact has not written it)",
    text: null,
    reason: "none",
    warning: /no summary of 1 history day\(s\) read \(2026-11-10\)/,
  },
  {
    what: "made from other bytes (the history file was edited)",
    text: summary({ historySha256: "0".repeat(64) }),
    reason: "bytes",
    warning: /made from other bytes than/,
  },
  { what: "not a summary", text: '{"date":"2026-11-10"}', reason: "unreadable", warning: /read in full/ },
  { what: "not JSON", text: "{", reason: "unreadable", warning: /read in full/ },
];

describe("history summaries: keep or make, and why", () => {
  test.each(cases)("$what → $reason", async (c) => {
    const data = await tempDir();
    const folder = path.join(data, "summaries");
    await fs.mkdir(folder, { recursive: true });
    if (c.text !== null) await fs.writeFile(path.join(folder, `${DATE}.json`), c.text);
    const day = { date: DATE, file: path.join(data, "history", `${DATE}.ndjson`) };
    const warnings: string[] = [];
    const decisions = new Decisions();
    const plan = await historySummaries(data, folder, [day], warnings, decisions);
    const records = await plan.ranges(day, BYTES);
    plan.done();
    expect(decisions.list).toEqual([{ output: "summary", subject: DATE, keep: c.reason === "kept", reason: c.reason }]);
    if (c.reason === "kept") {
      const { asset, ...r } = range;
      expect(records).toEqual([{ date: DATE, asset, range: r, close: null }]);
      expect(warnings).toEqual([]);
    } else {
      expect(records).toBeNull();
      expect(warnings).toEqual([expect.stringMatching(c.warning!)]);
    }
  });
});
