/**
 * No secret leaves in saved bodies (issue 42, item 3): a source with a token, cookies, a key in its
 * URL's query and a password in its userinfo is asked on loopback with every answer recorded, then
 * saved as `ingest --save-bodies` saves it; no file of the folder holds a secret. And the folder is
 * refused inside the data folder or a build output folder, symbolic links resolved.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readDocument } from "../../src/ingest/document/fetch.js";
import type { Answer } from "../../src/ingest/http.js";
import { prepareBodiesDir, redactUrl, saveBodies } from "../../src/io/saved-bodies.js";
import { sourcesServer } from "../helpers/sources-server.js";

const NONCE = "nonce-7f3a9c2e";
const COOKIE = "sess-41d8cd98f00b";
const KEY = "apikey-0c4e5d";
const PASSWORD = "pw-93ab17";

let server: Awaited<ReturnType<typeof sourcesServer>>;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "hostile-saved-"));
  server = await sourcesServer({
    "GET /auth": (_, res) =>
      res
        .writeHead(200, {
          "content-type": "application/json",
          "set-cookie": [`sid=${COOKIE}; Path=/; HttpOnly`],
          "x-echo": NONCE,
        })
        .end(JSON.stringify({ data: { nonce: NONCE, ttl: 60 } })),
    "GET /auth-text": (_, res) => res.writeHead(200, { "content-type": "text/plain" }).end(NONCE),
    "GET /rates": (req, res) =>
      res
        .writeHead(200, {
          "content-type": "application/json",
          "x-seen-nonce": String(req.headers["x-price-nonce"]),
          "x-seen-cookie": String(req.headers["cookie"]),
          "content-location": `${server.url}/rates?apikey=${KEY}`,
        })
        .end('[{"Buy": 4900}]'),
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every file under a folder, as text. */
async function everything(folder: string): Promise<string> {
  const names = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = names.filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
  return (await Promise.all(files.map((f) => readFile(f, "utf8")))).join("\n");
}

async function saved(auth: string, folder: string): Promise<string> {
  const answers: Answer[] = [];
  // fetch refuses a URL with userinfo (the Fetch standard): it appears only in a failure's reason here.
  const withUser = server.url.replace("http://", `http://operator:${PASSWORD}@`);
  const url = server.url;
  let error: string | undefined;
  await readDocument(
    {
      url: `${url}/rates?apikey=${KEY}&day=today`,
      token: { url: `${server.url}${auth}`, path: "data.nonce", header: "X-Price-Nonce" },
    },
    "application/json",
    {
      http: { userAgent: "t", timeoutMs: 5000, retries: 0, backoffMs: 1, onAnswer: (a) => void answers.push(a) },
      dataDir: ".",
    },
  ).catch((e: Error) => (error = e.message));
  // A failure's reason naming the URL with its userinfo and key (saved in failed/<id>/source.json and index.json).
  error = `${error ?? "no quotes"} (${withUser}/rates?apikey=${KEY})`;
  const out = path.join(dir, folder);
  await prepareBodiesDir(out, path.join(dir, "data"));
  await saveBodies(out, { nowMs: 0, dryRun: true }, [
    { id: "dealer", adapter: "seller-document", ok: false, error, answers },
  ]);
  return everything(out);
}

describe("saved bodies keep no secret", () => {
  test("the token's value, the cookie's, the query's key and the password are nowhere in the folder", async () => {
    const text = await saved("/auth", "json-token");
    for (const secret of [NONCE, COOKIE, KEY, PASSWORD]) expect(text, secret).not.toContain(secret);
    // What is kept says what there was: the cookie's name, the query's names, the token answer's shape.
    expect(text).toContain('"sid=REDACTED; Path=/; HttpOnly"');
    expect(text).toContain("apikey=REDACTED&day=REDACTED");
    expect(text).toContain('{"data":{"nonce":"<string, 14 characters>","ttl":"<number>"}}');
    expect(text).toContain('"x-echo": "REDACTED"');
    // The rates answer echoed the token and the cookie back: the values are gone, the answer kept.
    expect(text).toContain('"x-seen-nonce": "REDACTED"');
    expect(text).toContain('"x-seen-cookie": "sid=REDACTED"');
    expect(text).toContain('[{"Buy": 4900}]');
  });

  test("a token answer that is not JSON is not saved", async () => {
    const text = await saved("/auth-text", "text-token");
    expect(text).not.toContain(NONCE);
    expect(text).toContain("a token answer that is not JSON: not saved");
  });

  test.each([
    ["https://u:p@bank.example/rates?apikey=k&x=1#frag", "https://bank.example/rates?apikey=REDACTED&x=REDACTED"],
    ["https://bank.example/rates", "https://bank.example/rates"],
    ["not a url", "not a url"],
  ])("redactUrl(%s) → %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe("--save-bodies stays out of the data folder and the build's output", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "hostile-bodies-dir-"));
    await mkdir(path.join(root, "data"), { recursive: true });
    await mkdir(path.join(root, "public"), { recursive: true });
    await symlink(path.join(root, "data"), path.join(root, "to-data"));
    await symlink(path.join(root, "public"), path.join(root, "to-public"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test.each([
    ["data/bodies", /inside the data folder/],
    ["to-data/bodies", /inside the data folder/],
    ["to-data/not/made/yet", /inside the data folder/],
    ["public/bodies", /inside the build's output folder/],
    ["to-public/bodies", /inside the build's output folder/],
    ["public.tmp-4242/bodies", /inside the build's output folder/],
    ["bodies", null],
    ["publicity/bodies", null],
  ])("%s → %s", async (where, refused) => {
    const out = prepareBodiesDir(path.join(root, where), path.join(root, "data"));
    if (refused === null) await expect(out).resolves.toBeUndefined();
    else await expect(out).rejects.toThrow(refused);
  });
});
