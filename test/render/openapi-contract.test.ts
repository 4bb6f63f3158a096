/**
 * The description as a validating proxy reads it: a request is matched to a path (path-level
 * servers included) and an operation by its method, each of its parameters is checked with ajv
 * against the parameter's own schema (a form-style array split at commas, headers as strings), and
 * the handler's answer must be a documented status whose headers, content type and body validate.
 * Whatever the server serves must pass both ways; what it refuses may be refused by the description.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { depsFor } from "../helpers/site.js";
import { deref, describedBeforeAll, type Json } from "../helpers/openapi.js";
import { handle } from "../../src/edge/handler.js";
import { MemoryStore } from "../../src/edge/counters.js";
import { buildOpenApi } from "../../src/render/openapi/index.js";
import type { OpenApiExamples } from "../../src/render/openapi/parts.js";

const site = describedBeforeAll();

const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/** The path item a request path falls under, with its path parameters: servers + path, templated. */
function route(pathname: string): { key: string; item: Json; params: Record<string, string> } | null {
  const rootServer = ((site.doc["servers"] as Array<{ url: string }>)[0]?.url ?? "/").replace(/\/$/, "");
  for (const [key, item] of Object.entries(site.doc["paths"] as Record<string, Json>)) {
    const servers = item["servers"] as Array<{ url: string }> | undefined;
    const full = (servers?.[0]?.url.replace(/\/$/, "") ?? rootServer) + key;
    const names: string[] = [];
    const re = full
      .split(/(\{[^}]+\})/)
      .map((part) => {
        if (!part.startsWith("{")) return escape(part);
        names.push(part.slice(1, -1));
        return "([^/]+)";
      })
      .join("");
    const m = new RegExp(`^${re}$`).exec(pathname);
    if (m) return { key, item, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return null;
}

interface Checked {
  operation: Json;
  errors: string[];
}

/** What a validating proxy says of a request before it reaches the server: [] when it passes. */
function checkRequest(method: string, url: string, headers: Record<string, string> = {}): Checked {
  const u = new URL(url, "http://feed.test");
  const r = route(u.pathname);
  if (!r) return { operation: {}, errors: [`${u.pathname}: no path of the description`] };
  const operation = r.item[method.toLowerCase()] as Json | undefined;
  if (!operation) return { operation: {}, errors: [`${r.key}: no ${method} operation`] };
  const errors: string[] = [];
  const sent = new Headers(headers);
  for (const p of ((operation["parameters"] as Json[] | undefined) ?? []).map((x) => deref(site.doc, x))) {
    const name = String(p["name"]);
    const schema = p["schema"] as Json;
    let raw: string | null;
    if (p["in"] === "query") {
      const all = u.searchParams.getAll(name);
      raw = all.length ? all.join(",") : null;
    } else if (p["in"] === "header") raw = sent.get(name);
    else if (p["in"] === "path") raw = r.params[name] ?? null;
    else throw new Error(`parameter ${name} in ${String(p["in"])}`);
    if (raw === null) {
      if (p["required"]) errors.push(`${name}: required`);
      continue;
    }
    // style: form, explode: false (the only array style used): one comma-separated value.
    const value = schema["type"] === "array" ? raw.split(",") : raw;
    errors.push(...site.check(schema, value).map((e) => `${name}: ${e}`));
  }
  return { operation, errors };
}

// Transport and CORS plumbing, not part of the contract (as in openapi.test.ts).
const PLUMBING = new Set(["content-type", "content-length", "access-control-expose-headers", "vary", "link"]);

/** What a validating proxy says of the answer: [] when status, headers, content type and body are as described. */
async function checkResponse(operation: Json, method: string, res: Response): Promise<string[]> {
  const responses = operation["responses"] as Record<string, Json>;
  const documented = responses[String(res.status)];
  if (!documented) return [`status ${res.status} is not documented`];
  const spec = deref(site.doc, documented);
  const errors: string[] = [];
  const specHeaders = Object.fromEntries(
    Object.entries((spec["headers"] as Record<string, Json> | undefined) ?? {}).map(([k, v]) => [
      k.toLowerCase(),
      deref(site.doc, v),
    ]),
  );
  for (const [name, value] of res.headers) {
    if (PLUMBING.has(name)) continue;
    const h = specHeaders[name];
    if (!h) {
      errors.push(`header ${name} is not documented`);
      continue;
    }
    const schema = h["schema"] as Json;
    errors.push(
      ...site.check(schema, schema["type"] === "integer" ? Number(value) : value).map((e) => `${name}: ${e}`),
    );
  }
  const body = await res.text();
  const content = spec["content"] as Record<string, { schema: Json }> | undefined;
  if (method === "HEAD" || res.status === 304) {
    if (body !== "") errors.push(`a ${method} ${res.status} has a body`);
    if (method === "HEAD" && content) errors.push("a HEAD answer is described with a body");
    return errors;
  }
  const type = res.headers.get("content-type")?.split(";")[0] ?? "";
  const media = content?.[type];
  if (!media) return [...errors, `content type ${type} is not documented`];
  const value: unknown = type === "text/csv" || type === "application/atom+xml" ? body : JSON.parse(body);
  return [...errors, ...site.check(media.schema, value).map((e) => `body: ${e}`)];
}

/** A request through the description, the handler, and the description again. */
async function exchange(method: string, url: string, headers: Record<string, string> = {}) {
  const req = checkRequest(method, url, headers);
  const d = depsFor(site.out, { counters: new MemoryStore() });
  const res = await handle(new Request(`http://feed.test${url}`, { method, headers }), d);
  const status = res.status;
  const response = req.errors.length ? [] : await checkResponse(req.operation, method, res);
  return { status, request: req.errors, response, etag: res.headers.get("etag") };
}

/** GET and HEAD of `url`: the request and the answer as described, and a status among `statuses`. */
async function bothWays(url: string, statuses = [200]): Promise<void> {
  for (const method of ["GET", "HEAD"]) {
    const { status, request, response } = await exchange(method, url);
    expect({ method, url, request, response }).toEqual({ method, url, request: [], response: [] });
    expect(statuses, `${method} ${url}`).toContain(status);
  }
}

const variantFiles = () =>
  Object.keys(site.manifest.files)
    .filter((f) => /^api\/v1\/feed\/(asset|category)\/[^/]+\.json$/.test(f))
    .map((f) => `/${f}`);

describe("what the server serves, a validating proxy lets through, and the answer is as described", () => {
  test("every pre-filtered file, by GET and by HEAD", async () => {
    const files = variantFiles();
    expect(files.length).toBe(site.manifest.assets.length + site.manifest.categories.length);
    for (const url of files) await bothWays(url);
  });

  test.each([
    "/api/v1/feed.json",
    "/api/v1",
    "/api/v1/openapi.json",
    "/api/v1/sources.json",
    "/api/v1/changelog.json",
    "/readyz",
  ])("%s by GET and by HEAD", async (url) => {
    await bothWays(url, [200, 503]); // /readyz may be 503 at the test's clock; both are described
  });

  test.each([
    "/api/v1/feed.json?category=Currencies&asset=US-DOLLAR",
    "/api/v1/feed.json?category=METALS",
    "/api/v1/feed.json?asset=usd-egp,Gold-24K",
    "/api/v1/feed.json?asset=%20us-dollar%20",
    "/api/v1/feed.json?category=currencies&category=Metals",
  ])("mixed case and spacing the server accepts: %s", async (url) => {
    await bothWays(url);
  });

  test("the request headers: X-Contact, If-None-Match (304), If-Match and If-Unmodified-Since (200, 412 when false)", async () => {
    const url = "/api/v1/feed.json?asset=us-dollar";
    const first = await exchange("GET", url, { "X-Contact": "mailto:dev@app.example" });
    expect(first).toMatchObject({ status: 200, request: [], response: [] });
    const etag = first.etag!;
    const preconditions: Array<[Record<string, string>, { status?: number }]> = [
      [{ "If-None-Match": etag }, { status: 304 }],
      [{ "If-Match": etag }, { status: 200 }],
      [{ "If-Unmodified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" }, {}],
      // A false precondition is 412 (RFC 9110 §13.1.1), with the problem and headers described.
      [{ "If-Match": '"not-the-current-etag"' }, { status: 412 }],
      [{ "If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" }, { status: 412 }],
    ];
    for (const method of ["GET", "HEAD"])
      for (const [headers, expected] of preconditions)
        expect(await exchange(method, url, headers), `${method} ${JSON.stringify(headers)}`).toMatchObject({
          ...expected,
          request: [],
          response: [],
        });
  });
});

describe("the description's parameters are as the server takes them, no wider", () => {
  test("values the server refuses are refused by the parameter schemas too, so the check can fail", () => {
    for (const url of [
      "/api/v1/feed.json?category=crypto",
      "/api/v1/feed.json?category=",
      "/api/v1/feed.json?asset=bitcoin",
      "/api/v1/feed.json?asset=us-dollar,,gold-24k",
      "/api/v1/feed/asset/bitcoin.json",
      "/api/v1/feed/asset/US-DOLLAR.json",
      "/api/v1/feed/category/crypto.json",
    ])
      expect(checkRequest("GET", url).errors, url).not.toEqual([]);
    expect(checkRequest("POST", "/api/v1/feed.json").errors).not.toEqual([]);
  });

  test("category and asset: any letter case, patterns built from the catalog, the lower-case values as examples", () => {
    const params = (site.doc["components"] as { parameters: Record<string, Json> }).parameters;
    const category = params["Category"]!["schema"] as { items: { pattern: string; examples: string[] } };
    expect(category.items.examples).toEqual(site.manifest.categories);
    for (const c of site.manifest.categories) {
      const re = new RegExp(category.items.pattern, "u");
      expect([c, c.toUpperCase(), ` ${c[0]!.toUpperCase()}${c.slice(1)} `].every((v) => re.test(v))).toBe(true);
    }
    const asset = params["Asset"]!["schema"] as { items: { pattern: string } };
    const re = new RegExp(asset.items.pattern, "u");
    for (const a of site.manifest.assets)
      expect([a.slug, a.id, a.id.toLowerCase(), a.slug.toUpperCase()].every((v) => re.test(v))).toBe(true);
    expect(re.test("bitcoin")).toBe(false);
  });
});

describe("the rest of what is served is described", () => {
  test("HEAD and the CORS preflight on every path, the index at its own path alone, the variant files, and the request headers of the document paths", () => {
    const paths = site.doc["paths"] as Record<string, Json>;
    for (const [key, item] of Object.entries(paths)) {
      expect(item["head"], key).toBeDefined();
      const head = item["head"] as Json;
      expect(head["operationId"], key).toMatch(/^head/);
      // OPTIONS: 204 with the preflight's headers, as the handler answers it.
      const options = item["options"] as Json;
      expect(options["operationId"], key).toMatch(/^options/);
      const r204 = deref(site.doc, (options["responses"] as Record<string, Json>)["204"]!);
      expect(Object.keys(r204["headers"] as Json)).toEqual(
        expect.arrayContaining([
          "Access-Control-Allow-Methods",
          "Access-Control-Allow-Headers",
          "Access-Control-Max-Age",
        ]),
      );
      expect(item["servers"], key).toBeUndefined(); // no path-level server sends a tool elsewhere
    }
    // The index is described at /api/v1 only, no path ending in a slash (Redocly's and Spectral's
    // default rules); /api/v1/ answers the same document (test/edge/handler.test.ts), as its
    // description says.
    expect(route("/api/v1/")).toBeNull();
    expect(route("/api/v1")?.key).toBe("/api/v1");
    expect(String(((paths["/api/v1"]!["get"] as Json)["description"] as string) ?? "")).toContain("/api/v1/");
    expect(route("/api/v1/feed/asset/us-dollar.json")).toMatchObject({
      key: "/api/v1/feed/asset/{slug}.json",
      params: { slug: "us-dollar" },
    });
    const get = paths["/api/v1/feed.json"]!["get"] as Json;
    const names = (get["parameters"] as Json[]).map((p) => deref(site.doc, p)["name"]);
    expect(names).toEqual(expect.arrayContaining(["If-Match", "If-Unmodified-Since", "X-Contact"]));
    const pf = deref(site.doc, (get["responses"] as Record<string, Json>)["412"]!);
    expect(Object.keys(pf["headers"] as Json)).toEqual(expect.arrayContaining(["ETag", "Cache-Control"]));
    expect(Object.keys(pf["content"] as Json)).toEqual(["application/problem+json"]);
    expect(String(pf["description"])).toContain("/docs/#problem-precondition-failed");
  });

  test("info.contact and servers: the site's contact and homes when it names them, else the serving host", async () => {
    // No contact and no baseUrl: a contact by name alone, saying where the docs are, rather than a
    // relative URL (OpenAPI 3.1 §4.8.3.1) or none (Spectral's info-contact: issue 53).
    expect((site.doc["info"] as Json)["contact"]).toEqual({
      name: "Price Feed API documentation: /docs/ on the host that serves this description",
    });
    expect(site.doc["servers"]).toEqual([{ url: "/", description: "The host that served this description." }]);
    const read = async (f: string) => JSON.parse(await fs.readFile(path.join(site.out, f), "utf8")) as never;
    const ex: OpenApiExamples = {
      feed: await read("api/v1/feed/asset/us-dollar.json"),
      index: await read("api/v1/index.json"),
      changelog: await read("api/v1/changelog.json"),
      sources: await read("api/v1/sources.json"),
      readiness: {},
      problems: {},
      archive: { history: null, csv: null, day: null, days: await read("api/v1/days.json") },
    };
    const contact = { name: "Feed operators", url: "https://example.org/issues", email: "ops@example.org" };
    const built = buildOpenApi(ex, {
      description: "d",
      license: "l",
      contact,
      homes: { primary: "https://prices.example.org", mirror: "https://owner.github.io/price-feed" },
      etagExample: '"x"',
      lastModifiedExample: "Thu, 19 Nov 2026 09:00:00 GMT",
    });
    expect((built["info"] as Json)["contact"]).toEqual(contact);
    // No contact, but a baseUrl: the docs page there, absolute.
    const { contact: _c, ...noContact } = {
      contact,
      description: "d",
      license: "l",
      etagExample: '"x"',
      lastModifiedExample: "Thu, 19 Nov 2026 09:00:00 GMT",
    };
    const byBase = buildOpenApi(ex, { ...noContact, homes: { primary: "https://prices.example.org", mirror: null } });
    expect((byBase["info"] as Json)["contact"]).toEqual({
      name: "Price Feed API documentation",
      url: "https://prices.example.org/docs/",
    });
    // Both homes, the mirror with its prefix: a server URL followed by a path is the file there.
    const urls = (built["servers"] as Array<{ url: string; description: string }>).map((x) => x.url);
    expect(urls).toEqual(["/", "https://prices.example.org", "https://owner.github.io/price-feed"]);
    expect((built["servers"] as Array<{ description: string }>)[2]!.description).toMatch(/static files.*pre-filtered/);
  });
});

describe("the archive's paths: served, let through and described (docs/methodology.md §5.5)", () => {
  const ok = { status: 200, request: [], response: [] };
  test.each([
    "/api/v1/history/us-dollar.json",
    "/api/v1/history/USD-EGP.json?from=2026-11-10&to=2026-11-15",
    "/api/v1/history/Gold-24K.csv",
    "/api/v1/history/us-dollar.csv?to=2026-11-12",
    "/api/v1/days.json",
    "/api/v1/days/2026-11-18.json",
  ])("%s by GET and HEAD", async (url) => {
    for (const method of ["GET", "HEAD"]) {
      const r = await exchange(method, url);
      expect({ method, url, status: r.status, request: r.request, response: r.response }).toEqual({
        method,
        url,
        ...ok,
      });
    }
  });

  test.each([
    { url: "/api/v1/history/us-dollar.json?from=2026-02-30", status: 400 },
    { url: "/api/v1/history/us-dollar.csv?from=2026-11-15&to=2026-11-01", status: 400 },
    { url: "/api/v1/history/bitcoin.json", status: 404 },
    { url: "/api/v1/days/2020-01-01.json", status: 404 },
  ])("$url: $status, a problem as described", async ({ url, status }) => {
    const d = depsFor(site.out, { counters: new MemoryStore() });
    const res = await handle(new Request(`http://feed.test${url}`), d);
    expect(res.status).toBe(status);
    const req = checkRequest("GET", url);
    // A malformed date is refused by the description's own date pattern too, or passes to the server's 400.
    const response = await checkResponse(req.operation, "GET", res);
    expect(response).toEqual([]);
  });

  test("a narrowed answer revalidates: 304 on its own ETag", async () => {
    const url = "/api/v1/history/us-dollar.json?from=2026-11-15";
    const first = await exchange("GET", url);
    const again = await exchange("GET", url, { "If-None-Match": first.etag! });
    expect({ status: again.status, request: again.request, response: again.response }).toEqual({
      status: 304,
      request: [],
      response: [],
    });
  });
});

describe("what changed: served, let through and described (docs/methodology.md §12)", () => {
  test.each([
    "/api/v1/events.json",
    "/api/v1/events.atom",
    "/api/v1/events/asset/us-dollar.json",
    "/api/v1/events/asset/gold-24k.atom",
  ])("%s by GET and HEAD, then 304 on its ETag", async (url) => {
    await bothWays(url);
    for (const method of ["GET", "HEAD"]) {
      const again = await exchange(method, url, { "If-None-Match": (await exchange(method, url)).etag! });
      expect({ method, status: again.status, request: again.request, response: again.response }).toEqual({
        method,
        status: 304,
        request: [],
        response: [],
      });
    }
  });

  test("an asset the build has no file for: 404, refused by the description's slug list too", async () => {
    const url = "/api/v1/events/asset/bitcoin.json";
    expect(checkRequest("GET", url).errors).not.toEqual([]);
    const res = await handle(new Request(`http://feed.test${url}`), depsFor(site.out, { counters: new MemoryStore() }));
    expect(res.status).toBe(404);
    expect(await checkResponse(checkRequest("GET", url).operation, "GET", res)).toEqual([]);
  });
});
