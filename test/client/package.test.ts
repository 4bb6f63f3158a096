/**
 * The client package (client/) against real servers on loopback: the local server of a built site
 * as the primary (`price-feed serve`'s startServer), sirv serving the same build under a prefix as
 * the mirror, and servers that fail as a primary can. The servers count what they were asked; the
 * client runs on ManualTimers, so max-ages, Retry-After waits and timeouts pass at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  PriceFeedClient,
  PriceFeedProblem,
  PriceFeedUnavailable,
  UnknownFilterValue,
  filterFeed,
  type ClientOptions,
} from "../../client/src/index.js";
import type { RunningServer } from "../../src/server/serve.js";
import { ManualTimers } from "../helpers/clock.js";
import { BUILT_AT, builtSite, testServer } from "../helpers/site.js";
import { clientTimers, countingServer, staticMirror, timerAt, type CountingServer } from "../helpers/homes.js";

const PREFIX = "/price-feed";
let out: string;
let mirror: CountingServer & { base: string };
let primary: RunningServer | null = null;
let logs: string[] = [];
const others: CountingServer[] = [];

beforeAll(async () => {
  ({ out } = await builtSite());
  mirror = await staticMirror(out, PREFIX);
});
afterAll(() => mirror?.close());
afterEach(async () => {
  await primary?.close();
  primary = null;
  for (const s of others.splice(0)) await s.close();
});

/** The local server of the build, on `port` (0: any free one); its log lines (one per request) in `logs`. */
async function startPrimary(port = 0, o: Parameters<typeof testServer>[1] = {}): Promise<RunningServer> {
  logs = [];
  primary = await testServer(out, { port, ...o }, logs);
  return primary;
}

function client(manual: ManualTimers, o: Partial<ClientOptions> & { primary: string }): PriceFeedClient {
  return new PriceFeedClient({ contact: "https://client.test", timers: clientTimers(manual), ...o });
}

/** What the mirror was asked since the test started, without its prefix. */
const mirrorAsked = (from: number) => mirror.asked.slice(from).map((p) => p.slice(PREFIX.length));
const slugs = (feed: { assets: Array<{ slug: string }> }) => feed.assets.map((a) => a.slug);

describe("polite: ETags, one request per max-age", () => {
  test("an answer is reused for its max-age without asking, then revalidated with its ETag (304)", async () => {
    const server = await startPrimary();
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: server.url });
    const first = await c.feed({ category: ["metals"] });
    expect(first).toMatchObject({
      home: "primary",
      fromCache: false,
      url: `${server.url}/api/v1/feed.json?category=metals`,
    });
    expect(first.etag).toMatch(/^"/);
    expect(slugs(first.body)).toEqual(["gold-24k"]);

    manual.advance(299_000); // Cache-Control: max-age=300
    expect(await c.feed({ category: ["metals"] })).toMatchObject({ fromCache: true, body: first.body });
    expect(logs).toHaveLength(1);

    manual.advance(1_000);
    const again = await c.feed({ category: ["metals"] });
    expect(again).toMatchObject({ home: "primary", fromCache: true, etag: first.etag });
    expect(again.body).toEqual(first.body);
    expect(logs).toHaveLength(2);
    expect(logs[1]).toMatch(/^GET \/api\/v1\/feed\.json\?category=metals 304 /);
    expect(c.requests).toEqual({ primary: 2, mirror: 0 });
  });

  test("without conditional requests (a browser's own HTTP cache does them) no ETag is sent: a 200 each max-age", async () => {
    const down = await countingServer((_, res) => res.writeHead(500).end());
    others.push(down);
    const manual = new ManualTimers(BUILT_AT);
    const plain = client(manual, { primary: down.url, mirror: mirror.base, conditional: false });
    const polite = client(manual, { primary: down.url, mirror: mirror.base });
    for (const c of [plain, polite]) await c.feed({ category: ["currencies"] });
    manual.advance(600_000 + 60_000); // past the mirror's max-age and the primary's back-off
    expect((await plain.feed({ category: ["currencies"] })).fromCache).toBe(false);
    expect((await polite.feed({ category: ["currencies"] })).fromCache).toBe(true); // sirv's 304
  });

  test("a refused request is the server's problem, thrown as it is, and not an outage: the mirror is not asked", async () => {
    const server = await startPrimary();
    const c = client(new ManualTimers(BUILT_AT), { primary: server.url, mirror: mirror.base });
    const from = mirror.asked.length;
    const e = await c.feed({ category: ["crypto"] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PriceFeedProblem);
    expect(e).toMatchObject({ status: 400, problem: { validCategories: ["currencies", "metals"] } });
    expect((e as Error).message).toMatch(/^400 Unknown category: /);
    expect(mirrorAsked(from)).toEqual([]);
  });
});

