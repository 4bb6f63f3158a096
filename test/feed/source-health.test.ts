/**
 * Source health: ingest records each source's runs; the build publishes which sources fed which
 * assets, and how each one's format is known (the sources file's `evidence`).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { recordRuns, writeSourceRuns } from "../../src/io/source-runs.js";
import { SourceHealth, type SourceRuns } from "../../src/schema/documents.js";
import { Sources } from "../../src/schema/inputs.js";
import { outputChecksCode } from "../../scripts/output-checks.js";
import { Evidence, EvidenceKind } from "../../src/schema/source-base.js";
import { sources, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const T1 = "2026-11-19T09:07:00.000Z";
const T2 = "2026-11-19T10:07:00.000Z";
const T3 = "2026-11-19T11:07:00.000Z";
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
      expected: { lastRunAt: T1, lastSuccessAt: null, lastFailure: { at: T1, reason: "HTTP 503" }, failingSince: T1 },
    },
    {
      name: "a failure after a success keeps when it last worked",
      prev: recordRuns(empty, [{ id: "s", ok: true }], T1),
      ok: false,
      at: T2,
      expected: {
        lastRunAt: T2,
        lastSuccessAt: T1,
        lastFailure: { at: T2, reason: "HTTP 503" },
        failingSince: T2,
      },
    },
    {
      name: "failures in a row keep when they began; a success ends them",
      prev: recordRuns(recordRuns(empty, [{ id: "s", ok: true }], T1), [{ id: "s", ok: false, error: "x" }], T2),
      ok: false,
      at: T3,
      expected: { lastRunAt: T3, lastSuccessAt: T1, lastFailure: { at: T3, reason: "HTTP 503" }, failingSince: T2 },
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

describe("a source's evidence: how its format is known", () => {
  const demo = (evidence: unknown) => ({ sources: [{ id: "s1", name: "s1", adapter: "demo", evidence }] });
  const cbe = (evidence: unknown) => ({
    sources: [
      { id: "cbe", name: "CBE", adapter: "cbe", pageUrl: "https://cbe.example/rates", currencies: {}, evidence },
    ],
  });

  test.each([
    {
      kind: "recorded",
      where: ["test/fixtures/sellers/banquemisr-rates-2026-reduced-fixture.html"],
      recordedAt: "2026-11-19",
    },
    { kind: "recorded", where: ["a.html", "b.html"], recordedAt: "2026-11-19T10:07:00+02:00" },
    { kind: "public-code", where: ["someone/egp-rates/src/cbe.py@0123456789abcdef0123456789abcdef01234567"] },
    { kind: "public-code", where: ["https://github.com/someone/egp-rates/blob/main/src/cbe.py"] },
    { kind: "constructed", where: ["the bank's page as described on its help page"] },
  ])("the sources file takes $kind evidence ($where.0)", (evidence) => {
    expect(Sources.parse(demo(evidence)).sources[0]!.evidence).toEqual(evidence);
    // Every adapter's schema shares it (source-base.ts `base`).
    expect(Sources.parse(cbe(evidence)).sources[0]!.evidence).toEqual(evidence);
  });

  test("is optional", () => {
    expect(Sources.parse(demo(undefined)).sources[0]!.evidence).toBeUndefined();
  });

  test.each([
    { name: "an unknown kind", evidence: { kind: "guessed", where: ["x"] } },
    { name: "no citation", evidence: { kind: "recorded", where: [] } },
    { name: "an empty citation", evidence: { kind: "recorded", where: ["a.html", "  "] } },
    { name: "where missing", evidence: { kind: "constructed" } },
    { name: "where as a string", evidence: { kind: "constructed", where: "x" } },
    { name: "a member it does not know", evidence: { kind: "recorded", where: ["a.html"], by: "me" } },
    { name: "a date that is not one", evidence: { kind: "recorded", where: ["a.html"], recordedAt: "2026-02-30" } },
    {
      name: "a time without its offset",
      evidence: { kind: "recorded", where: ["a.html"], recordedAt: "2026-11-19T10:07:00" },
    },
    { name: "not an object", evidence: "recorded" },
  ])("refuses $name", ({ evidence }) => {
    expect(Sources.safeParse(demo(evidence)).success).toBe(false);
    expect(Sources.safeParse(cbe(evidence)).success).toBe(false);
  });

  test("the published kinds are the sources file's", () => {
    const published = SourceHealth.shape.sources.element.shape.evidence.unwrap().shape.kind;
    expect(published.options).toEqual(EvidenceKind.options);
    expect(Object.keys(Evidence.shape).sort()).toEqual(
      Object.keys(SourceHealth.shape.sources.element.shape.evidence.unwrap().shape).sort(),
    );
  });

  test("flows from the sources file into /api/v1/sources.json, null where the file gives none", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const evidence = {
      s1: { kind: "recorded", where: ["test/fixtures/sellers/s1.html"], recordedAt: "2026-11-18" },
      s2: {
        kind: "public-code",
        where: ["someone/rates/s2.py@0123456789abcdef0123456789abcdef01234567", "https://example.org/s2"],
      },
      cbe: { kind: "constructed", where: ["the central bank's own description of its workbook"] },
    } as const;
    await fs.writeFile(
      path.join(data, "sources.json"),
      JSON.stringify({
        ...sources,
        sources: sources.sources.map((s) =>
          s.id in evidence ? { ...s, evidence: evidence[s.id as keyof typeof evidence] } : s,
        ),
      }),
    );
    const out = path.join(await tempDir(), "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse("2026-11-19T11:30:00Z"), renderers: [] });
    const text = await fs.readFile(path.join(out, "api/v1/sources.json"), "utf8");
    const doc = SourceHealth.parse(JSON.parse(text));
    expect(Object.fromEntries(doc.sources.map((s) => [s.id, s.evidence]))).toEqual({
      ...evidence,
      s3: null,
      glob: null,
    });
    // Without recordedAt the member is absent, not null.
    expect(text).not.toContain('"recordedAt":null');

    // The command line's bundle checks it with SourceHealth compiled to plain code
    // (scripts/output-checks.ts): that check and zod agree on the evidence, well-formed or not.
    const module = path.join(await tempDir(), "checks.mjs");
    await fs.writeFile(module, outputChecksCode({ SourceHealth }));
    const compiled = ((await import(module)) as { compiledOutputs: { SourceHealth: (v: unknown) => boolean } })
      .compiledOutputs.SourceHealth;
    const withEvidence = (e: unknown) => ({ ...doc, sources: doc.sources.map((s) => ({ ...s, evidence: e })) });
    for (const [e, ok] of [
      [evidence.s1, true],
      [{ kind: "constructed", where: ["x"] }, true],
      [null, true],
      [{ kind: "constructed", where: [] }, false],
      [{ kind: "guessed", where: ["x"] }, false],
      [{ kind: "recorded", where: ["x"], recordedAt: "yesterday" }, false],
      [{ kind: "recorded", where: ["x"], more: 1 }, false],
      [undefined, false],
    ] as const) {
      expect({ e, zod: SourceHealth.safeParse(withEvidence(e)).success }).toEqual({ e, zod: ok });
      expect({ e, compiled: compiled(JSON.parse(JSON.stringify(withEvidence(e)))) }).toEqual({ e, compiled: ok });
    }
  });
});
