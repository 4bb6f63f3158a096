/**
 * The client package (client/) says how old its data is and comes back to the primary, against
 * real hosts on loopback: the local server of a fresh build as the primary, a static mirror (sirv,
 * under a prefix) still serving a build three days older, and servers playing what else can stand
 * in a primary's place: a CDN's HTML error pages, a login wall that answers 200, a host that answers
 * JSON of another shape. The client runs on ManualTimers: its clock is the test's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import {
  PriceFeedClient,
  PriceFeedProblem,
  PriceFeedShapeError,
  PriceFeedUnavailable,
  STALE_AFTER_MS,
  type ClientOptions,
  type Feed,
} from "../../client/src/index.js";
import { FEED, HISTORY, INDEX, mismatch, type AnySpec } from "../../client/src/shape.js";
import type { RunningServer } from "../../src/server/serve.js";
import { ManualTimers } from "../helpers/clock.js";
import { BUILT_AT, builtSite, testServer } from "../helpers/site.js";
import { clientTimers, countingServer, staticMirror, type CountingServer } from "../helpers/homes.js";

const PREFIX = "/price-feed";
const DAY = 86_400_000;
const MIRROR_BUILT_AT = BUILT_AT - 3 * DAY;
let fresh: string; // the primary's build, made at BUILT_AT
let oldMirror: CountingServer & { base: string }; // the mirror, still serving a build made 3 days before
let primary: RunningServer | null = null;
let logs: string[] = [];
const others: CountingServer[] = [];

beforeAll(async () => {
  ({ out: fresh } = await builtSite(BUILT_AT));
  oldMirror = await staticMirror((await builtSite(MIRROR_BUILT_AT)).out, PREFIX);
});
afterAll(() => oldMirror?.close());
afterEach(async () => {
  await primary?.close();
  primary = null;
  for (const s of others.splice(0)) await s.close();
});

async function startPrimary(manual: ManualTimers, port = 0): Promise<RunningServer> {
  logs = [];
  primary = await testServer(fresh, { port, clock: manual.now }, logs);
  return primary;
}

async function host(handle: Parameters<typeof countingServer>[0]): Promise<CountingServer> {
  const s = await countingServer(handle);
  others.push(s);
  return s;
}

/** A CDN's own error page, as it answers in the API's place. */
const cdnPage = (status: number) =>
  host((_, res) =>
    res
      .writeHead(status, { "Content-Type": "text/html; charset=utf-8" })
      .end(`<!doctype html><title>${status}</title><h1>${status} ERROR</h1><p>The request could not be satisfied.</p>`),
  );

function client(manual: ManualTimers, o: Partial<ClientOptions> & { primary: string }): PriceFeedClient {
  return new PriceFeedClient({ contact: "https://client.test", timers: clientTimers(manual), ...o });
}

const mirrorAsked = (from: number) => oldMirror.asked.slice(from).map((p) => p.slice(PREFIX.length));
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
const readJson = async (file: string) => JSON.parse(await fs.readFile(path.join(fresh, file), "utf8")) as unknown;

