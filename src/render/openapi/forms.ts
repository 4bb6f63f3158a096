/**
 * The forms of a request that the OpenAPI description must admit besides a GET as written: any
 * letter case of a filter value, and HEAD (RFC 9110 §9.3.2: a GET without its body).
 */
import { ref, type Json } from "./parts.js";

/**
 * A JSON Schema pattern (ECMA-262, as OpenAPI 3.1 and ajv read it) matching any of `values` in any
 * letter case, with the white space around it that the server trims (src/feed/filters.ts): what the
 * server accepts, so a validating proxy refuses nothing the server would serve.
 */
export function anyCasePattern(values: readonly string[]): string {
  const one = (v: string) =>
    [...v]
      .map((c) => {
        const lo = c.toLowerCase();
        const up = c.toUpperCase();
        if (lo !== up && lo.length === 1 && up.length === 1) return `[${lo}${up}]`;
        // Only syntax characters may be escaped in a Unicode-mode pattern.
        return c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
      })
      .join("");
  return `^\\s*(?:${[...new Set(values.map((v) => v.toLowerCase()))].map(one).join("|")})\\s*$`;
}

/**
 * The HEAD twin of a GET (RFC 9110 §9.3.2): the same parameters and statuses with the same headers,
 * and no body. A referenced answer that has a body is referenced by its bodiless twin, `<name>Head`
 * (headResponses makes them).
 */
export function headOf(get: Json, components: Record<string, Json>): Json {
  const responses = Object.fromEntries(
    Object.entries(get["responses"] as Record<string, Json>).map(([status, r]) => {
      const target = r["$ref"];
      if (typeof target === "string") {
        const name = target.split("/").pop()!;
        return [status, components[name]?.["content"] ? ref("responses", `${name}Head`) : r];
      }
      const { content: _body, ...rest } = r;
      return [status, rest];
    }),
  );
  const summary = String(get["summary"]);
  return {
    ...get,
    operationId: String(get["operationId"]).replace(/^get/, "head"),
    summary: `${summary} (headers only)`,
    description:
      "The same answer as GET without a body: the same status and headers (ETag, Last-Modified, Cache-Control, the rate-limit state), so a client can check for a change without transferring the document. A HEAD counts against the limits like a GET.",
    responses,
  };
}

/**
 * The CORS preflight every path answers (src/edge/handler.ts): OPTIONS, 204, the methods and request
 * headers a browser's page may use, free of the rate limits.
 */
export function optionsOf(get: Json, isPathParameter: (p: Json) => boolean): Json {
  const inPath = ((get["parameters"] as Json[] | undefined) ?? []).filter(isPathParameter);
  return {
    operationId: String(get["operationId"]).replace(/^get/, "options"),
    summary: `CORS preflight of ${String(get["summary"]).replace(/^./, (c) => c.toLowerCase())}`,
    description:
      "What a browser asks before a cross-origin request with headers of its own (If-None-Match, X-Contact): 204 with the methods and headers a page may send. Not counted against the limits.",
    tags: get["tags"],
    ...(inPath.length ? { parameters: inPath } : {}),
    responses: {
      "204": { $ref: "#/components/responses/Preflight" },
      // A request target or Host the server cannot read is refused before any method is looked at.
      "400": { $ref: "#/components/responses/MalformedRequest" },
    },
  };
}

/** The bodiless twins of the reusable answers that have a body, for the HEAD operations. */
export function headResponses(components: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(components)
      .filter(([, r]) => r["content"])
      .map(([name, r]) => {
        const { content: _body, ...rest } = r;
        return [`${name}Head`, { ...rest, description: `${String(r["description"])} (HEAD: no body.)` }];
      }),
  );
}
