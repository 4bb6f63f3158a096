/**
 * The client package (client/) believes a home only within bounds (issue 42, item 5), against real
 * servers on loopback: a Retry-After of 999999999 or a date in 2058 keeps the primary unasked for an
 * hour at most; a body over the size limit, announced or streamed without end, is refused without
 * being held, and the mirror answers instead; a build instant ahead of the client's clock is not
 * fresh. The client runs on ManualTimers: its clock is the test's, and no test waits in real time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import type http from "node:http";
import path from "node:path";
import {
  CLOCK_SKEW_MS,
  MAX_BODY_BYTES,
  MAX_RETRY_AFTER_MS,
  MAX_REUSE_MS,
  PriceFeedClient,
  PriceFeedTooLargeError,
  PriceFeedUnavailable,
  freshFor,
  httpDate,
  retryAfterMs,
  type ClientOptions,
} from "../../client/src/index.js";
import { ManualTimers } from "../helpers/clock.js";
import { BUILT_AT, builtSite } from "../helpers/site.js";
import { clientTimers, countingServer, staticMirror, type CountingServer } from "../helpers/homes.js";

const PREFIX = "/price-feed";
const HOUR = 3600 * 1000;
const LIMIT = 32 * 1024; // the limit the size tests configure: the one-asset feed fits, with room
let out: string;
let mirror: CountingServer & { base: string };
/** The mirror's answer to feed({ asset: ["us-dollar"] }): a real Feed document, under LIMIT. */
let usDollar: string;
const others: CountingServer[] = [];

beforeAll(async () => {
  ({ out } = await builtSite(BUILT_AT));
  mirror = await staticMirror(out, PREFIX);
  usDollar = await fs.readFile(path.join(out, "api/v1/feed/asset/us-dollar.json"), "utf8");
});
afterAll(() => mirror?.close());
afterEach(async () => {
  for (const s of others.splice(0)) await s.close();
});

async function host(handle: http.RequestListener): Promise<CountingServer> {
  const s = await countingServer(handle);
  others.push(s);
  return s;
}