describe("each answer says how old its build is", () => {
  test("a mirror still serving a 3-day-old build: stale, its age, and the assets that build called stale", async () => {
    const down = await host((_, res) => res.writeHead(502).end());
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: down.url, mirror: oldMirror.base });
    const answer = await c.feed();
    expect(answer).toMatchObject({
      home: "mirror",
      fromCache: false,
      generatedAt: "2026-11-16T11:30:00.000Z",
      age: 3 * DAY,
      stale: true,
      // At its build instant: the Omani riyal had had no quote for 8 trading hours, the yuan for 3.
      staleAssets: ["omani-riyal"],
      delayedAssets: ["chinese-yuan"],
    });
    const riyal = answer.body.assets.find((a) => a.slug === "omani-riyal");
    expect(riyal?.freshness).toEqual({ state: "stale", stale: true });

    // Reused within the mirror's max-age (and the primary's back-off), the answer is dated again at
    // the call: half a minute older.
    manual.advance(30_000);
    expect(await c.feed()).toMatchObject({ home: "mirror", fromCache: true, age: 3 * DAY + 30_000, stale: true });
    expect(c.requests).toEqual({ primary: 1, mirror: 1 });

    // The threshold is an option.
    const lenient = client(manual, { primary: down.url, mirror: oldMirror.base, staleAfterMs: 4 * DAY });
    expect(await lenient.feed()).toMatchObject({ home: "mirror", age: 3 * DAY + 30_000, stale: false });
  });

  test("stale past 2 hours, the API's own rule: the answer turns stale when /readyz turns 503", async () => {
    expect(STALE_AFTER_MS).toBe(2 * 3600 * 1000);
    const manual = new ManualTimers(BUILT_AT + 2 * 3600 * 1000);
    const server = await startPrimary(manual);
    const c = client(manual, { primary: server.url });
    const readyz = async () => (await (await fetch(`${server.url}/readyz`)).json()) as { buildTooOld: boolean };

    const atTwoHours = await c.feed({ category: ["metals"] });
    expect(atTwoHours).toMatchObject({ home: "primary", age: 2 * 3600 * 1000, stale: false, staleAssets: [] });
    expect((await readyz()).buildTooOld).toBe(false);

    manual.advance(300_000); // the feed's max-age: revalidated (a 304), dated at the call
    const later = await c.feed({ category: ["metals"] });
    expect(later).toMatchObject({ fromCache: true, age: 2 * 3600 * 1000 + 300_000, stale: true });
    expect((await readyz()).buildTooOld).toBe(true);
  });

  test("the index and a history state no build instant: no age, not called stale", async () => {
    const manual = new ManualTimers(BUILT_AT + 60_000);
    const server = await startPrimary(manual);
    const c = client(manual, { primary: server.url });
    for (const answer of [await c.index(), await c.history("us-dollar")])
      expect(answer).toMatchObject({ generatedAt: null, age: null, stale: false, staleAssets: [], delayedAssets: [] });
  });
});

describe("back to the primary once its back-off has passed", () => {
  test("every call asks the primary first again; the mirror's copy answers only while the primary fails", async () => {
    const manual = new ManualTimers(BUILT_AT + 60_000);
    const port = (await startPrimary(manual)).port;
    await primary!.close();
    primary = null;
    const c = client(manual, { primary: `http://127.0.0.1:${port}`, mirror: oldMirror.base });
    const from = oldMirror.asked.length;

    const down = await c.feed({ category: ["metals"] });
    expect(down).toMatchObject({ home: "mirror", stale: true, generatedAt: "2026-11-16T11:30:00.000Z" });
    manual.advance(30_000); // within the back-off (60 s): the mirror's copy, the primary not asked
    expect(await c.feed({ category: ["metals"] })).toMatchObject({ home: "mirror", fromCache: true });
    expect(c.requests).toEqual({ primary: 1, mirror: 1 });

    // The primary is back. Past the back-off, though the mirror's copy is within its max-age (600 s),
    // the next call asks the primary, and gets its fresh build.
    await startPrimary(manual, port);
    manual.advance(30_000);
    const back = await c.feed({ category: ["metals"] });
    expect(back).toMatchObject({ home: "primary", fromCache: false, age: 120_000, stale: false, staleAssets: [] });
    expect(back.generatedAt).toBe(new Date(BUILT_AT).toISOString());
    expect(logs).toEqual([expect.stringMatching(/^GET \/api\/v1\/feed\.json\?category=metals 200 /)]);

    // It fails again: once its answer's max-age has passed, it is asked, and the mirror's copy answers
    // (still within its own max-age: not asked either); then the primary is backed off again.
    await primary!.close();
    primary = null;
    manual.advance(300_000);
    expect(await c.feed({ category: ["metals"] })).toMatchObject({ home: "mirror", fromCache: true, stale: true });
    expect(c.requests).toEqual({ primary: 3, mirror: 1 });
    manual.advance(59_000);
    expect((await c.feed({ category: ["metals"] })).home).toBe("mirror");
    expect(c.requests).toEqual({ primary: 3, mirror: 1 });
    expect(mirrorAsked(from)).toEqual(["/api/v1/feed/category/metals.json"]);
  });
});

