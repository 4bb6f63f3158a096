/**
 * The OpenAPI 3.1 description (`/api/v1/openapi.json`), generated at build time: the component
 * schemas come from the zod output schemas the build validates with (zod 4 emits JSON Schema
 * draft 2020-12, the dialect of OpenAPI 3.1), and the examples from the build's own documents and
 * from the handler's own errors. Nothing here restates a field by hand.
 */
import { z } from "zod";
import * as documents from "../schema/documents.js";
import * as outputs from "../schema/outputs.js";
import { precomputed } from "./precomputed.js";
import {
  CHANGELOG_PATH,
  DOCS_PATH,
  FEED_PATH,
  INDEX_PATH,
  OPENAPI_PATH,
  READYZ_PATH,
  SOURCES_PATH,
  TERMS_PATH,
} from "../feed/paths.js";
import {
  CONDITIONAL,
  ERRORS,
  headerRefs,
  headers,
  jsonDocument,
  problemContent,
  ref,
  responses,
  type About,
  type Json,
  type OpenApiExamples,
} from "./openapi-parts.js";

export const OPENAPI_VERSION = "1.0";

/** The public documents of the API, in the order they appear in `components.schemas`. */
const PUBLIC_SCHEMAS = [
  "Feed",
  "Asset",
  "Direction",
  "BestSeller",
  "Signals",
  "SeriesEntry",
  "SellerRow",
  "Previous",
  "SellerPrevious",
  "Problem",
  "Index",
  "Changelog",
  "Readiness",
  "SourceHealth",
  "SourceStatus",
];

let schemasMemo: Record<string, Json> | undefined;

/**
 * Component schemas from the zod registry: `$ref`s between them point into components. They depend
 * on the code alone, so they are made once per process (the OpenAPI document and the docs page's
 * field tables both read them; neither changes them), or taken from the bundle (precomputed.ts).
 */
export function componentSchemas(): Record<string, Json> {
  return (schemasMemo ??= precomputed?.componentSchemas ?? schemasFromZod());
}

/** componentSchemas() computed: what the bundle step stores. */
export function schemasFromZod(): Record<string, Json> {
  // Importing outputs registers every schema with an id in zod's global registry.
  void outputs;
  void documents;
  const all = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const name of PUBLIC_SCHEMAS) {
    const s = all[name];
    if (!s) throw new Error(`schema ${name} is not registered`);
    // $schema and $id belong to standalone documents; inside OpenAPI the dialect is the document's.
    const { $schema: _s, $id: _i, ...rest } = s;
    out[name] = rest;
  }
  const dangling = JSON.stringify(out)
    .match(/#\/components\/schemas\/(\w+)/g)
    ?.map((r) => r.split("/").pop()!)
    .filter((n) => !out[n]);
  if (dangling?.length) throw new Error(`public schemas refer to unlisted ones: ${[...new Set(dangling)].join(", ")}`);
  return out;
}

