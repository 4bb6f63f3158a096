/**
 * The output documents' schemas compiled to plain JavaScript, at bundle time (scripts/bundle-cli.mjs
 * puts the code this returns in place of src/schema/compiled-outputs.ts in the command line's bundle).
 *
 * Every file a build writes is checked against its zod schema before anything is published
 * (src/feed/validate.ts). zod walks a document through closures and, on its first parse of each
 * object schema, compiles a parser with `new Function`, which V8's code cache cannot keep: a sample
 * build's first checks cost ~35 ms of its start, and a large build's ~130 ms. Ajv's standalone code,
 * generated here from zod's own JSON Schema of the same definitions, is ordinary code in the bundle:
 * compiled from the code cache and about four times as fast once warm. zod stays the definition: a
 * document the compiled check refuses is parsed by zod again for the message (and zod's word is the
 * one that counts), and `test/feed/output-checks.test.ts` holds the two to the same answer on the built
 * documents and on thousands of mutations of them.
 *
 * Only what JSON Schema can say exactly may be compiled: `outputChecksCode` refuses a schema with a
 * refinement, a transform or a type outside the list below (they have no JSON Schema, and zod's
 * export would drop them without a word). Formats are not checked by Ajv: zod writes each of its
 * string formats (the ISO instant) as a `pattern` too, and the pattern is zod's own regex. Patterns
 * are compiled without the `u` flag, as zod compiles them.
 *
 * Used only by the bundler and the tests, hence here in scripts/ rather than src/: Ajv is a development
 * dependency, and the command line never loads this module.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { z } from "zod";
import { CHECKED_DOCUMENTS } from "../src/schema/documents.js";

/** zod types whose JSON Schema says exactly what zod checks. */
const EXACT_TYPES = new Set([
  "object",
  "string",
  "number",
  "boolean",
  "null",
  "literal",
  "enum",
  "array",
  "record",
  "nullable",
  "optional",
  "union",
]);

/** Throws, naming the place, when a schema holds something its JSON Schema would not carry. */
export function assertExactlyExportable(schema: z.ZodType, at: string): void {
  const def = schema._zod.def as unknown as {
    type: string;
    checks?: { _zod: { def: { check: string } } }[];
    shape?: Record<string, z.ZodType>;
    element?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
    keyType?: z.ZodType;
    valueType?: z.ZodType;
    catchall?: z.ZodType;
  };
  if (!EXACT_TYPES.has(def.type)) throw new Error(`${at}: a zod ${def.type} has no exact JSON Schema to compile`);
  for (const c of def.checks ?? [])
    if (c._zod.def.check === "custom" || c._zod.def.check === "overwrite")
      throw new Error(`${at}: a refinement or transform (${c._zod.def.check}) has no JSON Schema to compile`);
  if (def.catchall && def.catchall._zod.def.type !== "never")
    throw new Error(`${at}: an object with a catch-all schema is not compiled`);
  for (const [k, v] of Object.entries(def.shape ?? {})) assertExactlyExportable(v, `${at}.${k}`);
  if (def.element) assertExactlyExportable(def.element, `${at}[]`);
  if (def.innerType) assertExactlyExportable(def.innerType, at);
  for (const [i, o] of (def.options ?? []).entries()) assertExactlyExportable(o, `${at}|${i}`);
  if (def.keyType) assertExactlyExportable(def.keyType, `${at}{key}`);
  if (def.valueType) assertExactlyExportable(def.valueType, `${at}{}`);
}

/** Annotation keywords: they change no answer, and Ajv would otherwise write them into the code. */
const ANNOTATIONS = ["description", "examples", "title", "id", "$schema", "format"];
/** Keywords whose value is a schema, a list of schemas or a map of schemas (JSON Schema 2020-12). */
const ONE = ["items", "additionalProperties", "propertyNames", "not", "contains", "if", "then", "else"];
const MANY = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "$defs", "patternProperties"];

/** A copy of a JSON Schema without annotations; a property named like one is a property, and stays. */
function stripAnnotations(s: unknown): unknown {
  if (typeof s !== "object" || s === null || Array.isArray(s)) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (ANNOTATIONS.includes(k)) continue;
    if (ONE.includes(k)) out[k] = stripAnnotations(v);
    else if (MANY.includes(k)) out[k] = (v as unknown[]).map(stripAnnotations);
    else if (MAP.includes(k))
      out[k] = Object.fromEntries(Object.entries(v as object).map(([name, sub]) => [name, stripAnnotations(sub)]));
    else out[k] = v;
  }
  return out;
}

/**
 * An ES module exporting `compiledOutputs`: one check per document name (CHECKED_DOCUMENTS unless
 * told otherwise), `(value) => boolean`, of the documents as JSON.parse gives them.
 */
export function outputChecksCode(documents: Readonly<Record<string, z.ZodType>> = CHECKED_DOCUMENTS): string {
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: false },
    strict: true,
    validateFormats: false, // the formats' patterns are in the schema (see above)
    unicodeRegExp: false, // as zod compiles its patterns
    allErrors: false,
    messages: false, // a refused document is parsed by zod again for the message
  });
  const names = Object.keys(documents);
  for (const name of names) {
    const schema = documents[name]!;
    assertExactlyExportable(schema, name);
    const json = stripAnnotations(z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" })) as object;
    ajv.addSchema({ ...json, $id: name });
  }
  const code = standalone.default(ajv, Object.fromEntries(names.map((n) => [n, n])));
  // Ajv's code loads helpers for string lengths (it counts code points where zod counts UTF-16
  // units) and deep equality: not exact, and not in the bundle.
  if (/\brequire\(|\bimport\b/.test(code))
    throw new Error("output checks: a schema needs Ajv's run-time helpers (a string length or a deep equality)");
  return `// Generated by scripts/output-checks.ts from the zod schemas of src/schema/documents.ts CHECKED_DOCUMENTS.\n${code}\nexport const compiledOutputs = { ${names.join(", ")} };\n`;
}
