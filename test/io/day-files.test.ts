/**
 * Reading day files into one buffer (src/io/day-files.ts `into`, readBufferFor): the bytes are the
 * file's, the buffer is sized once for the largest file, and a file that outgrew it is still read whole.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { readBuffer, readBufferFor, readDayFile } from "../../src/io/day-files.js";

const dir = mkdtempSync(path.join(tmpdir(), "day-files-"));
const file = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return { file: f };
};

describe("one buffer for every day read", () => {
  const small = file("2026-01-01.ndjson", '{"a":1}\n');
  const large = file("2026-01-02.ndjson", `${'{"a":"دولار"}\n'.repeat(5_000)}`);

  test("is made once, a quarter larger than the largest file; a missing file is left to its read", () => {
    const into = readBuffer();
    readBufferFor(into, [small, large, { file: path.join(dir, "missing.ndjson") }]);
    const made = into.buffer;
    const largest = Buffer.byteLength(`${'{"a":"دولار"}\n'.repeat(5_000)}`);
    expect(made.length).toBeGreaterThanOrEqual(largest * 1.25);
    readBufferFor(into, [small]);
    expect(into.buffer).toBe(made); // never made smaller
  });

  test.each([
    ["sized for both", true],
    ["sized for none", false],
  ])("reads each file's own bytes, %s", async (_, sized) => {
    const into = readBuffer();
    if (sized) readBufferFor(into, [small, large]);
    for (const f of [large, small, large]) {
      const bytes = await readDayFile(f.file, null, { into });
      expect(bytes.toString("utf8")).toBe(readFileSync(f.file, "utf8"));
    }
  });

  test("a file larger than the buffer is read whole", async () => {
    const into = readBuffer();
    readBufferFor(into, [small]);
    const bytes = await readDayFile(large.file, null, { into });
    expect(bytes.length).toBe(Buffer.byteLength(`${'{"a":"دولار"}\n'.repeat(5_000)}`));
  });

  test("the bytes are a view of the buffer, not a copy", async () => {
    const into = readBuffer();
    readBufferFor(into, [large]);
    const bytes = await readDayFile(small.file, null, { into });
    expect(bytes.buffer).toBe(into.buffer.buffer);
  });
});
