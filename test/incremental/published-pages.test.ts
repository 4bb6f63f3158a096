/**
 * The pages a build keeps from the site it replaces (src/incremental/published-pages.ts), case by
 * case: what the manifest of that site says of the page, the digest recorded when it was made and
 * what is on disk → keep or make, and why. Then whole builds (issue 50, item 9): a same-size edit
 * of a kept page (a price's digit) is caught by its digest and the page made again, signed or not.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { describe, expect, test } from "vitest";
import { createHash } from "node:crypto";
import {
  pageDigestsPath,
  PublishedPages,
  readPageDigests,
  readPublished,
} from "../../src/incremental/published-pages.js";
import { Decisions } from "../../src/incremental/decisions.js";
import { MANIFEST_FILE } from "../../src/feed/paths.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";
import { runBuild } from "../../src/jobs/build.js";
import { newKeyPair, SIGNING_KEY_VAR } from "../../src/io/signing-key.js";
import { folderReader, verifySite } from "../../src/jobs/verify.js";

const PAGE = "days/2026-11-17/index.html";
const BODY = "<!doctype html><title>17 November</title>";
const ETAG = '"page-etag"';
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
/** The record of the page as made: its ETag and the digest of BODY. */
const RECORDED = new Map([[PAGE, { etag: ETAG, sha256: sha(BODY) }]]);
const entry = {
  etag: ETAG,
  lastModified: "2026-11-18T00:00:00.000Z",
  contentType: "text/html; charset=utf-8",
  bytes: BODY.length,
};

/** A site folder: its manifest (or none), and the page's bytes (or none). */
async function site(o: { manifest?: unknown; body?: string | null; link?: boolean }): Promise<string> {
  const out = await tempDir();
  // A manifest given as its files is a whole one a build would write around them.
  const whole = (m: unknown) =>
    typeof m === "object" && m !== null
      ? { schemaVersion: 1, generatedAt: "2026-11-18T00:00:00.000Z", categories: [], assets: [], calendar: {}, ...m }
      : m;
  if (o.manifest !== undefined) await fs.writeFile(path.join(out, MANIFEST_FILE), JSON.stringify(whole(o.manifest)));
  const file = path.join(out, PAGE);
  await fs.mkdir(path.dirname(file), { recursive: true });
  if (o.link) {
    await fs.writeFile(`${file}.real`, BODY);
    await fs.symlink(`${file}.real`, file);
  } else if (o.body != null) await fs.writeFile(file, o.body);
  return out;
}

const cases: Array<{
  what: string;
  manifest?: unknown;
  body?: string | null;
  link?: boolean;
  etag?: string;
  recorded?: Map<string, { etag: string; sha256: string }>;
  reason: string;
}> = [
  {
    what: "the site lists it under this ETag, at its size",
    manifest: { files: { [PAGE]: entry } },
    body: BODY,
    reason: "kept",
  },
  { what: "no site there (a first build)", body: BODY, reason: "none" },
  { what: "a manifest that is not a build's", manifest: "not json files", body: BODY, reason: "none" },
  { what: "the site does not list the page", manifest: { files: {} }, body: BODY, reason: "none" },
  {
    what: "listed under another ETag (other inputs, or another program)",
    manifest: { files: { [PAGE]: entry } },
    body: BODY,
    etag: '"new"',
    reason: "made-of",
  },
  {
    what: "listed, but the file is missing",
    manifest: { files: { [PAGE]: entry } },
    body: null,
    reason: "not-published",
  },
  {
    what: "listed, but the file has another size",
    manifest: { files: { [PAGE]: entry } },
    body: `${BODY}!`,
    reason: "not-published",
  },
  {
    what: "listed at its size, but other bytes (a same-size edit)",
    manifest: { files: { [PAGE]: entry } },
    body: BODY.replace("17", "18"),
    reason: "edited",
  },
  {
    what: "listed at its size, with no digest recorded for this ETag",
    manifest: { files: { [PAGE]: entry } },
    body: BODY,
    recorded: new Map([[PAGE, { etag: '"older"', sha256: sha(BODY) }]]),
    reason: "unrecorded",
  },
];