describe("what sends the client to the mirror, and what does not", () => {
  test.each([403, 404])(
    "a CDN's HTML %i in the primary's place: the mirror answers, the primary is backed off",
    async (status) => {
      const cdn = await cdnPage(status);
      const manual = new ManualTimers(BUILT_AT);
      const c = client(manual, { primary: cdn.url, mirror: oldMirror.base });
      const answer = await c.feed({ asset: ["us-dollar"] });
      expect(answer).toMatchObject({ home: "mirror", url: `${oldMirror.base}/api/v1/feed/asset/us-dollar.json` });
      expect(answer.body.assets.map((a) => a.slug)).toEqual(["us-dollar"]);
      manual.advance(59_000);
      expect((await c.feed({ asset: ["gold-24k"] })).home).toBe("mirror");
      expect(cdn.asked).toEqual(["/api/v1/feed.json?asset=us-dollar"]);

      // Without a mirror it is an outage, not the caller's mistake: PriceFeedUnavailable, saying what came.
      const alone = client(new ManualTimers(BUILT_AT), { primary: cdn.url });
      const e = await failure(alone.feed());
      expect(e).toBeInstanceOf(PriceFeedUnavailable);
      expect(e).not.toBeInstanceOf(PriceFeedProblem);
      expect((e as PriceFeedUnavailable).causes).toEqual([
        `primary: ${status} ${status === 403 ? "Forbidden" : "Not Found"}, text/html: not the API's problem document`,
      ]);
    },
  );

  test("a 200 that is a web page (a login wall, a CDN's page): the mirror answers", async () => {
    const wall = await host((_, res) =>
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>Sign in</title>"),
    );
    const c = client(new ManualTimers(BUILT_AT), { primary: wall.url, mirror: oldMirror.base });
    expect(await c.index()).toMatchObject({ home: "mirror", url: `${oldMirror.base}/api/v1/index.json` });
    const alone = client(new ManualTimers(BUILT_AT), { primary: wall.url });
    expect(((await failure(alone.index())) as PriceFeedUnavailable).causes).toEqual([
      "primary: 200 OK with text/html, not JSON",
    ]);
  });

  test("the API's own problem (problem+json 400 or 404) is the caller's mistake: thrown, the mirror not asked", async () => {
    const manual = new ManualTimers(BUILT_AT + 60_000);
    const server = await startPrimary(manual);
    const c = client(manual, { primary: server.url, mirror: oldMirror.base });
    const from = oldMirror.asked.length;
    const unknownCategory = await failure(c.feed({ category: ["crypto"] }));
    expect(unknownCategory).toBeInstanceOf(PriceFeedProblem);
    expect(unknownCategory).toMatchObject({ status: 400, problem: { validCategories: ["currencies", "metals"] } });
    const unknownAsset = await failure(c.history("bitcoin"));
    expect(unknownAsset).toBeInstanceOf(PriceFeedProblem);
    expect(unknownAsset).toMatchObject({
      status: 404,
      problem: { validAssets: expect.arrayContaining(["us-dollar"]) },
    });
    expect(mirrorAsked(from)).toEqual([]);
    // The primary is not backed off for it: the next call is its.
    expect((await c.feed({ category: ["metals"] })).home).toBe("primary");
  });

  test("the mirror's 404 is about one file: an unknown history there is not a problem, and the mirror stays asked", async () => {
    const down = await host((_, res) => res.writeHead(503).end());
    const c = client(new ManualTimers(BUILT_AT), { primary: down.url, mirror: oldMirror.base });
    const e = await failure(c.history("bitcoin"));
    expect(e).toBeInstanceOf(PriceFeedUnavailable);
    expect((e as PriceFeedUnavailable).causes).toEqual([
      "primary: 503 Service Unavailable",
      "mirror: 404 Not Found, no Content-Type: not the API's problem document",
    ]);
    expect((await c.history("us-dollar")).home).toBe("mirror");
  });
});

