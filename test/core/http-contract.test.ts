/**
 * The HTTP contract (src/core/http-contract.ts) is one table read by both of its sides: the handler
 * answers by it and the OpenAPI description and the docs page describe it. Here the table is sound
 * on its own (every problem type with a status, a title, a unique URI), and a built site's two sides
 * say the same of it: what the handler sends is what the description and the docs page say.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  ALLOWED_METHODS,
  ALLOWED_REQUEST_HEADERS,
  PREFLIGHT_MAX_AGE_SECONDS,
  PROBLEM_MEDIA_TYPE,
  PROBLEM_TYPES,
  problemTypeUri,
  RATE_LIMIT_HEADERS,
  SECURITY_HEADERS,
  type ProblemSlug,
} from "../../src/core/http-contract.js";
import { handle } from "../../src/edge/handler.js";
import { describedBeforeAll, type Json } from "../helpers/openapi.js";
import { depsFor } from "../helpers/site.js";

const SLUGS = Object.keys(PROBLEM_TYPES) as ProblemSlug[];

describe("the contract's table", () => {
  test.each(SLUGS)("the problem type %s has an error status, a title and what to do", (slug) => {
    const p = PROBLEM_TYPES[slug];
    expect(slug).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
    expect(p.status).toBeGreaterThanOrEqual(400);
    expect(p.status).toBeLessThan(600);
    for (const text of [p.title, p.when, p.fix]) expect(text.trim()).not.toBe("");
  });

  test("every problem type has its own URI, a section of the docs page named for its slug", () => {
    const uris = SLUGS.map(problemTypeUri);
    expect(new Set(uris).size).toBe(SLUGS.length);
    for (const slug of SLUGS) expect(problemTypeUri(slug)).toBe(`/docs/#problem-${slug}`);
  });

  test("the methods, the preflight and the headers are each named once", () => {
    expect(ALLOWED_METHODS).toEqual(["GET", "HEAD", "OPTIONS"]);
    for (const list of [ALLOWED_REQUEST_HEADERS, RATE_LIMIT_HEADERS, Object.keys(SECURITY_HEADERS)])
      expect(new Set(list.map((h) => h.toLowerCase())).size).toBe(list.length);
    expect(Number.isInteger(PREFLIGHT_MAX_AGE_SECONDS) && PREFLIGHT_MAX_AGE_SECONDS > 0).toBe(true);
  });
});

describe("a built site's two sides say the same", () => {
  const site = describedBeforeAll();
  const call = (target: string, init: RequestInit = {}) =>
    handle(new Request(`https://feed.example${target}`, init), depsFor(site.out));
  const described = (name: string) =>
    ((site.doc["components"] as { headers: Record<string, Json> }).headers[name] ?? {})["example"];

  test("the security headers the handler sends are those the description gives", async () => {
    for (const res of [await call("/api/v1/feed.json"), await call("/api/v1/no-such.json")])
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(res.headers.get(name)).toBe(value);
        expect(described(name)).toBe(value);
      }
  });

  test("the rate-limit headers are sent, readable by a page, and described", async () => {
    const res = await call("/api/v1/feed.json");
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(", ");
    for (const name of RATE_LIMIT_HEADERS) {
      expect(exposed).toContain(name);
      expect(res.headers.has(name)).toBe(true);
      expect(described(name)).toBeDefined();
    }
  });

  test("a preflight allows what the description says it allows", async () => {
    const res = await call("/api/v1/feed.json", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe(ALLOWED_METHODS.join(", "));
    expect(res.headers.get("access-control-allow-methods")).toBe(described("Access-Control-Allow-Methods"));
    expect(res.headers.get("access-control-allow-headers")).toBe(ALLOWED_REQUEST_HEADERS.join(", "));
    expect(res.headers.get("access-control-allow-headers")).toBe(described("Access-Control-Allow-Headers"));
    expect(res.headers.get("access-control-max-age")).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(described("Access-Control-Max-Age")).toBe(PREFLIGHT_MAX_AGE_SECONDS);
  });

  test("a problem is sent as the contract's media type, with its type's URI, title and status", async () => {
    const res = await call("/api/v1/feed.json", { method: "DELETE" });
    expect(res.headers.get("content-type")).toBe(PROBLEM_MEDIA_TYPE);
    const body = (await res.json()) as Json;
    const slug = "method-not-allowed";
    expect(body).toMatchObject({
      type: problemTypeUri(slug),
      title: PROBLEM_TYPES[slug].title,
      status: PROBLEM_TYPES[slug].status,
    });
    expect(res.status).toBe(PROBLEM_TYPES[slug].status);
  });

  test("the docs page has the section every problem type's URI names", async () => {
    const page = await fs.readFile(path.join(site.out, "docs/index.html"), "utf8");
    for (const slug of SLUGS) expect(page).toContain(`id="${problemTypeUri(slug).split("#")[1]}"`);
  });
});
