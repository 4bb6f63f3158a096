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
import { CSV_HEADER } from "./archive/csv.js";
import { XMLValidator } from "fast-xml-parser";
import type { SiteFile } from "./site.js";
import { PublicKeys, Statement, StatementSignature } from "../schema/signing.js";
import { WebAppManifest } from "../schema/web-manifest.js";

/**
 * What a signed build publishes besides its documents (src/schema/signing.ts), checked by zod alone:
 * not in CHECKED_DOCUMENTS, whose compiled checks a build without a key (the tests' own) exercises.
 */
const SIGNING_DOCUMENTS = { PublicKeys, Statement, StatementSignature } as const;

export function schemaFor(
  path: string,
):
  | CheckedDocument
  | keyof typeof SIGNING_DOCUMENTS
  | "html"
  | "openapi"
  | "csv"
  | "atom"
  | "script"
  | "robots"
  | "sitemap"
  | "webmanifest"
  | null {
  if (path === files.feed || path.startsWith("api/v1/feed/")) return "Feed";
  if (path === files.index) return "IndexDoc";
  if (path === files.changelog) return "Changelog";
  if (path === files.sources) return "SourceHealth";
  if (path === files.days) return "Days";
  if (path.startsWith("api/v1/days/")) return "Day";
  if (path.startsWith("api/v1/history/")) return path.endsWith(".csv") ? "csv" : "History";
  if (path === files.sellers) return "Sellers";
  if (path.startsWith("api/v1/sellers/") && path.endsWith(".json")) return "SellerRecord";
  if (path === files.events || (path.startsWith("api/v1/events/") && path.endsWith(".json"))) return "Events";
  if (path.startsWith("api/v1/events") && path.endsWith(".atom")) return "atom";
  if (path === files.openapi) return "openapi";
  if (path === MANIFEST_FILE) return "Manifest";
  if (path === files.statement) return "Statement";
  if (path === files.statementSig) return "StatementSignature";
  if (path === files.keys) return "PublicKeys";
  if (path.endsWith(".html")) return "html";
  if (path.endsWith(".js")) return "script";
  if (path.endsWith(".webmanifest")) return "webmanifest";
  if (path === "robots.txt") return "robots";
  if (path === "sitemap.xml") return "sitemap";
  return null;
}

export function validateFile(f: Pick<SiteFile, "path" | "body">): void {
  const schema = schemaFor(f.path);
  if (schema === null) throw new OutputError(f.path, "no schema is known for this file");
  if (schema === "html") {
    if (!f.body.startsWith("<!doctype html>")) throw new OutputError(f.path, "not an HTML document");
    return;
  }
  if (schema === "script") {
    // The pages' script (src/render/pages/amount-script.ts): strict-mode JavaScript, in ASCII.
    if (!f.body.startsWith('"use strict";') || /[^\t\n\r -~]/.test(f.body))
      throw new OutputError(f.path, "not the pages' script: strict mode and ASCII");
    return;
  }
  if (schema === "robots") {
    // RFC 9309 §2.2: groups of user-agent and rules; a Sitemap line (an absolute URL) beside them.
    const bad = f.body
      .split("\n")
      .findIndex(
        (l) =>
          l !== "" && !l.startsWith("#") && !/^(User-agent|Allow|Disallow): \S*$|^Sitemap: https?:\/\/\S+$/.test(l),
      );
    if (bad >= 0 || !f.body.endsWith("\n")) throw new OutputError(f.path, `line ${bad + 1} is not a robots.txt rule`);
    return;
  }
  if (schema === "sitemap") {
    // sitemaps.org 0.9: a urlset of absolute <loc>s, at most 50,000.
    const ok = XMLValidator.validate(f.body);
    if (ok !== true) throw new OutputError(f.path, `not well-formed XML: ${ok.err.msg} (line ${ok.err.line})`);
    if (!f.body.includes('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'))
      throw new OutputError(f.path, "not a sitemap's urlset");
    const locs = [...f.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    if (locs.length > 50_000 || locs.some((l) => !/^https?:\/\//.test(l)))
      throw new OutputError(f.path, "a <loc> that is not an absolute URL, or more than 50,000");
    return;
  }
  if (schema === "csv") {
    // RFC 4180 as src/feed/archive/csv.ts writes it: our header, then lines ending CRLF, each starting with a date.
    if (!f.body.startsWith(`${CSV_HEADER}\r\n`)) throw new OutputError(f.path, "not the archive's CSV header");
    const lines = f.body.split("\r\n");
    const bad = lines.findIndex(
      (l, i) => i > 0 && (i === lines.length - 1 ? l !== "" : !/^\d{4}-\d{2}-\d{2},/.test(l)),
    );
    if (bad >= 0) throw new OutputError(f.path, `line ${bad + 1} is not a day's row ending CRLF`);
    return;
  }
  if (schema === "atom") {
    // RFC 4287 §4.1.1: an Atom feed document is well-formed XML whose root is atom:feed.
    const ok = XMLValidator.validate(f.body);
    if (ok !== true) throw new OutputError(f.path, `not well-formed XML: ${ok.err.msg} (line ${ok.err.line})`);
    if (!f.body.includes('<feed xmlns="http://www.w3.org/2005/Atom"'))
      throw new OutputError(f.path, "not an Atom feed document");
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(f.body);
  } catch (e) {
    throw new OutputError(f.path, `not JSON: ${(e as Error).message}`, { cause: e });
  }
  if (schema === "webmanifest") {
    const r = WebAppManifest.safeParse(value);
    if (!r.success) throw new OutputError(f.path, describeZodIssues(r.error.issues));
    return;
  }
  if (schema === "openapi") {
    const v = value as { openapi?: unknown };
    if (v.openapi !== "3.1.0") throw new OutputError(f.path, "not an OpenAPI 3.1 document");
    return;
  }
  if (schema === "Statement" || schema === "StatementSignature" || schema === "PublicKeys") {
    const r = SIGNING_DOCUMENTS[schema].safeParse(value);
    if (!r.success) throw new OutputError(f.path, describeZodIssues(r.error.issues));
    return;
  }
  if (compiledOutputs?.[schema](value)) return;
  const r = CHECKED_DOCUMENTS[schema].safeParse(value);
  if (!r.success) throw new OutputError(f.path, describeZodIssues(r.error.issues));
}

/**
 * The documents whose array of items may be checked one item at a time: their schema puts no
 * constraint across the items (no length, order or uniqueness), so the whole is valid exactly when
 * the document with no items is and each item is (src/schema/archive.ts Day: `assets`).
 */
const ITEMWISE: ReadonlySet<ReturnType<typeof schemaFor>> = new Set(["Day"]);

/** Checks one item of a document written item by item (src/feed/site-items.ts) as the document holding it alone. */
export function validateItem(path: string, head: string, item: string, tail: string): void {
  if (!ITEMWISE.has(schemaFor(path))) throw new OutputError(path, "not a document checked item by item");
  validateFile({ path, body: `${head}${item}${tail}` });
}
