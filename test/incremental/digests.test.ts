/**
 * src/incremental/digests.ts reads the files a build keeps and hashes them. headSha256 reads a kept
 * history file in one pass, its head (the part's bytes) through a 1 MiB buffer and the rest into its
 * own: every byte must land where it was, whatever the head's length against the buffer's.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileSha256, headSha256 } from "../../src/incremental/digests.js";
import { sha256Hex } from "../../src/io/hash.js";
import { tempDir } from "../helpers/dataset.js";

const MiB = 1 << 20;
const bytes = randomBytes(3 * MiB); // no two chunks alike: a byte read into the wrong place shows
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await tempDir();
  file = path.join(dir, "history.json");
  await fs.writeFile(file, bytes);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe("headSha256: the head's digest, the rest's bytes and the whole's digest, in one read", () => {
  test.each([0, 1, MiB - 1, MiB, MiB + 1, 2 * MiB + 12_345, 3 * MiB - 1, 3 * MiB])("a head of %i bytes", (head) => {
    const got = headSha256(file, head)!;
    expect(got.sha256).toBe(sha256Hex(bytes.subarray(0, head)));
    expect(got.rest.equals(bytes.subarray(head))).toBe(true);
    expect(got.whole).toBe(sha256Hex(bytes));
  });

  test("the whole file's digest and size", () => {
    expect(fileSha256(file)).toEqual({ sha256: sha256Hex(bytes), bytes: bytes.length });
  });

  test("null when the file is shorter than the head, or cannot be read", async () => {
    const short = path.join(dir, "short.json");
    await fs.writeFile(short, "[1,2]");
    expect(headSha256(short, 6)).toBeNull();
    expect(headSha256(short, 5)).toEqual({
      sha256: sha256Hex("[1,2]"),
      rest: Buffer.alloc(0),
      whole: sha256Hex("[1,2]"),
    });
    expect(headSha256(path.join(dir, "missing.json"), 0)).toBeNull();
    expect(fileSha256(path.join(dir, "missing.json"))).toBeNull();
  });
});
