/**
 * No tracked file holds a merge's conflict markers: they were once committed in
 * docs/data-formats.md, where nothing else noticed them. A conflict always leaves an opening and a
 * closing marker (seven "<" or ">" at the start of a line, then a space or the line's end), so
 * those two are looked for; a lone "=======" is a Markdown heading's underline and is allowed.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

const MARKER = new RegExp(`^(${"<".repeat(7)}|${">".repeat(7)}|${"\\|".repeat(7)})( |$)`);

export function conflictMarkers(files: string[], read: (f: string) => string): string[] {
  const found: string[] = [];
  for (const f of files) {
    const text = read(f);
    if (text.includes("\0")) continue; // a binary file (a workbook, a picture)
    text.split(/\r?\n/).forEach((line, i) => {
      if (MARKER.test(line)) found.push(`${f}:${i + 1}: ${line.slice(0, 40)}`);
    });
  }
  return found;
}

test("the check finds a conflict's markers, and not a Markdown underline", () => {
  const conflicted = ["a", `${"<".repeat(7)} HEAD`, "b", "=".repeat(7), "c", `${">".repeat(7)} main`].join("\n");
  const heading = ["Title", "=".repeat(7), "text"].join("\n");
  const read = (f: string) => (f === "x.md" ? conflicted : heading);
  expect(conflictMarkers(["x.md", "y.md"], read)).toEqual([
    `x.md:2: ${"<".repeat(7)} HEAD`,
    `x.md:6: ${">".repeat(7)} main`,
  ]);
});

test("no tracked file holds merge conflict markers", () => {
  const files = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
  expect(files.length).toBeGreaterThan(100);
  const read = (f: string) => {
    try {
      return readFileSync(f, "latin1");
    } catch {
      return ""; // tracked but deleted in the working tree
    }
  };
  expect(conflictMarkers(files, read)).toEqual([]);
});
