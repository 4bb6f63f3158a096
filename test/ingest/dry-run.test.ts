/**
 * The first live run records what it meets (issue 35): `price-feed ingest --dry-run` asks every
 * source over real loopback HTTP, prints what each read, one line per quote, or why it failed, and
 * leaves the data folder byte for byte as it was (no line, no state, no lock); `--save-bodies DIR`
 * keeps each answer's exact bytes — a 503, a challenge page, a body that is not UTF-8 — with its
 * request and headers beside it, the failed sources apart, with a real run or a dry one.
 */
import { describe, expect, test } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { runIngest } from "../../src/jobs/ingest.js";
import { tempDir } from "../helpers/dataset.js";
import { ingestHarness, localSeller, writeAlphaBoard } from "../helpers/ingest.js";

const { serve, dataset, ingest } = ingestHarness();

/** Thursday 10 September 2026, 14:30 in Cairo (UTC+3): just after Banque Misr's page was stamped. */
const NOW = "2026-09-10T11:30:00Z";
const FIXTURES = path.resolve("test/fixtures/sellers");
const PAGE = readFileSync(path.join(FIXTURES, "banquemisr-rates-2026-reduced-fixture.html"));
const CHALLENGE = readFileSync(path.join(FIXTURES, "challenge-cloudflare.html"));
/** A 503's body with bytes that are not UTF-8 (windows-1256 Arabic, a lone 0xFF, a NUL). */
const BUSY = Buffer.concat([
  Buffer.from("<html><body>busy: "),
  Buffer.from([0xc7, 0xe1, 0xe3, 0xd5, 0xd1, 0xdf, 0x20, 0xff, 0xfe, 0x80, 0x00, 0x81]),
  Buffer.from("</body></html>\n"),
]);

/** examples/egypt's Banque Misr source, reading its page at `url`. */
function banqueMisr(url: string, id = "banque-misr"): object {
  const egypt = JSON.parse(readFileSync(path.resolve("examples/egypt/sources.json"), "utf8")) as {
    sources: Array<{ id: string }>;
  };
  return { ...egypt.sources.find((s) => s.id === "banque-misr")!, id, url };
}

