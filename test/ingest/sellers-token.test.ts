/**
 * A source whose page's script asks for a token before the rates (Dahab Masr's nonce): the first
 * answer's token goes in the configured header, its cookies go along, and a first answer without a
 * token fails the source naming the address. Real HTTP on loopback.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { readDocument } from "../../src/ingest/document/fetch.js";
import { sourcesServer } from "../helpers/sources-server.js";

let server: Awaited<ReturnType<typeof sourcesServer>>;
const http = { userAgent: "price-feed-test", timeoutMs: 5000, retries: 0, backoffMs: 1 };

beforeAll(async () => {
  server = await sourcesServer({
    "GET /auth": (_, res) =>
      res
        .writeHead(200, {
          "content-type": "application/json",
          "set-cookie": ["sid=abc; Path=/; HttpOnly", "lang=ar; Path=/"],
        })
        .end('{"data":{"nonce":"n-42"},"exp":1789313400}'),
    "GET /auth-empty": (_, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"exp":1}'),
    "GET /auth-html": (_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>maintenance</p>"),
    "POST /prices": (req, res) =>
      req.headers["x-price-nonce"] === "n-42" && req.headers["cookie"] === "sid=abc; lang=ar"
        ? res.writeHead(200, { "content-type": "application/json" }).end('[{"Buy": 4900}]')
        : res.writeHead(403).end("no"),
  });
});
afterAll(() => server.close());

const read = (auth: string) =>
  readDocument(
    {
      url: `${server.url}/prices`,
      method: "POST",
      token: { url: `${server.url}${auth}`, path: "data.nonce", header: "X-Price-Nonce" },
    },
    "application/json",
    { http, dataDir: "." },
  );

test("the token and the cookies of the first answer go with the rates request", async () => {
  expect(await read("/auth")).toBe('[{"Buy": 4900}]');
  const asked = server.seen.map((s) => `${s.method} ${s.path}`);
  expect(asked.slice(-2)).toEqual(["GET /auth", "POST /prices"]);
});

test.each([
  ["/auth-empty", /no token at "data.nonce" in the answer of http:\/\/127\.0\.0\.1:\d+\/auth-empty/],
  ["/auth-html", /the token answer of http:\/\/127\.0\.0\.1:\d+\/auth-html is not JSON/],
])("a first answer %s without a token fails the source, naming it", async (auth, message) => {
  await expect(read(auth)).rejects.toThrow(message);
});
