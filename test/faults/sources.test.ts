/**
 * Fault injection, the sources (issue 26, items 4, 5, 6 and 11), over real HTTP on loopback: a
 * source's server that redirects us to loopback, to the cloud metadata address, to a private network
 * or from https down to http; one source giving a seller two prices at one instant; a sources file
 * listing an id twice; a time-format list whose first entry luxon refuses.
 */
import { describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { runIngest } from "../../src/jobs/ingest.js";
import { runBuild } from "../../src/jobs/build.js";
import { requestBytes } from "../../src/ingest/http.js";
import { htmlAdapter } from "../../src/ingest/adapters/html.js";
import { parseTime } from "../../src/ingest/document/time.js";
import { Sources } from "../../src/schema/inputs.js";
import { HtmlSource } from "../../src/schema/document-sources.js";
import { DataError } from "../../src/core/errors.js";
import { BuildReport } from "../../src/schema/documents.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { Quote } from "../../src/schema/inputs.js";
import { usdQuote } from "../helpers/rows.js";
import { catalog, tempDir, writeDataset } from "../helpers/dataset.js";
import { globalSource, ingestHarness } from "../helpers/ingest.js";

const NOW = Date.parse("2026-11-19T10:30:00Z");
const DOC = { date: "2026-11-19", usd: { egp: 47.8 } };
const { serve, dataset, http } = ingestHarness();
const json = (_q: unknown, res: import("node:http").ServerResponse) =>
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(DOC));