function client(manual: ManualTimers, o: Partial<ClientOptions> & { primary: string }): PriceFeedClient {
  return new PriceFeedClient({ timers: clientTimers(manual), ...o });
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
/** An IMF-fixdate, the HTTP-date form servers send (RFC 9110 §5.6.7). */
const imf = (ms: number) => new Date(ms).toUTCString();

describe("Retry-After: delta-seconds or an HTTP-date, an hour at most", () => {
  test("the cap is an hour", () => expect(MAX_RETRY_AFTER_MS).toBe(HOUR));

  test.each<[string, string | null, number | null]>([
    ["delta-seconds", "120", 120_000],
    ["zero: ask again now", "0", 0],
    ["an hour exactly", "3600", HOUR],
    ["a second over the hour", "3601", HOUR],
    ["until 2058", "999999999", HOUR],
    ["more digits than a double holds", "9".repeat(400), HOUR],
    ["an IMF-fixdate 30 s ahead", imf(BUILT_AT + 30_000), 30_000],
    ["an IMF-fixdate in 2058", imf(Date.UTC(2058, 0, 1)), HOUR],
    ["an RFC 850 date a minute ahead", "Thursday, 19-Nov-26 11:31:00 GMT", 60_000],
    ["an asctime date a minute ahead", "Thu Nov 19 11:31:00 2026", 60_000],
    ["an asctime date with a one-digit day", "Mon Nov  1 00:00:00 2027", HOUR],
    ["a date a second past", imf(BUILT_AT - 1000), null],
    ["a date that is now", imf(BUILT_AT), null],
    ["a date that does not exist", "Fri, 31 Feb 2027 11:31:00 GMT", null],
    ["an hour that does not exist", "Thu, 19 Nov 2026 25:00:00 GMT", null],
    ["text Date.parse reads as 2099", "x 2099", null],
    ["a word", "soon", null],
    ["a negative number", "-5", null],
    ["a fraction", "1.5", null],
    ["a unit", "120 s", null],
    ["empty", "", null],
    ["absent", null, null],
  ])("%s (%j): %j ms", (_, value, ms) => expect(retryAfterMs(value, BUILT_AT)).toBe(ms));

  test.each<[string, number]>([
    // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the latest past year with those digits.
    ["Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Saturday, 06-Nov-76 08:49:37 GMT", Date.UTC(2076, 10, 6, 8, 49, 37)],
    ["Saturday, 06-Nov-77 08:49:37 GMT", Date.UTC(1977, 10, 6, 8, 49, 37)],
    ["Sun, 06 Nov 1994 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sun Nov  6 08:49:37 1994", Date.UTC(1994, 10, 6, 8, 49, 37)],
  ])("the HTTP-date %j", (value, ms) => expect(httpDate(value, BUILT_AT)).toBe(ms));

  /** A primary that answers every request 503 with this Retry-After. */
  const unavailable = (retryAfter: string) =>
    host((_, res) => res.writeHead(503, { "Retry-After": retryAfter, "Content-Type": "text/plain" }).end("busy"));

  test.each<[string, string, number]>([
    ["delta-seconds within the hour", "120", 120_000],
    ["999999999 seconds", "999999999", HOUR],
    ["an HTTP-date in 2058", imf(Date.UTC(2058, 0, 1)), HOUR],
    ["an HTTP-date a day past: the normal back-off", imf(BUILT_AT - 86_400_000), 60_000],
    ["garbage: the normal back-off", "soon", 60_000],
  ])("a 503 with Retry-After of %s (%j): the primary is asked again %i ms later", async (_, retryAfter, backoff) => {
    const primary = await unavailable(retryAfter);
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: primary.url, mirror: mirror.base });
    expect((await c.feed({ asset: ["us-dollar"] })).home).toBe("mirror");
    manual.advance(backoff - 1000);
    expect((await c.feed({ asset: ["us-dollar"] })).home).toBe("mirror");
    expect(primary.asked).toHaveLength(1);
    manual.advance(1000);
    expect((await c.feed({ asset: ["us-dollar"] })).home).toBe("mirror");
    expect(primary.asked).toHaveLength(2);

    // Alone, the primary is an outage that says when it may be asked again: at most an hour away.
    const alone = await failure(client(new ManualTimers(BUILT_AT), { primary: primary.url }).feed());
    expect(alone).toBeInstanceOf(PriceFeedUnavailable);
    expect((alone as PriceFeedUnavailable).retryAt).toBe(BUILT_AT + backoff);
  });
});

describe("max-age: an answer is reused an hour at most", () => {
  test.each<[string | null, number]>([
    ["max-age=300", 300_000],
    ["public, max-age=3600", HOUR],
    ["max-age=999999999", MAX_REUSE_MS],
    ["no-store, max-age=300", 0],
    [null, 0],
  ])("Cache-Control %j: %j ms", (value, ms) => expect(freshFor(value)).toBe(ms));

  test("a max-age of 31 years on loopback: the primary is asked again after an hour", async () => {
    expect(MAX_REUSE_MS).toBe(HOUR);
    const primary = await host((_, res) =>
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "max-age=999999999" }).end(usDollar),
    );
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: primary.url });
    expect((await c.feed({ asset: ["us-dollar"] })).fromCache).toBe(false);
    manual.advance(HOUR - 1000);
    expect((await c.feed({ asset: ["us-dollar"] })).fromCache).toBe(true);
    expect(primary.asked).toHaveLength(1);
    manual.advance(1000);
    expect((await c.feed({ asset: ["us-dollar"] })).fromCache).toBe(false);
    expect(primary.asked).toHaveLength(2);
  });
});

