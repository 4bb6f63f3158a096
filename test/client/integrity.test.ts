/**
 * The client package's `verify` mode against homes on loopback: a genuine signed build served as
 * static files (each home's ETag and max-age), and copies with one file forged. The client refuses
 * a document its build's signed statement does not vouch for and asks the other home; with both
 * forged, or both unsigned, it throws PriceFeedIntegrityError. ManualTimers: no real waiting.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PriceFeedClient, PriceFeedIntegrityError, type ClientOptions } from "../../client/src/index.js";
import { runBuild } from "../../src/jobs/build.js";
import { newKeyPair, SIGNING_KEY_VAR } from "../../src/io/signing-key.js";
import { files } from "../../src/feed/paths.js";
import type { PublicKeyEntry } from "../../src/schema/signing.js";
import { ManualTimers } from "../helpers/clock.js";
import { BUILT_AT } from "../helpers/site.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { clientTimers, countingServer, staticMirror, timerAt, type CountingServer } from "../helpers/homes.js";

let key: { privatePem: string; entry: PublicKeyEntry };
let genuine: string;
let forged: string;
let unsigned: string;
const servers: CountingServer[] = [];

/** A copy of the genuine build with the dollar's variant file changed: a forged rate, the rest as built. */
async function forge(dir: string): Promise<void> {
  const file = path.join(dir, files.asset("us-dollar"));
  const text = await fs.readFile(file, "utf8");
  await fs.writeFile(
    file,
    text.replace(/"value":(\d+)/, (_, v: string) => `"value":${Number(v) + 1}`),
  );
}

beforeAll(async () => {
  const data = await writeDataset(await tempDir("pf-client-sign-"), smallRows());
  key = await newKeyPair(BUILT_AT - 86_400_000);
  await fs.writeFile(path.join(data, "keys.json"), JSON.stringify({ schemaVersion: 1, keys: [key.entry] }));
  genuine = path.join(data, "genuine");
  await runBuild({
    dataDir: data,
    outDir: genuine,
    nowMs: BUILT_AT,
    saveState: false,
    env: { [SIGNING_KEY_VAR]: key.privatePem },
  });
  forged = path.join(data, "forged");
  await fs.cp(genuine, forged, { recursive: true });
  await forge(forged);
  unsigned = path.join(data, "unsigned");
  await runBuild({ dataDir: data, outDir: unsigned, nowMs: BUILT_AT, saveState: false, env: {}, unsigned: true });
});
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function home(dir: string, prefix = "/pf") {
  const s = await staticMirror(dir, prefix);
  servers.push(s);
  return s;
}

function client(manual: ManualTimers, o: Partial<ClientOptions> & { primary: string }): PriceFeedClient {
  return new PriceFeedClient({ timers: clientTimers(manual), keys: [key.entry], ...o });
}

describe("verify: every document checked against the signed statement of its build", () => {
  test("a genuine home: verified, and the statement is fetched once a build, then revalidated (304)", async () => {
    const primary = await home(genuine);
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: primary.base });
    const a = await c.feed({ asset: ["us-dollar"] });
    expect(a).toMatchObject({ home: "primary", verified: true, url: `${primary.base}/${files.asset("us-dollar")}` });
    await c.feed({ category: ["metals"] });
    await c.index();
    const asked = () => primary.asked.map((p) => p.slice("/pf".length));
    expect(asked().filter((p) => p.startsWith("/api/v1/statement"))).toEqual([
      "/api/v1/statement.json",
      "/api/v1/statement.sig.json",
    ]);
    manual.advance(601_000); // past the static host's max-age
    expect((await c.feed({ asset: ["us-dollar"] })).verified).toBe(true);
    expect(asked().filter((p) => p.startsWith("/api/v1/statement"))).toHaveLength(3); // revalidated: a 304, no new signature
  });

  test("a forged file on the mirror is refused, and the client falls back to the primary once it is back", async () => {
    const mirror = await home(forged);
    let down = true;
    const genuineFiles = await home(genuine, "");
    const primary = await countingServer((req, res) => {
      if (down) {
        down = false;
        return void res.writeHead(503, { "Retry-After": "5" }).end();
      }
      // The genuine build, as its static files.
      void fetch(`${genuineFiles.url}${req.url}`, { headers: req.headers as Record<string, string> }).then(
        async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        },
      );
    });
    servers.push(primary);
    const manual = new ManualTimers(BUILT_AT);
    const c = client(manual, { primary: primary.url, mirror: mirror.base });
    const answer = c.feed({ asset: ["us-dollar"] });
    // The primary said 503, Retry-After 5 s; the mirror's file was refused; the client waits out the 5 s.
    await timerAt(manual, BUILT_AT + 5_000);
    manual.advance(5_000);
    const a = await answer;
    expect(a).toMatchObject({ home: "primary", verified: true });
    expect(mirror.asked).toContain(`/pf/${files.asset("us-dollar")}`);
  });

  test.each([
    ["both homes serve a forged file", () => [forged, forged], /does not match the signed statement of the build of/],
    ["both homes serve an unsigned build", () => [unsigned, unsigned], /the build is not signed/],
  ])("%s: PriceFeedIntegrityError, naming each home", async (_, dirs, reason) => {
    const [p, m] = dirs();
    const primary = await home(p!);
    const mirror = await home(m!, "/mirror");
    const manual = new ManualTimers(BUILT_AT);
    const e = await client(manual, { primary: primary.base, mirror: mirror.base })
      .feed({ asset: ["us-dollar"] })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PriceFeedIntegrityError);
    const err = e as PriceFeedIntegrityError;
    expect(err.mismatches.map((x) => x.home)).toEqual(["primary", "mirror"]);
    for (const x of err.mismatches) expect(x.reason).toMatch(reason);
  });

  test("a key the client does not trust: the genuine build is refused too", async () => {
    const primary = await home(genuine);
    const other = await newKeyPair(BUILT_AT);
    const e = await client(new ManualTimers(BUILT_AT), { primary: primary.base, keys: [other.entry] })
      .index()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PriceFeedIntegrityError);
    expect((e as Error).message).toMatch(/signed with key \S+, which the client does not trust/);
  });

  test("without keys nothing is checked (verified: false); verify: true without keys is refused at once", async () => {
    const primary = await home(forged);
    const c = new PriceFeedClient({ primary: primary.base, timers: clientTimers(new ManualTimers(BUILT_AT)) });
    expect((await c.history("us-dollar")).verified).toBe(false);
    expect(() => new PriceFeedClient({ primary: primary.base, verify: true })).toThrow(/needs the keys/);
  });
});
