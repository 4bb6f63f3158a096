/**
 * The sellers' records as served (docs/methodology.md §13): `/api/v1/sellers.json` and
 * `/api/v1/sellers/{id}.json` answer with the file's bytes, a strong ETag and 304 on If-None-Match,
 * as the archive does; an id in another letter case is the same record with its own `_self` and ETag;
 * an id without a record is a 404 problem listing the ids there are; another name is a plain 404.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { handle } from "../../src/edge/handler.js";
import type { Sellers } from "../../src/schema/sellers.js";
import { builtSite, depsFor } from "../helpers/site.js";

let out: string;
let ids: string[];
beforeAll(async () => {
  ({ out } = await builtSite());
  const list = JSON.parse(await fs.readFile(path.join(out, "api/v1/sellers.json"), "utf8")) as Sellers;
  ids = list.sellers.map((s) => s.id);
});

const get = (url: string, headers: Record<string, string> = {}) =>
  handle(new Request(`http://feed.test${url}`, { headers }), depsFor(out));
const fileOf = (p: string) => fs.readFile(path.join(out, p.slice(1)), "utf8");

describe("/api/v1/sellers.json and /api/v1/sellers/{id}.json", () => {
  test("the list and each record: the file's bytes, a strong ETag, 304 on If-None-Match, HEAD without a body", async () => {
    expect(ids.length).toBeGreaterThan(1);
    for (const p of ["/api/v1/sellers.json", ...ids.map((id) => `/api/v1/sellers/${id}.json`)]) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(await res.text()).toBe(await fileOf(p));
      const again = await get(p, { "If-None-Match": etag });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      const head = await handle(new Request(`http://feed.test${p}`, { method: "HEAD" }), depsFor(out));
      expect([head.status, await head.text(), head.headers.get("etag")]).toEqual([200, "", etag]);
    }
  });

  test("an id in another letter case: the same record, its own _self and ETag; no 304 across", async () => {
    const id = ids[0]!;
    const exact = await get(`/api/v1/sellers/${id}.json`);
    const upper = await get(`/api/v1/sellers/${id.toUpperCase()}.json`);
    expect(upper.status).toBe(200);
    const [a, b] = [(await exact.json()) as Record<string, unknown>, (await upper.json()) as Record<string, unknown>];
    expect(b["_self"]).toBe(`/api/v1/sellers/${id.toUpperCase()}.json`);
    expect({ ...b, _self: a["_self"] }).toEqual(a);
    expect(upper.headers.get("etag")).not.toBe(exact.headers.get("etag"));
    const cross = await get(`/api/v1/sellers/${id.toUpperCase()}.json`, {
      "If-None-Match": exact.headers.get("etag")!,
    });
    expect(cross.status).toBe(200);
  });

  test.each(["no-such-bank", "..%2Fsellers", "%ZZ"])(
    "%s.json, a seller without a record: 404 unknown-seller listing the ids there are",
    async (id) => {
      const res = await get(`/api/v1/sellers/${id}.json`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ type: "/docs/#problem-unknown-seller", status: 404 });
      expect(body["validSellers"]).toEqual([...ids].sort());
    },
  );

  test.each(["/api/v1/sellers/", "/api/v1/sellers/x.csv", "/api/v1/sellers/a/b.json", "/api/v1/sellers"])(
    "%s is a plain 404",
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect(((await res.json()) as Record<string, unknown>)["type"]).toBe("/docs/#problem-not-found");
    },
  );
});
