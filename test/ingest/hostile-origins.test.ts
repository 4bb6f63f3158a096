/**
 * Tokens and cookies only go home (issue 42, item 3; issue 41, item 5), on real HTTP: two loopback
 * servers on different ports are two origins (RFC 6454). A token and the cookies its answer set go
 * to their own origin only — not to a rates URL elsewhere, not across a redirect; the token request
 * carries only its own headers; a fresh token is asked for before every attempt; the CBE form is
 * posted only to its page's origin; a source's User-Agent is sent as written.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readDocument } from "../../src/ingest/document/fetch.js";
import { cbeAdapter } from "../../src/ingest/adapters/cbe.js";
import type { CbeSource } from "../../src/schema/sources.js";
import { cbePage, sourcesServer } from "../helpers/sources-server.js";

type Server = Awaited<ReturnType<typeof sourcesServer>>;
let home: Server;
let away: Server;
let nonces = 0;
/** The rates answer 503 until this many tokens were asked for, then 200 to the newest one only. */
let readyAfter = 1;

const http = { userAgent: "price-feed-test", timeoutMs: 5000, retries: 0, backoffMs: 1, allowPrivateRedirects: true };
const ok = (res: Parameters<Parameters<typeof sourcesServer>[0][string]>[1]) =>
  res.writeHead(200, { "content-type": "application/json" }).end('[{"Buy": 4900}]');

beforeAll(async () => {
  away = await sourcesServer({ "GET /rates": (_, res) => ok(res), "POST /rates": (_, res) => ok(res) });
  home = await sourcesServer({
    "GET /auth": (_, res) => {
      nonces++;
      res
        .writeHead(200, {
          "content-type": "application/json",
          "set-cookie": [`sid=session-${nonces}; Path=/; HttpOnly`],
        })
        .end(JSON.stringify({ nonce: `nonce-${nonces}` }));
    },
    "GET /rates": (req, res) =>
      nonces >= readyAfter && req.headers["x-price-nonce"] === `nonce-${nonces}`
        ? ok(res)
        : res.writeHead(503, { "content-type": "text/plain" }).end("busy"),
    "GET /to-away": (_, res) => res.writeHead(302, { location: `${away.url}/rates` }).end(),
    "GET /ua": (_, res) => ok(res),
    "GET /cbe": (_, res) =>
      res
        .writeHead(200, { "content-type": "text/html", "set-cookie": ["cbe-session=s3cr3t-session; Path=/"] })
        .end(
          cbePage("anti-forgery-token", ["US Dollar"]).replace(
            'action="/api/statistics/GetHistoricalData"',
            `action="${away.url}/rates"`,
          ),
        ),
  });
});
afterAll(() => Promise.all([home.close(), away.close()]));

const token = (headers?: Record<string, string>) => ({
  url: `${home.url}/auth`,
  path: "nonce",
  header: "X-Price-Nonce",
  ...(headers ? { headers } : {}),
});
const lastTo = (s: Server, path: string) => [...s.seen].reverse().find((x) => x.path === path)!;

describe("a token and its cookies go only to their origin", () => {
  test("a rates URL at another origin gets neither the token nor the cookie", async () => {
    await readDocument({ url: `${away.url}/rates`, token: token() }, "application/json", { http, dataDir: "." });
    const asked = lastTo(away, "/rates");
    expect(asked.headers["x-price-nonce"]).toBeUndefined();
    expect(asked.headers["cookie"]).toBeUndefined();
  });

  test("a redirect to another origin drops the token, the cookie and the source's own secrets; the User-Agent goes on", async () => {
    await readDocument(
      {
        url: `${home.url}/to-away`,
        headers: { "X-Api-Key": "key-123456", Authorization: "Bearer abcdef", Referer: `${home.url}/?k=1` },
        token: token(),
      },
      "application/json",
      { http, dataDir: "." },
    );
    const first = lastTo(home, "/to-away");
    expect(first.headers["x-price-nonce"]).toBe(`nonce-${nonces}`);
    expect(first.headers["cookie"]).toBe(`sid=session-${nonces}`);
    const asked = lastTo(away, "/rates");
    for (const h of ["x-price-nonce", "cookie", "x-api-key", "authorization", "referer"])
      expect(asked.headers[h], h).toBeUndefined();
    expect(asked.headers["user-agent"]).toBe("price-feed-test");
  });

  test("the token request carries its own headers, none of the source's", async () => {
    await readDocument(
      {
        url: `${home.url}/rates`,
        headers: { "X-Api-Key": "key-123456", "X-Requested-With": "XMLHttpRequest" },
        token: token({ "X-Token-Client": "web" }),
      },
      "application/json",
      { http, dataDir: "." },
    );
    const asked = lastTo(home, "/auth");
    expect(asked.headers["x-token-client"]).toBe("web");
    expect(asked.headers["x-api-key"]).toBeUndefined();
    expect(asked.headers["x-requested-with"]).toBeUndefined();
    expect(lastTo(home, "/rates").headers["x-api-key"]).toBe("key-123456");
  });

  test("a fresh token before every attempt: two 503s, three tokens, the third one read", async () => {
    const before = nonces;
    readyAfter = before + 3;
    const text = await readDocument({ url: `${home.url}/rates`, token: token() }, "application/json", {
      http: { ...http, retries: 2, sleep: () => Promise.resolve() },
      dataDir: ".",
    });
    expect(text).toBe('[{"Buy": 4900}]');
    expect(nonces - before).toBe(3);
    const sent = home.seen.filter((s) => s.path === "/rates").slice(-3);
    expect(sent.map((s) => s.headers["x-price-nonce"])).toEqual([1, 2, 3].map((i) => `nonce-${before + i}`));
    readyAfter = 1;
  });
});

describe("the User-Agent", () => {
  test.each([
    [{ "User-Agent": "Operator/1.0" }, "Operator/1.0"],
    [{ "user-agent": "lower/2.0" }, "lower/2.0"],
    [{ "USER-AGENT": "UPPER/3.0" }, "UPPER/3.0"],
    [{}, "price-feed-test"],
  ])("headers %j → sent as %s", async (headers, sent) => {
    await readDocument({ url: `${home.url}/ua`, headers }, "application/json", { http, dataDir: "." });
    expect(lastTo(home, "/ua").headers["user-agent"]).toBe(sent);
  });
});

describe("the CBE form goes only to its page's origin", () => {
  test("a form action at another origin fails naming its host, and nothing is posted there", async () => {
    const before = away.seen.length;
    const cfg = {
      id: "cbe",
      name: "CBE",
      adapter: "cbe",
      pageUrl: `${home.url}/cbe`,
      days: 7,
      currencies: { "US Dollar": "USD-EGP" },
    } as unknown as CbeSource;
    const ctx = { nowMs: Date.UTC(2026, 10, 19, 9), http, dataDir: ".", catalog: [], demo: undefined } as never;
    await expect(cbeAdapter(cfg, ctx)).rejects.toThrow(
      new RegExp(
        `the form posts to http://${away.url.slice("http://".length).replace(/\./g, "\\.")}, not to the page's own origin`,
      ),
    );
    expect(away.seen.length).toBe(before);
  });
});