export function buildOpenApi(ex: OpenApiExamples, about: About): Json {
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Price Feed API",
      version: OPENAPI_VERSION,
      summary:
        "Indicative prices of Egypt's licensed money market: currencies and gold, from licensed banks and dealers.",
      description: `${about.description}\n\nRead-only and open: no key, no sign-up, CORS open to every origin. Poll about every 5 minutes with If-None-Match; the data changes at most about once an hour. Clients must ignore members they do not know: fields are added backwards-compatibly. Human documentation: ${DOCS_PATH}. Terms: ${TERMS_PATH}.`,
      license: { name: about.license, identifier: "CC-BY-4.0" },
    },
    servers: [{ url: "/", description: "The host that served this description." }],
    security: [],
    tags: [
      { name: "Feed", description: "The prices." },
      { name: "API", description: "What the API says about itself." },
      { name: "Operations", description: "Checks for monitors." },
    ],
    paths: {
      [FEED_PATH]: {
        get: {
          operationId: "getFeed",
          summary: "Every tracked asset, or the subset the filters choose",
          description:
            "Best licensed seller per side, the verdict and its signals, the official and global references, a daily series and today's seller table for each asset. With both filters an asset must match both (intersection). Values are matched without regard to case; assets by slug or id; repeated parameters are merged. The same URL answers HEAD without a body and OPTIONS as a CORS preflight.",
          tags: ["Feed"],
          parameters: [ref("parameters", "Category"), ref("parameters", "Asset"), ...CONDITIONAL],
          responses: {
            "200": {
              description:
                "The feed. Its members are in canonical (sorted) key order; the body's _self is the exact request.",
              headers: headerRefs("ETag", "Last-Modified", "Cache-Control"),
              content: { "application/json": { schema: ref("schemas", "Feed"), example: ex.feed } },
            },
            "304": ref("responses", "NotModified"),
            ...ERRORS,
            "400": ref("responses", "BadRequest"), // the filters' problems besides the common ones
          },
        },
      },
      [INDEX_PATH]: jsonDocument(
        "getIndex",
        "What the API offers",
        "Endpoints, the values the filters accept, the limits and links.",
        ref("schemas", "Index"),
        ex.index,
      ),
      [OPENAPI_PATH]: jsonDocument(
        "getOpenApi",
        "This description",
        "The OpenAPI 3.1 description of every path, field and response, for client generation.",
        {
          type: "object",
          description: "An OpenAPI 3.1 document (this one).",
          properties: {
            openapi: { const: "3.1.0" },
            info: { type: "object" },
            paths: { type: "object" },
            components: { type: "object" },
          },
          required: ["openapi", "info", "paths"],
        },
        { openapi: "3.1.0", info: { title: "Price Feed API", version: OPENAPI_VERSION }, paths: {} },
      ),
      [SOURCES_PATH]: jsonDocument(
        "getSourceHealth",
        "Source health",
        "Every source with its kind, the assets it fed on their business dates, when it last ran and succeeded, and its last failure with the reason: where to look first when a number seems wrong.",
        ref("schemas", "SourceHealth"),
        ex.sources,
      ),
      [CHANGELOG_PATH]: jsonDocument(
        "getChangelog",
        "Changelog of the API",
        "One entry per release, newest first: version, date, summary and changes by kind.",
        ref("schemas", "Changelog"),
        ex.changelog,
      ),
      [READYZ_PATH]: {
        get: {
          operationId: "getReadiness",
          summary: "Is the data fresh?",
          description:
            "200 when the published build is at most 2 hours old and no asset is stale at the request instant; 503 otherwise. Never cached.",
          tags: ["Operations"],
          responses: {
            "200": {
              description: "Ready.",
              headers: headerRefs("Cache-Control"),
              content: {
                "application/json": {
                  schema: ref("schemas", "Readiness"),
                  ...(ex.readiness.ready ? { example: ex.readiness.ready } : {}),
                },
              },
            },
            "503": {
              description:
                "Not ready: the body says which assets are stale and how old the build is. A problem document when the site itself could not be read.",
              headers: headerRefs("Cache-Control"),
              content: {
                "application/json": {
                  schema: ref("schemas", "Readiness"),
                  ...(ex.readiness.notReady ? { example: ex.readiness.notReady } : {}),
                },
                ...problemContent(["unavailable"], ex.problems),
              },
            },
            "400": ref("responses", "MalformedRequest"),
            "405": ref("responses", "MethodNotAllowed"),
            "414": ref("responses", "UriTooLong"),
            "429": ref("responses", "TooManyRequests"),
          },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      parameters: {
        Category: {
          name: "category",
          in: "query",
          description:
            "Comma-separated category slugs to include. An unknown or empty value (`?category=`) gives 400 with validCategories.",
          schema: { type: "array", minItems: 1, items: { type: "string", enum: ex.index.filters.category } },
          style: "form",
          explode: false,
          example: [ex.index.filters.category[0]],
        },
        Asset: {
          name: "asset",
          in: "query",
          description:
            "Comma-separated asset slugs or ids, any letter case. An unknown or empty value (`?asset=`, or an empty item as in `a,,b`) gives 400 with validAssets.",
          schema: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
          style: "form",
          explode: false,
          example: ex.index.filters.asset.slice(0, 2).map((a) => a.slug),
        },
        IfNoneMatch: {
          name: "If-None-Match",
          in: "header",
          description:
            "An ETag received before; 304 when it still matches. Takes precedence over If-Modified-Since (RFC 9110 §13.2.2).",
          schema: { type: "string" },
        },
        IfModifiedSince: {
          name: "If-Modified-Since",
          in: "header",
          description: "An HTTP-date; 304 when the data has not changed since. Ignored when If-None-Match is sent.",
          schema: { type: "string" },
        },
        XContact: {
          name: "X-Contact",
          in: "header",
          description:
            "Optional: a URL or e-mail address identifying a production caller (or put it in User-Agent). Anonymous heavy traffic is limited first.",
          schema: { type: "string" },
        },
      },
      headers: headers(about),
      responses: responses(ex),
    },
  };
}
