/**
 * The bundle checks each published JSON document with its zod schema compiled to plain code
 * (scripts/output-checks.ts), and asks zod only about what that refuses. So the compiled check
 * must never accept what zod refuses, and should not refuse what zod accepts: here the two answer
 * the documents of a real build, and thousands of mutations of them, alike (one known exception, in
 * the safe direction, below).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { z } from "zod";
import { beforeAll, describe, expect, test } from "vitest";
import { assertExactlyExportable, outputChecksCode } from "../../scripts/output-checks.js";
import { CHECKED_DOCUMENTS, type CheckedDocument } from "../../src/schema/documents.js";
import type { OutputCheck } from "../../src/schema/compiled-outputs.js";
import { schemaFor } from "../../src/feed/validate.js";
import { runBuild } from "../../src/jobs/build.js";
import { parseInstant } from "../../src/core/cairo.js";
import { snapshot, tempDir } from "../helpers/dataset.js";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

let checks: Record<CheckedDocument, OutputCheck>;
/** Every JSON document of a build of data/ that has a schema, by kind. */
const docs: { kind: CheckedDocument; file: string; value: Json }[] = [];

beforeAll(async () => {
  const dir = await tempDir("pf-checks-");
  const module = path.join(dir, "checks.mjs");
  await fs.writeFile(module, outputChecksCode());
  checks = ((await import(module)) as { compiledOutputs: Record<CheckedDocument, OutputCheck> }).compiledOutputs;
  const out = path.join(dir, "public");
  const nowMs = parseInstant("2026-11-19T12:30:00Z")!;
  // On a copy of data/ that an earlier build recorded its summary in, so that this build's events
  // documents hold events of several kinds (docs/methodology.md §12).
  const data = path.join(dir, "data");
  await fs.cp(path.resolve("data"), data, { recursive: true });
  await runBuild({ dataDir: data, outDir: path.join(dir, "earlier"), nowMs: parseInstant("2026-11-16T12:30:00Z")! });
  await runBuild({ dataDir: data, outDir: out, nowMs, saveState: false, force: true });
  for (const [file, body] of await snapshot(out)) {
    const kind = schemaFor(file);
    // The JSON documents with a schema; the pages, the script and the others are checked otherwise.
    if (kind === null || !Object.hasOwn(CHECKED_DOCUMENTS, kind)) continue;
    docs.push({ kind: kind as CheckedDocument, file, value: JSON.parse(body) as Json });
  }
});

const zodSays = (kind: CheckedDocument, v: unknown) => CHECKED_DOCUMENTS[kind].safeParse(v).success;

/** Every place in a document: the path of keys and indexes from its root. */
function places(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(v)) return here.concat(...v.map((x, i) => places(x, [...at, i])));
  if (v !== null && typeof v === "object")
    return here.concat(...Object.entries(v).map(([k, x]) => places(x, [...at, k])));
  return here;
}

/** Values that each break some field and fit another: types, bounds, patterns, enums. */
const SUBSTITUTES: Json[] = [
  null,
  true,
  0,
  -1,
  1,
  1.5,
  2 ** 53,
  -0.001,
  "",
  "x",
  "sell",
  "fresh",
  "high",
  "USD-EGP",
  "2026-11-19",
  "2026-11-19T12:30:00Z",
  "2026-11-19T12:30:00.123Z",
  "2026-11-19T12:30:00+02:00",
  "2026-02-30T12:00:00Z",
  "2024-02-29T00:00:00Z",
  '"abc"',
  "1.2",
  [],
  {},
  [1],
  { a: 1 },
];

type Mutation =
  | { op: "replace"; value: Json }
  | { op: "delete" }
  | { op: "add"; key: string; value: Json }
  | { op: "drop-item" }
  | { op: "double-item" };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("replace" as const), value: fc.constantFrom(...SUBSTITUTES) }),
  fc.constant({ op: "delete" as const }),
  fc.record({
    op: fc.constant("add" as const),
    key: fc.constantFrom("extra", "__proto__", "constructor", "buy"),
    value: fc.constantFrom(...SUBSTITUTES),
  }),
  fc.constant({ op: "drop-item" as const }),
  fc.constant({ op: "double-item" as const }),
);