describe("bodies are read up to a size limit", () => {
  test("the default limit is 8 MiB, above the largest document the feed publishes", () =>
    expect(MAX_BODY_BYTES).toBe(8 * 1024 * 1024));

  /** `body` sent whole with its Content-Length, or in pieces without one (chunked). */
  const serving = (body: string, announce: boolean) =>
    host((_, res) => {
      const headers = { "Content-Type": "application/json" };
      if (announce) return void res.writeHead(200, { ...headers, "Content-Length": Buffer.byteLength(body) }).end(body);
      res.writeHead(200, headers);
      for (let i = 0; i < body.length; i += 4096) res.write(body.slice(i, i + 4096));
      res.end();
    });
  /** The real one-asset feed, padded with the whitespace JSON allows after it to exactly `bytes`. */
  const padded = (bytes: number) => usDollar + " ".repeat(bytes - Buffer.byteLength(usDollar));

  test.each<[number, boolean, "primary" | "mirror"]>([
    [LIMIT, true, "primary"],
    [LIMIT + 1, true, "mirror"],
    [LIMIT, false, "primary"],
    [LIMIT + 1, false, "mirror"],
  ])(
    "a %i-byte body (Content-Length announced: %s) from the primary: the %s answers",
    async (bytes, announce, home) => {
      expect(Buffer.byteLength(usDollar)).toBeLessThan(LIMIT);
      const primary = await serving(padded(bytes), announce);
      const c = client(new ManualTimers(BUILT_AT), { primary: primary.url, mirror: mirror.base, maxBodyBytes: LIMIT });
      const answer = await c.feed({ asset: ["us-dollar"] });
      expect(answer.home).toBe(home);
      expect(answer.body.assets.map((a) => a.slug)).toEqual(["us-dollar"]);
      if (home === "mirror") {
        const alone = await failure(
          client(new ManualTimers(BUILT_AT), { primary: primary.url, maxBodyBytes: LIMIT }).feed(),
        );
        expect((alone as PriceFeedUnavailable).causes).toEqual([
          announce
            ? `primary: 200 OK with a body of ${bytes} bytes announced, more than the limit of ${LIMIT}`
            : `primary: 200 OK with a body longer than the limit of ${LIMIT} bytes, not read further`,
        ]);
      }
    },
  );

  test("a Content-Length of 400 MB is refused before a byte is read: the body that never comes is not awaited", async () => {
    // It announces 400 MB, sends a brace and then nothing, holding the connection open: a client that
    // read before looking at the length would wait here until the test's own timeout.
    const primary = await host((_, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": 400_000_000 });
      res.write("{");
    });
    const c = client(new ManualTimers(BUILT_AT), { primary: primary.url, mirror: mirror.base });
    expect((await c.feed({ asset: ["us-dollar"] })).home).toBe("mirror");

    const alone = await failure(client(new ManualTimers(BUILT_AT), { primary: primary.url }).feed());
    expect(alone).toBeInstanceOf(PriceFeedTooLargeError);
    expect(alone).toMatchObject({
      url: `${primary.url}/api/v1/feed.json`,
      maxBodyBytes: MAX_BODY_BYTES,
      oversized: [
        { home: "primary", url: `${primary.url}/api/v1/feed.json`, document: "Feed", announced: 400_000_000 },
      ],
    });
  });

  /**
   * A body without end and without Content-Length: chunks for as long as the client reads. `closed`
   * settles with the bytes sent once the client has dropped the connection.
   */
  async function endless(status: number, type: string): Promise<CountingServer & { closed: Promise<number> }> {
    let done: (sent: number) => void = () => {};
    const closed = new Promise<number>((resolve) => (done = resolve));
    const chunk = Buffer.alloc(64 * 1024, " ");
    const server = await host((_, res) => {
      let sent = 0;
      res.on("close", () => done(sent));
      res.writeHead(status, { "Content-Type": type });
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      res.write("[");
      pump();
    });
    return { ...server, closed };
  }

  test.each<[string, number, string, string]>([
    [
      "a 200 of JSON",
      200,
      "application/json",
      `primary: 200 OK with a body longer than the limit of ${MAX_BODY_BYTES} bytes, not read further`,
    ],
    ["a 503's page", 503, "text/html", "primary: 503 Service Unavailable"],
    [
      "a 404 that says it is a problem document",
      404,
      "application/problem+json",
      `primary: 404 Not Found with a body longer than the limit of ${MAX_BODY_BYTES} bytes, not read further`,
    ],
  ])(
    "%s streamed without end and without Content-Length: not held, the connection dropped, the mirror answers",
    async (_, status, type, cause) => {
      const primary = await endless(status, type);
      const c = client(new ManualTimers(BUILT_AT), { primary: primary.url, mirror: mirror.base });
      const answer = await c.feed({ asset: ["us-dollar"] });
      expect(answer.home).toBe("mirror");
      await primary.closed; // the client let go of the body: it never ends by itself
      const alone = await failure(client(new ManualTimers(BUILT_AT), { primary: primary.url }).feed());
      expect((alone as PriceFeedUnavailable).causes).toEqual([cause]);
    },
  );

  test("both homes over the limit: PriceFeedTooLargeError, a PriceFeedUnavailable, naming each", async () => {
    const big = await serving(padded(LIMIT + 1), false);
    const c = client(new ManualTimers(BUILT_AT), {
      primary: big.url,
      mirror: `${big.url}${PREFIX}`,
      maxBodyBytes: LIMIT,
    });
    const e = await failure(c.feed({ asset: ["us-dollar"] }));
    expect(e).toBeInstanceOf(PriceFeedTooLargeError);
    expect(e).toBeInstanceOf(PriceFeedUnavailable); // an app that handles an outage handles this too
    const primaryUrl = `${big.url}/api/v1/feed.json?asset=us-dollar`;
    const mirrorUrl = `${big.url}${PREFIX}/api/v1/feed/asset/us-dollar.json`;
    expect(e).toMatchObject({
      name: "PriceFeedTooLargeError",
      url: primaryUrl,
      maxBodyBytes: LIMIT,
      retryAt: BUILT_AT + 60_000,
      oversized: [
        { home: "primary", url: primaryUrl, document: "Feed", announced: null },
        { home: "mirror", url: mirrorUrl, document: "Feed", announced: null },
      ],
    });
    const cause = `200 OK with a body longer than the limit of ${LIMIT} bytes, not read further`;
    expect((e as Error).message).toBe(
      `the price feed gave no Feed within ${LIMIT} bytes: primary: ${cause}; mirror: ${cause}`,
    );
  });
});

