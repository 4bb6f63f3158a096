/**
 * Fault injection, the hourly run (issue 11): sources that misbehave over loopback HTTP — a body that
 * stalls or resets after its headers, a 100 MB body, a 503 asking to come back in an hour, a redirect
 * loop — and seller documents whose path is missing or a folder. One failing source never costs the
 * others: each is that source's failure with its reason, exit 2, and what the others fetched lands.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { ServerResponse } from "node:http";
import { runIngest } from "../../src/jobs/ingest.js";
import { MAX_BODY_BYTES, requestBytes, retryAfterMs } from "../../src/ingest/http.js";
import { globalSource, ingestHarness, localSeller, writeAlphaBoard } from "../helpers/ingest.js";
import { cbePage } from "../helpers/sources-server.js";

const NOW = Date.parse("2026-11-19T10:30:00Z");
const DOC = { date: "2026-11-19", usd: { egp: 47.8 } };
const { serve, dataset, http, ingest } = ingestHarness();

/** Writes `total` bytes in 64 KB chunks, minding backpressure, until done or the client hangs up; returns what was written. */
async function flood(res: ServerResponse, total: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  while (sent < total && !res.destroyed) {
    if (!res.write(chunk))
      await new Promise<void>((r) => {
        const go = () => (res.off("drain", go), res.off("close", go), r());
        res.on("drain", go).on("close", go);
      });
    sent += chunk.length;
  }
  res.end();
  return sent;
}

describe("a source that breaks after its headers is that source's failure", () => {
  test("a body that stalls, a body that resets, a CBE post that stalls, a missing file and a folder: each fails alone, the local file lands", async () => {
    const s = await serve({
      "GET /stall.json": (_q, res) => void res.writeHead(200, { "content-type": "application/json" }).write('{"date":'),
      "GET /reset.json": (_q, res) => {
        res.writeHead(200, { "content-type": "application/json" }).write('[{"code":"USD",');
        setTimeout(() => res.socket?.destroy(), 20);
      },
      "GET /cbe": (_q, res) => res.writeHead(200, { "content-type": "text/html" }).end(cbePage("tok", ["US Dollar"])),
      "POST /api/statistics/GetHistoricalData": (_q, res) =>
        void res.writeHead(200, { "content-type": "application/octet-stream" }).write("PK"),
    });
    const dir = await dataset([
      globalSource("stall", `${s.url}/stall.json`),
      { ...localSeller, id: "reset", path: undefined, url: `${s.url}/reset.json` },
      { id: "cbe", name: "CBE", adapter: "cbe", pageUrl: `${s.url}/cbe`, currencies: { "US Dollar": "USD-EGP" } },
      { ...localSeller, id: "missing", path: "nowhere.json" },
      { ...localSeller, id: "folder", path: "a-folder" },
      localSeller,
    ]);
    await fs.mkdir(path.join(dir, "a-folder"));
    await writeAlphaBoard(dir);
    const { reports, files } = await runIngest({ dataDir: dir, nowMs: NOW, timeoutMs: 300, retries: 1, backoffMs: 5 });
    const by = Object.fromEntries(reports.map((r) => [r.id, r]));
    expect(by["stall"]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/timed out after 300 ms while reading the body/),
    });
    expect(by["reset"]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/network error while reading the body/),
    });
    expect(by["cbe"]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/timed out after 300 ms while reading the body/),
    });
    expect(by["missing"]).toMatchObject({ ok: false, error: expect.stringMatching(/nowhere\.json does not exist/) });
    expect(by["folder"]).toMatchObject({ ok: false, error: expect.stringMatching(/a-folder is a folder, not a file/) });
    expect(by["local"]).toMatchObject({ ok: true, appended: 1 });
    expect(files).toEqual(["quotes/2026-11-19.ndjson"]);
    // The stalled body was retried as any timeout is: the first try and one retry.
    expect(s.seen.filter((r) => r.path === "/stall.json")).toHaveLength(2);
  });

  test("the CLI: exit 2, one line per failed source with its reason, and the others' lines are appended", async () => {
    const s = await serve({
      "GET /stall.json": (_q, res) => void res.writeHead(200, { "content-type": "application/json" }).write("{"),
      "GET /big.json": (_q, res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ ...DOC, pad: "x".repeat(5000) })),
    });
    const dir = await dataset([
      globalSource("stall", `${s.url}/stall.json`),
      globalSource("big", `${s.url}/big.json`),
      { ...localSeller, id: "missing", path: "nowhere.json" },
      localSeller,
    ]);
    await writeAlphaBoard(dir);
    const { code, out } = await ingest(dir, "2026-11-19T10:30:00Z", "--timeout", "200", "--max-bytes", "1000");
    expect(code).toBe(2);
    expect(out).toMatch(
      /stall \(global-rates\): FAILED in \d+ ms: every URL failed: .*timed out after 200 ms while reading the body/,
    );
    expect(out).toMatch(
      /big \(global-rates\): FAILED in \d+ ms: every URL failed: .*larger than the limit of 1000 bytes/,
    );
    expect(out).toMatch(/missing \(seller-document\): FAILED in \d+ ms: .*nowhere\.json does not exist/);
    expect(out).toMatch(/local \(seller-document\): fetched 1, appended 1/);
    expect(out).toMatch(/1 of 4 sources succeeded/);
    expect(await fs.readFile(path.join(dir, "quotes/2026-11-19.ndjson"), "utf8")).toContain('"seller":"alpha"');
  }, 20_000);
});

