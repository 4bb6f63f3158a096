/**
 * The description is checked by tools no one here wrote: Redocly's linter (recommended rules) and
 * ajv (JSON Schema 2020-12) against every file the build writes and every answer the handler gives.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { depsFor } from "../helpers/site.js";
import { deref, describedBeforeAll, type Json } from "../helpers/openapi.js";
import { redoclyLint } from "../helpers/redocly.js";
import { spectralLint } from "../helpers/spectral.js";
import { handle } from "../../src/edge/handler.js";
import { MemoryStore } from "../../src/edge/counters.js";
import { PROBLEM_TYPES } from "../../src/core/http-contract.js";

const site = describedBeforeAll();

describe("the OpenAPI description", () => {
  test("passes redocly lint with the recommended rules, none turned off: no errors, no warnings", async () => {
    const report = await redoclyLint(path.join(site.out, "api/v1/openapi.json"));
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  test("passes Spectral's spectral:oas ruleset with its defaults: nothing reported, an info contact", async () => {
    expect(await spectralLint(path.join(site.out, "api/v1/openapi.json"))).toEqual([]);
    expect((site.doc["info"] as Json)["contact"]).toBeDefined();
  }, 120_000);

  test("is OpenAPI 3.1 in the 2020-12 dialect, version 1.0, with every path of the API", () => {
    expect(site.doc).toMatchObject({
      openapi: "3.1.0",
      jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
      info: { version: "1.0" },
    });
    expect(Object.keys(site.doc["paths"] as Json).sort()).toEqual([
      // The index at its own path; /api/v1/ answers the same, said in its description (docs/api.md).
      "/api/v1",
      "/api/v1/changelog.json",
      "/api/v1/days.json",
      "/api/v1/days/{date}.json",
      "/api/v1/events.atom",
      "/api/v1/events.json",
      "/api/v1/events/asset/{slug}.atom",
      "/api/v1/events/asset/{slug}.json",
      "/api/v1/feed.json",
      "/api/v1/feed/asset/{slug}.json",
      "/api/v1/feed/category/{slug}.json",
      "/api/v1/history/{asset}.csv",
      "/api/v1/history/{asset}.json",
      "/api/v1/index.json",
      "/api/v1/openapi.json",
      "/api/v1/sellers.json",
      "/api/v1/sellers/{id}.json",
      "/api/v1/sources.json",
      "/readyz",
    ]);
  });

  test("describes every member of the feed, the _ links and seriesWindowDays included", () => {
    const feed = (site.doc["components"] as { schemas: Record<string, Json> }).schemas["Feed"]!;
    const props = Object.keys(feed["properties"] as Json).sort();
    expect(props).toEqual([
      "_about",
      "_changelog",
      "_disclaimer",
      "_docs",
      "_license",
      "_self",
      "_spec",
      "_terms",
      "_variants",
      "assets",
      "generatedAt",
      "schemaVersion",
      "seriesWindowDays",
    ]);
    expect(feed["required"]).toEqual(expect.arrayContaining(props));
    expect(feed["additionalProperties"]).toBe(false);
  });

  test("the feed lists every status with its body and headers, and both filters and the request headers", () => {
    const get = ((site.doc["paths"] as Json)["/api/v1/feed.json"] as Json)["get"] as Json;
    const responses = get["responses"] as Record<string, Json>;
    expect(Object.keys(responses).sort()).toEqual(["200", "304", "400", "404", "405", "412", "414", "429", "503"]);
    const params = (get["parameters"] as Json[]).map((p) => deref(site.doc, p)["name"]);
    expect(params).toEqual([
      "category",
      "asset",
      "If-None-Match",
      "If-Modified-Since",
      "If-Match",
      "If-Unmodified-Since",
      "X-Contact",
    ]);
    const ok = responses["200"]!;
    expect(Object.keys(ok["headers"] as Json)).toEqual(
      expect.arrayContaining([
        "ETag",
        "Last-Modified",
        "Cache-Control",
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "RateLimit-Policy",
        "Daily-Limit",
        "Daily-Used",
        "Daily-Reset",
        "Deprecation",
        "Sunset",
      ]),
    );
    expect(Object.keys(deref(site.doc, responses["429"]!)["headers"] as Json)).toContain("Retry-After");
    const bad = deref(site.doc, responses["400"]!)["content"] as Record<
      string,
      { examples: Record<string, { value: Json }> }
    >;
    expect(bad["application/problem+json"]!.examples["unknown-category"]!.value).toMatchObject({
      status: 400,
      validCategories: site.manifest.categories,
    });
    expect(bad["application/problem+json"]!.examples["unknown-asset"]!.value["validAssets"]).toEqual(
      site.manifest.assets.map((a) => a.slug),
    );
  });

  test("its examples are the build's own documents", async () => {
    const get = ((site.doc["paths"] as Json)["/api/v1/feed.json"] as Json)["get"] as Json;
    const example = (
      ((get["responses"] as Json)["200"] as Json)["content"] as Record<
        string,
        { example: Json & { assets: Array<{ slug: string }> } }
      >
    )["application/json"]!.example;
    const slug = example.assets[0]!.slug;
    const file = JSON.parse(await fs.readFile(path.join(site.out, `api/v1/feed/asset/${slug}.json`), "utf8")) as Json;
    expect(example).toEqual({ ...file, _self: `/api/v1/feed.json?asset=${slug}` });
    const index = (
      ((((site.doc["paths"] as Json)["/api/v1"] as Json)["get"] as Json)["responses"] as Json)["200"] as Json
    )["content"] as Record<string, { example: Json }>;
    expect(index["application/json"]!.example).toEqual(
      JSON.parse(await fs.readFile(path.join(site.out, "api/v1/index.json"), "utf8")),
    );
  });
});

describe("every file the build writes validates against the description (ajv, draft 2020-12)", () => {
  const schemaOf = (file: string) =>
    file === "api/v1/index.json"
      ? "Index"
      : file === "api/v1/changelog.json"
        ? "Changelog"
        : file === "api/v1/sources.json"
          ? "SourceHealth"
          : file.startsWith("api/v1/feed")
            ? "Feed"
            : file === "api/v1/days.json"
              ? "Days"
              : file.startsWith("api/v1/days/")
                ? "Day"
                : file.startsWith("api/v1/history/") && file.endsWith(".json")
                  ? "History"
                  : file.startsWith("api/v1/events") && file.endsWith(".json")
                    ? "Events"
                    : file === "api/v1/sellers.json"
                      ? "Sellers"
                      : file.startsWith("api/v1/sellers/")
                        ? "SellerRecord"
                        : null;

  test("feeds, variants, the index, the changelog and source health", async () => {
    const checked: string[] = [];
    for (const file of Object.keys(site.manifest.files)) {
      const name = schemaOf(file);
      if (!name) continue;
      const body = JSON.parse(await fs.readFile(path.join(site.out, file), "utf8")) as unknown;
      expect({ file, errors: site.check(name, body) }).toEqual({ file, errors: [] });
      checked.push(file);
    }
    expect(checked.length).toBe(
      Object.keys(site.manifest.files).filter((f) => f.endsWith(".json") && f !== "api/v1/openapi.json").length,
    );
  });

  test("a document that breaks the schema is caught, so the check can fail", async () => {
    const feed = JSON.parse(await fs.readFile(path.join(site.out, "api/v1/feed.json"), "utf8")) as {
      assets: Array<Record<string, unknown>>;
    };
    feed.assets[0]!["market"] = "black";
    expect(site.check("Feed", feed).join()).toMatch(/assets\/0\/market/);
    expect(site.check("Feed", { ...feed, surprise: 1 }).length).toBeGreaterThan(0);
  });
});

/** The documented response for a request's path and status, and what it says of body and headers. */
function documented(pathname: string, status: number): Json {
  const paths = site.doc["paths"] as Record<string, Json>;
  const item = paths[pathname] ?? paths["/api/v1/feed.json"]!; // other paths answer like the feed (404)
  const responses = (item["get"] as Json)["responses"] as Record<string, Json>;
  const r = responses[String(status)];
  if (!r) throw new Error(`${pathname}: status ${status} is not documented`);
  return deref(site.doc, r);
}

