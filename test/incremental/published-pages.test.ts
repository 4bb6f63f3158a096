/**
 * The pages a build keeps from the site it replaces (src/incremental/published-pages.ts), case by
 * case: what the manifest of that site says of the page and what is on disk → keep or make, and why.
 */
import path from "node:path";
import { promises as fs } from "node:fs";
import { describe, expect, test } from "vitest";
import { PublishedPages, readPublished } from "../../src/incremental/published-pages.js";
import { Decisions } from "../../src/incremental/decisions.js";
import { MANIFEST_FILE } from "../../src/feed/paths.js";
import { tempDir } from "../helpers/dataset.js";

const PAGE = "days/2026-11-17/index.html";
const BODY = "<!doctype html><title>17 November</title>";
const ETAG = '"page-etag"';
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
];

describe("published pages: keep or make, and why", () => {
  test.each(cases)("$what → $reason", async (c) => {
    const out = await site(c);
    const decisions = new Decisions();
    const kept = new PublishedPages(out, await readPublished(out), decisions).published(PAGE, c.etag ?? ETAG);
    expect(decisions.list).toEqual([{ output: "page", subject: PAGE, keep: c.reason === "kept", reason: c.reason }]);
    if (c.reason === "kept")
      expect(kept).toEqual({
        path: PAGE,
        from: path.join(out, PAGE),
        etag: ETAG,
        contentType: entry.contentType,
        bytes: BODY.length,
      });
    else expect(kept).toBeNull();
  });

  test("a page kept in a signed build carries the digest the signed statement gave it, not read again", async () => {
    const out = await site({ manifest: { files: { [PAGE]: entry } }, body: BODY });
    const signed = new Map([[PAGE, "ab".repeat(32)]]);
    const kept = new PublishedPages(out, await readPublished(out), new Decisions(), signed).published(PAGE, ETAG);
    expect(kept?.sha256).toBe("ab".repeat(32));
  });
});
