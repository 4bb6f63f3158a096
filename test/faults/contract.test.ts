/**
 * Fault injection, contract drift (issue 11): the OpenAPI tells the truth about every status, and
 * the server answers what it documents — even to requests Node's parser or the adapter rejects (a
 * raw backslash, a bad Host), sent here as raw bytes over a socket.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../src/server/serve.js";
import { handle } from "../../src/edge/handler.js";
import { MemoryStore } from "../../src/edge/counters.js";
import { builtSite, depsFor, testServer } from "../helpers/site.js";
import { deref, readOpenApi, validators, type Json } from "../helpers/openapi.js";

let out: string;
let doc: Json;
let check: ReturnType<typeof validators>;
let s: RunningServer;
const logs: string[] = [];
beforeAll(async () => {
  ({ out } = await builtSite());
  doc = await readOpenApi(out);
  check = validators(doc);
  s = await testServer(out, {}, logs);
});
afterAll(() => s.close());

/** The documented response for a path and status; throws when the description does not list it. */
function documented(pathname: string, status: number): Json {
  const paths = doc["paths"] as Record<string, Json>;
  const item = paths[pathname] ?? paths["/api/v1/feed.json"]!;
  const r = ((item["get"] as Json)["responses"] as Record<string, Json>)[String(status)];
  if (!r) throw new Error(`${pathname}: status ${status} is not documented`);
  return deref(doc, r);
}

/** Checks status, content type, body schema and problem type against the description. */
function expectDocumented(pathname: string, status: number, contentType: string, body: unknown): void {
  const content = documented(pathname, status)["content"] as Record<
    string,
    { schema: Json; examples?: Record<string, unknown> }
  >;
  expect(Object.keys(content), `${pathname} ${status}`).toContain(contentType);
  expect(check(content[contentType]!.schema, body)).toEqual([]);
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are and reads the answer until the server closes the connection. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(s.port, "127.0.0.1", () => socket.end(request, "latin1"));
    const chunks: Buffer[] = [];
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      let body = rest.join("\r\n\r\n");
      if (headers["transfer-encoding"] === "chunked")
        body = body
          .replace(/^[0-9a-f]+\r\n/i, "")
          .replace(/\r\n0\r\n\r\n$/, "")
          .replace(/\r\n[0-9a-f]+\r\n/gi, "");
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
  });
}

