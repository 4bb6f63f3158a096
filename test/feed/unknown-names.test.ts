/**
 * The seller names sources give that the registry does not know: counted (how many successful runs
 * in a row, since when: issue 51) and bounded (issue 50, item 8) in data/state/sources.json and in
 * /api/v1/sources.json, and never repeated in the OpenAPI description's examples. A page that lists
 * ten thousand strangers once added 326 KB to sources.json and 604 KB to openapi.json.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { openapiRenderer } from "../../src/render/openapi/index.js";
import { recordRuns, writeSourceRuns } from "../../src/io/source-runs.js";
import { SourceHealth, SourceRuns } from "../../src/schema/documents.js";
import { UNKNOWN_NAME_CHARS, UNKNOWN_NAMES_LISTED, keptName, publishedUnknown } from "../../src/core/unknown-names.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const T1 = "2026-11-19T09:07:00.000Z";
const T2 = "2026-11-19T10:07:00.000Z";
const T3 = "2026-11-19T11:07:00.000Z";
const empty: SourceRuns = { sources: {} };
const run = (prev: SourceRuns, at: string, unknownSellers: string[], ok = true) =>
  recordRuns(prev, [{ id: "s1", ok, error: ok ? null : "HTTP 503", unknownSellers }], at);

describe("how often and since when", () => {
  test("a name counts the successful runs in a row that gave it; one not given leaves the list", () => {
    const one = run(empty, T1, ["Bank Zed", "بنك غريب"]);
    const two = run(one, T2, ["Bank Zed"]);
    expect(two.sources["s1"]!.unknownNames).toEqual([{ name: "Bank Zed", runs: 2, firstSeenAt: T1, lastSeenAt: T2 }]);
    const three = run(two, T3, ["بنك غريب", "Bank Zed"]);
    expect(three.sources["s1"]!.unknownNames).toEqual([
      { name: "Bank Zed", runs: 3, firstSeenAt: T1, lastSeenAt: T3 }, // most runs first
      { name: "بنك غريب", runs: 1, firstSeenAt: T3, lastSeenAt: T3 }, // back again: counted afresh
    ]);
  });

  test("a failed run read no name: the list of the last success stands, uncounted", () => {
    const failed = run(run(empty, T1, ["Bank Zed"]), T2, [], false);
    expect(failed.sources["s1"]!.unknownNames).toEqual([
      { name: "Bank Zed", runs: 1, firstSeenAt: T1, lastSeenAt: T1 },
    ]);
  });

  test("a success with no unknown name clears the list", () => {
    const s = run(run(empty, T1, ["Bank Zed"]), T2, []).sources["s1"]!;
    expect(s.unknownNames).toBeUndefined();
    expect(s.unknownMore).toBeUndefined();
  });

  test("a record an older ingest wrote (bare names) is read as seen once, at its last success", () => {
    const old = { lastRunAt: T2, lastSuccessAt: T1, lastFailure: null, unknownSellers: ["Bank Zed"] };
    expect(publishedUnknown(old)).toEqual({
      names: [{ name: "Bank Zed", runs: 1, firstSeenAt: T1, lastSeenAt: T1 }],
      more: 0,
    });
    const next = run(SourceRuns.parse({ sources: { s1: old } }), T3, ["Bank Zed"]);
    expect(next.sources["s1"]!.unknownNames).toEqual([{ name: "Bank Zed", runs: 2, firstSeenAt: T1, lastSeenAt: T3 }]);
    expect(next.sources["s1"]!.unknownSellers).toBeUndefined();
  });
});

describe("bounded, whatever a page sends", () => {
  const many = Array.from({ length: 10_000 }, (_, i) => `Bank ${String(i).padStart(5, "0")}`);
  const huge = `بنك ${"ا".repeat(1_000_000)}`;

  test("ten thousand names: the first 20 kept, and how many more", () => {
    const s = run(empty, T1, many).sources["s1"]!;
    expect(s.unknownNames).toHaveLength(UNKNOWN_NAMES_LISTED);
    expect(s.unknownNames![0]!.name).toBe("Bank 00000");
    expect(s.unknownMore).toBe(10_000 - UNKNOWN_NAMES_LISTED);
  });

  test("the names seen before stay listed when a page adds strangers", () => {
    const first = run(empty, T1, ["Bank Zed"]);
    const s = run(first, T2, [...many, "Bank Zed"]).sources["s1"]!;
    expect(s.unknownNames![0]).toEqual({ name: "Bank Zed", runs: 2, firstSeenAt: T1, lastSeenAt: T2 });
    expect(s.unknownMore).toBe(10_001 - UNKNOWN_NAMES_LISTED);
  });

  test("a name of a megabyte is cut to 120 characters, never half a character", () => {
    const s = run(empty, T1, [huge]).sources["s1"]!;
    expect([...s.unknownNames![0]!.name]).toHaveLength(UNKNOWN_NAME_CHARS + 1);
    expect(s.unknownNames![0]!.name.endsWith("…")).toBe(true);
    expect(keptName(`${"😀".repeat(200)}`)).toBe(`${"😀".repeat(UNKNOWN_NAME_CHARS)}…`);
    expect(keptName("Bank Zed")).toBe("Bank Zed");
  });

  test("sources.json publishes the bound; openapi.json's example repeats no name", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    await writeSourceRuns(data, run(run(empty, T1, ["Bank Zed"]), T2, [...many, huge, "Bank Zed"]));
    // The state file itself stays small.
    expect((await fs.stat(path.join(data, "state", "sources.json"))).size).toBeLessThan(10_000);
    const out = path.join(await tempDir(), "public");
    await runBuild({
      dataDir: data,
      outDir: out,
      nowMs: Date.parse("2026-11-19T11:30:00Z"),
      renderers: [openapiRenderer],
    });
    const text = await fs.readFile(path.join(out, "api/v1/sources.json"), "utf8");
    const doc = SourceHealth.parse(JSON.parse(text));
    const s1 = doc.sources.find((s) => s.id === "s1")!;
    expect(s1.unknownNames).toHaveLength(UNKNOWN_NAMES_LISTED);
    expect(s1.unknownNames[0]).toEqual({ name: "Bank Zed", runs: 2, firstSeenAt: T1, lastSeenAt: T2 });
    expect(s1.unknownSellers).toEqual(s1.unknownNames.map((n) => n.name));
    expect(s1.unknownNamesMore).toBe(10_002 - UNKNOWN_NAMES_LISTED);
    expect(text.length).toBeLessThan(20_000);
    // A source with none: empty lists, nothing more.
    expect(doc.sources.find((s) => s.id === "s2")).toMatchObject({
      unknownSellers: [],
      unknownNames: [],
      unknownNamesMore: 0,
    });

    const openapi = await fs.readFile(path.join(out, "api/v1/openapi.json"), "utf8");
    expect(openapi).not.toContain("Bank Zed");
    expect(openapi).not.toContain("Bank 00000");
    expect(openapi).not.toContain("ااااااااااااااااااااا");
  });
});

describe("a stranger's name in a failure reason", () => {
  test("a page whose only row is a name of a megabyte fails with the name cut, as published", async () => {
    const { htmlQuotes } = await import("../../src/ingest/adapters/html.js");
    const { HtmlSource } = await import("../../src/schema/document-sources.js");
    const { sellerNamesOf } = await import("../../src/ingest/document/names.js");
    const cfg = HtmlSource.parse({
      id: "relay",
      name: "A relay",
      adapter: "html",
      kind: "aggregator",
      url: "https://relay.example/usd",
      rows: "table tr",
      fields: { seller: { cell: 0 }, asset: { const: "USD" }, buy: { cell: 1 }, sell: { cell: 2 } },
    });
    const huge = `Bank ${"Z".repeat(1_000_000)}`;
    const page = `<table><tr><td>${huge}</td><td>51.1</td><td>51.2</td></tr></table>`;
    const names = sellerNamesOf([{ id: "nbe", name: "National Bank of Egypt", nameAr: null }]);
    let reason = "";
    try {
      htmlQuotes(page, cfg, Date.parse(T1), new Set(["USD-EGP"]), names);
    } catch (e) {
      reason = (e as Error).message;
    }
    expect(reason).toContain(`"${keptName(huge)}"`);
    expect(reason.length).toBeLessThan(1_000);
  });
});
