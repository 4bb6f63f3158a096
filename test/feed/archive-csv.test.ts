/**
 * The archive's CSV (src/feed/archive/csv.ts) against CSV injection and characters that act (issue
 * 50, item 10): a text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * prefixed with a single quote and quoted, as OWASP advises, while a number — a negative one too —
 * stays a number; control and bidi-override characters never reach a cell. Then a whole build whose
 * seller names are hostile: no control character in any page, Atom feed or CSV it writes.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { csvField, csvRow, CSV_COLUMNS } from "../../src/feed/archive/csv.js";
import { runBuild } from "../../src/jobs/build.js";
import type { ArchiveEntry } from "../../src/schema/archive.js";
import { registry, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";

/** Every character that acts (src/core/controls.ts), but tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ACTING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe("a cell", () => {
  test.each([
    ['=HYPERLINK("http://evil.example","Bank")', `"'=HYPERLINK(""http://evil.example"",""Bank"")"`],
    ["+2+3", `"'+2+3"`],
    ["-2+3", `"'-2+3"`],
    ["@SUM(A1:A9)", `"'@SUM(A1:A9)"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
    ["\u0000=1+1", `"'=1+1"`], // a NUL in front does not hide the formula: it is dropped first
    ["Bank \u202eknaB", "Bank knaB"],
    ["Alpha\u0007\u001b[31m Bank", "Alpha[31m Bank"],
    ["Banque Misr", "Banque Misr"],
    ["بنك مصر", "بنك مصر"],
    ["A-1 Exchange", "A-1 Exchange"], // a dash inside is no formula
    ['Bank "Misr", Cairo', '"Bank ""Misr"", Cairo"'],
  ])("text %j → %s", (v, cell) => {
    expect(csvField(v)).toBe(cell);
  });

  test.each([
    [-0.35, "-0.35"],
    [47.75, "47.75"],
    [0, "0"],
    [null, ""],
  ])("number %j stays a number: %s", (v, cell) => {
    expect(csvField(v)).toBe(cell);
  });

  test("any text: no character that acts, and a formula's first character only behind a quote and a single quote", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const cell = csvField(s);
        expect(cell).not.toMatch(ACTING);
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        if (/^"[=+\-@\t\r]/.test(cell)) throw new Error(`a formula in quotes: ${JSON.stringify(cell)}`);
      }),
      { numRuns: 2000 },
    );
  });

  test("a row: the names neutralised, the numbers as they are", () => {
    const e = {
      date: "2026-11-19",
      buyLo: 47.5,
      buyHi: 47.75,
      sellLo: 47.8,
      sellHi: 48.1,
      bench: -1.25,
      bestSell: { id: "alpha", seller: "=cmd|' /C calc'!A0", sellerAr: "@بنك" },
      bestBuy: { id: "beta", seller: "-Beta", sellerAr: null },
      official: { buy: 47.6, sell: 47.7 },
      global: 47.65,
      sellerCount: 3,
    } as unknown as ArchiveEntry;
    const cells = csvRow(e).split(",");
    expect(cells[CSV_COLUMNS.indexOf("bench")]).toBe("-1.25");
    expect(cells[CSV_COLUMNS.indexOf("bestSell.seller")]).toBe(`"'=cmd|' /C calc'!A0"`);
    expect(cells[CSV_COLUMNS.indexOf("bestSell.sellerAr")]).toBe(`"'@بنك"`);
    expect(cells[CSV_COLUMNS.indexOf("bestBuy.seller")]).toBe(`"'-Beta"`);
  });
});

describe("a build whose seller names are hostile", () => {
  test("no control or bidi-override character reaches a page, an Atom feed or a CSV; the CSV's names are neutralised", async () => {
    const data = await writeDataset(await tempDir("pf-hostile-names-"), smallRows());
    const hostile = registry.map((s) =>
      s.id === "alpha"
        ? { ...s, name: '=HYPERLINK("http://evil.example","Alpha")\u0000\u0007\u001b[2J\u202eknaB' }
        : s.id === "beta"
          ? { ...s, name: "+Beta\u0085 Bank", nameAr: "@بنك\u2066 بيتا\u202e" }
          : s,
    );
    await fs.writeFile(path.join(data, "sellers.json"), JSON.stringify(hostile));
    const out = path.join(data, "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: BUILT_AT, saveState: false });

    const written: string[] = [];
    for (const e of await fs.readdir(out, { recursive: true, withFileTypes: true }))
      if (e.isFile() && /\.(html|atom|csv)$/.test(e.name)) written.push(path.join(e.parentPath, e.name));
    expect(written.filter((f) => f.endsWith(".atom")).length).toBeGreaterThan(0);
    const names: string[] = [];
    for (const f of written) {
      const text = await fs.readFile(f, "utf8");
      expect(text, path.relative(out, f)).not.toMatch(ACTING);
      if (f.endsWith(".csv"))
        for (const line of text.split("\r\n").slice(1))
          for (const col of ["bestSell.seller", "bestBuy.seller", "bestSell.sellerAr", "bestBuy.sellerAr"]) {
            const cell = line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[CSV_COLUMNS.indexOf(col as never)];
            if (cell) names.push(cell);
          }
    }
    // The hostile names were the best somewhere, and every one of their cells reads as text.
    expect(names.some((c) => c.startsWith(`"'=HYPERLINK(`))).toBe(true);
    for (const c of names) expect(c, c).not.toMatch(/^[=+\-@\t\r]|^"[=+\-@\t\r]/);
    // The pages still name the seller, without what acted.
    const home = await fs.readFile(path.join(out, "index.html"), "utf8");
    expect(home).toContain("=HYPERLINK(&quot;http://evil.example&quot;,&quot;Alpha&quot;)[2JknaB");
  });
});
