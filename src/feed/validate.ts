/**
 * Every file is checked against its schema before anything is published (issue: "validates every
 * file it writes against the zod schemas before anything is published"). In the command line's
 * bundle a JSON document is first put to its schema compiled to plain code (scripts/output-checks.ts);
 * what that refuses, and everything when nothing is compiled (the unbundled modules), zod parses,
 * and zod's answer is the one that counts.
 */
import { OutputError, describeZodIssues } from "../core/errors.js";
import { CHECKED_DOCUMENTS, type CheckedDocument } from "../schema/documents.js";
import { compiledOutputs } from "../schema/compiled-outputs.js";
import { MANIFEST_FILE, files } from "./paths.js";
import type { SiteFile } from "./site.js";

export function schemaFor(path: string): CheckedDocument | "html" | "openapi" | null {
  if (path === files.feed || path.startsWith("api/v1/feed/")) return "Feed";
  if (path === files.index) return "IndexDoc";
  if (path === files.changelog) return "Changelog";
  if (path === files.sources) return "SourceHealth";
  if (path === files.openapi) return "openapi";
  if (path === MANIFEST_FILE) return "Manifest";
  if (path.endsWith(".html")) return "html";
  return null;
}

export function validateFile(f: Pick<SiteFile, "path" | "body">): void {
  const schema = schemaFor(f.path);
  if (schema === null) throw new OutputError(f.path, "no schema is known for this file");
  if (schema === "html") {
    if (!f.body.startsWith("<!doctype html>")) throw new OutputError(f.path, "not an HTML document");
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(f.body);
  } catch (e) {
    throw new OutputError(f.path, `not JSON: ${(e as Error).message}`, { cause: e });
  }
  if (schema === "openapi") {
    const v = value as { openapi?: unknown };
    if (v.openapi !== "3.1.0") throw new OutputError(f.path, "not an OpenAPI 3.1 document");
    return;
  }
  if (compiledOutputs?.[schema](value)) return;
  const r = CHECKED_DOCUMENTS[schema].safeParse(value);
  if (!r.success) throw new OutputError(f.path, describeZodIssues(r.error.issues));
}