describe("requests the server cannot read get the documented problem, with CORS and a log line", () => {
  test.each([
    {
      name: "a raw backslash in the path",
      request: "GET /api\\v1 HTTP/1.1\r\nHost: feed.test\r\nConnection: close\r\n\r\n",
      why: /backslash/i,
    },
    {
      name: "a Host with a space",
      request: "GET /api/v1 HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
      why: /host|url/i,
    },
    {
      name: "a Host with a slash",
      request: "GET /api/v1 HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n",
      why: /host|url/i,
    },
    {
      name: "a Host that is half an IPv6 literal",
      request: "GET /api/v1 HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n",
      why: /host|url/i,
    },
    {
      name: "no Host at all (RFC 9112 §3.2)",
      request: "GET /api/v1 HTTP/1.1\r\nConnection: close\r\n\r\n",
      why: /host/i,
    },
    {
      name: "a raw space in the target (the parser's own rejection)",
      request: "GET /api/v1 x HTTP/1.1\r\nHost: feed.test\r\n\r\n",
      why: /HTTP\/1\.1/,
    },
    {
      name: "a control character in a header (the parser's own rejection)",
      request: "GET /api/v1 HTTP/1.1\r\nHost: feed.test\r\nX-Bad: a\u0001b\r\n\r\n",
      why: /HTTP\/1\.1/,
    },
  ])("$name → 400 problem+json", async ({ request, why }) => {
    const before = logs.length;
    const res = await raw(request);
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    const body = JSON.parse(res.body) as { type: string; status: number; detail: string };
    expect(body).toMatchObject({ type: "/docs/#problem-malformed-request", status: 400, title: "Malformed request" });
    expect(body.detail).toMatch(why);
    expectDocumented("/api/v1", 400, "application/problem+json", body);
    expect(logs.length).toBe(before + 1);
    expect(logs.at(-1)).toMatch(/ 400 .*malformed: /);
  });

  test("a HEAD the adapter cannot read gets the 400 without a body", async () => {
    const res = await raw("HEAD /api\\v1 HTTP/1.1\r\nHost: feed.test\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(400);
    expect(res.body).toBe("");
  });

  test("the server still answers ordinary requests after them", async () => {
    expect((await fetch(`${s.url}/api/v1`)).status).toBe(200);
  });
});

describe("the OpenAPI tells the truth about every status", () => {
  const many = Array.from({ length: 65 }, (_, i) => `p${i}=1`).join("&");
  const long = `asset=${"x".repeat(5000)}`;
  const paths = ["/readyz", "/api/v1", "/api/v1/openapi.json", "/api/v1/changelog.json", "/api/v1/feed.json"];
  const cases = paths.flatMap((p) => [
    { path: p, what: "65 parameters", query: many, status: 400 },
    { path: p, what: "an asset that is not UTF-8", query: "asset=%FF", status: 400 },
    { path: p, what: "a 5,000-character target", query: long, status: 414 },
  ]);

  test.each(cases)("$path with $what → $status is documented", async ({ path, query, status }) => {
    const res = await handle(
      new Request(`http://feed.test${path}?${query}`),
      depsFor(out, { counters: new MemoryStore() }),
    );
    expect(res.status).toBe(status);
    expectDocumented(path, status, res.headers.get("content-type")!, await res.json());
  });

  test("?asset= (empty) is a 400, and the description's asset parameter does not allow it either", async () => {
    for (const q of ["asset=", "asset=us-dollar,,gold-24k", "category="]) {
      const res = await handle(
        new Request(`http://feed.test/api/v1/feed.json?${q}`),
        depsFor(out, { counters: new MemoryStore() }),
      );
      expect(res.status, q).toBe(400);
      expectDocumented("/api/v1/feed.json", 400, "application/problem+json", await res.json());
    }
    const params = (doc["components"] as { parameters: Record<string, { schema: Json }> }).parameters;
    expect(check(params["Asset"]!.schema, [])).not.toEqual([]);
    expect(check(params["Asset"]!.schema, [""])).not.toEqual([]);
    expect(check(params["Asset"]!.schema, ["us-dollar"])).toEqual([]);
    expect(check(params["Category"]!.schema, [])).not.toEqual([]);
  });

  test("the readiness body it documents says whether the limits are enforced", async () => {
    const res = await handle(new Request("http://feed.test/readyz"), depsFor(out, { counters: new MemoryStore() }));
    const body = (await res.json()) as { rateLimiting: string };
    expect(body.rateLimiting).toBe("enforced");
    expectDocumented("/readyz", res.status, "application/json", body);
    const open = await handle(
      new Request("http://feed.test/readyz"),
      depsFor(out, { counters: { hit: async () => null } }),
    );
    expect(((await open.json()) as { rateLimiting: string }).rateLimiting).toBe("fail-open");
  });
});

describe("conditional requests over HTTP (RFC 9110 §13.1)", () => {
  test("a future or invalid If-Modified-Since is ignored; an If-None-Match that is not an entity-tag matches nothing", async () => {
    const first = await fetch(`${s.url}/api/v1/feed.json`);
    const etag = first.headers.get("etag")!;
    await first.text();
    for (const ims of ["2027-01-01", "3000", "Fri, 01 Jan 2027 00:00:00 GMT"])
      expect((await fetch(`${s.url}/api/v1/feed.json`, { headers: { "If-Modified-Since": ims } })).status, ims).toBe(
        200,
      );
    expect(
      (
        await fetch(`${s.url}/api/v1/feed.json`, {
          headers: { "If-Modified-Since": first.headers.get("last-modified")! },
        })
      ).status,
    ).toBe(304);
    expect((await fetch(`${s.url}/api/v1/feed.json`, { headers: { "If-None-Match": `x${etag}y` } })).status).toBe(200);
    expect((await fetch(`${s.url}/api/v1/feed.json`, { headers: { "If-None-Match": etag } })).status).toBe(304);
  });
});
