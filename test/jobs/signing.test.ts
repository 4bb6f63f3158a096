/**
 * Signed builds (docs/deployment.md "Signed builds"): the statement a build signs lists every file it
 * published with the SHA-256 of its bytes, an unsigned build differs from a signed one only by the
 * statement, its signature and the manifest's `signed`, a key the data does not list (or has retired)
 * signs nothing, and `price-feed verify` names every file that differs, is missing or was not built —
 * in a folder and over HTTP on loopback.
 */
import { promises as fs, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { newKeyPair, SIGNING_KEY_VAR } from "../../src/io/signing-key.js";
import { checkStatement, statementText, utf8, type TrustedKey } from "../../src/core/statement.js";
import { folderReader, urlReader, verifySite, trustedKeys } from "../../src/jobs/verify.js";
import { main } from "../../src/cli/main.js";
import { files, MANIFEST_FILE } from "../../src/feed/paths.js";
import type { PublicKeyEntry } from "../../src/schema/signing.js";
import { BUILT_AT, testServer } from "../helpers/site.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { staticMirror } from "../helpers/homes.js";
import { createPrivateKey, sign } from "node:crypto";

const DAY = 86_400_000;
const sha = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** Every file of a folder, by its path in it. */
async function listed(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
  return out.sort();
}

let data: string;
let key: { privatePem: string; entry: PublicKeyEntry };
let next: { privatePem: string; entry: PublicKeyEntry };
let signedOut: string;
let unsignedOut: string;
const env = () => ({ [SIGNING_KEY_VAR]: key.privatePem });

beforeAll(async () => {
  data = await writeDataset(await tempDir("pf-sign-"), smallRows());
  key = await newKeyPair(BUILT_AT - 30 * DAY);
  next = await newKeyPair(BUILT_AT - DAY);
  await fs.writeFile(path.join(data, "keys.json"), JSON.stringify({ schemaVersion: 1, keys: [key.entry, next.entry] }));
  signedOut = path.join(data, "signed");
  unsignedOut = path.join(data, "unsigned");
  await runBuild({ dataDir: data, outDir: signedOut, nowMs: BUILT_AT, saveState: false, env: env() });
  await runBuild({ dataDir: data, outDir: unsignedOut, nowMs: BUILT_AT, saveState: false, env: {}, unsigned: true });
});

describe("the statement of a signed build", () => {
  test("lists every file the manifest lists, each with the SHA-256 of its bytes; signed with the key's id", async () => {
    const manifest = JSON.parse(readFileSync(path.join(signedOut, MANIFEST_FILE), "utf8"));
    const statement = JSON.parse(readFileSync(path.join(signedOut, files.statement), "utf8"));
    const sig = JSON.parse(readFileSync(path.join(signedOut, files.statementSig), "utf8"));
    expect(manifest.signed).toBe(true);
    expect(sig).toMatchObject({ alg: "Ed25519", keyId: key.entry.id });
    expect(statement).toMatchObject({ kind: "price-feed build statement", generatedAt: manifest.generatedAt });
    expect(statement.feedEtag).toBe(manifest.files[files.feed].etag);
    const own: string[] = [files.statement, files.statementSig];
    expect(Object.keys(statement.files).sort()).toEqual(
      Object.keys(manifest.files)
        .filter((p) => !own.includes(p))
        .sort(),
    );
    expect(await listed(signedOut)).toEqual([...Object.keys(statement.files), ...own, MANIFEST_FILE].sort());
    for (const [p, digest] of Object.entries(statement.files))
      expect(sha(readFileSync(path.join(signedOut, p))), p).toBe(digest);
    // The statement's exact bytes are what is signed (RFC 8032 Ed25519, checked by Web Crypto).
    const bytes = new Uint8Array(readFileSync(path.join(signedOut, files.statement)));
    const text = readFileSync(path.join(signedOut, files.statementSig), "utf8");
    expect(await checkStatement(bytes, text, [key.entry])).toMatchObject({ keyId: key.entry.id });
    // The public keys are published at the well-known path, as data/keys.json lists them.
    expect(JSON.parse(readFileSync(path.join(signedOut, files.keys), "utf8")).keys).toEqual([key.entry, next.entry]);
  });

  test("an unsigned build is the same files but the statement, its signature and the manifest, which says signed: false", async () => {
    const a = await listed(signedOut);
    const b = await listed(unsignedOut);
    expect(a.filter((p) => !b.includes(p))).toEqual([files.statement, files.statementSig]);
    expect(b.filter((p) => !a.includes(p))).toEqual([]);
    for (const p of b.filter((x) => x !== MANIFEST_FILE))
      expect(readFileSync(path.join(unsignedOut, p)).equals(readFileSync(path.join(signedOut, p))), p).toBe(true);
    const m = JSON.parse(readFileSync(path.join(unsignedOut, MANIFEST_FILE), "utf8"));
    expect(m.signed).toBe(false);
  });

  test("an hourly build that keeps the archive's files states the digests of the bytes it kept", async () => {
    const out = path.join(data, "hourly");
    await runBuild({ dataDir: data, outDir: out, nowMs: BUILT_AT, saveState: false, env: env() });
    await runBuild({ dataDir: data, outDir: out, nowMs: BUILT_AT + 3_600_000, saveState: false, env: env() });
    const r = await verifySite(folderReader(out), [key.entry]);
    expect(r).toMatchObject({ fatal: null, problems: [] });
    expect(r.checked).toBeGreaterThan(100);
  });

  test.each([
    ["a key data/keys.json does not list", "stranger", /does not list/],
    ["a key it lists as valid only from the day after the build", "late", /not at the build instant/],
    ["text that is no key", "junk", /not a private key in PEM/],
  ] as const)("%s: the build refuses to sign, and publishes nothing", async (_, which, message) => {
    const dir = await writeDataset(await tempDir("pf-sign-bad-"), smallRows());
    const late = await newKeyPair(BUILT_AT + DAY);
    await fs.writeFile(
      path.join(dir, "keys.json"),
      JSON.stringify({ schemaVersion: 1, keys: [key.entry, late.entry] }),
    );
    const pem = {
      stranger: (await newKeyPair(BUILT_AT - DAY)).privatePem,
      late: late.privatePem,
      junk: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    }[which];
    const out = path.join(dir, "public");
    await expect(
      runBuild({ dataDir: dir, outDir: out, nowMs: BUILT_AT, env: { [SIGNING_KEY_VAR]: pem } }),
    ).rejects.toThrow(message);
    await expect(fs.access(out)).rejects.toThrow();
  });
});

describe("checking a statement's signature", () => {
  const raw = (p: string) => createPrivateKey(p);
  const signed = (pem: string, text: string, keyId: string) =>
    JSON.stringify({ alg: "Ed25519", keyId, sig: sign(null, Buffer.from(text), raw(pem)).toString("base64url") });
  const text = statementText({ generatedAt: "2026-11-19T11:30:00.000Z", feedEtag: '"x"', site: null, files: {} });

  test.each<[string, () => [string, string, TrustedKey[]], RegExp | null]>([
    [
      "the key trusted, the bytes as signed",
      () => [text, signed(key.privatePem, text, key.entry.id), [key.entry]],
      null,
    ],
    [
      "one byte changed",
      () => [text.replace("11:30", "11:31"), signed(key.privatePem, text, key.entry.id), [key.entry]],
      /does not match/,
    ],
    [
      "a key the verifier does not trust",
      () => [text, signed(key.privatePem, text, key.entry.id), [next.entry]],
      /not among the trusted keys/,
    ],
    [
      "another key under the trusted key's id",
      () => [text, signed(next.privatePem, text, key.entry.id), [key.entry]],
      /does not match/,
    ],
    [
      "a retired key",
      () => [text, signed(key.privatePem, text, key.entry.id), [{ ...key.entry, validUntil: "2026-11-01T00:00:00Z" }]],
      /after it was retired/,
    ],
    [
      "a key not yet valid",
      () => [text, signed(key.privatePem, text, key.entry.id), [{ ...key.entry, validFrom: "2026-12-01T00:00:00Z" }]],
      /before its validFrom/,
    ],
    [
      "signed JSON that is no statement",
      () => ['{"a":1}', signed(key.privatePem, '{"a":1}', key.entry.id), [key.entry]],
      /not a price-feed build statement/,
    ],
    ["a signature file of another form", () => [text, '{"sig":"x"}', [key.entry]], /not \{alg: Ed25519/],
  ])("%s", async (_, given, refused) => {
    const [t, s, keys] = given();
    const r = await checkStatement(utf8(t), s, keys);
    if (refused === null) expect(r).toMatchObject({ keyId: key.entry.id });
    else expect(r).toMatch(refused);
  });
});

describe("price-feed verify", () => {
  let tampered: string;
  beforeAll(async () => {
    tampered = path.join(await tempDir("pf-verify-"), "public");
    await fs.cp(signedOut, tampered, { recursive: true });
    await fs.appendFile(path.join(tampered, files.feed), " ");
    await fs.rm(path.join(tampered, files.asset("us-dollar")));
    await fs.writeFile(path.join(tampered, "phish.html"), "<!doctype html>");
  });

  test("a folder as built: all as signed, every file checked, exit 0", async () => {
    const r = await verifySite(folderReader(signedOut), await trustedKeys([key.entry.publicKey]));
    expect(r).toMatchObject({ fatal: null, problems: [], trust: "pinned" });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["node", "price-feed", "verify", signedOut, "--key", key.entry.publicKey])).toBe(0);
      expect(log.mock.calls.at(-1)![0]).toMatch(new RegExp(`^all as signed: checked ${r.checked} files of `));
    } finally {
      log.mockRestore();
    }
  });

  test("a file changed, one missing, one the build did not make: one line each, exit 1", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["node", "price-feed", "verify", tampered, "--key", key.entry.publicKey])).toBe(1);
      const lines = log.mock.calls.map((c) => String(c[0]));
      expect(lines.slice(0, 3)).toEqual([
        expect.stringMatching(/^api\/v1\/feed\.json: differs: SHA-256 [0-9a-f]{64}, the statement says [0-9a-f]{64}$/),
        `${files.asset("us-dollar")}: missing`,
        "phish.html: not in the statement: the build did not publish it",
      ]);
      expect(lines[3]).toMatch(/^3 problem\(s\): checked \d+ files of /);
    } finally {
      log.mockRestore();
    }
  });

  test.each([
    [
      "an unsigned build",
      () => unsignedOut,
      () => [key.entry.publicKey],
      /: the build is not signed \(api\/v1\/statement.json is missing and _manifest.json says "signed": false\)\nbuild it with PRICE_FEED_SIGNING_KEY set/,
    ],
    ["a key that did not sign it", () => signedOut, () => [next.entry.publicKey], /not among the trusted keys/],
  ])("%s: one line, exit 1", async (_, dir, keys, line) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["node", "price-feed", "verify", dir(), ...keys().flatMap((k) => ["--key", k])])).toBe(1);
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(line)]);
    } finally {
      log.mockRestore();
    }
  });

  test("over HTTP on loopback: the local server of the build passes; a mirror with a forged file is named", async () => {
    // Limits above the three checks' 370 requests: verify waits for a spent window (test/jobs/verify.test.ts).
    const server = await testServer(signedOut, { limits: { window: 1000, windowSeconds: 60, daily: 5000 } });
    const mirror = await staticMirror(tampered, "/pf");
    try {
      const good = await verifySite(urlReader(server.url), [key.entry]);
      expect(good).toMatchObject({ fatal: null, problems: [] });
      // Without --key, the keys the site itself publishes (the folder's .well-known file).
      expect((await verifySite(urlReader(server.url), [])).trust).toBe("published");
      const bad = await verifySite(urlReader(mirror.base), [key.entry]);
      expect(bad.problems.map((p) => `${p.path}: ${p.problem.split(":")[0]}`)).toEqual([
        `${files.feed}: differs`,
        `${files.asset("us-dollar")}: missing`,
      ]);
    } finally {
      await server.close();
      await mirror.close();
    }
  });
});

