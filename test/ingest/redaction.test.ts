/**
 * Issue 42 item 3, for what ingest keeps, publishes and prints: no URL in a failure reason keeps its
 * userinfo, query or fragment (data/state/sources.json, /api/v1/sources.json, the sources pages),
 * an older state file's reasons included; and text from a body never starts a line of the job's log
 * (a GitHub Actions workflow command, `::error::…`).
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { logSafe, redactUrls } from "../../src/core/redact.js";
import { failureOf } from "../../src/jobs/ingest-logs.js";
import { SourceError } from "../../src/core/errors.js";
import { recordRuns } from "../../src/io/source-runs.js";
import { buildSourceHealth } from "../../src/feed/sources-doc.js";
import { sourcesTable } from "../../src/render/pages/sources.js";
import { Sources } from "../../src/schema/inputs.js";
import { globalSource, ingestHarness, localSeller } from "../helpers/ingest.js";

describe("redactUrls: every URL without its userinfo, query and fragment", () => {
  test.each([
    ["https://user:pw@host/p?apikey=x", "https://host/p"],
    [
      "HTTP 403 Forbidden (https://api.example/v1/rates?apikey=s3cret&base=usd)",
      "HTTP 403 Forbidden (https://api.example/v1/rates)",
    ],
    ["https://host/p#access_token=abc", "https://host/p"],
    ["https://user@host:8443/a/b", "https://host:8443/a/b"],
    ["https://u:p@host?k=v", "https://host"],
    ["ftp://u:p@files.example/x.csv", "ftp://files.example/x.csv"],
    ["a password with @: https://u:p@ss@host/p", "a password with @: https://host/p"],
    ["two: http://a.example/?k=1 and https://b.example/x?k=2.", "two: http://a.example/ and https://b.example/x."],
    ['quoted "https://h.example/p?token=t" ends at the quote', 'quoted "https://h.example/p" ends at the quote'],
    ["(https://h.example/p?k=v).", "(https://h.example/p)."],
    ["no query: https://h.example/path/page.html", "no query: https://h.example/path/page.html"],
    ["an @ in a path stays: https://h.example/@user/x", "an @ in a path stays: https://h.example/@user/x"],
    ["no URL at all: a://", "no URL at all: a://"],
    ["nothing here", "nothing here"],
    ["", ""],
  ])("%s", (text, want) => expect(redactUrls(text)).toBe(want));

  test("linear in the text: a long run of scheme characters and '://' is redacted in one pass", () => {
    const text = `${"a".repeat(200_000)}://${"b://".repeat(50_000)}`;
    expect(redactUrls(text).length).toBeLessThanOrEqual(text.length);
  });
});

describe("logSafe: one line, never a workflow command", () => {
  test.each([
    ["a reason", "a reason"],
    ["quoting a body: x\n::error::pwned", "quoting a body: x\\n::error::pwned"],
    ["::error::pwned", "\\::error::pwned"],
    ["  ::warning::indented", "  \\::warning::indented"],
    ["##[error]old style", "\\##[error]old style"],
    ["\r\n::add-mask::x", "\\r\\n::add-mask::x"],
    ["an escape \u001b[31mred", "an escape \\u001b[31mred"],
    ["a line separator\u2028::error::x", "a line separator\\u2028::error::x"],
    ["a tab\tstays", "a tab\tstays"],
    ["a :: in the middle", "a :: in the middle"],
  ])("%j", (line, want) => expect(logSafe(line)).toBe(want));
});

describe("reasons are clean where they are made, and when published from an older state", () => {
  test("failureOf drops the query and userinfo of the source's URL", () => {
    const e = new SourceError("HTTP 500 Internal Server Error", {
      url: "https://ops:pw@rates.example/v1?apikey=s3cret",
    });
    expect(failureOf(e)).toBe("HTTP 500 Internal Server Error (https://rates.example/v1)");
  });

  test("recordRuns cleans this run's reasons and those an older ingest stored", () => {
    const old = {
      sources: {
        kept: {
          lastRunAt: "2026-11-18T10:00:00.000Z",
          lastSuccessAt: null,
          lastFailure: { at: "2026-11-18T10:00:00.000Z", reason: "HTTP 401 (https://h.example/a?key=old)" },
        },
      },
    };
    const runs = recordRuns(
      old,
      [{ id: "new", ok: false, error: "HTTP 403 (https://u:p@h.example/b?key=new)" }],
      "2026-11-19T10:30:00.000Z",
    );
    expect(JSON.stringify(runs)).not.toMatch(/key=|u:p@/);
    expect(runs.sources["kept"]!.lastFailure!.reason).toBe("HTTP 401 (https://h.example/a)");
    expect(runs.sources["new"]!.lastFailure!.reason).toBe("HTTP 403 (https://h.example/b)");
  });

  test("an old state's reason is published without its secrets: the API document and the sources page", () => {
    const sources = Sources.parse({ sources: [{ id: "old", name: "Old", adapter: "demo" }] }).sources;
    const runs = {
      sources: {
        old: {
          lastRunAt: "2026-11-18T10:00:00.000Z",
          lastSuccessAt: null,
          lastFailure: { at: "2026-11-18T10:00:00.000Z", reason: "HTTP 401 (https://me:pw@h.example/a?apikey=s3cret)" },
        },
      },
    };
    const health = buildSourceHealth(sources, new Map(), runs, "2026-11-19T10:30:00.000Z");
    expect(health.sources[0]!.lastFailure!.reason).toBe("HTTP 401 (https://h.example/a)");
    const page = String(sourcesTable(health, new Map(), "en"));
    expect(page).toContain("https://h.example/a");
    expect(page).not.toMatch(/s3cret|me:pw/);
  });
});

describe("ingest end to end", () => {
  const { serve, dataset, ingest } = ingestHarness();

  test("a secret in a failing source's URL reaches neither the log nor data/state", async () => {
    const s = await serve({ "GET /rates.json": (_q, res) => res.writeHead(403).end("no") });
    const url = s.url.replace("http://", "http://ops:hunter2@");
    const dir = await dataset([globalSource("keyed", `${url}/rates.json?apikey=s3cret#frag`)]);
    const { code, out } = await ingest(dir, "2026-11-19T10:30:00Z");
    expect(code).toBe(2);
    expect(out).toContain(`keyed (global-rates): FAILED`);
    expect(out).toContain(`(${s.url}/rates.json)`);
    const state = await fs.readFile(path.join(dir, "state/sources.json"), "utf8");
    for (const text of [out, state]) expect(text).not.toMatch(/s3cret|hunter2|frag/);
  });

  test("a body holding \\n::error::pwned: no line of stdout or stderr starts with ::", async () => {
    const s = await serve({
      "GET /board.json": (_q, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end("x\n::error::pwned\n##[error]old"),
    });
    const dir = await dataset([
      { ...localSeller, id: "hostile", path: undefined, url: `${s.url}/board.json` },
      globalSource("hostile-global", `${s.url}/board.json`),
    ]);
    const errs: string[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => void errs.push(a.map(String).join(" "));
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (
      errs.push(String(chunk)),
      true
    )) as typeof process.stderr.write;
    let run: { code: number; out: string };
    try {
      run = await ingest(dir, "2026-11-19T10:30:00Z");
    } finally {
      console.error = error;
      process.stderr.write = write;
    }
    expect(run.code).toBe(2);
    // The reason did quote the body (else this test could not fail)…
    expect(run.out).toMatch(/hostile \(seller-document\): FAILED .*x\\n::error:/);
    // …and no line of what was printed is a workflow command.
    const printed = [...run.out.split("\n"), ...errs.join("\n").split("\n")];
    expect(printed.filter((l) => /^\s*(::|##\[)/.test(l))).toEqual([]);
    const state = await fs.readFile(path.join(dir, "state/sources.json"), "utf8");
    expect(JSON.parse(state).sources.hostile.lastFailure.reason).toContain("x\n::error:");
  });
});
