/**
 * The OpenAPI 3.1 description (`/api/v1/openapi.json`), generated at build time: the component
 * schemas come from the zod output schemas the build validates with (zod 4 emits JSON Schema
 * draft 2020-12, the dialect of OpenAPI 3.1), and the examples from the build's own documents and
 * from the handler's own errors. Nothing here restates a field by hand.
 */
import { JSON_TYPE, type Renderer } from "../../feed/site.js";
import { canonical } from "../../core/canonical.js";
import { homesOf } from "../../feed/homes.js";
import { httpDate } from "../../core/http-date.js";
import { componentSchemas } from "./schemas.js";
import { examples } from "./examples.js";
import {
  CHANGELOG_PATH,
  DOCS_PATH,
  FEED_PATH,
  INDEX_FILE_PATH,
  INDEX_PATH,
  OPENAPI_PATH,
  READYZ_PATH,
  SOURCES_PATH,
  TERMS_PATH,
  VARIANT_PATHS,
  files,
} from "../../feed/paths.js";
import {
  CONDITIONAL,
  DOCUMENT_ERRORS,
  PRECONDITION_FAILED_TYPE,
  headerRefs,
  headers,
  jsonDocument,
  problemContent,
  ref,
  responses,
  type About,
  type Json,
  servers,
  type OpenApiExamples,
} from "./parts.js";
import { anyCasePattern, headOf, headResponses, optionsOf } from "./forms.js";
import { archiveParameters, archivePaths, archiveResponses } from "./archive.js";
import { eventsPaths } from "./events.js";
import { sellersParameters, sellersPaths, sellersResponses } from "./sellers.js";

export const OPENAPI_VERSION = "1.0";

/**
 * The pre-filtered feed files' public paths, their slug a path template: one per asset and one per
 * category, the very files that `?asset=` or `?category=` with one value is served from.
 */
const ASSET_FILE_PATH = VARIANT_PATHS.asset;
const CATEGORY_FILE_PATH = VARIANT_PATHS.category;

/** The operation of a pre-filtered feed file. */
function feedFile(operationId: string, what: string, param: string, example: unknown): Json {
  return {
    get: {
      operationId,
      summary: `The feed of one ${what}, as a file`,
      description: `The pre-filtered file the build writes for each ${what}: the same document as ${FEED_PATH}?${what}={slug}, except that _self is this file's path. The slug is the file's name, lower case as published; for ids or other letter cases use ${FEED_PATH}. Query parameters are not read.`,
      tags: ["Feed"],
      parameters: [ref("parameters", param), ...CONDITIONAL],
      responses: {
        "200": {
          description: `The feed of one ${what}; _self is the file's path.`,
          headers: headerRefs("ETag", "Last-Modified", "Cache-Control"),
          content: {
            "application/json": { schema: ref("schemas", "Feed"), ...(example === undefined ? {} : { example }) },
          },
        },
        ...DOCUMENT_ERRORS,
      },
    },
  };
}

