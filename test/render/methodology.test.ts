/**
 * renderMethodology: the markdown rulebook becomes a fragment of the docs page with stable heading
 * ids, real tables, and no HTML of its own (everything the markdown says in tags is shown as text).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parse } from "node-html-parser";
import { headingSlug, renderMethodology } from "../../src/render/pages/methodology.js";

const doc = readFileSync(new URL("../../docs/methodology.md", import.meta.url), "utf8");

describe("headings get stable ids", () => {
  test("a numbered section heading becomes methodology-<number>-<words>, one level below its markdown level", () => {
    const html = renderMethodology("# Title\n\n## 2. Accepting quotes\n\n### 2.3 A seller's close\n");
    expect(html).toContain('<h2 id="methodology-title">Title</h2>');
    expect(html).toContain('<h3 id="methodology-2-accepting-quotes">2. Accepting quotes</h3>');
    expect(html).toContain('<h4 id="methodology-2-3-a-seller-s-close">2.3 A seller&#39;s close</h4>');
  });

  test("headingShift 0 keeps the markdown's levels, and no heading goes past h6", () => {
    expect(renderMethodology("## 1. Words\n", { headingShift: 0 })).toContain('<h2 id="methodology-1-words">');
    expect(renderMethodology("###### Deep\n")).toContain('<h6 id="methodology-deep">');
  });

  test("the id comes from the words of the heading, not from its markup", () => {
    const html = renderMethodology("## 3.3 The best seller (`directions.<side>.best`)\n");
    expect(html).toContain('id="methodology-3-3-the-best-seller-directions-side-best"');
    expect(html).toContain("<code>directions.&lt;side&gt;.best</code>");
  });

  test("two headings with the same text get distinct ids, the second one suffixed", () => {
    const ids = [...renderMethodology("## Notes\n\n## Notes\n").matchAll(/id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["methodology-notes", "methodology-notes-2"]);
  });

  test("a heading with no ASCII letter or digit still gets an id", () => {
    expect(headingSlug("— —")).toBe("section");
  });

  test("every numbered section of docs/methodology.md gets an id made of its number and title, and no id repeats", () => {
    const root = parse(renderMethodology(doc));
    const ids = root.querySelectorAll("h1,h2,h3,h4,h5,h6").map((h) => h.getAttribute("id"));
    expect(new Set(ids).size).toBe(ids.length);
    const sections = [...doc.matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => `methodology-${m[1]}-${headingSlug(m[2]!)}`);
    expect(sections.length).toBeGreaterThan(0);
    for (const id of sections) expect(ids).toContain(id);
    expect(ids).toContain("methodology-2-accepting-quotes");
  });
});

describe("tables render as tables", () => {
  test("a GFM table becomes a <table> with header cells and body rows, inside the scrolling wrapper", () => {
    const root = parse(renderMethodology("| name | value |\n|---|---|\n| `A_B` | 1 |\n| C | 2 |\n"));
    const table = root.querySelector("div.wrap > table");
    expect(table).not.toBeNull();
    expect(table!.querySelectorAll("thead th").map((th) => th.text)).toEqual(["name", "value"]);
    expect(table!.querySelectorAll("tbody tr").map((tr) => tr.querySelectorAll("td").map((td) => td.text))).toEqual([
      ["A_B", "1"],
      ["C", "2"],
    ]);
  });

  test("the Constants table of docs/methodology.md renders with its four columns", () => {
    const root = parse(renderMethodology(doc));
    const constants = root.querySelectorAll("table").find(
      (t) =>
        t
          .querySelectorAll("thead th")
          .map((th) => th.text)
          .join("|") === "name|value|unit|meaning",
    );
    expect(constants).toBeDefined();
    expect(constants!.querySelectorAll("tbody tr").length).toBeGreaterThan(10);
  });
});

describe("no raw HTML from the markdown gets through", () => {
  test("a <script> block is shown as text, never as an element", () => {
    const html = renderMethodology("Before.\n\n<script>alert(1)</script>\n\nAfter.\n");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(parse(html).querySelectorAll("script")).toHaveLength(0);
  });

  test("inline tags and event-handler attributes are escaped", () => {
    const html = renderMethodology('Price <img src=x onerror="alert(1)"> and <b onclick="x()">bold</b>.\n');
    expect(html).not.toMatch(/<img|<b[ >]/i);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  test("HTML inside a table cell is escaped too", () => {
    const html = renderMethodology("| a |\n|---|\n| <script>x</script> |\n");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("&lt;script&gt;");
  });

  test("a javascript: link keeps its text and loses its URL, while an https link is kept", () => {
    const html = renderMethodology("[click](javascript:alert(1)) and [spec](https://example.org/spec)\n");
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain("click");
    expect(html).toContain('<a href="https://example.org/spec">spec</a>');
  });

  test("the rendered docs/methodology.md contains no script, style or iframe element", () => {
    const root = parse(renderMethodology(doc));
    expect(root.querySelectorAll("script,style,iframe")).toHaveLength(0);
  });
});