describe("a build instant in the future is not fresh", () => {
  test("the allowance is 5 minutes, the build's own CLOCK_SKEW", () => expect(CLOCK_SKEW_MS).toBe(5 * 60 * 1000));

  test.each<[string, number, number, boolean, Partial<ClientOptions>]>([
    ["an hour after the build", BUILT_AT + HOUR, HOUR, false, {}],
    ["a second before it: two clocks a little apart", BUILT_AT - 1000, 0, false, {}],
    ["5 minutes before it, the allowance", BUILT_AT - CLOCK_SKEW_MS, 0, false, {}],
    ["past the allowance", BUILT_AT - CLOCK_SKEW_MS - 1, -CLOCK_SKEW_MS - 1, true, {}],
    ["10 minutes before it", BUILT_AT - 600_000, -600_000, true, {}],
    ["a day before it, however lenient staleAfterMs", BUILT_AT - 86_400_000, -86_400_000, true, { staleAfterMs: 1e12 }],
  ])("the client's clock %s (%i): age %i, stale %s", async (_, now, age, stale, o) => {
    const c = client(new ManualTimers(now), { primary: mirror.base, ...o });
    const answer = await c.feed();
    expect(answer.generatedAt).toBe(new Date(BUILT_AT).toISOString());
    expect(answer).toMatchObject({ fromCache: false, age, stale });
  });

  test("a reused answer is dated again: fresh once the client's clock reaches the build", async () => {
    const manual = new ManualTimers(BUILT_AT - 600_000);
    const c = client(manual, { primary: mirror.base });
    expect(await c.feed()).toMatchObject({ fromCache: false, age: -600_000, stale: true });
    manual.advance(300_000); // within the mirror's max-age (600 s): the same answer, its clock now within the allowance
    expect(await c.feed()).toMatchObject({ fromCache: true, age: 0, stale: false });
  });
});