describe("a second home: the mirror's files while the primary fails, the primary again once it is back", () => {
  test("the primary stopped: the mirror's variant files; started again: the primary, revalidating", async () => {
    const server = await startPrimary();
    const port = server.port;
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: server.url, mirror: mirror.base });
    const from = mirror.asked.length;
    const onPrimary = await c.feed({ category: ["metals"] });
    expect(onPrimary.home).toBe("primary");

    await server.close();
    primary = null;
    manual.advance(300_000);
    // One category: its pre-filtered file on the mirror, the same assets the edge filtered.
    const metals = await c.feed({ category: ["metals"] });
    expect(metals).toMatchObject({ home: "mirror", url: `${mirror.base}/api/v1/feed/category/metals.json` });
    expect(metals.body.assets).toEqual(onPrimary.body.assets);
    // Two assets (and an id in another case): the whole feed, filtered as the edge filters.
    const two = await c.feed({ asset: ["gold-24k", "usd-egp"] });
    expect(two.home).toBe("mirror");
    expect(slugs(two.body)).toEqual(["us-dollar", "gold-24k"]);
    // One asset: its file. Within the primary's back-off the primary is not asked again.
    expect((await c.feed({ asset: ["Omani-Riyal"] })).url).toBe(`${mirror.base}/api/v1/feed/asset/omani-riyal.json`);
    expect(mirrorAsked(from)).toEqual([
      "/api/v1/feed/category/metals.json",
      "/api/v1/feed.json",
      "/api/v1/feed/asset/omani-riyal.json",
    ]);
    expect(c.requests).toEqual({ primary: 2, mirror: 3 });
    // While the primary stays down the mirror's answers are reused for their max-age (600 s): past its
    // back-off (60 s) the primary is asked first, fails again, and the mirror's copy answers unasked.
    manual.advance(599_000);
    expect(await c.feed({ category: ["metals"] })).toMatchObject({ home: "mirror", fromCache: true });
    expect(c.requests).toEqual({ primary: 3, mirror: 3 });

    // The primary back on its port: once its new back-off has passed, it is asked first again, and it
    // answers 304 to the ETag it gave before the outage.
    await startPrimary(port);
    manual.advance(60_000);
    const back = await c.feed({ category: ["metals"] });
    expect(back).toMatchObject({ home: "primary", fromCache: true, etag: onPrimary.etag });
    expect(logs).toEqual([expect.stringMatching(/^GET \/api\/v1\/feed\.json\?category=metals 304 /)]);
    expect(c.requests).toEqual({ primary: 4, mirror: 3 });
    expect(mirrorAsked(from)).toHaveLength(3);
  });

  test("a primary that does not answer in time: the mirror, after the client's own timeout", async () => {
    const seen: Array<() => void> = [];
    const hanging = await countingServer(() => seen.forEach((f) => f()));
    others.push(hanging);
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: hanging.url, mirror: mirror.base, timeoutMs: 5_000 });
    const answer = c.feed();
    await new Promise<void>((resolve) => seen.push(resolve)); // the request reached the primary
    await timerAt(manual, BUILT_AT + 5_000);
    manual.advance(5_000);
    expect(await answer).toMatchObject({ home: "mirror", url: `${mirror.base}/api/v1/feed.json` });
    expect(hanging.asked).toEqual(["/api/v1/feed.json"]);
  });

  test("a 503 with Retry-After: nothing goes to the primary before it, the mirror answers meanwhile", async () => {
    const failing = await countingServer((_, res) =>
      res.writeHead(503, { "Retry-After": "120", "Content-Type": "application/problem+json" }).end("{}"),
    );
    others.push(failing);
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: failing.url, mirror: mirror.base });
    expect((await c.feed({ asset: ["us-dollar"] })).home).toBe("mirror");
    manual.advance(119_000);
    expect((await c.feed({ asset: ["gold-24k"] })).home).toBe("mirror");
    expect(failing.asked).toHaveLength(1);
    manual.advance(1_000);
    expect((await c.feed({ asset: ["chinese-yuan"] })).home).toBe("mirror");
    expect(failing.asked).toEqual(["/api/v1/feed.json?asset=us-dollar", "/api/v1/feed.json?asset=chinese-yuan"]);
  });

  test("every home down: PriceFeedUnavailable, saying what each did", async () => {
    const down = await countingServer((_, res) => res.writeHead(502).end());
    others.push(down);
    const c = client(new ManualTimers(BUILT_AT), { primary: down.url, mirror: `${down.url}${PREFIX}` });
    const e = await c.feed().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PriceFeedUnavailable);
    expect((e as PriceFeedUnavailable).causes).toEqual(["primary: 502 Bad Gateway", "mirror: 502 Bad Gateway"]);
    expect((e as PriceFeedUnavailable).retryAt).toBe(BUILT_AT + 60_000);
  });
});

