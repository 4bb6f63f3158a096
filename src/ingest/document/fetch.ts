/**
 * Getting a document: the source's request as configured (method, headers, body) through the
 * polite HTTP client, after a token when it needs one, or a file beside the sources file; decoded
 * by its charset; and refused when it is a bot challenge or a firewall page served with status 200.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { ShapeError, SourceError } from "../../core/errors.js";
import { request, secretsOf, type Answer, type Credentials } from "../http.js";
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
  token?: TokenRequest | undefined;
}

export interface TokenRequest {
  url: string;
  method?: "GET" | "POST" | undefined;
  path: string;
  header: string;
  /** The token request's own headers: it carries these and nothing of the source's. */
  headers?: Record<string, string> | undefined;
}

const at = (doc: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), doc);

/**
 * A JSON value's shape with every string and number left out (`"<string, 32 characters>"`): what a
 * token answer is saved as, so the saved bodies show where the token was, never the token.
 */
export function shapeOf(v: unknown): unknown {
  if (typeof v === "string") return `<string, ${v.length} characters>`;
  if (typeof v === "number") return "<number>";
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shapeOf(x)]));
  return v;
}

/** A token answer as it may be saved: JSON as its shape; anything else not at all (it may be the token itself). */
function tokenAnswerSaved(a: Answer): Answer {
  if (a.bytes === null) return a;
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(a.bytes));
  } catch {
    return {
      ...a,
      bytes: null,
      error: `${a.error ? `${a.error}; ` : ""}a token answer that is not JSON: not saved (it may hold the token)`,
    };
  }
  return { ...a, bytes: new TextEncoder().encode(`${JSON.stringify(shapeOf(doc))}\n`) };
}

/**
 * The token a page's script asks for before the rates (a nonce), put in the header it goes in,
 * with the cookies its answer set, as a browser session would send them back: credentials for the
 * token's origin only (src/ingest/http.ts sends them nowhere else). Asked with the token
 * configuration's own headers and nothing of the source's, once per attempt (the caller retries);
 * its answers are told to the recorder as their shape, with the token and cookies named as secrets.
 */
export async function fetchToken(token: TokenRequest, ctx: Pick<AdapterContext, "http">): Promise<Credentials> {
  const answers: Answer[] = [];
  const record = ctx.http.onAnswer;
  const http = { ...ctx.http, retries: 0, ...(record ? { onAnswer: (a: Answer) => void answers.push(a) } : {}) };
  let creds: Credentials | undefined;
  try {
    const res = await request(
      token.url,
      { method: token.method ?? "GET", headers: new Headers(token.headers ?? {}), accept: "application/json" },
      http,
    );
    const text = decodeBody(await res.arrayBuffer(), res.headers.get("content-type"));
    assertNotChallenge(text);
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      // Never quoted: a body that is not JSON may be the token itself.
      throw new ShapeError(`the token answer of ${token.url} is not JSON (${text.length} characters)`);
    }
    const value = at(doc, token.path);
    if ((typeof value !== "string" && typeof value !== "number") || value === "")
      throw new ShapeError(`no token at "${token.path}" in the answer of ${token.url}`);
    const headers = new Headers({ [token.header]: String(value) });
    const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!.trim());
    if (cookies.length > 0) headers.set("Cookie", cookies.join("; "));
    // The origin the answer came from, after any redirect the policy allowed (RFC 6454).
    creds = { origin: new URL(res.url || token.url).origin, headers };
    return creds;
  } finally {
    if (record) {
      const secret = creds ? { secretHeaders: [...creds.headers.keys()], secrets: secretsOf(creds) } : {};
      for (const a of answers) record({ ...tokenAnswerSaved(a), ...secret });
    }
  }
}

export async function readDocument(
  src: DocumentRequest,
  accept: string,
  ctx: Pick<AdapterContext, "http" | "dataDir">,
): Promise<string> {
  let text: string;
  if (src.url !== undefined) {
    const headers = new Headers(src.headers ?? {});
    const token = src.token;
    let body: string | undefined;
    if (typeof src.body === "string") body = src.body;
    else if (src.body !== undefined) {
      body = JSON.stringify(src.body);
      if (!headers.has("content-type")) headers.set("Content-Type", "application/json; charset=utf-8");
    }
    const res = await request(
      src.url,
      {
        method: src.method ?? "GET",
        headers,
        ...(body !== undefined ? { body } : {}),
        accept,
        // A fresh token before every attempt (a nonce is for one use), sent only to its origin.
        ...(token !== undefined ? { credentialsFor: () => fetchToken(token, ctx) } : {}),
      },
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
