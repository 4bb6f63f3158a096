/**
 * docs/methodology.md is the published rulebook; src/core/methodology.ts holds its constants. These
 * tests keep the two from drifting apart: the doc's Constants table must list exactly the exported
 * constants with the code's values, and every `docs/methodology.md §N` that a comment under src/
 * cites must name a section that exists (so renumbering the doc cannot silently orphan a citation).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import * as M from "../../src/core/methodology.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const docPath = join(root, "docs", "methodology.md");
const doc = readFileSync(docPath, "utf8");
const lines = doc.split(/\r?\n/);

const CONSTANTS_HEADER = "| name | value | unit | meaning |";
// "## 12. Constants" (numbered, as the doc has it) or a bare "## Constants".
const CONSTANTS_HEADING = /^##\s+(?:(\d+)\.\s+)?Constants\s*$/;
const SECTION_HEADING = /^##\s+(\d+)\.\s+\S/;
const CITATION = /docs\/methodology\.md\s*§\s*(\d+)/g;

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());
const unticked = (cell: string): string => cell.replace(/^`(.*)`$/, "$1").trim();

interface ConstantRow {
  line: number;
  name: string;
  raw: string;
  value: unknown;
}

/** The rows of the one `| name | value | unit | meaning |` table, values parsed as JSON. */
function constantsTable(): ConstantRow[] {
  const headerAt = lines.flatMap((l, i) => (l.trim() === CONSTANTS_HEADER ? [i] : []));
  if (headerAt.length !== 1)
    throw new Error(`expected exactly one "${CONSTANTS_HEADER}" table, found ${headerAt.length}`);
  const start = headerAt[0]!;
  const rows: ConstantRow[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.trim().startsWith("|"); i++) {
    const c = cells(lines[i]!);
    if (c.length !== 4) throw new Error(`docs/methodology.md:${i + 1}: a constants row needs 4 cells, has ${c.length}`);
    const raw = unticked(c[1]!);
    let value: unknown;
    try {
      // JSON keeps the table machine-readable: 300000, 0.1, and (should one ever exist) "text" or [1,2].
      value = JSON.parse(raw);
    } catch {
      throw new Error(`docs/methodology.md:${i + 1}: value "${raw}" of ${c[0]} is not a plain number or JSON value`);
    }
    rows.push({ line: i + 1, name: unticked(c[0]!), raw, value });
  }
  return rows;
}

/** Section numbers of the `## N. Title` headings, in document order. */
function sectionNumbers(): number[] {
  return lines.flatMap((l) => {
    const m = SECTION_HEADING.exec(l);
    return m ? [Number(m[1])] : [];
  });
}

function tsFilesUnder(dir: string): string[] {
  // Relative paths, recursively (Node ≥ 20.1); a directory never ends in ".ts" here.
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".ts"))
    .map((p) => join(dir, p));
}

/** Every `docs/methodology.md §N` in a text, with its line number. */
function citationsIn(text: string): Array<{ section: number; line: number }> {
  const out: Array<{ section: number; line: number }> = [];
  for (const m of text.matchAll(CITATION))
    out.push({ section: Number(m[1]), line: text.slice(0, m.index).split("\n").length });
  return out;
}

const exported = Object.entries(M as Record<string, unknown>);

describe("the Constants table of docs/methodology.md matches src/core/methodology.ts", () => {
  const rows = constantsTable();

  test("the table sits under the Constants heading, which is the last numbered section", () => {
    const headingAt = lines.findIndex((l) => CONSTANTS_HEADING.test(l));
    expect(headingAt, "no '## N. Constants' heading").toBeGreaterThanOrEqual(0);
    const tableAt = lines.findIndex((l) => l.trim() === CONSTANTS_HEADER);
    expect(tableAt).toBeGreaterThan(headingAt);
    expect(
      lines.slice(headingAt + 1, tableAt).some((l) => /^#{1,2}\s/.test(l)),
      "another heading between 'Constants' and its table",
    ).toBe(false);
    const n = CONSTANTS_HEADING.exec(lines[headingAt]!)![1];
    if (n !== undefined) expect(Number(n)).toBe(Math.max(...sectionNumbers()));
  });

  test("the table has at least one row and no constant twice", () => {
    expect(rows.length).toBeGreaterThan(0);
    const names = rows.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  test("every constant exported by the code has a row", () => {
    const documented = new Set(rows.map((r) => r.name));
    expect(exported.map(([name]) => name).filter((name) => !documented.has(name))).toEqual([]);
  });

  test("every row names a constant that the code exports", () => {
    const names = new Set(exported.map(([name]) => name));
    expect(rows.filter((r) => !names.has(r.name)).map((r) => `line ${r.line}: ${r.name}`)).toEqual([]);
  });

  test("every row's value equals the code's value", () => {
    const code = new Map(exported);
    const wrong = rows
      .filter((r) => code.has(r.name))
      .filter((r) => JSON.stringify(r.value) !== JSON.stringify(code.get(r.name)))
      .map((r) => `line ${r.line}: ${r.name} is ${r.raw} in the doc, ${JSON.stringify(code.get(r.name))} in the code`);
    expect(wrong).toEqual([]);
  });

  test("every row gives a unit and a meaning", () => {
    const empty = rows.filter((r) => {
      const c = cells(lines[r.line - 1]!);
      return c[2] === "" || c[3] === "";
    });
    expect(empty.map((r) => r.name)).toEqual([]);
  });

  test("every upper-case constant name written in backticks in the prose is one the code exports", () => {
    // A rule that names a constant the code no longer has is a stale rule.
    const names = new Set(exported.map(([name]) => name));
    const mentioned = new Set([...doc.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]!));
    // The rulebook's unit-less spellings (CLOCK_SKEW, FRESH_MAX, …) are allowed where the doc maps them to the code names.
    const unknown = [...mentioned].filter((n) => !names.has(n) && !names.has(`${n}_MS`));
    expect(unknown).toEqual([]);
  });
});

describe("section citations in the code name sections of docs/methodology.md", () => {
  test("the numbered sections run 1, 2, 3, … without gaps or repeats", () => {
    const numbers = sectionNumbers();
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  test("the citation pattern finds a citation in a comment (so an empty result below means none, not a broken pattern)", () => {
    expect(citationsIn("// see docs/methodology.md §2\n * (docs/methodology.md §10)")).toEqual([
      { section: 2, line: 1 },
      { section: 10, line: 2 },
    ]);
  });

  test("every docs/methodology.md §N cited in a .ts file under src/ names an existing section", () => {
    const sections = new Set(sectionNumbers());
    const broken: string[] = [];
    for (const file of tsFilesUnder(join(root, "src"))) {
      for (const c of citationsIn(readFileSync(file, "utf8")))
        if (!sections.has(c.section)) broken.push(`${relative(root, file)}:${c.line} cites §${c.section}`);
    }
    expect(broken).toEqual([]);
  });
});