describe("redirects lead only to public addresses, never down to http (item 4)", () => {
  test("to localhost, to another loopback port, to 169.254.169.254, to 10.x, to an IPv4-mapped loopback: refused, not retried, nothing asked there", async () => {
    const other = await serve({ "GET /doc.json": json });
    const otherPort = new URL(other.url).port;
    const s = await serve({
      "GET /doc.json": json,
      "GET /to-localhost": (_q, res) =>
        res.writeHead(302, { location: `http://localhost:${otherPort}/doc.json` }).end(),
      "GET /to-other-port": (_q, res) => res.writeHead(307, { location: `${other.url}/doc.json` }).end(),
      "GET /to-metadata": (_q, res) =>
        res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/iam/security-credentials/" }).end(),
      "GET /to-private": (_q, res) => res.writeHead(302, { location: "http://10.20.30.40/rates.json" }).end(),
      "GET /to-mapped": (_q, res) =>
        res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${otherPort}/doc.json` }).end(),
      "GET /to-cgnat": (_q, res) => res.writeHead(302, { location: "http://100.64.1.1/" }).end(),
      // A relative Location stays on the configured origin: the operator chose it.
      "GET /same-origin": (_q, res) => res.writeHead(302, { location: "/doc.json" }).end(),
    });
    const cases: Array<[string, RegExp]> = [
      [
        "/to-localhost",
        new RegExp(
          `a redirect to http://localhost:${otherPort}/doc.json is not followed: localhost is (127\\.0\\.0\\.1|::1), a loopback address`,
        ),
      ],
      [
        "/to-other-port",
        new RegExp(
          `a redirect to ${other.url}/doc.json is not followed: 127\\.0\\.0\\.1, a loopback address \\(RFC 1122\\)`,
        ),
      ],
      [
        "/to-metadata",
        /a redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/ is not followed: 169\.254\.169\.254, a link-local address \(RFC 3927/,
      ],
      [
        "/to-private",
        /a redirect to http:\/\/10\.20\.30\.40\/rates\.json is not followed: 10\.20\.30\.40, a private address \(RFC 1918\)/,
      ],
      ["/to-mapped", /is not followed: ::ffff:7f00:1, a loopback address \(RFC 1122\), IPv4-mapped \(RFC 4291\)/],
      ["/to-cgnat", /is not followed: 100\.64\.1\.1, a shared carrier-grade NAT address \(RFC 6598\)/],
    ];
    for (const [p, message] of cases) {
      // Every URL the run asks for goes through this fetch.
      const asked: string[] = [];
      const fetch: typeof globalThis.fetch = (url, init) => (asked.push(String(url)), globalThis.fetch(url, init));
      const err = await requestBytes(`${s.url}${p}`, { accept: "application/json" }, http({ fetch })).catch(
        (e: unknown) => e,
      );
      expect(err, p).toBeInstanceOf(Error);
      expect((err as Error).message, p).toMatch(message);
      expect((err as Error & { hint: string }).hint).toMatch(/"allowPrivateRedirects": true/);
      // Refused before any connection there (no 2 s timeout on 169.254.169.254 or 10.x): only the source's own URL was asked.
      expect(asked, p).toEqual([`${s.url}${p}`]);
      expect(
        s.seen.filter((r) => r.path === p),
        p,
      ).toHaveLength(1); // not retried
    }
    expect(other.seen).toEqual([]);
    // The configured loopback URL itself, and a redirect within its own origin, are the operator's choice.
    expect((await requestBytes(`${s.url}/same-origin`, { accept: "application/json" }, http())).url).toBe(
      `${s.url}/doc.json`,
    );
  });

  test("every address of the target's host is checked: one private address among public ones refuses it", async () => {
    const looked: string[] = [];
    const lookup = async (host: string) => (
      looked.push(host),
      host === "mixed.example" ? ["93.184.215.14", "10.0.0.5"] : ["93.184.215.14"]
    );
    const fetchStub: typeof fetch = async (input) => {
      const u = String(input);
      if (u.endsWith("/start"))
        return new Response(null, { status: 302, headers: { location: "http://mixed.example/x" } });
      if (u.endsWith("/start2"))
        return new Response(null, { status: 302, headers: { location: "http://public.example/x" } });
      return new Response(JSON.stringify(DOC), { status: 200 });
    };
    await expect(
      requestBytes("http://rates.example/start", { accept: "application/json" }, http({ fetch: fetchStub, lookup })),
    ).rejects.toThrow(
      "a redirect to http://mixed.example/x is not followed: mixed.example is 10.0.0.5, a private address (RFC 1918)",
    );
    const ok = await requestBytes(
      "http://rates.example/start2",
      { accept: "application/json" },
      http({ fetch: fetchStub, lookup }),
    );
    expect(ok.url).toBe("http://public.example/x");
    expect(looked).toEqual(["mixed.example", "public.example"]);
  });

  test("https → http is refused, even for a source that allows private redirects; nothing is asked over http", async () => {
    const s = await serve({ "GET /doc.json": json });
    // Loopback TLS would need a certificate the test runner trusts: the https answer is stubbed, the
    // http target is the real server, which must see no request.
    const fetchStub: typeof fetch = async (input, init) =>
      String(input).startsWith("https:")
        ? new Response(null, { status: 301, headers: { location: `${s.url}/doc.json` } })
        : fetch(input, init);
    for (const allowPrivateRedirects of [false, true]) {
      const err = (await requestBytes(
        "https://rates.example/doc.json",
        { accept: "application/json" },
        http({ fetch: fetchStub, allowPrivateRedirects }),
      ).catch((e: unknown) => e)) as Error & { hint: string };
      expect(err.message).toBe(`a redirect to ${s.url}/doc.json is not followed: it leads from https down to http`);
      expect(err.hint).toMatch(/configure its http:\/\/ URL/);
    }
    expect(s.seen).toEqual([]);
  });

  test("ingest: the refused redirect fails that source only, naming where it pointed and why; with the opt-in it lands", async () => {
    const other = await serve({ "GET /doc.json": json });
    const s = await serve({
      "GET /moved.json": (_q, res) => res.writeHead(302, { location: `${other.url}/doc.json` }).end(),
    });
    const dir = await dataset([
      globalSource("guarded", `${s.url}/moved.json`),
      globalSource("own-network", `${s.url}/moved.json`, { allowPrivateRedirects: true }),
    ]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, retries: 1, backoffMs: 5 });
    const by = Object.fromEntries(reports.map((r) => [r.id, r]));
    expect(by["guarded"]).toMatchObject({
      ok: false,
      error: expect.stringContaining(
        `a redirect to ${other.url}/doc.json is not followed: 127.0.0.1, a loopback address`,
      ),
    });
    expect(by["own-network"]).toMatchObject({ ok: true, appended: 1 });
    expect(other.seen).toHaveLength(1); // only the source that opted in went there
    expect(s.seen).toHaveLength(2); // the refused redirect was not retried
  });

  test("the opt-in is a boolean in the sources schema", () => {
    const parsed = Sources.safeParse({
      sources: [globalSource("g", "https://x.example/a.json", { allowPrivateRedirects: "yes" })],
    });
    expect(parsed.success).toBe(false);
    expect(
      Sources.parse({ sources: [globalSource("g", "https://x.example/a.json", { allowPrivateRedirects: true })] })
        .sources[0],
    ).toMatchObject({ allowPrivateRedirects: true });
  });
});

