/** The built OpenAPI description, and ajv (draft 2020-12) validators over its component schemas. */
import { promises as fs } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { beforeAll } from "vitest";

export type Json = Record<string, unknown>;

export async function readOpenApi(out: string): Promise<Json> {
  return JSON.parse(await fs.readFile(path.join(out, "api/v1/openapi.json"), "utf8")) as Json;
}

const ROOT = "urn:price-feed:schemas";
/** OpenAPI refs point into components; as a standalone schema document they live under $defs. */
const rewrite = <T>(x: T): T =>
  JSON.parse(JSON.stringify(x).replaceAll('"#/components/schemas/', `"${ROOT}#/$defs/`)) as T;

export function validators(doc: Json) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  (formats as unknown as (a: Ajv2020) => void)(ajv);
  const schemas = (doc["components"] as { schemas: Json }).schemas;
  ajv.addSchema({ $id: ROOT, $defs: rewrite(schemas) });
  const cache = new Map<string, ReturnType<Ajv2020["compile"]>>();
  /** Errors of `value` against a named component or an inline schema of the description; [] when valid. */
  return (schema: string | Json, value: unknown): string[] => {
    const key = typeof schema === "string" ? schema : JSON.stringify(schema);
    let v = cache.get(key);
    if (!v)
      cache.set(
        key,
        (v = ajv.compile(typeof schema === "string" ? { $ref: `${ROOT}#/$defs/${schema}` } : rewrite(schema))),
      );
    return v(value)
      ? []
      : (v.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
  };
}

/** Follows a `$ref` inside the description. */
export function deref(doc: Json, node: Json): Json {
  const r = node["$ref"];
  if (typeof r !== "string") return node;
  return r
    .slice(2)
    .split("/")
    .reduce<Json>((n, k) => n[k.replace(/~1/g, "/").replace(/~0/g, "~")] as Json, doc);
}

/** A built site of the small test dataset with its description, the validators over it and its manifest. */
export async function describedSite() {
  const { builtSite } = await import("./site.js");
  const { Manifest } = await import("../../src/schema/documents.js");
  const { out } = await builtSite();
  const doc = await readOpenApi(out);
  const manifest = Manifest.parse(JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")));
  return { out, doc, check: validators(doc), manifest };
}

export type DescribedSite = Awaited<ReturnType<typeof describedSite>>;

/** For a test file: describedSite() made before its tests; its members can be read once beforeAll has run. */
export function describedBeforeAll(): DescribedSite {
  let site: DescribedSite | undefined;
  beforeAll(async () => {
    site = await describedSite();
  });
  return new Proxy({} as DescribedSite, {
    get(_, member) {
      if (!site) throw new Error(`describedBeforeAll: ${String(member)} read before beforeAll has run`);
      return site[member as keyof DescribedSite];
    },
  });
}
