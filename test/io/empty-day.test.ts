/**
 * An empty raw day file (issue 42 item 6): `quotes/`, `official/` or `global/<date>.ndjson` of zero
 * bytes is read as no records, with a warning in the build report naming the file, never a refusal
 * of the whole build; a history day may be empty without a word; any other empty day file still stops.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { DataError } from "../../src/core/errors.js";
import { emptyLogWarning, readDayFile } from "../../src/io/day-files.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const NOW = Date.parse("2026-11-19T11:30:00Z");
const DAY = "2026-11-18";

describe("readDayFile: what an empty day file is read as", () => {
  // [what, bytes, how it is read, what it gives]
  const cases: Array<[string, string, "log" | "history" | "other", "empty+warning" | "empty" | "error"]> = [
    ["a log of zero bytes", "", "log", "empty+warning"],
    ["a log of blank lines only", "\n \n", "log", "empty+warning"],
    ["a history day of zero bytes", "", "history", "empty"],
    ["any other day file of zero bytes", "", "other", "error"],
  ];
  test.each(cases)("%s", async (_what, text, how, gives) => {
    const dir = await tempDir();
    const file = path.join(dir, `${DAY}.ndjson`);
    await fs.writeFile(file, text);
    const warnings: string[] = [];
    const read = how === "log" ? { torn: warnings } : how === "history" ? { allowEmpty: true } : {};
    const got = await readDayFile(file, dir, read).catch((e: unknown) => e);
    if (gives === "error") {
      expect(got).toBeInstanceOf(DataError);
      expect((got as Error).message).toContain(`${file}: the day file is empty`);
      return;
    }
    expect(got).toBeInstanceOf(Buffer);
    expect((got as Buffer).length).toBe(gives === "empty" ? text.length : 0);
    expect(warnings).toEqual(gives === "empty+warning" ? [emptyLogWarning(file)] : []);
  });
});

describe("a build over an empty raw day file", () => {
  test.each(["quotes", "official", "global"])(
    "an empty %s day builds the site the day's absence builds, and the report names the file",
    async (folder) => {
      const data = await writeDataset(await tempDir(), smallRows());
      const file = path.join(data, folder, `${DAY}.ndjson`);
      await fs.writeFile(file, "");
      const out = path.join(data, "public");
      const empty = await runBuild({ dataDir: data, outDir: out, nowMs: NOW, saveState: false });
      const withEmpty = await snapshot(out);
      expect(empty.site.report.warnings).toContain(emptyLogWarning(file));

      // The same build with no file for that day at all: the same site, byte for byte.
      await fs.rm(file);
      const absent = await runBuild({ dataDir: data, outDir: out, nowMs: NOW, saveState: false, force: true });
      expect(await snapshot(out)).toEqual(withEmpty);
      expect(empty.site.report.warnings).toEqual([emptyLogWarning(file), ...absent.site.report.warnings]);
    },
  );

  test("compact reads an empty raw day as no quotes: the day becomes an empty history day, with the warning", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const file = path.join(data, "quotes", "2026-11-05.ndjson");
    await fs.writeFile(file, "");
    const warned: string[] = [];
    await runCompact(data, NOW, (w) => warned.push(w));
    expect(warned).toEqual([emptyLogWarning(file)]);
    expect(await fs.readFile(path.join(data, "history", "2026-11-05.ndjson"), "utf8")).toBe("");
    await expect(fs.access(file)).rejects.toThrow();
  });
});