describe("a source id listed twice is refused, naming both places (item 6)", () => {
  test("the schema names both indexes; ingest stops before asking anyone", async () => {
    const s = await serve({ "GET /doc.json": json });
    const list = [
      globalSource("cbe", `${s.url}/doc.json`),
      globalSource("glob", `${s.url}/doc.json`),
      globalSource("cbe", `${s.url}/doc.json`),
      globalSource("cbe", `${s.url}/doc.json`),
    ];
    const r = Sources.safeParse({ sources: list });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["sources.2.id", 'sources[0].id and sources[2].id are both "cbe"'],
      ["sources.3.id", 'sources[0].id and sources[3].id are both "cbe"'],
    ]);
    const dir = await dataset(list);
    const err = await runIngest({ dataDir: dir, nowMs: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toContain('sources[0].id and sources[2].id are both "cbe"');
    expect(s.seen).toEqual([]);
  });
});

describe("a time-format list tries every entry, and the schema refuses a format luxon cannot use (item 11)", () => {
  const BAD = "dd/MM/yyyy HH:mm a"; // luxon: "Can't include meridiem when specifying 24-hour format"
  const GOOD = "dd/MM/yyyy h:mm a";
  const page = `<html><body><p id="t">Last update: 19/11/2026 11:45 AM</p><table id="r">
<tr><th>Currency</th><th>Buy</th><th>Sell</th></tr><tr><td>USD</td><td>47.70</td><td>47.85</td></tr></table></body></html>`;
  const html = (url: string, format: string | string[]) => ({
    id: "bank",
    name: "Bank",
    adapter: "html",
    url,
    seller: "alpha",
    rows: "#r tr",
    header: "#r tr:first-child",
    fields: { asset: { column: "Currency" }, buy: { column: "Buy" }, sell: { column: "Sell" } },
    time: { selector: "#t", regex: "update:\\s*(.+)", format },
  });

  test("a page read with the list [bad, good]: the second entry reads it (luxon's throw on the first is not the end)", async () => {
    expect(parseTime("19/11/2026 11:45 AM", { format: [BAD, GOOD], zone: "Africa/Cairo" }, NOW)).toBe(
      Date.parse("2026-11-19T09:45:00Z"),
    );
    const s = await serve({ "GET /rates": (_q, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
    // The schema refuses BAD (below), so the adapter is handed the list as an older file would have had it.
    const cfg = HtmlSource.parse(html(`${s.url}/rates`, GOOD));
    cfg.time = { ...cfg.time!, format: [BAD, GOOD] };
    const obs = await htmlAdapter(cfg, {
      nowMs: NOW,
      http: http(),
      dataDir: ".",
      catalog,
      demo: undefined,
    });
    expect(obs.quotes).toEqual([
      expect.objectContaining({
        seller: "alpha",
        asset: "USD-EGP",
        buy: 47.7,
        sell: 47.85,
        observedAt: "2026-11-19T09:45:00.000Z",
      }),
    ]);
  });

  test("the sources schema refuses a format luxon cannot use, naming the source and the format; ingest stops at load", async () => {
    const r = Sources.safeParse({ sources: [html("https://bank.example/rates", [BAD, GOOD])] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      [
        "sources.0.time.format.0",
        `source "bank": luxon cannot use the time format "${BAD}": Can't include meridiem when specifying 24-hour format`,
      ],
    ]);
    const one = Sources.safeParse({
      sources: [{ ...html("https://bank.example/rates", "yyyy-MM-dd ZZZZ"), id: "zoned" }],
    });
    expect(one.error!.issues[0]!.message).toMatch(
      /^source "zoned": luxon cannot use the time format "yyyy-MM-dd ZZZZ": it does not read back/,
    );
    for (const ok of [
      GOOD,
      "d/M/yyyy H:mm:ss",
      "M/d/yyyy h:mm:ss a",
      "d MMMM yyyy",
      "iso",
      "epoch",
      ["H:mm d/M/yyyy", "d/M/yyyy"],
    ])
      expect(Sources.safeParse({ sources: [html("https://bank.example/rates", ok)] }).success, String(ok)).toBe(true);
    const s = await serve({ "GET /rates": (_q, res) => res.writeHead(200).end(page) });
    const dir = await dataset([html(`${s.url}/rates`, [BAD, GOOD])]);
    await expect(runIngest({ dataDir: dir, nowMs: NOW })).rejects.toThrow(
      /sources\.0\.time\.format\.0: source "bank": luxon cannot use the time format "dd\/MM\/yyyy HH:mm a"/,
    );
    expect(s.seen).toEqual([]);
  });
});

describe("two prices of one source for one seller, asset and instant (item 5)", () => {
  const q = usdQuote;
  const earlier = q("s1", "alpha", 47.7, 47.85, "2026-11-19T07:00:00Z");
  const one = q("s1", "alpha", 47.6, 47.8, "2026-11-19T08:00:00Z");
  const other = q("s1", "alpha", 47.9, 48.05, "2026-11-19T08:00:00Z");
  const again = q("s1", "beta", 47.65, 47.81, "2026-11-19T08:00:00Z"); // told twice, the same prices: kept
  const peers = [
    q("s2", "beta", 47.65, 47.81, "2026-11-19T07:30:00Z"),
    q("s3", "gamma", 47.66, 47.83, "2026-11-19T07:45:00Z"),
  ];

  async function build(quotes: Quote[]) {
    const dir = await writeDataset(await tempDir(), { quotes, official: [], global: [] });
    const out = path.join(dir, "public");
    const { reportFile } = await runBuild({ dataDir: dir, outDir: out, nowMs: NOW, saveState: false });
    // The report names files by their path; the data folder is a fresh temporary one each time.
    const report = BuildReport.parse(JSON.parse((await fs.readFile(reportFile, "utf8")).replaceAll(`${dir}/`, "")));
    const feedText = await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8");
    return { report, feedText, feed: JSON.parse(feedText) as Feed };
  }

  test("both are rejected as conflicting-quote, named in the report; the close is the source's earlier quote, whatever the line order", async () => {
    const a = await build([earlier, one, ...peers, again, again, other]);
    expect(a.report.rejectedByReason).toEqual({ "conflicting-quote": 2 });
    expect(a.report.quotes).toMatchObject({ read: 7, rejected: 2, accepted: 5 });
    expect(a.report.rejections).toEqual([
      {
        file: "quotes/2026-11-19.ndjson",
        line: 2,
        source: "s1",
        seller: "alpha",
        asset: "USD-EGP",
        reason: "conflicting-quote",
      },
      {
        file: "quotes/2026-11-19.ndjson",
        line: 7,
        source: "s1",
        seller: "alpha",
        asset: "USD-EGP",
        reason: "conflicting-quote",
      },
    ]);
    expect(a.report.warnings).toContain(
      'quotes/2026-11-19.ndjson lines 2 and 7: source "s1" gives seller "alpha" different prices for USD-EGP at the same instant; none of them is used (conflicting-quote, docs/methodology.md §11)',
    );
    const usd = a.feed.assets.find((x) => x.id === "USD-EGP")!;
    expect(usd.sellers.find((r) => r.id === "alpha")).toMatchObject({
      buy: 47.7,
      sell: 47.85,
      source: "s1",
      observedAt: "2026-11-19T07:00:00Z",
    });
    expect(usd.sellers.find((r) => r.id === "beta")).toMatchObject({
      buy: 47.65,
      sell: 47.81,
      observedAt: "2026-11-19T08:00:00Z",
    });

    // The other order of the lines: the same feed, byte for byte, and the same conflict named.
    const b = await build([other, again, ...peers, earlier, again, one]);
    expect(b.feedText).toBe(a.feedText);
    expect(b.report.rejectedByReason).toEqual({ "conflicting-quote": 2 });
    expect(b.report.warnings.filter((w) => w.includes("conflicting-quote"))).toEqual([
      'quotes/2026-11-19.ndjson lines 1 and 7: source "s1" gives seller "alpha" different prices for USD-EGP at the same instant; none of them is used (conflicting-quote, docs/methodology.md §11)',
    ]);
  }, 30_000);

  test("without a conflict nothing changes: no rejection, no warning, and the same prices of two sources at one instant are no conflict", async () => {
    const c = await build([earlier, one, ...peers, again, q("s2", "alpha", 47.9, 48.05, "2026-11-19T08:00:00Z")]);
    expect(c.report.rejectedByReason).toEqual({});
    expect(c.report.warnings.some((w) => w.includes("conflicting-quote"))).toBe(false);
  }, 30_000);
});