/** The document with one mutation at one place (a copy; the original is left as it was). */
function mutate(doc: Json, at: (string | number)[], m: Mutation): Json {
  const copy = structuredClone(doc);
  if (at.length === 0) return m.op === "replace" ? m.value : copy;
  let parent = copy as Record<string | number, Json>;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, Json>;
  const key = at.at(-1)!;
  const target = parent[key]!;
  if (m.op === "replace") parent[key] = m.value;
  else if (m.op === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (m.op === "add" && target !== null && typeof target === "object" && !Array.isArray(target))
    // JSON.parse makes "__proto__" an own key, as a client's body would carry it.
    Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
  else if (m.op === "drop-item" && Array.isArray(target)) target.pop();
  else if (m.op === "double-item" && Array.isArray(target) && target.length) target.push(structuredClone(target[0]!));
  return copy;
}

describe("output documents' compiled checks (scripts/output-checks.ts)", () => {
  test("a real build's documents of every kind pass both the compiled check and zod", () => {
    const kinds = new Set(docs.map((d) => d.kind));
    expect([...kinds].sort()).toEqual(Object.keys(CHECKED_DOCUMENTS).sort());
    const events = docs.find((d) => d.file === "api/v1/events.json")!.value as { events: Array<{ kind: string }> };
    expect(new Set(events.events.map((e) => e.kind)).size).toBeGreaterThan(2);
    for (const d of docs) {
      expect(checks[d.kind](d.value), d.file).toBe(true);
      expect(zodSays(d.kind, d.value), d.file).toBe(true);
    }
  });

  test("after any one or two mutations, the compiled check never accepts what zod refuses", () => {
    // One document of each kind (the last of its kind in the build), and one asset's own feed file
    // besides a multi-asset one: every field of every schema.
    const all = [...new Map(docs.map((d) => [d.kind + (d.file.includes("/asset/") ? "a" : ""), d])).values()];
    let accepted = 0;
    let refused = 0;
    const stricter: string[] = [];
    fc.assert(
      fc.property(
        fc.nat({ max: all.length - 1 }),
        fc.nat(),
        fc.array(mutation, { minLength: 1, maxLength: 2 }),
        (which, where, ms) => {
          const d = all[which]!;
          let value = d.value;
          for (const m of ms) {
            const ps = places(value);
            value = mutate(value, ps[where % ps.length]!, m);
          }
          const compiled = checks[d.kind](value);
          const zod = zodSays(d.kind, value);
          const what = `${d.file} after ${JSON.stringify(ms)}`;
          if (compiled) expect(zod, what).toBe(true);
          if (zod) accepted++;
          else refused++;
          if (zod && !compiled) stricter.push(what);
        },
      ),
      { numRuns: 3000, seed: 20261122 },
    );
    // Both answers are exercised, not only refusals.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
    // The one place the compiled check is stricter: zod's strict objects let an own "__proto__" key
    // through (its key test finds it on Object.prototype). validateFile then asks zod, which accepts.
    expect(stricter.filter((w) => !w.includes('"__proto__"'))).toEqual([]);
  });

  test("a schema JSON Schema cannot carry exactly is refused at compile time, naming the place", () => {
    const cases: [z.ZodType, RegExp][] = [
      [z.strictObject({ a: z.string().refine((s) => s.length > 2) }), /^X\.a: a refinement/],
      [z.strictObject({ a: z.array(z.number().check(z.refine((n) => n > 0))) }), /^X\.a\[\]: a refinement/],
      [z.strictObject({ a: z.string().trim() }), /^X\.a: a refinement or transform \(overwrite\)/],
      [z.strictObject({ a: z.string().transform((s) => s.length) }), /^X\.a: a zod pipe/],
      [z.strictObject({ a: z.date() }), /^X\.a: a zod date/],
      [z.object({ a: z.string() }).catchall(z.number()), /^X: an object with a catch-all/],
      [
        z.strictObject({
          a: z.record(
            z.string(),
            z.lazy(() => z.string()),
          ),
        }),
        /^X\.a\{\}: a zod lazy/,
      ],
    ];
    for (const [schema, message] of cases) expect(() => assertExactlyExportable(schema, "X")).toThrow(message);
    // Exportable, but Ajv would count a string's length in code points (zod: UTF-16 units) with a helper the bundle lacks.
    expect(() => outputChecksCode({ X: z.strictObject({ a: z.string().min(1) }) })).toThrow(/run-time helpers/);
    expect(() => outputChecksCode({ X: z.strictObject({ a: z.string() }) })).not.toThrow();
    for (const [name, schema] of Object.entries(CHECKED_DOCUMENTS))
      expect(() => assertExactlyExportable(schema, name)).not.toThrow();
  });

  test("the command line's bundle carries the compiled checks in place of the module's undefined", async () => {
    const bundle = await fs.readFile("dist/cli/main.bundle.cjs", "utf8");
    const names = Object.keys(CHECKED_DOCUMENTS).join("|");
    expect(bundle).toMatch(
      new RegExp(
        `compiledOutputs\\s*=\\s*\\{\\s*(?:(?:${names})\\s*:\\s*\\w+\\s*,?\\s*){${Object.keys(CHECKED_DOCUMENTS).length}}\\}`,
      ),
    );
    expect(bundle).not.toMatch(/compiledOutputs\s*=\s*void 0/);
  });
});
