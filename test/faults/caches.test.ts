/**
 * A cache is never the record (issue 38): whatever a build reuses of the builds before it — the
 * history part files beside the site, its digests and index, a day's file of the site being
 * replaced, data/state/archive/ and data/state/closed-days/ — is checked against a digest of its own
 * bytes taken when it was made (src/incremental/digests.ts). A same-size edit of any of them, a digit
 * of a price flipped, is remade and named in the build report, and the site is byte for byte, ETag
 * for ETag, what a build of the same data from no cache makes.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { runBuild } from "../../src/jobs/build.js";
import { runCompact } from "../../src/jobs/compact.js";
import { cairoDate } from "../../src/core/cairo.js";
import { dataPaths } from "../../src/core/data-layout.js";
import { readDayEntry } from "../../src/incremental/archive-cache.js";
import { FileHashes, fileSha256, headSha256, seal, sealOf } from "../../src/incremental/digests.js";
import { sha256Hex } from "../../src/io/hash.js";
import { Manifest } from "../../src/schema/documents.js";
import { BUILT_AT } from "../helpers/site.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const HOUR = 3_600_000;
const TODAY = cairoDate(BUILT_AT);
const said = (file: string) => `${file}: its bytes do not match the digest recorded when it was made: remade`;
/** What a report says of digests (the small dataset has a warning of its own: gold quoted by one seller today). */
const ofDigests = (warnings: readonly string[]) => warnings.filter((w) => w.includes("digest recorded"));

/** A compacted data folder and its site beside it, built once at BUILT_AT as the hourly job builds (state saved). */
async function builtOnce() {
  const data = await writeDataset(await tempDir(), smallRows());
  const site = path.join(await tempDir(), "public");
  await runCompact(data, BUILT_AT, () => {});
  await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT });
  const history = (await fs.readdir(path.join(data, "history"))).map((f) => f.slice(0, 10)).sort();
  const raw = (await fs.readdir(path.join(data, "quotes"))).map((f) => f.slice(0, 10)).sort();
  return { data, site, history, raw };
}

/**
 * Flips the last digit of the first number after `key` (`"sell":50.1`, or `\"sellHi\":50.1` inside
 * a row's JSON string): the file keeps its size, stays valid JSON, and says another price.
 */
async function flipPrice(file: string, key: string): Promise<void> {
  const text = await fs.readFile(file, "utf8");
  const m = new RegExp(`${key}\\\\?":(\\d+(?:\\.\\d+)?)`).exec(text);
  if (!m) throw new Error(`${file}: no ${key}`);
  const at = m.index + m[0].length - 1;
  const flipped = `${text.slice(0, at)}${(Number(text[at]) + 1) % 10}${text.slice(at + 1)}`;
  await fs.writeFile(file, flipped);
  expect(Buffer.byteLength(flipped)).toBe(Buffer.byteLength(text));
}

/** Changes one character of a file for another of the same size: a digit for the next, a letter for "A" or "B". */
async function flipChar(file: string, at: number): Promise<void> {
  const bytes = await fs.readFile(file);
  const c = bytes[at]!;
  bytes[at] = c >= 0x30 && c <= 0x39 ? 0x30 + ((c - 0x30 + 1) % 10) : c === 0x41 ? 0x42 : 0x41;
  await fs.writeFile(file, bytes);
}

