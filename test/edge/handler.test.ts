import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { HandlerDeps } from "../../src/edge/deps.js";
import { handle } from "../../src/edge/handler.js";
import { PAGE_CSP, WORKER_CSP } from "../../src/edge/headers.js";
import { Feed } from "../../src/schema/outputs.js";
import { Manifest, Problem } from "../../src/schema/documents.js";
import { BUILT_AT, builtSite, depsFor } from "../helpers/site.js";

let out: string;
let manifest: Manifest;
let full: Feed;
beforeAll(async () => {
  ({ out } = await builtSite());
  manifest = Manifest.parse(JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")));
  full = Feed.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")));
});

const BASE = "https://feed.example";
function req(target: string, init: RequestInit = {}) {
  return new Request(`${BASE}${target}`, init);
}
async function call(target: string, init: RequestInit = {}, deps: Partial<HandlerDeps> = {}) {
  return handle(req(target, init), depsFor(out, deps));
}
async function problem(res: Response) {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return Problem.parse(await res.json());
}

const EXPOSED = [
  "ETag",
  "Last-Modified",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Daily-Limit",
  "Daily-Used",
  "Daily-Reset",
];

describe("the feed answer", () => {
  test("200 with the file's bytes, strong ETag, Last-Modified, cache, CORS and rate-limit headers", async () => {
    const res = await call("/api/v1/feed.json");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8"));
    const h = Object.fromEntries(res.headers);
    expect(h).toMatchObject({
      "access-control-allow-origin": "*",
      "cache-control": "public, max-age=300",
      "content-type": "application/json; charset=utf-8",
      etag: manifest.files["api/v1/feed.json"]!.etag,
      "last-modified": "Thu, 19 Nov 2026 11:30:00 GMT",
      "ratelimit-limit": "240",
      "ratelimit-remaining": "239",
      "ratelimit-reset": "60",
      "ratelimit-policy": "240;w=60",
      "daily-limit": "1000",
      "daily-used": "1",
      // 11:31 UTC is 13:31 in Cairo: 10 h 29 min to midnight.
      "daily-reset": String(10 * 3600 + 29 * 60),
    });
    for (const name of EXPOSED) expect(h["access-control-expose-headers"]).toContain(name);
  });

  const SECURITY = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "cross-origin",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  };
  test.each([
    { name: "200", target: "/api/v1/feed.json", init: {}, status: 200 },
    { name: "304", target: "/api/v1/feed.json", init: { headers: { "If-None-Match": "*" } }, status: 304 },
    { name: "204 preflight", target: "/api/v1/feed.json", init: { method: "OPTIONS" }, status: 204 },
    { name: "400 problem", target: "/api/v1/feed.json?asset=bitcoin", init: {}, status: 400 },
    { name: "404 problem", target: "/api/v1/nothing.json", init: {}, status: 404 },
    { name: "/readyz", target: "/readyz", init: {}, status: 200 },
  ])("security headers on every answer: $name", async ({ target, init, status }) => {
    const res = await call(target, init, { now: () => BUILT_AT + 60_000 });
    expect(res.status).toBe(status);
    expect(Object.fromEntries(res.headers)).toMatchObject(SECURITY);
  });

  test("a page keeps its own CSP, on its 304 too (a cache takes a 304's headers); CORS stays as it was", async () => {
    const page = await call("/docs/");
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    const again = await call("/docs/", { headers: { "If-None-Match": page.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(page.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("the pages' policy allows their scripts, files of the site, and nothing more; netlify.toml says the same", async () => {
    const directives = Object.fromEntries(PAGE_CSP.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(directives["script-src"]).toEqual(["'self'"]);
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["connect-src"]).toBeUndefined(); // 'none', from default-src: the script fetches nothing
    const toml = await fs.readFile("netlify.toml", "utf8");
    const netlify = [...toml.matchAll(/^\s*Content-Security-Policy = "([^"]+)"/gm)].map((m) => m[1]);
    expect(netlify).toEqual([PAGE_CSP]);
    const script = await call("/amount.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toMatch(/^"use strict";/);
    const page = await (await call("/assets/us-dollar/")).text();
    expect(page).toContain('<script src="../../amount.js" defer></script>');
    expect(page).toContain('<script src="../../offline.js" defer></script>');
    // no inline script: only the two files of the site (the web app's is src/render/pages/app.ts)
    expect(page).not.toMatch(/<script(?! src="[^"]*(amount|offline)\.js" defer><\/script>)/);
  });

  test("the service worker: at the site's root, with its own policy and no-cache, on the edge too (no pages served)", async () => {
    for (const serveSite of [true, false]) {
      const res = await call("/sw.js", {}, { serveSite });
      expect(res.status, `serveSite ${serveSite}`).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toBe(WORKER_CSP);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toBe(await fs.readFile(path.join(out, "sw.js"), "utf8"));
    }
    // The manifest is a file of the site like any other, with the pages' policy nowhere near it.
    const m = await call("/ar/app.webmanifest");
    expect(m.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    expect((await m.json()) as object).toMatchObject({ lang: "ar", dir: "rtl" });
    expect((await call("/app.webmanifest", {}, { serveSite: false })).status).toBe(404);
    // netlify.toml sends the worker through the function, where its headers are set.
    expect(await fs.readFile("netlify.toml", "utf8")).toMatch(/function = "api"\n\s*path = "\/sw\.js"/);
  });

  test("HEAD has the same headers and no body", async () => {
    const [get, head] = [await call("/api/v1/feed.json"), await call("/api/v1/feed.json", { method: "HEAD" })];
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const drop = (h: Headers) =>
      Object.fromEntries([...h].filter(([k]) => !k.startsWith("ratelimit-remaining") && k !== "daily-used"));
    expect(drop(head.headers)).toEqual(drop(get.headers));
  });

  test("OPTIONS answers a CORS preflight with 204", async () => {
    const res = await call("/api/v1/feed.json", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Headers": "if-none-match,x-contact" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toBe(
      "If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, X-Contact",
    );
  });

  test.each(["POST", "PUT", "DELETE", "PATCH"])("%s is 405 with Allow and a problem", async (method) => {
    const res = await call("/api/v1/feed.json", { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await problem(res)).toMatchObject({ status: 405, type: "/docs/#problem-method-not-allowed" });
  });

  test("X-Contact is accepted and never echoed", async () => {
    const res = await call("/api/v1/feed.json", { headers: { "X-Contact": "ops@app.example" } });
    expect(res.status).toBe(200);
    expect([...res.headers].some(([, v]) => v.includes("ops@app.example"))).toBe(false);
  });
});

describe("filters", () => {
  const ids = (f: Feed) => f.assets.map((a) => a.id);
  test.each([
    { q: "?category=metals", ids: ["XAU24K-EGP"] },
    { q: "?category=CURRENCIES", ids: ["USD-EGP", "OMR-EGP", "CNY-EGP"] },
    { q: "?asset=us-dollar", ids: ["USD-EGP"] },
    { q: "?asset=usd-egp", ids: ["USD-EGP"] },
    { q: "?asset=Gold-24K,USD-EGP", ids: ["USD-EGP", "XAU24K-EGP"] },
    { q: "?asset=gold-24k&asset=omani-riyal", ids: ["OMR-EGP", "XAU24K-EGP"] },
    { q: "?asset=gold-24k,%20omani-riyal", ids: ["OMR-EGP", "XAU24K-EGP"] },
    { q: "?category=currencies&asset=us-dollar,gold-24k", ids: ["USD-EGP"] },
    { q: "?category=metals&asset=us-dollar", ids: [] },
    { q: "?category=metals,currencies", ids: ["USD-EGP", "OMR-EGP", "CNY-EGP", "XAU24K-EGP"] },
    { q: "?format=xml&category=metals", ids: ["XAU24K-EGP"] },
    { q: "?format=xml", ids: ["USD-EGP", "OMR-EGP", "CNY-EGP", "XAU24K-EGP"] },
  ])("$q → $ids, the unfiltered feed less the others, _self echoing the request", async ({ q, ids: expected }) => {
    const res = await call(`/api/v1/feed.json${q}`);
    expect(res.status).toBe(200);
    const body = Feed.parse(await res.json());
    expect(ids(body)).toEqual(expected);
    expect(body._self).toBe(`/api/v1/feed.json${q}`);
    expect({ ...body, _self: "" }).toEqual({
      ...full,
      _self: "",
      assets: full.assets.filter((a) => expected.includes(a.id)),
    });
  });

  test.each([
    { q: "?category=stocks", member: "validCategories", error: 'unknown category "stocks"' },
    { q: "?category=", member: "validCategories", error: "an empty category" },
    { q: "?category=metals,", member: "validCategories", error: "an empty category" },
    { q: "?asset=bitcoin", member: "validAssets", error: 'unknown asset "bitcoin"' },
    { q: "?asset=", member: "validAssets", error: "an empty asset" },
    { q: "?asset=us-dollar&asset=yen", member: "validAssets", error: 'unknown asset "yen"' },
  ])("$q → 400 naming the valid values", async ({ q, member, error }) => {
    const res = await call(`/api/v1/feed.json${q}`);
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p).toMatchObject({
      status: 400,
      error,
      title: expect.any(String),
      detail: expect.any(String),
      instance: "/api/v1/feed.json",
    });
    expect(p[member as "validAssets"]).toEqual(
      member === "validCategories"
        ? ["currencies", "metals"]
        : ["us-dollar", "omani-riyal", "chinese-yuan", "gold-24k"],
    );
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("one URL gets one ETag for one build's data; another spelling, another _self, another ETag", async () => {
    const a = await call("/api/v1/feed.json?asset=USD-EGP,gold-24k");
    const b = await call("/api/v1/feed.json?asset=USD-EGP,gold-24k");
    const c = await call("/api/v1/feed.json?asset=gold-24k&asset=us-dollar");
    expect(a.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    // Equal ETags mean equal bytes (RFC 9110 §8.8.3): the two spellings echo different _self members.
    expect(c.headers.get("etag")).not.toBe(a.headers.get("etag"));
    expect(a.headers.get("etag")).not.toBe(manifest.files["api/v1/feed.json"]!.etag);
    // The variant's bytes with the request's _self: not the file's ETag, and stable for one build.
    const single = await call("/api/v1/feed.json?asset=gold-24k");
    expect(single.headers.get("etag")).not.toBe(manifest.files["api/v1/feed/asset/gold-24k.json"]!.etag);
    expect((await call("/api/v1/feed.json?asset=gold-24k")).headers.get("etag")).toBe(single.headers.get("etag"));
    // The file at its own path keeps the build's ETag.
    const file = await call("/api/v1/feed/asset/gold-24k.json");
    expect(file.headers.get("etag")).toBe(manifest.files["api/v1/feed/asset/gold-24k.json"]!.etag);
  });
});

describe("conditional requests (RFC 9110 §13)", () => {
  const etag = () => manifest.files["api/v1/feed.json"]!.etag;
  const LM = "Thu, 19 Nov 2026 11:30:00 GMT";
  test.each([
    { name: "If-None-Match with the ETag", headers: () => ({ "If-None-Match": etag() }), status: 304 },
    { name: "If-None-Match in a list", headers: () => ({ "If-None-Match": `"x", ${etag()}` }), status: 304 },
    {
      name: "If-None-Match weak form (weak comparison)",
      headers: () => ({ "If-None-Match": `W/${etag()}` }),
      status: 304,
    },
    { name: "If-None-Match: *", headers: () => ({ "If-None-Match": "*" }), status: 304 },
    { name: "If-None-Match another tag", headers: () => ({ "If-None-Match": '"other"' }), status: 200 },
    {
      name: "If-None-Match wins over a matching If-Modified-Since",
      headers: () => ({ "If-None-Match": '"other"', "If-Modified-Since": LM }),
      status: 200,
    },
    { name: "If-Modified-Since at Last-Modified", headers: () => ({ "If-Modified-Since": LM }), status: 304 },
    {
      name: "If-Modified-Since later (and not in the future)",
      headers: () => ({ "If-Modified-Since": "Thu, 19 Nov 2026 11:30:30 GMT" }),
      status: 304,
    },
    {
      name: "If-Modified-Since in the obsolete RFC 850 form",
      headers: () => ({ "If-Modified-Since": "Thursday, 19-Nov-26 11:30:30 GMT" }),
      status: 304,
    },
    {
      name: "If-Modified-Since in the obsolete asctime form",
      headers: () => ({ "If-Modified-Since": "Thu Nov 19 11:30:30 2026" }),
      status: 304,
    },
    // RFC 9110 §13.1.3: a date that is not an HTTP-date, or later than the server's clock, is ignored.
    {
      name: "If-Modified-Since later than the server's clock is ignored",
      headers: () => ({ "If-Modified-Since": "Fri, 20 Nov 2026 00:00:00 GMT" }),
      status: 200,
    },
    {
      name: "If-Modified-Since 2027-01-01 (not an HTTP-date) is ignored",
      headers: () => ({ "If-Modified-Since": "2027-01-01" }),
      status: 200,
    },
    {
      name: "If-Modified-Since 3000 (not an HTTP-date) is ignored",
      headers: () => ({ "If-Modified-Since": "3000" }),
      status: 200,
    },
    {
      name: "If-Modified-Since of a day that does not exist is ignored",
      headers: () => ({ "If-Modified-Since": "Tue, 31 Feb 2026 00:00:00 GMT" }),
      status: 200,
    },
    // RFC 9110 §8.8.3: an entity-tag is exactly [W/]"…"; text around one is not a tag.
    {
      name: 'If-None-Match x"<etag>"y matches nothing',
      headers: () => ({ "If-None-Match": `x${etag()}y` }),
      status: 200,
    },
    {
      name: "If-None-Match with a broken list element matches nothing",
      headers: () => ({ "If-None-Match": `${etag()}, junk` }),
      status: 200,
    },
    {
      name: "If-None-Match lowercase w/ is not a weak tag",
      headers: () => ({ "If-None-Match": `w/${etag()}` }),
      status: 200,
    },
    {
      name: "If-None-Match list with empty elements",
      headers: () => ({ "If-None-Match": ` , "x",,${etag()} ` }),
      status: 304,
    },
    {
      name: "If-Modified-Since earlier",
      headers: () => ({ "If-Modified-Since": "Thu, 19 Nov 2026 11:29:59 GMT" }),
      status: 200,
    },
    {
      name: "If-Modified-Since invalid is ignored",
      headers: () => ({ "If-Modified-Since": "yesterday" }),
      status: 200,
    },
  ])("$name → $status", async ({ headers, status }) => {
    const res = await call("/api/v1/feed.json", { headers: headers() });
    expect(res.status).toBe(status);
    if (status === 304) {
      expect(await res.text()).toBe("");
      for (const name of [
        "etag",
        "cache-control",
        "last-modified",
        "access-control-allow-origin",
        "ratelimit-remaining",
        "daily-used",
      ])
        expect(res.headers.get(name), name).not.toBeNull();
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    }
  });

  test("a filtered answer revalidates with its own ETag", async () => {
    const first = await call("/api/v1/feed.json?category=metals&asset=gold-24k,us-dollar");
    const again = await call("/api/v1/feed.json?category=metals&asset=gold-24k,us-dollar", {
      headers: { "If-None-Match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });
});

describe("rate limits", () => {
  const limits = { window: 3, windowSeconds: 60, daily: 5 };
  test("the window: the 4th request in 60 s is 429 with Retry-After and no-store", async () => {
    const d = depsFor(out, { limits });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await handle(req("/api/v1/feed.json"), d));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const last = statuses[3]!;
    expect(last.headers.get("retry-after")).toBe("60");
    expect(last.headers.get("cache-control")).toBe("no-store");
    expect(last.headers.get("ratelimit-remaining")).toBe("0");
    expect(await problem(last)).toMatchObject({ status: 429, type: "/docs/#problem-rate-limited" });
    // Another address is counted apart.
    expect((await handle(req("/api/v1/feed.json"), { ...d, clientAddress: "192.0.2.2" })).status).toBe(200);
  });

  test("the Cairo day: past the allowance, a distinct 429 until midnight Africa/Cairo", async () => {
    let now = Date.parse("2026-11-19T21:00:00Z"); // 23:00 in Cairo
    const d = depsFor(out, { limits: { ...limits, window: 100 }, now: () => now });
    for (let i = 0; i < 5; i++) expect((await handle(req("/api/v1"), d)).status).toBe(200);
    const over = await handle(req("/api/v1"), d);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("3600");
    expect(over.headers.get("daily-used")).toBe("5");
    expect(await problem(over)).toMatchObject({ type: "/docs/#problem-daily-limit" });
    now = Date.parse("2026-11-19T22:00:00Z"); // midnight in Cairo: a new allowance
    const next = await handle(req("/api/v1"), d);
    expect(next.status).toBe(200);
    expect(next.headers.get("daily-used")).toBe("1");
    expect(next.headers.get("daily-reset")).toBe(String(24 * 3600));
  });

  test("unreachable counters: served without limits and without claiming a remaining count", async () => {
    const res = await call("/api/v1/feed.json", {}, { counters: { hit: async () => null } });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("240");
    expect(res.headers.get("ratelimit-remaining")).toBeNull();
  });
});

describe("index, readyz, other paths, versions", () => {
  test("/api/v1 is the index, and so is its file, the path a static second home serves", async () => {
    const etags = new Set<string | null>();
    for (const p of ["/api/v1", "/api/v1/", "/api/v1/index.json"]) {
      const res = await call(p);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        filters: { category: ["currencies", "metals"] },
        limits: { window: { limit: 240, seconds: 60 }, daily: { limit: 1000 } },
      });
      etags.add(res.headers.get("etag"));
    }
    expect(etags.size).toBe(1);
  });

  test("/readyz: 200 while fresh, 503 naming stale assets and the build's age", async () => {
    const ok = await call("/readyz", {}, { now: () => BUILT_AT + 10 * 60_000 });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const later = BUILT_AT + 3 * 3600_000; // 16:30 Cairo: the build is 3 h old; USD 4.5 h of session
    const bad = await call("/readyz", {}, { now: () => later });
    expect(bad.status).toBe(503);
    expect(await bad.json()).toMatchObject({
      status: "not-ready",
      buildAgeSeconds: 10800,
      buildTooOld: true,
      staleAssets: [],
    });
    // Friday 11:00 Cairo: currencies do not trade, so USD has aged only Thursday's last 4 session
    // hours (delayed); gold traded until 22:00 Thursday, 11 session hours after its quote (stale).
    const stale = await call("/readyz", {}, { now: () => Date.parse("2026-11-20T09:00:00Z") });
    expect(await stale.json()).toMatchObject({
      staleAssets: ["gold-24k"],
      assets: { "us-dollar": "delayed", "gold-24k": "stale" },
    });
  });

  test.each([
    "/api/v2/feed.json",
    "/api/v1/nothing.json",
    "/api/v1/_manifest.json",
    "/api/nowhere",
    "/api/v1/feed/asset/bitcoin.json",
  ])("%s → 404 problem", async (p) => {
    const res = await call(p);
    expect(res.status).toBe(404);
    expect(await problem(res)).toMatchObject({ status: 404, instance: expect.any(String) });
  });

  test("a configured deprecation adds Deprecation and Sunset to that version's answers", async () => {
    const deprecations = { v1: { deprecatedAt: "2027-01-01T00:00:00Z", sunset: "2027-07-01T00:00:00Z" } };
    const res = await call("/api/v1/feed.json", {}, { deprecations });
    expect(res.headers.get("deprecation")).toBe(`@${Date.parse("2027-01-01T00:00:00Z") / 1000}`);
    expect(res.headers.get("sunset")).toBe("Thu, 01 Jul 2027 00:00:00 GMT");
    expect((await call("/readyz", {}, { deprecations })).headers.get("deprecation")).toBeNull();
    expect((await call("/api/v1/feed.json")).headers.get("deprecation")).toBeNull();
  });
});

describe("a page's address with no page (src/edge/pages.ts): the reader's page, not the API's JSON", () => {
  const EN = "No page at this address";
  const AR = "لا توجد صفحة بهذا العنوان";
  const table: Array<[string, Record<string, string>, number, string, string | null]> = [
    // address, request headers, status, words, Vary
    ["/days/2026-13-01/", {}, 400, EN, null],
    ["/days/2026-02-30/", {}, 400, EN, null],
    ["/days/yesterday", {}, 400, EN, null],
    ["/days/2026-11-20/", {}, 404, EN, null], // a date that exists, without prices
    ["/days/1999-01-01/", { "Accept-Language": "ar" }, 404, EN, null], // an English address stays English
    ["/ar/days/2026-13-01/", {}, 400, AR, null],
    ["/ar/days/2026-11-20/", { "Accept-Language": "en" }, 404, AR, null],
    ["/assets/bitcoin/", {}, 404, EN, null],
    ["/ar/nowhere", {}, 404, AR, null],
    ["/nowhere", {}, 404, EN, "Accept-Language"],
    ["/nowhere", { "Accept-Language": "ar-EG,ar;q=0.9,en;q=0.8" }, 404, AR, "Accept-Language"],
    ["/nowhere", { "Accept-Language": "en-GB,en;q=0.9,ar;q=0.8" }, 404, EN, "Accept-Language"],
    ["/nowhere/deep/down/", { "Accept-Language": "fr, ar;q=0.5" }, 404, AR, "Accept-Language"],
  ];
  test.each(table)("%s %j → %i, in its language", async (target, headers, status, words, vary) => {
    const res = await call(target, { headers });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-language")).toBe(words === AR ? "ar" : "en");
    expect(res.headers.get("vary")).toBe(vary);
    // The headers of every answer, the pages' policy, and never stored.
    expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("ratelimit-limit")).toBe("240");
    const page = await res.text();
    expect(page).toContain(`<h1>${words}</h1>`);
    expect(page).toBe(await fs.readFile(path.join(out, words === AR ? "ar/404.html" : "404.html"), "utf8"));
  });

  test("its links lead home from any depth: root-relative, as the local server serves the site at its root", async () => {
    const page = await (await call("/days/2026-13-01/")).text();
    expect(page).toContain('<li><a href="/">Today&#39;s prices</a></li>');
    expect(page).toContain('<li><a href="/days/">Prices on every past day</a></li>');
    expect(page).toContain('<a href="/ar/" hreflang="ar" lang="ar" rel="alternate">العربية</a>');
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page).not.toMatch(/href="\.\.?\//);
  });

  test("HEAD: the status and headers, no body; the API's paths and /readyz keep their problems", async () => {
    const head = await call("/days/2026-13-01/", { method: "HEAD" });
    expect(head.status).toBe(400);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await head.text()).toBe("");
    const api = await call("/api/v1/days/2026-13-01.json");
    expect(api.status).toBe(400);
    expect(await problem(api)).toMatchObject({ parameter: "date" });
    expect((await problem(await call("/api/v1/nothing"))).status).toBe(404);
    // Another method on a page's address is still the API's 405: only a missing page is a page.
    expect((await problem(await call("/nowhere", { method: "POST" }))).status).toBe(405);
  });

  test("a build without the page (made before it existed) answers the problem, as before", async () => {
    const deps = depsFor(out);
    const m = await deps.manifest();
    const files = Object.fromEntries(Object.entries(m.files).filter(([f]) => !f.endsWith("404.html")));
    const res = await handle(req("/nowhere"), { ...deps, manifest: async () => ({ ...m, files }) });
    expect(res.status).toBe(404);
    expect((await problem(res)).status).toBe(404);
  });
});

describe("hostile input never yields a 5xx, and no file outside the manifest is read", () => {
  const long = "a".repeat(5000);
  test.each([
    "/api/v1/../../package.json",
    "/api/v1/%2e%2e/%2e%2e/package.json",
    "/api/v1/%2E%2E%2F%2E%2E%2Fpackage.json",
    "/api/v1/..%2f..%2fpackage.json",
    "/..%5c..%5cpackage.json",
    "/%2e%2e/data/sellers.json",
    "/api/v1/feed.json?asset=%E0%A4%A",
    "/api/v1/feed.json?asset=%FF%FE",
    `/api/v1/feed.json?asset=${long}`,
    `/api/v1/feed.json?${Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join("&")}`,
    "/api/v1/feed.json?category=%F0%9F%92%B0",
    "/api/v1/feed.json?asset=\u202Eus-dollar",
    "/constructor",
    "/__proto__",
    "/api/v1/hasOwnProperty",
    "/api/v1/feed.json/",
    "//api/v1/feed.json",
  ])("%s", async (target) => {
    const reads: string[] = [];
    const res = await handle(new Request(`${BASE}${target}`), depsFor(out, { reads }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // An address outside the API is a page's: its 404 is the page that says so (src/edge/pages.ts).
    if (res.headers.get("content-type")?.startsWith("text/html")) {
      expect(new URL(`${BASE}${target}`).pathname).not.toMatch(/^\/api\//);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("No page at this address");
    } else expect((await problem(res)).status).toBe(res.status);
    for (const r of reads) expect(Object.hasOwn(manifest.files, r), r).toBe(true);
  });
});

describe("a manifest that disagrees with the feed", () => {
  test("an asset the manifest lists but the feed lacks is a problem, never a broken body", async () => {
    const [a, b] = manifest.assets;
    const feedText = await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8");
    const lacking = JSON.parse(feedText) as Feed;
    lacking.assets = lacking.assets.filter((x) => x.slug !== b!.slug);
    const deps: Partial<HandlerDeps> = {
      readFile: async (p) =>
        p === "api/v1/feed.json" ? JSON.stringify(lacking) : fs.readFile(path.join(out, p), "utf8").catch(() => null),
    };
    const res = await call(`/api/v1/feed.json?asset=${a!.slug},${b!.slug}`, {}, deps);
    expect(res.status).toBe(404);
    expect((await problem(res)).error).toBe("not found");
  });

  test("a file the manifest does not list is a problem, never a crash", async () => {
    const { [`api/v1/feed/asset/${manifest.assets[0]!.slug}.json`]: _gone, ...files } = manifest.files;
    const res = await call(
      `/api/v1/feed.json?asset=${manifest.assets[0]!.slug},${manifest.assets[1]!.slug}`,
      {},
      { manifest: async () => ({ ...manifest, files }) },
    );
    expect(res.status).toBe(404);
    expect((await problem(res)).error).toBe("not found");
  });
});
