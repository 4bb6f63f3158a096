/**
 * The archive's answers to requests that are not quite right (issue 38, items 6 and 7): a day path
 * whose date is malformed or impossible is a 400 like ?from=; a name that is not `<date>.json` is a
 * plain 404; the nearest dates are found as dates. Equal ETags mean equal bytes: two spellings of one
 * range, or of one feed filter, differ in `_self` and so in their ETags, and a 304 never crosses
 * them; a range wholly in the past keeps its ETag from one hourly build to the next.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { handle } from "../../src/edge/handler.js";
import { runBuild } from "../../src/jobs/build.js";
import { BUILT_AT, builtSite, depsFor } from "../helpers/site.js";

let out: string;
let data: string;
beforeAll(async () => {
  ({ out, data } = await builtSite());
});

const get = (url: string, headers: Record<string, string> = {}, dir = out) =>
  handle(new Request(`http://feed.test${url}`, { headers }), depsFor(dir));

describe("/api/v1/days/{date}", () => {
  test.each(["2026-02-30", "2026-13-01", "yesterday", "2026-11-1", "20261119", "2026-11-19T00:00"])(
    "%s.json is a 400 invalid-date naming the path's date",
    async (date) => {
      const res = await get(`/api/v1/days/${date}.json`);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(await res.json()).toMatchObject({ type: "/docs/#problem-invalid-date", parameter: "date" });
    },
  );

  test.each(["2026-11-19.JSON", "2026-11-19", "2026-11-19.csv", "2026-11-19.json.bak"])(
    "%s is a plain 404 that names no nearest day",
    async (name) => {
      const res = await get(`/api/v1/days/${name}`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body["type"]).toBe("/docs/#problem-not-found");
      expect(body).not.toHaveProperty("earlier");
    },
  );

  test("the nearest dates of a day without data are found as dates", async () => {
    const dates = (
      JSON.parse(await fs.readFile(path.join(out, "api/v1/days.json"), "utf8")) as { days: Array<{ date: string }> }
    ).days.map((d) => d.date);
    const res = await get("/api/v1/days/0999-12-31.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ earlier: null, later: dates[0] });
    // A published day is served as itself.
    expect((await get(`/api/v1/days/${dates.at(-1)!}.json`)).status).toBe(200);
  });
});

describe("one ETag, one body", () => {
  const pairs = [
    [
      "/api/v1/history/us-dollar.json?from=2026-11-10&to=2026-11-12",
      "/api/v1/history/us-dollar.json?to=2026-11-12&from=2026-11-10",
    ],
    ["/api/v1/history/us-dollar.json", "/api/v1/history/us-dollar.json?x=1"],
    ["/api/v1/feed.json?asset=us-dollar", "/api/v1/feed.json?asset=USD-EGP"],
    ["/api/v1/feed.json?asset=us-dollar,omani-riyal", "/api/v1/feed.json?asset=omani-riyal,us-dollar"],
  ];
  test.each(pairs)("%s and %s: different bytes, different ETags, no 304 across", async (a, b) => {
    const ra = await get(a);
    const rb = await get(b);
    const [ta, tb] = [await ra.text(), await rb.text()];
    expect(ta).not.toBe(tb); // they differ in _self
    const [ea, eb] = [ra.headers.get("etag")!, rb.headers.get("etag")!];
    expect(ea).not.toBe(eb);
    expect((await get(b, { "If-None-Match": ea })).status).toBe(200);
    expect((await get(a, { "If-None-Match": ea })).status).toBe(304);
  });

  test("the same request twice: the same bytes and ETag", async () => {
    const url = "/api/v1/history/us-dollar.csv?from=2026-11-10&to=2026-11-12";
    const [r1, r2] = [await get(url), await get(url)];
    expect(await r1.text()).toBe(await r2.text());
    expect(r1.headers.get("etag")).toBe(r2.headers.get("etag"));
  });

  test("a range wholly in the past keeps its ETag from one hourly build to the next", async () => {
    // The next hour: a new, better dollar quote moves today's entry (and the whole file's ETag); the
    // closed days of the range do not move.
    const today = path.join(data, "quotes/2026-11-19.ndjson");
    const quote = { source: "s1", seller: "alpha", asset: "USD-EGP", buy: 49.75, sell: 49.85 };
    await fs.appendFile(today, `${JSON.stringify({ ...quote, observedAt: "2026-11-19T12:00:00Z" })}\n`);
    const before = await get("/api/v1/history/us-dollar.json");
    const next = path.join(data, "public-next");
    await runBuild({ dataDir: data, outDir: next, nowMs: BUILT_AT + 3_600_000, saveState: false });
    for (const ext of ["json", "csv"]) {
      const url = `/api/v1/history/us-dollar.${ext}?from=2026-11-10&to=2026-11-12`;
      const [now, later] = [await get(url), await get(url, {}, next)];
      expect(await later.text()).toBe(await now.text());
      expect(later.headers.get("etag"), ext).toBe(now.headers.get("etag"));
    }
    const after = await get("/api/v1/history/us-dollar.json", {}, next);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
  });
});