describe("Retry-After on 429", () => {
  test("the real server's 429: without a mirror the client waits it out on its timers, then asks once more", async () => {
    const manual = new ManualTimers(BUILT_AT);
    const server = await startPrimary(0, {
      limits: { window: 1, windowSeconds: 60, daily: 1000 },
      limiterClock: manual.now,
    });
    const c = client(manual, { primary: server.url });
    await c.feed();
    const index = c.index();
    const wait = new Promise<number>((resolve) => {
      const look = () => {
        const due = manual.pending().find((d) => d > BUILT_AT + 10_000);
        if (due) resolve(due);
        else void manual.nextTimer().then(look);
      };
      look();
    });
    const due = await wait; // the client sleeps until Retry-After
    expect(logs).toEqual([expect.stringMatching(/ 200 /), expect.stringMatching(/^GET \/api\/v1 429 /)]);
    expect(due - BUILT_AT).toBeGreaterThan(0);
    expect(due - BUILT_AT).toBeLessThanOrEqual(60_000);
    manual.advanceTo(due);
    expect((await index).body.homes.onMirror.index).toBe("/api/v1/index.json");
    expect(logs.map((l) => l.split(" ").slice(0, 3).join(" "))).toEqual([
      "GET /api/v1/feed.json 200",
      "GET /api/v1 429",
      "GET /api/v1 200",
    ]);
  });
});

describe("the mirror's documents", () => {
  test("root-relative links resolve under the mirror's prefix, and the index is its file there", async () => {
    const down = await countingServer((_, res) => res.writeHead(500).end());
    others.push(down);
    const c = client(new ManualTimers(BUILT_AT), { primary: down.url, mirror: mirror.base });
    const index = await c.index();
    expect(index).toMatchObject({ home: "mirror", url: `${mirror.base}/api/v1/index.json` });
    const spec = c.resolve(index.body._spec, "mirror");
    expect(spec).toBe(`${mirror.base}/api/v1/openapi.json`);
    expect((await fetch(spec)).status).toBe(200);
    const feed = await c.feed();
    const variant = c.resolve(feed.body._variants.asset.replace("{slug}", "us-dollar"), "mirror");
    expect((await fetch(variant)).status).toBe(200);
  });

  test("filtered on the mirror as the edge filters: an unknown value is said, with the valid ones", async () => {
    const down = await countingServer((_, res) => res.writeHead(500).end());
    others.push(down);
    const c = client(new ManualTimers(BUILT_AT), { primary: down.url, mirror: mirror.base });
    const feed = (await c.feed()).body;
    expect(slugs(filterFeed(feed, { category: ["METALS", "currencies"], asset: ["XAU24K-EGP"] }))).toEqual([
      "gold-24k",
    ]);
    expect(() => filterFeed(feed, { asset: ["bitcoin"] })).toThrow(UnknownFilterValue);
    const e = await c.feed({ category: ["crypto"] }).catch((x: unknown) => x);
    expect(e).toMatchObject({ parameter: "category", value: "crypto", valid: ["currencies", "metals"] });
  });
});