/** A recursive listing of a folder, every entry with its kind, every file with its SHA-256. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string) {
    for (const e of (await fs.readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isDirectory()) {
        out.push(`${rel}/`);
        await walk(p);
      } else
        out.push(
          `${rel} ${createHash("sha256")
            .update(await fs.readFile(p))
            .digest("hex")}`,
        );
    }
  }
  await walk(dir);
  return out;
}

/** The loopback sources: Banque Misr's page, a 503 not to be retried before the next run, a challenge. */
async function sources() {
  const s = await serve({
    "GET /rates": (_q, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
    "GET /busy": (_q, res) =>
      res.writeHead(503, { "content-type": "text/html; charset=windows-1256", "retry-after": "3600" }).end(BUSY),
    "GET /challenge": (_q, res) => res.writeHead(200, { "content-type": "text/html" }).end(CHALLENGE),
    "GET /moved": (_q, res) => res.writeHead(302, { location: "/rates" }).end("moved"),
  });
  const dir = await dataset([
    banqueMisr(`${s.url}/rates`),
    banqueMisr(`${s.url}/busy`, "busy"),
    banqueMisr(`${s.url}/challenge`, "challenged"),
    banqueMisr(`${s.url}/moved`, "moved"),
    localSeller,
  ]);
  await writeAlphaBoard(dir);
  return { s, dir };
}

describe("ingest --dry-run", () => {
  test("prints every quote read and every failure's reason, exits 2, and leaves the data folder byte-identical", async () => {
    const { s, dir } = await sources();
    const before = await listing(dir);
    const beside = (await fs.readdir(path.dirname(dir))).filter((f) => f.startsWith(path.basename(dir)));

    const { code, out } = await ingest(dir, NOW, "--dry-run");
    expect(code).toBe(2);
    const lines = out.split("\n");
    // Banque Misr's page, one line per quote read (asset, buy, sell, time), then what was skipped and why.
    const at = lines.indexOf(lines.find((l) => l.startsWith("banque-misr (html): "))!);
    expect(lines[at]).toMatch(
      /^banque-misr \(html\): fetched 2, would append 1, already logged 0, skipped asset not in the catalog 1 in \d+ ms$/,
    );
    expect(lines.slice(at + 1, at + 3)).toEqual([
      "  USD-EGP buy 51.27 sell 51.37 at 2026-09-10T11:28:09.000Z (seller banque-misr)",
      "  asset not in the catalog: row 2: EURO",
    ]);
    // The redirect was followed to the same page: the same quotes, through another source.
    expect(out).toMatch(/^moved \(html\): fetched \d+, would append 1, already logged 0/m);
    expect(out).toContain("  USD-EGP buy 47.7 sell 47.85 at 2026-09-10T11:30:00.000Z (seller alpha)");
    expect(out).toMatch(
      new RegExp(
        `^busy \\(html\\): FAILED in \\d+ ms: HTTP 503 Service Unavailable: asked to retry after 3600 s, more than the 30 s we wait; next run \\(${s.url}/busy\\)$`,
        "m",
      ),
    );
    expect(out).toMatch(/^challenged \(html\): FAILED in \d+ ms: .*Cloudflare challenge/m);
    expect(lines.at(-1)).toBe(
      `dry run: nothing written to ${dir}; 1 files would be appended to; 3 of 5 sources succeeded`,
    );
    // Every source was asked, as a real run asks them (the 503 once: its Retry-After is an hour).
    expect(s.seen.map((r) => r.path)).toEqual(["/rates", "/busy", "/challenge", "/moved", "/rates"]);

    // Nothing written: the same files with the same bytes, no state, and no lock left beside the folder.
    expect(await listing(dir)).toEqual(before);
    expect(existsSync(path.join(dir, "state"))).toBe(false);
    expect((await fs.readdir(path.dirname(dir))).filter((f) => f.startsWith(path.basename(dir)))).toEqual(beside);

    // The same run for real appends what the dry run said it would.
    const real = await ingest(dir, NOW);
    expect(real.code).toBe(2);
    expect(real.out).toMatch(/^banque-misr \(html\): fetched \d+, appended 1, already logged 0/m);
    expect(real.out).not.toContain("(seller banque-misr)");
    expect(real.out.split("\n").at(-1)).toBe("1 files appended to; 3 of 5 sources succeeded");
    expect(await listing(dir)).not.toEqual(before);
  });
});

describe("ingest --save-bodies", () => {
  test("keeps each answer's exact bytes with its request and headers, failed sources apart; with --dry-run the data folder is untouched", async () => {
    const { s, dir } = await sources();
    const bodies = path.join(await tempDir(), "bodies");
    const before = await listing(dir);
    const { code, out } = await ingest(dir, NOW, "--dry-run", "--save-bodies", bodies);
    expect(code).toBe(2);
    expect(out).toContain(`bodies saved in ${bodies} (index.json; failed/: busy, challenged)`);
    expect(await listing(dir)).toEqual(before);

    const read = (f: string) => fs.readFile(path.join(bodies, f));
    const meta = async (f: string) =>
      JSON.parse(await fs.readFile(path.join(bodies, f), "utf8")) as Record<string, unknown>;
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

    // The 503 with bytes that are not UTF-8: kept as served, byte for byte.
    expect((await read("failed/busy/1.body")).equals(BUSY)).toBe(true);
    expect(await meta("failed/busy/1.json")).toMatchObject({
      source: "busy",
      n: 1,
      attempt: 1,
      method: "GET",
      url: `${s.url}/busy`,
      status: 503,
      statusText: "Service Unavailable",
      headers: { "content-type": "text/html; charset=windows-1256", "retry-after": "3600" },
      receivedAt: "2026-09-10T11:30:00.000Z",
      body: "1.body",
      bytes: BUSY.length,
      sha256: sha(BUSY),
    });
    expect(await meta("failed/busy/source.json")).toMatchObject({
      id: "busy",
      error: expect.stringContaining("HTTP 503 Service Unavailable: asked to retry after 3600 s") as string,
    });
    // A challenge page served with 200: its bytes too.
    expect((await read("failed/challenged/1.body")).equals(CHALLENGE)).toBe(true);
    expect(await meta("failed/challenged/1.json")).toMatchObject({ status: 200, bytes: CHALLENGE.length });
    // The page that was read, and a redirect: its headers without a body, then the page it led to.
    expect((await read("ok/banque-misr/1.body")).equals(PAGE)).toBe(true);
    expect(await meta("ok/moved/1.json")).toMatchObject({
      url: `${s.url}/moved`,
      status: 302,
      headers: { location: "/rates" },
      body: null,
      bytes: null,
    });
    expect(existsSync(path.join(bodies, "ok/moved/1.body"))).toBe(false);
    expect(await meta("ok/moved/2.json")).toMatchObject({ url: `${s.url}/rates`, status: 200, sha256: sha(PAGE) });
    expect((await read("ok/moved/2.body")).equals(PAGE)).toBe(true);
    // The run's index; the local file (read by path, not HTTP) is not copied.
    expect(await meta("index.json")).toEqual({
      writtenBy: "price-feed ingest --save-bodies",
      now: "2026-09-10T11:30:00.000Z",
      dryRun: true,
      failed: ["busy", "challenged"],
      sources: [
        { id: "banque-misr", adapter: "html", ok: true, answers: 1, folder: "ok/banque-misr" },
        {
          id: "busy",
          adapter: "html",
          ok: false,
          error: expect.stringContaining("HTTP 503") as string,
          answers: 1,
          folder: "failed/busy",
        },
        {
          id: "challenged",
          adapter: "html",
          ok: false,
          error: expect.stringContaining("Cloudflare") as string,
          answers: 1,
          folder: "failed/challenged",
        },
        { id: "moved", adapter: "html", ok: true, answers: 2, folder: "ok/moved" },
        { id: "local", adapter: "seller-document", ok: true, answers: 0, folder: null },
      ],
    });
    expect((await fs.readdir(bodies)).sort()).toEqual(["failed", "index.json", "ok"]);

    // A real run into the same folder replaces the earlier run's bodies, and lands its lines.
    const real = await ingest(dir, NOW, "--save-bodies", bodies);
    expect(real.code).toBe(2);
    expect(await meta("index.json")).toMatchObject({ dryRun: false, failed: ["busy", "challenged"] });
    expect((await read("failed/busy/1.body")).equals(BUSY)).toBe(true);
    expect(await listing(dir)).not.toEqual(before);
  });

  test("every attempt of a retried 503 is kept, and a body cut by a reset is named without bytes", async () => {
    let asked = 0;
    const s = await serve({
      "GET /busy.json": (_q, res) => res.writeHead(503, { "content-type": "text/plain" }).end(`busy ${++asked}\xff`),
      "GET /reset.json": (_q, res) => {
        res.writeHead(200, { "content-type": "application/json" }).write('[{"code":"USD",');
        setTimeout(() => res.socket?.destroy(), 20);
      },
    });
    const dir = await dataset([
      { ...localSeller, id: "busy", path: undefined, url: `${s.url}/busy.json` },
      { ...localSeller, id: "reset", path: undefined, url: `${s.url}/reset.json` },
    ]);
    const bodies = path.join(await tempDir(), "bodies");
    const { reports } = await runIngest({
      dataDir: dir,
      nowMs: Date.parse(NOW),
      retries: 2,
      backoffMs: 5,
      timeoutMs: 2000,
      saveBodiesDir: bodies,
    });
    expect(reports.map((r) => r.ok)).toEqual([false, false]);
    for (const n of [1, 2, 3]) {
      expect(await fs.readFile(path.join(bodies, `failed/busy/${n}.body`))).toEqual(Buffer.from(`busy ${n}\xff`));
      expect(JSON.parse(await fs.readFile(path.join(bodies, `failed/busy/${n}.json`), "utf8"))).toMatchObject({
        attempt: n,
        status: 503,
      });
    }
    const reset = JSON.parse(await fs.readFile(path.join(bodies, "failed/reset/1.json"), "utf8")) as object;
    expect(reset).toMatchObject({
      status: 200,
      headers: { "content-type": "application/json" },
      body: null,
      error: expect.stringContaining("while reading the body") as string,
    });
  });

  test("refuses a folder inside the data folder, or one holding anything else, before any source is asked", async () => {
    const { s, dir } = await sources();
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => void errors.push(line);
    try {
      expect((await ingest(dir, NOW, "--save-bodies", path.join(dir, "bodies"))).code).toBe(1);
      const other = await tempDir();
      await fs.writeFile(path.join(other, "notes.txt"), "mine");
      expect((await ingest(dir, NOW, "--dry-run", "--save-bodies", other)).code).toBe(1);
      expect(await fs.readdir(other)).toEqual(["notes.txt"]);
    } finally {
      console.error = error;
    }
    expect(errors).toEqual([
      expect.stringContaining(`--save-bodies ${path.join(dir, "bodies")} is inside the data folder ${dir}\n`),
      expect.stringMatching(/is not empty and holds no saved bodies of an earlier run\npass a new or empty folder/),
    ]);
    expect(s.seen).toEqual([]);
    expect(existsSync(path.join(dir, "bodies"))).toBe(false);
  });
});