/** The next hour: a new quote of today. */
async function nextHourQuote(data: string, k = 1): Promise<void> {
  const log = path.join(data, "quotes", `${TODAY}.ndjson`);
  const last = JSON.parse((await fs.readFile(log, "utf8")).trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
  const later = new Date(BUILT_AT + (k * HOUR) / 4).toISOString();
  await fs.appendFile(log, `${JSON.stringify({ ...last, sell: Number(last["sell"]) + k, observedAt: later })}\n`);
}

/** A copy of the data folder without its caches (data/state/closed-days/, data/state/archive/). */
async function withoutCaches(data: string): Promise<string> {
  const copy = path.join(await tempDir(), "data");
  await fs.cp(data, copy, { recursive: true });
  const p = dataPaths(copy);
  for (const cache of [p.closedDays, p.archive]) await fs.rm(cache, { recursive: true, force: true });
  return copy;
}

/** A site's files without the manifest, and the manifest's ETag and size of each (Last-Modified depends on the builds before). */
async function published(site: string) {
  const files = await snapshot(site);
  const manifest = Manifest.parse(JSON.parse(files.get("_manifest.json")!));
  files.delete("_manifest.json");
  return { files, etags: Object.entries(manifest.files).map(([f, e]) => [f, e.etag, e.bytes]) };
}

/** Each cache a build reuses, and a same-size edit of it. */
const edits: Array<{
  what: string;
  /** Edits the cache; returns the file the report must name. */
  edit(o: { data: string; site: string; history: string[]; raw: string[] }): Promise<string>;
}> = [
  {
    what: "a history part file beside the site (JSON)",
    edit: async ({ site }) => {
      const file = await partFile(site, "USD-EGP.json");
      await flipPrice(file, "sellHi");
      return file;
    },
  },
  {
    what: "a history part file beside the site (CSV)",
    edit: async ({ site }) => {
      const file = await partFile(site, "USD-EGP.csv");
      const text = await fs.readFile(file, "utf8");
      const line = text.split("\r\n")[1]!; // the first entry: date, buyLo, buyHi, …
      const at = text.indexOf(line) + line.indexOf(",") + 1; // buyLo's first digit
      await flipChar(file, at);
      return file;
    },
  },
  {
    what: "the part's digests beside the site",
    edit: async ({ site }) => {
      const file = await partFile(site, "digests.txt");
      await flipChar(file, (await fs.readFile(file, "latin1")).indexOf('"') + 5);
      return file;
    },
  },
  {
    // The seller records of the closed days (docs/methodology.md §13): a count flipped would publish wrong figures.
    what: "the part's seller records beside the site",
    edit: async ({ site }) => {
      const file = await partFile(site, "records.json");
      await flipPrice(file, '"quoted');
      return file;
    },
  },
  {
    what: "the index of the cache beside the site",
    edit: async ({ site }) => {
      const file = path.join(`${site}.archive-cache`, "index.json");
      await flipPrice(file, '"count');
      return file;
    },
  },
  {
    what: "a compacted day's file of the site being replaced",
    edit: async ({ site, history }) => {
      const file = path.join(site, `api/v1/days/${history[1]}.json`);
      await flipPrice(file, '"sell');
      return file;
    },
  },
  {
    what: "a raw day's file of the site being replaced (a day before today)",
    edit: async ({ site, raw }) => {
      const file = path.join(site, `api/v1/days/${raw.filter((d) => d < TODAY).at(-1)}.json`);
      await flipPrice(file, '"sell');
      return file;
    },
  },
  {
    what: "a day's entry in data/state/archive/ (taken when the cache beside the site is gone)",
    edit: async ({ data, site, history }) => {
      const file = path.join(dataPaths(data).archive, `${history[2]}.json`);
      await flipPrice(file, '"sellHi');
      await fs.rm(`${site}.archive-cache`, { recursive: true });
      return file;
    },
  },
  {
    what: "a raw day's closes in data/state/closed-days/",
    edit: async ({ data, raw }) => {
      const file = path.join(dataPaths(data).closedDays, `${raw.filter((d) => d < TODAY).at(-1)}.json`);
      await flipPrice(file, '"sell');
      return file;
    },
  },
];

/** A file of the part beside the site (there is one part folder). */
async function partFile(site: string, name: string): Promise<string> {
  const cache = `${site}.archive-cache`;
  const part = (await fs.readdir(cache, { withFileTypes: true })).find((e) => e.isDirectory())!.name;
  return path.join(cache, part, name);
}

describe("what a build reuses is checked against the digest of its bytes taken when it was made", () => {
  test.each(edits)(
    "$what, edited at the same size: remade, said once, and the site is a build's from no cache",
    async (c) => {
      const built = await builtOnce();
      const { data, site } = built;
      const named = await c.edit(built);
      await nextHourQuote(data);
      const clean = await withoutCaches(data);
      const hourly = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + HOUR });
      expect(ofDigests(hourly.site.report.warnings)).toEqual([said(named)]);
      const fresh = path.join(await tempDir(), "public");
      await runBuild({ dataDir: clean, outDir: fresh, nowMs: BUILT_AT + HOUR, saveState: false });
      const [a, b] = [await published(site), await published(fresh)];
      expect(a.etags).toEqual(b.etags);
      expect(a.files).toEqual(b.files);

      // What was remade stands for the next build: it is used again, and nothing is said.
      await nextHourQuote(data, 2);
      const next = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + 2 * HOUR });
      expect(ofDigests(next.site.report.warnings)).toEqual([]);
      expect(next.archiveDaysKept).toBe(built.history.length);
      expect(next.closedDaysUsed).toBe(built.raw.filter((d) => d < TODAY).length);
    },
  );

  test("a history file of the site being replaced is kept only with the bytes made now: an edited one is written anew", async () => {
    const { data, site } = await builtOnce();
    const edited = path.join(site, "api/v1/history/us-dollar.json");
    const other = path.join(site, "api/v1/history/gold-24k.csv");
    const ino = (await fs.stat(other)).ino;
    await flipPrice(edited, '"sellHi');
    // Nothing new: every history file has the ETag it had, and would be kept as published.
    const clean = await withoutCaches(data);
    const again = await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + HOUR });
    expect(ofDigests(again.site.report.warnings)).toEqual([said(edited)]);
    expect(again.site.report.changedFiles).not.toContain("api/v1/history/us-dollar.json");
    expect((await fs.stat(other)).ino).toBe(ino); // the very file, linked
    const fresh = path.join(await tempDir(), "public");
    await runBuild({ dataDir: clean, outDir: fresh, nowMs: BUILT_AT + HOUR, saveState: false });
    const [a, b] = [await published(site), await published(fresh)];
    expect(a.etags).toEqual(b.etags);
    expect(a.files).toEqual(b.files);
  });

  test("an entry edited in data/state/archive/ is written anew, sealed, by the build that remade it", async () => {
    const { data, site, history } = await builtOnce();
    const file = path.join(dataPaths(data).archive, `${history[0]}.json`);
    const before = await fs.readFile(file, "utf8");
    await flipPrice(file, '"sellHi');
    await fs.rm(`${site}.archive-cache`, { recursive: true });
    await runBuild({ dataDir: data, outDir: site, nowMs: BUILT_AT + HOUR });
    expect(await fs.readFile(file, "utf8")).toBe(before);
    expect((await readDayEntry(file, history[0]!))?.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("a sealed file", () => {
  test("carries the SHA-256 of every byte after its digest; any byte changed is a mismatch", () => {
    const text = seal({ date: "2026-11-18", rows: [["USD-EGP", '{"sell":50.1}', "2026-11-18,50.1"]] });
    const bytes = Buffer.from(text);
    expect(sealOf(bytes)).toBe("sealed");
    expect(JSON.parse(text)).toMatchObject({ date: "2026-11-18" });
    for (let at = 0; at < bytes.length; at++) {
      const edited = Buffer.from(bytes);
      edited[at] = edited[at] === 0x31 ? 0x32 : 0x31; // "1" or "2": same size
      expect(sealOf(edited), `byte ${at}`).not.toBe("sealed");
    }
    expect(sealOf(bytes.subarray(0, -1))).toBe("mismatch"); // cut short
    expect(sealOf(Buffer.from('{"date":"2026-11-18"}\n'))).toBe("unsealed"); // what code before sealing wrote
  });

  test("a file's digest is that of its bytes, on the main thread and on the thread that hashes ahead", async () => {
    const dir = await tempDir();
    const [big, small, missing] = ["big", "small", "missing"].map((n) => path.join(dir, n)) as [string, string, string];
    const text = "x".repeat(3 << 20);
    await fs.writeFile(big, text);
    await fs.writeFile(small, "[1,2]");
    const want = { sha256: sha256Hex(text), bytes: 3 << 20 };
    expect(fileSha256(big)).toEqual(want);
    expect(fileSha256(missing)).toBeNull();
    const ahead = new FileHashes([big, missing]);
    expect(await ahead.of(big)).toEqual(want);
    expect(await ahead.of(missing)).toBeNull();
    expect(await ahead.of(small)).toEqual({ sha256: sha256Hex("[1,2]"), bytes: 5 }); // not given: hashed when asked
    // A history file's part, then its own bytes; and the whole file's digest, read once.
    expect(headSha256(big, 1 << 20)).toEqual({
      sha256: sha256Hex("x".repeat(1 << 20)),
      rest: Buffer.from("x".repeat(2 << 20)),
      whole: sha256Hex(text),
    });
    expect(headSha256(small, 6)).toBeNull();
  });
});
