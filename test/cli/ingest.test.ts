/**
 * What `price-feed ingest` prints (src/cli/ingest.ts) of what a source sent (issue 50, item 8): a
 * page's U+202E went straight to the terminal, turning the rest of the line around, and a NUL, BEL
 * or ESC would ring, clear or move it. Whatever a source sends — a seller's name, a value quoted in
 * a reason or an example — reaches the output with every control and bidi-override character
 * escaped (`\u202e`, `\u001b`), visible and inert, each on its own line; a real ingest and a dry one.
 */
import { describe, expect, test } from "vitest";
import { documentSource } from "../helpers/ingest-fixture.js";
import { ingestHarness } from "../helpers/ingest.js";

const { serve, dataset, ingest } = ingestHarness();
const NOW = "2026-11-19T10:00:00Z";

/** Every control character (C0 but tab, DEL, C1) and every bidi embedding, override and isolate. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ACTING = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = "\u202eknaB ahplA\u001b[2J\u0007\u0000Zed\u0085";

describe("ingest's output carries no character that acts", () => {
  test.each([["real run"], ["--dry-run"]])("%s", async (mode) => {
    const site = await serve({
      "GET /rates": (_q, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            rates: [
              { bank: "Alpha Bank", currency: "USD", buy: 47.7, sell: 47.85, updated: "2026-11-19T09:55:00Z" },
              { bank: HOSTILE, currency: "USD", buy: 47.6, sell: 47.9, updated: "2026-11-19T09:55:00Z" },
              { bank: "Alpha Bank", currency: "USD", buy: 47.7, sell: 47.85, updated: `\u202e${HOSTILE}` },
            ],
          }),
        ),
    });
    const dir = await dataset([{ ...documentSource("board", `${site.url}/rates`), probation: false }]);
    const { out } = await ingest(dir, NOW, ...(mode === "--dry-run" ? ["--dry-run"] : []));
    for (const line of out.split("\n")) expect(line, JSON.stringify(line)).not.toMatch(ACTING);
    // The hostile name is there, as text: its characters escaped, not dropped without a trace.
    expect(out).toContain("\\u202eknaB ahplA\\u001b[2J\\u0007");
  });
});
