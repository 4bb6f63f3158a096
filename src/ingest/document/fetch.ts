/**
 * Getting a document: the source's request as configured (method, headers, body) through the
 * polite HTTP client, or a file beside the sources file; decoded by its charset; and refused when
 * it is a bot challenge or a firewall page served with status 200.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { ShapeError, SourceError } from "../../core/errors.js";
import { request } from "../http.js";
import type { AdapterContext } from "../adapters/types.js";
import { assertNotChallenge, decodeBody } from "./body.js";

export interface DocumentRequest {
  url?: string | undefined;
  /** A file, relative to the sources file's folder. */
  path?: string | undefined;
  method?: "GET" | "POST" | undefined;
  headers?: Record<string, string> | undefined;
  /** A string is sent as is; an object as JSON (with its Content-Type unless the headers give one). */
  body?: string | Record<string, unknown> | undefined;
  /** A first request for a token the rates request carries in a header (sources schema, `token`). */
  token?: { url: string; method?: "GET" | "POST" | undefined; path: string; header: string } | undefined;
}

/**
 * The token a page's script asks for before the rates (a nonce), put in the header it goes in,
 * with the cookies its answer set, as a browser session would send them back.
 */
async function withToken(
  token: NonNullable<DocumentRequest["token"]>,
  headers: Headers,
  ctx: Pick<AdapterContext, "http">,
): Promise<void> {
  const res = await request(
    token.url,
    { method: token.method ?? "GET", headers: new Headers(headers), accept: "application/json" },
    ctx.http,
  );
  const text = decodeBody(await res.arrayBuffer(), res.headers.get("content-type"));
  assertNotChallenge(text);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ShapeError(`the token answer of ${token.url} is not JSON: ${JSON.stringify(text.slice(0, 60))}`);
  }
  const value = token.path
    .split(".")
    .reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), doc);
  if ((typeof value !== "string" && typeof value !== "number") || value === "")
    throw new ShapeError(`no token at "${token.path}" in the answer of ${token.url}`);
  headers.set(token.header, String(value));
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!.trim());
  if (cookies.length > 0) headers.set("Cookie", cookies.join("; "));
}

export async function readDocument(
  src: DocumentRequest,
  accept: string,
  ctx: Pick<AdapterContext, "http" | "dataDir">,
): Promise<string> {
  let text: string;
  if (src.url !== undefined) {
    const headers = new Headers(src.headers ?? {});
    if (src.token !== undefined) await withToken(src.token, headers, ctx);
    let body: string | undefined;
    if (typeof src.body === "string") body = src.body;
    else if (src.body !== undefined) {
      body = JSON.stringify(src.body);
      if (!headers.has("content-type")) headers.set("Content-Type", "application/json; charset=utf-8");
    }
    const res = await request(
      src.url,
      { method: src.method ?? "GET", headers, ...(body !== undefined ? { body } : {}), accept },
      ctx.http,
    );
    text = decodeBody(await res.arrayBuffer(), res.headers.get("content-type"));
  } else if (src.path !== undefined) {
    text = decodeBody(await fs.readFile(path.resolve(ctx.dataDir, src.path)), null);
  } else
    throw new SourceError("a document source needs a url or a path", {
      hint: "give it `url` (a page to fetch) or `path` (a file in the data folder) in the sources file",
    });
  assertNotChallenge(text);
  return text;
}
