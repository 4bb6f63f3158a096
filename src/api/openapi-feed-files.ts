/**
 * The pre-filtered feed files in the OpenAPI description: one per asset and one per category, the
 * very files that `?asset=` or `?category=` with one value is served from.
 */
import { FEED_PATH, VARIANT_PATHS } from "../feed/paths.js";
import { CONDITIONAL, DOCUMENT_ERRORS, headerRefs, ref, type Json } from "./openapi-parts.js";

/** The public paths of the pre-filtered feed files, their slug a path template. */
export const ASSET_FILE_PATH = VARIANT_PATHS.asset;
export const CATEGORY_FILE_PATH = VARIANT_PATHS.category;

/** A pre-filtered feed file: the very file that `?asset=` or `?category=` with one value is served from. */
export function feedFile(operationId: string, what: string, param: string, example: unknown): Json {
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