/** The reusable parameters: the archive's, the filters and the file slugs. */
function parameterComponents(
  assets: OpenApiExamples["index"]["filters"]["asset"],
  categories: string[],
  ex: OpenApiExamples,
  exampleSlug: string | undefined,
): Record<string, Json> {
  return {
    ...archiveParameters(assets, ex.archive),
    ...sellersParameters(ex.sellers),
    Category: {
      name: "category",
      in: "query",
      description: `Comma-separated category slugs to include, in any letter case (${categories.join(", ")}); repeated parameters are merged. An unknown or empty value (\`?category=\`) gives 400 with validCategories.`,
      schema: {
        type: "array",
        minItems: 1,
        items: { type: "string", pattern: anyCasePattern(categories), examples: categories },
      },
      style: "form",
      explode: false,
      example: [categories[0]],
    },
    Asset: {
      name: "asset",
      in: "query",
      description: `Comma-separated asset slugs or ids, in any letter case (slugs: ${assets.map((a) => a.slug).join(", ")}); repeated parameters are merged. An unknown or empty value (\`?asset=\`, or an empty item as in \`a,,b\`) gives 400 with validAssets.`,
      schema: {
        type: "array",
        minItems: 1,
        items: {
          type: "string",
          pattern: anyCasePattern(assets.flatMap((a) => [a.slug, a.id])),
          examples: assets.map((a) => a.slug),
        },
      },
      style: "form",
      explode: false,
      example: assets.slice(0, 2).map((a) => a.slug),
    },
    AssetSlug: {
      name: "slug",
      in: "path",
      required: true,
      description: "An asset's slug, lower case, as the index lists it: the name of the file.",
      schema: { type: "string", enum: assets.map((a) => a.slug) },
      example: exampleSlug ?? assets[0]?.slug,
    },
    CategorySlug: {
      name: "slug",
      in: "path",
      required: true,
      description: "A category's slug, lower case, as the index lists it: the name of the file.",
      schema: { type: "string", enum: categories },
      example: categories[0],
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
    IfMatch: {
      name: "If-Match",
      in: "header",
      description: `ETags (or \`*\`) the client's change depends on: the answer is given only when the current ETag is one of them (strong comparison), else 412 Precondition Failed with a problem of type ${PRECONDITION_FAILED_TYPE} (RFC 9110 §13.1.1).`,
      schema: { type: "string" },
    },
    IfUnmodifiedSince: {
      name: "If-Unmodified-Since",
      in: "header",
      description: `An HTTP-date: the answer is given only when the data has not changed since, else 412 Precondition Failed with a problem of type ${PRECONDITION_FAILED_TYPE} (RFC 9110 §13.1.4). Ignored when If-Match is sent or when it is not an HTTP-date.`,
      schema: { type: "string" },
    },
    XContact: {
      name: "X-Contact",
      in: "header",
      description:
        "Optional: a URL or e-mail address identifying the caller (or put one in User-Agent). Never echoed back. While the service is busy, anonymous callers are limited first (RateLimit-Policy then carries their reduced policy); a caller that identifies itself keeps the published limits.",
      schema: { type: "string", minLength: 1 },
      example: "https://app.example/contact",
    },
  };
}

/**
 * The description's contact: the operator's (site.json `contact`); else the docs page at the
 * primary's absolute URL when site.json names it; else a name that says where the documentation is,
 * without a URL, which must be absolute (OpenAPI 3.1 §4.8.3.1) and would be unknown. Always one:
 * Spectral's `spectral:oas` ruleset asks for it (info-contact, issue 53).
 */
function contactOf(about: About): { contact: object } {
  if (about.contact) return { contact: about.contact };
  const primary = about.homes?.primary;
  return primary
    ? { contact: { name: "Price Feed API documentation", url: `${primary.replace(/\/$/, "")}${DOCS_PATH}` } }
    : { contact: { name: `Price Feed API documentation: ${DOCS_PATH} on the host that serves this description` } };
}

export function buildOpenApi(ex: OpenApiExamples, about: About): Json {
  const categories = ex.index.filters.category;
  const assets = ex.index.filters.asset;
  const exampleSlug = ex.feed.assets[0]?.slug;
  const reusable = { ...responses(ex), ...archiveResponses(ex.problems), ...sellersResponses(ex.problems) };
  const index = (operationId: string, summary: string, also = "") =>
    jsonDocument(
      operationId,
      summary,
      `Endpoints, the values the filters accept, the limits and links.${also}`,
      ref("schemas", "Index"),
      ex.index,
    );
  const paths: Record<string, Json> = {
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
          ...DOCUMENT_ERRORS,
          "400": ref("responses", "BadRequest"), // the filters' problems besides the common ones
        },
      },
    },
    [ASSET_FILE_PATH]: feedFile(
      "getAssetFeedFile",
      "asset",
      "AssetSlug",
      exampleSlug ? { ...ex.feed, _self: `/${files.asset(exampleSlug)}` } : undefined,
    ),
    [CATEGORY_FILE_PATH]: feedFile("getCategoryFeedFile", "category", "CategorySlug", undefined),
    [INDEX_PATH]: index(
      "getIndex",
      "What the API offers",
      ` The same document answers at ${INDEX_PATH}/, with a trailing slash, and at ${INDEX_FILE_PATH}.`,
    ),
    [INDEX_FILE_PATH]: index("getIndexFile", "What the API offers, at the path both homes serve"),
    // `/api/v1/` answers as `/api/v1` does (src/edge/representation.ts siteFileFor), but the
    // description names the index at its own path only: a path ending in a slash is one that
    // Redocly's and Spectral's default rules refuse (issue 53), and the index says so in words.
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
        parameters: [ref("parameters", "XContact")],
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
    ...archivePaths(ex.archive),
    ...eventsPaths(ex.events),
    ...sellersPaths(ex.sellers),
  };
  // Every path answers HEAD as its GET does, without the body, and OPTIONS as a CORS preflight.
  const parameters = parameterComponents(assets, categories, ex, exampleSlug);
  const isPathParameter = (p: Json) => {
    const name = typeof p["$ref"] === "string" ? p["$ref"].split("/").pop()! : null;
    return (name === null ? p : (parameters[name] ?? {}))["in"] === "path";
  };
  for (const item of Object.values(paths)) {
    item["head"] = headOf(item["get"] as Json, reusable);
    item["options"] = optionsOf(item["get"] as Json, isPathParameter);
  }

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Price Feed API",
      version: OPENAPI_VERSION,
      summary:
        "Indicative prices of Egypt's licensed money market: currencies and gold, from licensed banks and dealers.",
      description: `${about.description}\n\nRead-only and open: no key, no sign-up, CORS open to every origin. Poll about every 5 minutes with If-None-Match; the data changes at most about once an hour. Clients must ignore members they do not know: fields are added backwards-compatibly. Human documentation: ${DOCS_PATH}. Terms: ${TERMS_PATH}.`,
      // The operator's contact (site.json `contact`); without one, the docs page at the primary's
      // absolute URL when site.json names it, else none: info.contact.url must be absolute
      // (OpenAPI 3.1 §4.8.3.1), and tools resolve no relative one.
      ...contactOf(about),
      license: { name: about.license, identifier: "CC-BY-4.0" },
    },
    servers: servers(about.homes),
    security: [],
    tags: [
      { name: "Feed", description: "The prices." },
      { name: "API", description: "What the API says about itself." },
      { name: "Archive", description: "Every day the feed has seen, by asset and by day." },
      { name: "Events", description: "What changed from one hourly build to the next, as JSON and Atom." },
      { name: "Sellers", description: "Who is usually best: each seller's record over the last 30 and 365 days." },
      { name: "Operations", description: "Checks for monitors." },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      parameters,
      headers: headers(about),
      responses: {
        ...reusable,
        ...headResponses(reusable),
        Preflight: {
          description: "A CORS preflight's answer, with no body.",
          headers: headerRefs(
            "Access-Control-Allow-Origin",
            "Access-Control-Allow-Methods",
            "Access-Control-Allow-Headers",
            "Access-Control-Max-Age",
            "Allow",
          ),
        },
      },
    },
  };
}

/** The description as a file of the site, its examples from this build. */
export const openapiRenderer: Renderer = function* (ctx) {
  const { ex, etag, observedAt } = examples(ctx);
  const doc = buildOpenApi(ex, {
    description: ctx.input.dataset.site.about,
    license: ctx.input.dataset.site.license,
    contact: ctx.input.dataset.site.contact,
    homes: homesOf(ctx.input.dataset.site),
    etagExample: etag,
    lastModifiedExample: httpDate(observedAt),
  });
  const body = canonical(doc);
  // The examples carry the build instant (generatedAt, and checkedAt of readiness): as in the feed,
  // it is not part of the ETag, so an hourly rebuild of unchanged data keeps the description's ETag.
  yield {
    path: files.openapi,
    body,
    contentType: JSON_TYPE,
    etagInput: () => body.split(ctx.feed.generatedAt).join(""),
  };
};