describe("what the client returns is the document its types promise", () => {
  /** The real feed with one member taken out of its first asset. */
  async function brokenFeed(): Promise<string> {
    const feed = (await readJson("api/v1/feed.json")) as { assets: Array<Record<string, unknown>> };
    delete feed.assets[0]!["freshness"];
    return JSON.stringify(feed);
  }
  const serving = (body: string) =>
    host((_, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(body));

  test("a 200 of the wrong shape from the primary: the mirror answers when its document is good", async () => {
    const wrong = await serving(await brokenFeed());
    const c = client(new ManualTimers(BUILT_AT), { primary: wrong.url, mirror: oldMirror.base });
    const answer = await c.feed();
    expect(answer).toMatchObject({ home: "mirror", url: `${oldMirror.base}/api/v1/feed.json` });
    expect(answer.body.assets.every((a) => typeof a.freshness.state === "string")).toBe(true);
    await c.feed();
    expect(wrong.asked).toHaveLength(1); // backed off, as any failure
  });

  test("no good document anywhere: PriceFeedShapeError naming the URL and the member, never a TypeError", async () => {
    const wrong = await serving(await brokenFeed());
    const alone = client(new ManualTimers(BUILT_AT), { primary: wrong.url });
    const e = await failure(alone.feed());
    expect(e).toBeInstanceOf(PriceFeedShapeError);
    expect(e).toBeInstanceOf(PriceFeedUnavailable); // an app that handles an outage handles this too
    expect(e).toMatchObject({
      name: "PriceFeedShapeError",
      url: `${wrong.url}/api/v1/feed.json`,
      member: "assets[0].freshness",
      retryAt: BUILT_AT + 60_000,
    });
    expect((e as Error).message).toBe(
      `the price feed gave no usable Feed: primary: ${wrong.url}/api/v1/feed.json answered 200 OK, not a Feed: ` +
        "assets[0].freshness: expected an object, got nothing",
    );

    // Both homes wrong, each its own way: both named.
    const foreign = await serving(JSON.stringify({ schemaVersion: 2, data: [] }));
    const both = client(new ManualTimers(BUILT_AT), { primary: wrong.url, mirror: `${foreign.url}${PREFIX}` });
    const twice = (await failure(both.feed({ category: ["metals"] }))) as PriceFeedShapeError;
    expect(twice).toBeInstanceOf(PriceFeedShapeError);
    expect(twice.mismatches).toEqual([
      {
        home: "primary",
        url: `${wrong.url}/api/v1/feed.json?category=metals`,
        document: "Feed",
        member: "assets[0].freshness",
        expected: "an object",
        got: "nothing",
      },
      {
        home: "mirror",
        url: `${foreign.url}${PREFIX}/api/v1/feed/category/metals.json`,
        document: "Feed",
        member: "schemaVersion",
        expected: "1",
        got: "number 2",
      },
    ]);
  });

  test("every document of a real build passes the check; a wrong member anywhere is named", async () => {
    const files = (await fs.readdir(path.join(fresh, "api/v1"), { recursive: true })).map((f) => `api/v1/${f}`);
    const checked: Array<[string, AnySpec]> = [
      ...files.filter((f) => /^api\/v1\/feed(\.json|\/(asset|category)\/[^/]+\.json)$/.test(f)).map((f) => [f, FEED]),
      ...files.filter((f) => /^api\/v1\/history\/[^/]+\.json$/.test(f)).map((f) => [f, HISTORY]),
      ["api/v1/index.json", INDEX],
    ] as Array<[string, AnySpec]>;
    expect(checked.length).toBeGreaterThan(8);
    for (const [file, spec] of checked) expect([file, mismatch(spec, await readJson(file))]).toEqual([file, null]);

    const feed = (await readJson("api/v1/feed.json")) as Feed;
    const changed = (change: (f: Feed) => unknown) => {
      const copy = structuredClone(feed);
      change(copy);
      return mismatch(FEED, copy);
    };
    expect(changed((f) => Object.assign(f, { extra: { added: "later" } }))).toBeNull(); // members the types do not know pass
    expect(changed((f) => Object.assign(f, { schemaVersion: 2 }))).toEqual({
      member: "schemaVersion",
      expected: "1",
      got: "number 2",
    });
    expect(changed((f) => Object.assign(f.assets[1]!.freshness, { state: "old" }))).toEqual({
      member: "assets[1].freshness.state",
      expected: 'one of "fresh", "closed", "delayed", "stale"',
      got: 'string "old"',
    });
    expect(changed((f) => Object.assign(f.assets[0]!.directions.sell, { best: { value: "50.1" } }))).toMatchObject({
      member: "assets[0].directions.sell.best.seller",
      expected: "a string or null",
    });
    expect(changed((f) => (f.generatedAt = "yesterday"))).toEqual({
      member: "generatedAt",
      expected: "an ISO 8601 instant",
      got: 'string "yesterday"',
    });
    expect(mismatch(FEED, [feed])).toEqual({ member: "", expected: "an object", got: "an array" });
  });
});
