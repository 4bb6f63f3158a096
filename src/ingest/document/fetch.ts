/**
 * Getting a document: the source's request as configured (method, headers, body) through the
 * polite HTTP client, or a file beside the sources file; decoded by its charset; and refused when
 * it is a bot challenge or a firewall page served with status 200.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { SourceError } from "../../core/errors.js";
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
}

export async function readDocument(
  src: DocumentRequest,
  accept: string,
  ctx: Pick<AdapterContext, "http" | "dataDir">,
): Promise<string> {
  let text: string;
  if (src.url !== undefined) {
    const headers = new Headers(src.headers ?? {});
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
