/** Source health: ingest records each source's runs; the build publishes which sources fed which assets. */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runBuild } from "../src/jobs/build.js";
import { recordRuns, writeSourceRuns } from "../src/io/source-runs.js";
import { SourceHealth, type SourceRuns } from "../src/schema/documents.js";
import { tempDir, writeDataset } from "./helpers/dataset.js";
import { smallRows } from "./helpers/rows.js";

const T1 = "2026-11-19T09:07:00.000Z";
const T2 = "2026-11-19T10:07:00.000Z";
const empty: SourceRuns = { sources: {} };

describe("ingest's record of source runs", () => {
  test.each([
    {
      name: "a first success",
      prev: empty,
      ok: true,
      at: T1,
      expected: { lastRunAt: T1, lastSuccessAt: T1, lastFailure: null },
    },
    {
      name: "a first failure",
      prev: empty,
      ok: false,
      at: T1,
      expected: { lastRunAt: T1, lastSuccessAt: null, lastFailure: { at: T1, reason: "HTTP 503" } },
    },
    {
      name: "a failure after a success keeps when it last worked",
      prev: recordRuns(empty, [{ id: "s", ok: true }], T1),
      ok: false,
      at: T2,
      expected: { lastRunAt: T2, lastSuccessAt: T1, lastFailure: { at: T2, reason: "HTTP 503" } },
    },
    {
      name: "a success after a failure keeps why it last failed",
      prev: recordRuns(empty, [{ id: "s", ok: false, error: "HTTP 503" }], T1),
      ok: true,
      at: T2,
      expected: { lastRunAt: T2, lastSuccessAt: T2, lastFailure: { at: T1, reason: "HTTP 503" } },
    },
  ])("$name", ({ prev, ok, at, expected }) => {
    expect(recordRuns(prev, [{ id: "s", ok, error: ok ? null : "HTTP 503" }], at).sources["s"]).toEqual(expected);
  });

  test("sources not run this time keep their record", () => {
    const prev = recordRuns(empty, [{ id: "a", ok: true }], T1);
    expect(recordRuns(prev, [{ id: "b", ok: true }], T2).sources["a"]).toEqual(prev.sources["a"]);
  });
});

describe("/api/v1/sources.json", () => {
  test("names, per source, the assets it fed on their business dates and its last runs", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    await writeSourceRuns(
      data,
      recordRuns(
        recordRuns(
          empty,
          [
            { id: "s1", ok: true },
            { id: "s2", ok: true },
          ],
          T1,
        ),
        [{ id: "s2", ok: false, error: "timed out after 20000 ms" }],
        T2,
      ),
    );
    const out = path.join(await tempDir(), "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse("2026-11-19T11:30:00Z"), renderers: [] });
    const doc = SourceHealth.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/sources.json"), "utf8")));
    const byId = new Map(doc.sources.map((s) => [s.id, s]));
    expect(doc.sources.map((s) => s.id)).toEqual(["s1", "s2", "s3", "cbe", "glob"]); // the sources file's order
    expect(byId.get("s1")).toMatchObject({
      kind: "aggregator",
      enabled: true,
      assets: ["OMR-EGP", "USD-EGP", "XAU24K-EGP"],
      lastSuccessAt: T1,
      lastFailure: null,
    });
    expect(byId.get("s2")).toMatchObject({
      assets: ["USD-EGP"],
      lastRunAt: T2,
      lastSuccessAt: T1,
      lastFailure: { at: T2, reason: "timed out after 20000 ms" },
    });
    // The official and global references count as feeding the assets they are shown on.
    expect(byId.get("cbe")!.assets).toEqual(["CNY-EGP", "USD-EGP"]);
    expect(byId.get("glob")!.assets).toEqual(["CNY-EGP", "USD-EGP"]);
    expect(byId.get("s3")).toMatchObject({ assets: [], lastRunAt: null, lastSuccessAt: null, lastFailure: null });
  });
});