// Headers that are transport or CORS plumbing rather than part of the API's contract.
const PLUMBING = new Set(["content-type", "content-length", "access-control-expose-headers", "vary", "link"]);

describe("every answer of the handler is one the description documents", () => {
  const cases: Array<{
    name: string;
    url: string;
    init?: RequestInit;
    deps?: Parameters<typeof depsFor>[1];
    before?: number;
    status: number;
  }> = [
    { name: "the whole feed", url: "/api/v1/feed.json", status: 200 },
    { name: "a category", url: "/api/v1/feed.json?category=metals", status: 200 },
    { name: "two assets by id and slug", url: "/api/v1/feed.json?asset=USD-EGP,gold-24k", status: 200 },
    { name: "both filters", url: "/api/v1/feed.json?category=currencies&asset=us-dollar,gold-24k", status: 200 },
    { name: "the index", url: "/api/v1", status: 200 },
    { name: "the description itself", url: "/api/v1/openapi.json", status: 200 },
    { name: "the changelog", url: "/api/v1/changelog.json", status: 200 },
    { name: "an unknown category", url: "/api/v1/feed.json?category=crypto", status: 400 },
    { name: "an unknown asset", url: "/api/v1/feed.json?asset=bitcoin", status: 400 },
    {
      name: "too many parameters",
      url: `/api/v1/feed.json?${Array.from({ length: 65 }, (_, i) => `p${i}=1`).join("&")}`,
      status: 400,
    },
    { name: "an unknown path", url: "/api/v1/prices.json", status: 404 },
    { name: "a POST", url: "/api/v1/feed.json", init: { method: "POST" }, status: 405 },
    { name: "a very long target", url: `/api/v1/feed.json?asset=${"x".repeat(5000)}`, status: 414 },
    { name: "an empty asset filter", url: "/api/v1/feed.json?asset=", status: 400 },
    {
      name: "/readyz with too many parameters",
      url: `/readyz?${Array.from({ length: 65 }, (_, i) => `p${i}=1`).join("&")}`,
      status: 400,
    },
    { name: "/readyz with a very long target", url: `/readyz?x=${"x".repeat(5000)}`, status: 414 },
    { name: "the index with a filter value that is not UTF-8", url: "/api/v1?asset=%FF", status: 400 },
    { name: "the changelog with a very long target", url: `/api/v1/changelog.json?x=${"x".repeat(5000)}`, status: 414 },
    {
      name: "the window used up",
      url: "/api/v1/feed.json",
      deps: { limits: { window: 1, windowSeconds: 60, daily: 1000 } },
      before: 1,
      status: 429,
    },
    {
      name: "the day used up",
      url: "/api/v1/feed.json",
      deps: { limits: { window: 240, windowSeconds: 60, daily: 1 } },
      before: 1,
      status: 429,
    },
    {
      name: "files unreadable",
      url: "/api/v1/feed.json",
      deps: { readFile: () => Promise.reject(new Error("disk gone")) },
      status: 503,
    },
  ];

  test.each(cases)("$name → $status", async ({ url, init, deps, before = 0, status }) => {
    const d = depsFor(site.out, { counters: new MemoryStore(), ...deps });
    const errors = console.error;
    console.error = () => {};
    try {
      for (let i = 0; i < before; i++) await handle(new Request(`http://feed.test${url}`), d);
      const res = await handle(new Request(`http://feed.test${url}`, init), d);
      expect(res.status).toBe(status);
      const spec = documented(new URL(url, "http://feed.test").pathname, status);
      const type = res.headers.get("content-type")!.split(";")[0]!;
      const content = spec["content"] as Record<string, { schema: Json }>;
      expect(Object.keys(content)).toContain(type);
      const body = (await res.json()) as { type?: string };
      expect(site.check(content[type]!.schema, body)).toEqual([]);
      const headers = Object.keys(spec["headers"] as Json).map((h) => h.toLowerCase());
      const sent = [...res.headers.keys()].filter((h) => !PLUMBING.has(h));
      expect(headers).toEqual(expect.arrayContaining(sent));
      if (status === 429) expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      if (status >= 400) expect(Object.keys(PROBLEM_TYPES)).toContain(body.type?.replace("/docs/#problem-", ""));
    } finally {
      console.error = errors;
    }
  });

  test("304 and /readyz are documented with their headers and body", async () => {
    const d = depsFor(site.out);
    const first = await handle(new Request("http://feed.test/api/v1/feed.json"), d);
    const res = await handle(
      new Request("http://feed.test/api/v1/feed.json", { headers: { "If-None-Match": first.headers.get("etag")! } }),
      d,
    );
    expect(res.status).toBe(304);
    const notModified = Object.keys(documented("/api/v1/feed.json", 304)["headers"] as Json).map((h) =>
      h.toLowerCase(),
    );
    expect(notModified).toEqual(expect.arrayContaining([...res.headers.keys()].filter((h) => !PLUMBING.has(h))));

    const ready = await handle(new Request("http://feed.test/readyz"), d);
    const spec = documented("/readyz", ready.status);
    expect(
      site.check((spec["content"] as Record<string, { schema: Json }>)["application/json"]!.schema, await ready.json()),
    ).toEqual([]);
  });
});