describe("published pages: keep or make, and why", () => {
  test.each(cases)("$what → $reason", async (c) => {
    const out = await site(c);
    const decisions = new Decisions();
    const pages = new PublishedPages(out, await readPublished(out), decisions, new Map(), c.recorded ?? RECORDED);
    const kept = pages.published(PAGE, c.etag ?? ETAG);
    expect(decisions.list).toEqual([{ output: "page", subject: PAGE, keep: c.reason === "kept", reason: c.reason }]);
    if (c.reason === "kept")
      expect(kept).toEqual({
        path: PAGE,
        from: path.join(out, PAGE),
        etag: ETAG,
        contentType: entry.contentType,
        bytes: BODY.length,
        sha256: sha(BODY),
      });
    else expect(kept).toBeNull();
    expect(pages.warnings).toEqual(
      c.reason === "edited"
        ? [`${path.join(out, PAGE)}: its bytes do not match the digest recorded when it was made: remade`]
        : [],
    );
  });

  test("without a record, a signed site's statement is the digest a page is checked against", async () => {
    const out = await site({ manifest: { files: { [PAGE]: entry } }, body: BODY });
    const signed = new Map([[PAGE, sha(BODY)]]);
    const kept = new PublishedPages(out, await readPublished(out), new Decisions(), signed).published(PAGE, ETAG);
    expect(kept?.sha256).toBe(sha(BODY));
    const forged = new Decisions();
    new PublishedPages(out, await readPublished(out), forged, new Map([[PAGE, "ab".repeat(32)]])).published(PAGE, ETAG);
    expect(forged.list[0]!.reason).toBe("edited");
  });

  test("the record is written sealed, and one whose bytes were edited is not believed", async () => {
    const out = await site({ manifest: { files: { [PAGE]: entry } }, body: BODY });
    const pages = new PublishedPages(out, await readPublished(out), new Decisions(), new Map(), RECORDED);
    pages.published(PAGE, ETAG);
    await pages.save();
    expect(readPageDigests(out)).toEqual({ digests: RECORDED, warning: null });
    const file = pageDigestsPath(out);
    await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace(/"[0-9a-f]{64}"\]/, `"${"0".repeat(64)}"]`));
    const read = readPageDigests(out);
    expect(read.digests.size).toBe(0);
    expect(read.warning).toMatch(/page-digests\.json: its bytes do not match the digest recorded when it was made/);
  });
});

describe("a same-size edit of a kept page in whole builds (issue 50, item 9)", () => {
  const HOUR = 3_600_000;
  test.each([
    ["unsigned", false],
    ["signed", true],
  ])("%s: the edited page is made again, and the published one is the right one", async (_, signed) => {
    const data = await writeDataset(await tempDir("pf-pages-"), smallRows());
    const key = await newKeyPair(BUILT_AT - 30 * 86_400_000);
    if (signed)
      await fs.writeFile(path.join(data, "keys.json"), JSON.stringify({ schemaVersion: 1, keys: [key.entry] }));
    const env = signed ? { [SIGNING_KEY_VAR]: key.privatePem } : {};
    const out = path.join(data, "public");
    const build = (at: number) => runBuild({ dataDir: data, outDir: out, nowMs: at, saveState: false, env });
    await build(BUILT_AT);
    const second = await build(BUILT_AT + HOUR);
    const kept = second.decisions.filter((d) => d.output === "page" && d.keep).map((d) => d.subject);
    expect(kept.length).toBeGreaterThan(0);
    // A price in a kept page, one digit changed: the same size (47.75 → 48.75, as the issue found it).
    const page = kept.find((p) => p.startsWith("days/"))!;
    const file = path.join(out, page);
    const clean = await fs.readFile(file, "utf8");
    const m = /(\d)(\d\.\d\d)/.exec(clean)!;
    const edited = clean.replace(m[0], `${(Number(m[1]) + 1) % 10}${m[2]}`);
    expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(clean));
    expect(edited).not.toBe(clean);
    await fs.writeFile(file, edited);

    const third = await build(BUILT_AT + 2 * HOUR);
    expect(third.decisions.find((d) => d.subject === page)).toMatchObject({ keep: false, reason: "edited" });
    expect(third.site.report.warnings).toContain(
      `${path.resolve(file)}: its bytes do not match the digest recorded when it was made: remade`,
    );
    expect(await fs.readFile(file, "utf8")).toBe(clean);
    if (signed) expect(await verifySite(folderReader(out), [key.entry])).toMatchObject({ fatal: null, problems: [] });
    // The next build keeps it again: the record names the bytes made now.
    const fourth = await build(BUILT_AT + 3 * HOUR);
    expect(fourth.decisions.find((d) => d.subject === page)).toMatchObject({ keep: true });
  });
});