describe("polite and bounded", () => {
  test("a 100 MB body is cut off past the cap: the source fails, little of it is ever sent or held", async () => {
    let flooded: Promise<number> | undefined;
    const s = await serve({
      "GET /huge.json": (_q, res) =>
        void (flooded = flood(res.writeHead(200, { "content-type": "application/json" }), 100 * 1024 * 1024)),
    });
    const before = process.memoryUsage().arrayBuffers;
    await expect(requestBytes(`${s.url}/huge.json`, { accept: "application/json" }, http())).rejects.toThrow(
      `larger than the limit of ${MAX_BODY_BYTES} bytes`,
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    // The server stops writing when the client hangs up: what it got out by then.
    expect(await flooded).toBeLessThan(40 * 1024 * 1024);
    expect(s.seen).toHaveLength(1); // too large is not retried: it would be too large again
  });

  test("a declared Content-Length past the cap fails before the body is read", async () => {
    const s = await serve({
      "GET /declared.json": (_q, res) =>
        void res.writeHead(200, { "content-length": String(100 * 1024 * 1024) }).write("{"),
    });
    await expect(requestBytes(`${s.url}/declared.json`, { accept: "application/json" }, http())).rejects.toThrow(
      `the answer is ${100 * 1024 * 1024} bytes, more than the limit of ${MAX_BODY_BYTES}`,
    );
    expect(s.seen).toHaveLength(1);
  });

  test("503 with Retry-After: 3600 fails the source at once (asked once), for the next run", async () => {
    const s = await serve({ "GET /busy.json": (_q, res) => res.writeHead(503, { "retry-after": "3600" }).end("busy") });
    const dir = await dataset([globalSource("busy", `${s.url}/busy.json`)]);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, backoffMs: 1000, sleep });
    expect(waits).toEqual([]); // neither the hour asked for nor a backoff: failed at once
    expect(s.seen).toHaveLength(1);
    expect(reports[0]!.error).toMatch(
      /HTTP 503 Service Unavailable: asked to retry after 3600 s, more than the 30 s we wait; next run/,
    );
    // The run's waits are all taken through `sleep`: a 503 without Retry-After is retried after its backoffs.
    const again = await serve({ "GET /down.json": (_q, res) => res.writeHead(503).end("down") });
    const other = await dataset([globalSource("down", `${again.url}/down.json`)]);
    await runIngest({ dataDir: other, nowMs: NOW, backoffMs: 1000, sleep });
    expect(waits).toEqual([1000, 2000]);
    expect(again.seen).toHaveLength(3);
  });

  test("a Retry-After within the bound is waited for (seconds or an HTTP-date), then the answer lands", async () => {
    let n = 0;
    const s = await serve({
      "GET /later.json": (_q, res) =>
        ++n === 1
          ? res.writeHead(429, { "retry-after": "2" }).end()
          : res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(DOC)),
    });
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const got = await requestBytes(`${s.url}/later.json`, { accept: "application/json" }, http({ sleep }));
    expect(JSON.parse(new TextDecoder().decode(got.bytes))).toEqual(DOC);
    expect(waits).toEqual([2000]);
    expect(retryAfterMs(new Date(NOW + 5000).toUTCString(), NOW)).toBe(5000);
    expect(retryAfterMs("soon", NOW)).toBeNull();
  });

  test("a redirect loop costs at most 6 requests and is not retried; a short chain is followed, a POST redirected by 303 becomes a GET", async () => {
    const s = await serve({
      "GET /loop": (_q, res) => res.writeHead(302, { location: "/loop" }).end(),
      "GET /a": (_q, res) => res.writeHead(301, { location: "/b" }).end(),
      "GET /b": (_q, res) => res.writeHead(307, { location: "/c.json" }).end(),
      "GET /c.json": (_q, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(DOC)),
      "POST /form": (_q, res) => res.writeHead(303, { location: "/c.json" }).end(),
    });
    await expect(requestBytes(`${s.url}/loop`, { accept: "application/json" }, http())).rejects.toThrow(
      /more than 5 redirects/,
    );
    expect(s.seen.filter((r) => r.path === "/loop")).toHaveLength(6);
    const chain = await requestBytes(`${s.url}/a`, { accept: "application/json" }, http());
    expect(chain.url).toBe(`${s.url}/c.json`);
    const posted = await requestBytes(
      `${s.url}/form`,
      {
        method: "POST",
        body: "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        accept: "application/json",
      },
      http(),
    );
    expect(posted.status).toBe(200);
    expect(s.seen.at(-1)).toMatchObject({ method: "GET", path: "/c.json", body: "" });
  });
});