describe("signing is never turned off by accident (issue 50, item 4)", () => {
  /** `price-feed build` in-process, with the environment given; its exit status and what it printed. */
  async function buildCli(dir: string, env: Record<string, string | undefined>, ...flags: string[]) {
    const out = path.join(dir, "public");
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
    try {
      const argv = [
        "node",
        "price-feed",
        "build",
        "--data",
        dir,
        "--out",
        out,
        "--now",
        new Date(BUILT_AT).toISOString(),
      ];
      const code = await main([...argv, "--no-state", ...flags]);
      return { code, text: lines.join("\n"), out };
    } finally {
      log.mockRestore();
      err.mockRestore();
      vi.unstubAllEnvs();
    }
  }
  const keyed = async (entries: PublicKeyEntry[]) => {
    const dir = await writeDataset(await tempDir("pf-sign-off-"), smallRows());
    await fs.writeFile(path.join(dir, "keys.json"), JSON.stringify({ schemaVersion: 1, keys: entries }));
    return dir;
  };

  test.each([
    ["empty", ""],
    ["blank", "  \n"],
    ["not set", undefined],
  ])(
    "a key valid at the build instant and PRICE_FEED_SIGNING_KEY %s: refused in one line and what to do, nothing published",
    async (_, value) => {
      const dir = await keyed([key.entry, next.entry]);
      const r = await buildCli(dir, { [SIGNING_KEY_VAR]: value });
      expect(r.code).toBe(1);
      const lines = r.text.split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        new RegExp(
          `^price-feed: PRICE_FEED_SIGNING_KEY is empty or not set, and .*keys\\.json lists key ${key.entry.id}, ${next.entry.id} valid at the build instant`,
        ),
      );
      expect(lines[1]).toMatch(/^set PRICE_FEED_SIGNING_KEY to that key's private half .*or pass --unsigned/);
      await expect(fs.access(r.out)).rejects.toThrow();
      await expect(runBuild({ dataDir: dir, outDir: r.out, nowMs: BUILT_AT, env: {} })).rejects.toThrow(
        /is empty or not set/,
      );
    },
  );

  test("--unsigned publishes unsigned on purpose, and its summary says so; the key, even set, is not read", async () => {
    const dir = await keyed([key.entry]);
    const r = await buildCli(dir, { [SIGNING_KEY_VAR]: key.privatePem }, "--unsigned");
    expect(r.code, r.text).toBe(0);
    expect(r.text.split("\n")[0]).toMatch(
      /^built \d+ files into .* at 2026-11-19T11:30:00\.000Z, unsigned \(--unsigned\)$/,
    );
    expect(JSON.parse(readFileSync(path.join(r.out, MANIFEST_FILE), "utf8")).signed).toBe(false);
  });

  test("the summary line always says which: signed with key <id>, or unsigned and why", async () => {
    const signed = await buildCli(await keyed([key.entry]), { [SIGNING_KEY_VAR]: key.privatePem });
    expect(signed.code, signed.text).toBe(0);
    expect(signed.text.split("\n")[0]).toMatch(new RegExp(`, signed with key ${key.entry.id}$`));
    // Only a retired key listed: nothing a client pins vouches for a build now, so unsigned is not refused.
    const retired = { ...key.entry, validUntil: new Date(BUILT_AT - DAY).toISOString().replace(".000Z", "Z") };
    const none = await buildCli(await keyed([retired]), { [SIGNING_KEY_VAR]: "" });
    expect(none.code, none.text).toBe(0);
    expect(none.text.split("\n")[0]).toMatch(/, unsigned \(PRICE_FEED_SIGNING_KEY is not set\)$/);
    // No keys file at all (a fork, the sample data): unsigned, said.
    const bare = await buildCli(await writeDataset(await tempDir("pf-sign-none-"), smallRows()), {
      [SIGNING_KEY_VAR]: undefined,
    });
    expect(bare.code, bare.text).toBe(0);
    expect(bare.text.split("\n")[0]).toMatch(/, unsigned \(PRICE_FEED_SIGNING_KEY is not set\)$/);
  });
});
