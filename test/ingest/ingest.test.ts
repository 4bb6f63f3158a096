/**
 * `price-feed ingest` against sources on loopback HTTP: the CBE's token-and-cookie form and its XLSX
 * workbook, the global rates JSON with its fallback, a seller's JSON and CSV, and the demo market.
 * No test reaches the internet.
 */
import { describe, expect, test } from "vitest";
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { runIngest } from "../../src/jobs/ingest.js";
import { excelDate, readForm, workbookRates } from "../../src/ingest/adapters/cbe.js";
import { TROY_OUNCE_GRAMS, globalRates } from "../../src/ingest/adapters/global-rates.js";
import { recordsOf, sellerQuotes } from "../../src/ingest/adapters/seller-document.js";
import { cbePage, cbeWorkbook, excelSerial } from "../helpers/sources-server.js";
import { CONTACT, globalSource, ingestHarness, localSeller, writeAlphaBoard } from "../helpers/ingest.js";
import readXlsxFile from "read-excel-file/universal";

const NOW = Date.parse("2026-11-19T10:30:00Z"); // Thursday 12:30 Cairo
const TOKEN = "tok-3f9a";
const CURRENCIES = {
  "US Dollar": "USD-EGP",
  "Omani Riyal": "OMR-EGP",
  "Chinese Yuan": "CNY-EGP",
  "Japanese Yen 100": { asset: "JPY-EGP", per: 100 },
};
const { serve, dataset, ingest } = ingestHarness();

const lines = async (file: string) =>
  (await fs.readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const quiet = { retries: 2, backoffMs: 5, timeoutMs: 2000 };

async function cbeServer(o: { workbook?: Buffer; page?: string } = {}) {
  const workbook =
    o.workbook ??
    (await cbeWorkbook([
      { date: "2026-11-19", currency: "US Dollar", buy: 47.7456, sell: 47.8507 },
      { date: "2026-11-18", currency: "US Dollar", buy: 47.7012, sell: 47.8011 },
      { date: "2026-11-19", currency: "Japanese Yen 100", buy: 30.8812, sell: 30.9655 },
      { date: "2026-11-19", currency: "Chinese Yuan", buy: 6.7211, sell: 6.7398 },
      { date: "2026-11-19", currency: "Danish Krone", buy: 7.4, sell: 7.42 },
    ]));
  const s = await serve({
    "GET /en/historical-data": (_req, res) =>
      res
        .writeHead(200, {
          "content-type": "text/html",
          "set-cookie": ["ASP.NET_SessionId=abc123; path=/; HttpOnly", "__RequestVerificationToken_L2=c00k; path=/"],
        })
        .end(o.page ?? cbePage(TOKEN, ["US Dollar", "Euro", "Japanese Yen 100", "Chinese Yuan", "Danish Krone"])),
    "POST /api/statistics/GetHistoricalData": (req, res) => {
      const form = new URLSearchParams(req.body);
      const ok =
        form.get("__RequestVerificationToken") === TOKEN &&
        String(req.headers.cookie).includes("ASP.NET_SessionId=abc123") &&
        String(req.headers["user-agent"]).startsWith("Mozilla/5.0");
      if (!ok) return void res.writeHead(403).end("blocked");
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(workbook);
    },
  });
  return s;
}

describe("the CBE adapter", () => {
  test("reads the token and cookies, posts the form, parses the workbook and logs official rates per unit", async () => {
    const cbe = await cbeServer();
    const dir = await dataset([
      {
        id: "cbe",
        name: "Central Bank of Egypt official rates",
        adapter: "cbe",
        pageUrl: `${cbe.url}/en/historical-data`,
        days: 7,
        currencies: CURRENCIES,
      },
    ]);
    const { reports, files } = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    // JPY-EGP is mapped but not in this catalog: read, then left out of the logs.
    expect(reports).toMatchObject([
      {
        id: "cbe",
        ok: true,
        fetched: 5,
        appended: 3,
        skipped: {
          "currency not in the catalog mapping": 1,
          "currency no longer offered by the form": 1,
          "asset not in the catalog": 1,
        },
      },
    ]);
    expect(files).toEqual(["official/2026-11-18.ndjson", "official/2026-11-19.ndjson"]);
    const day = await lines(path.join(dir, "official/2026-11-19.ndjson"));
    expect(day).toEqual([
      { source: "cbe", asset: "USD-EGP", buy: 47.7456, sell: 47.8507, observedAt: "2026-11-18T22:00:00Z" },
      { source: "cbe", asset: "CNY-EGP", buy: 6.7211, sell: 6.7398, observedAt: "2026-11-18T22:00:00Z" },
    ]);
    const [page, post] = cbe.seen;
    expect(page).toMatchObject({ method: "GET" });
    expect(page!.headers["user-agent"]).toContain(CONTACT);
    expect(page!.headers["accept"]).toContain("text/html");
    const form = new URLSearchParams(post!.body);
    expect(form.get("FromDateRaw")).toBe("13/11/2026");
    expect(form.get("ToDateRaw")).toBe("19/11/2026");
    expect(form.getAll("SelectedSelectOptions")).toEqual(["US Dollar", "Chinese Yuan", "Japanese Yen 100"]);
    expect(form.get("SubmitAction")).toBe("2");
    expect(form.get("DataSourceId")).toBe("19CFFDDBFF494350A5E9C6A4397FC7DF");
    expect(cbe.seen).toHaveLength(2); // one page, one form post: asked once per run
  });

  test("a page whose form changed is reported and skipped; the other sources still land; exit status 2", async () => {
    const cbe = await cbeServer({ page: "<html><body>Under maintenance</body></html>" });
    const dir = await dataset([
      { id: "cbe", name: "CBE", adapter: "cbe", pageUrl: `${cbe.url}/en/historical-data`, currencies: CURRENCIES },
      { ...localSeller, id: "s1" },
    ]);
    await writeAlphaBoard(dir);
    const { code, out } = await ingest(dir, "2026-11-19T10:30:00Z", "--timeout", "2000");
    expect(code).toBe(2);
    expect(out).toMatch(/cbe \(cbe\): FAILED in \d+ ms: the page has no form#historicalDataForm/);
    expect(out).toMatch(/s1 \(seller-document\): fetched 1, appended 1, already logged 0 in \d+ ms/);
    expect(await lines(path.join(dir, "quotes/2026-11-19.ndjson"))).toEqual([
      {
        source: "s1",
        seller: "alpha",
        asset: "USD-EGP",
        buy: 47.7,
        sell: 47.85,
        observedAt: "2026-11-19T10:30:00.000Z",
      },
    ]);
    expect(existsSync(path.join(dir, "official"))).toBe(false);
  });

  test.each([
    { name: "a serial day", cell: 46121, date: "2026-04-09" },
    { name: "a serial day as text", cell: "46120", date: "2026-04-08" },
    { name: "a date cell", cell: new Date("2026-04-07T00:00:00Z"), date: "2026-04-07" },
    { name: "garbage", cell: "yesterday", date: null },
  ])("Excel dates: $name", ({ cell, date }) => expect(excelDate(cell)).toBe(date));

  test("a workbook without the header row is a changed shape, not an empty day", () => {
    expect(() => workbookRates([["Rates"], ["When", "What"]], { id: "cbe", currencies: {} })).toThrow(
      /no header row Date, Currency, Buy, Sell/,
    );
    expect(excelSerial("2026-04-09")).toBe(46121);
  });

  test("a currency quoted per 100 units is logged per unit", () => {
    const rows = [
      [null],
      ["Date", "Currency", "Buy", "Sell"],
      [excelSerial("2026-11-19"), "Japanese Yen 100", 30.8812, 30.9655],
    ];
    expect(workbookRates(rows, { id: "cbe", currencies: CURRENCIES }).official).toEqual([
      { source: "cbe", asset: "JPY-EGP", buy: 0.308812, sell: 0.309655, observedAt: "2026-11-18T22:00:00Z" },
    ]);
  });

  const real = path.resolve("../shared/fixtures/cbe");
  test.skipIf(!existsSync(real))(
    "the real recorded page and workbook (../shared/fixtures/cbe), when present",
    async () => {
      const form = readForm(await fs.readFile(path.join(real, "historical-data-page.html"), "utf8"));
      expect(form.action).toBe("/api/statistics/GetHistoricalData");
      expect(form.fields.map(([n]) => n)).toEqual(
        expect.arrayContaining(["__RequestVerificationToken", "DataSourceId", "FallbackUrl", "LanguageName"]),
      );
      expect(form.options).toHaveLength(18);
      const book = await fs.readFile(path.join(real, "historical-data-2026-04-01_2026-04-09.xlsx"));
      const [sheet] = (await readXlsxFile(new Uint8Array(book).buffer)) as unknown as Array<{ data: unknown[][] }>;
      const rates = workbookRates(sheet!.data, { id: "cbe", currencies: CURRENCIES });
      expect(rates.fetched).toBe(18 * 7);
      const usd = rates.official.filter((r) => r.asset === "USD-EGP");
      expect(usd[0]).toEqual({
        source: "cbe",
        asset: "USD-EGP",
        buy: 53.0734,
        sell: 53.2067,
        observedAt: "2026-04-08T22:00:00Z",
      });
      expect(usd.map((r) => r.observedAt.slice(0, 10))).toEqual([
        "2026-04-08",
        "2026-04-07",
        "2026-04-06",
        "2026-04-05",
        "2026-04-04",
        "2026-04-01",
        "2026-03-31",
      ]);
      expect(rates.official.find((r) => r.asset === "JPY-EGP")).toMatchObject({ buy: 0.334068, sell: 0.334928 });
    },
  );
});

describe("the global rates adapter", () => {
  const doc = { date: "2026-11-19", usd: { egp: 47.8, cny: 7.1, omr: 0.3845, xau: 0.00025 } };
  const cfg = {
    id: "glob",
    base: "usd",
    quote: "egp",
    assets: [
      { asset: "USD-EGP", currency: "usd" },
      { asset: "CNY-EGP", currency: "cny" },
      { asset: "XAU24K-EGP", metal: "xau", purity: 0.999, grams: 1 },
      { asset: "XAU21K-EGP", metal: "xau", purity: 0.875, grams: 1 },
      { asset: "GOLDPOUND-EGP", metal: "xau", purity: 0.875, grams: 8 },
      { asset: "SEK-EGP", currency: "sek" },
    ],
  };

  test.each([
    { asset: "USD-EGP", value: 47.8 },
    { asset: "CNY-EGP", value: Math.round((47.8 / 7.1) * 1e6) / 1e6 },
    { asset: "XAU24K-EGP", value: Math.round((47.8 / 0.00025 / TROY_OUNCE_GRAMS) * 0.999 * 1e6) / 1e6 },
    { asset: "XAU21K-EGP", value: Math.round((47.8 / 0.00025 / TROY_OUNCE_GRAMS) * 0.875 * 1e6) / 1e6 },
    { asset: "GOLDPOUND-EGP", value: Math.round((47.8 / 0.00025 / TROY_OUNCE_GRAMS) * 0.875 * 8 * 1e6) / 1e6 },
  ])("derives $asset", ({ asset, value }) => {
    const r = globalRates(doc, cfg, "2026-11-19T10:30:00.000Z");
    expect(r.global.find((g) => g.asset === asset)?.value).toBe(value);
    expect(r.skipped).toEqual([{ reason: "rate missing from the document", detail: "SEK-EGP: sek" }]);
  });

  test("the fallback URL answers when the first fails (after its retries); the document's rates are logged", async () => {
    let primaryHits = 0;
    const s = await serve({
      "GET /primary/usd.json": (_q, res) => void (primaryHits++, res.writeHead(503).end("down")),
      "GET /fallback/usd.json": (_q, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc)),
    });
    const dir = await dataset([
      {
        ...cfg,
        id: "glob",
        name: "Global",
        adapter: "global-rates",
        urls: [`${s.url}/primary/usd.json`, `${s.url}/fallback/usd.json`],
        assets: cfg.assets.slice(0, 3),
      },
    ]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    expect(primaryHits).toBe(3); // the first try and two retries for a 503
    expect(reports[0]).toMatchObject({ ok: true, appended: 3, skipped: { "fallback used": 1 } });
    const logged = await lines(path.join(dir, "global/2026-11-19.ndjson"));
    expect(logged.map((l) => l["asset"])).toEqual(["USD-EGP", "CNY-EGP", "XAU24K-EGP"]);
    expect(logged[0]).toEqual({
      source: "glob",
      asset: "USD-EGP",
      value: 47.8,
      observedAt: "2026-11-19T10:30:00.000Z",
    });
    expect(
      s.seen.every(
        (r) => r.headers["accept"] === "application/json" && String(r.headers["user-agent"]).includes(CONTACT),
      ),
    ).toBe(true);
  });

  test("an old document keeps its own date, so a source that stopped updating shows as stale", () => {
    expect(globalRates({ ...doc, date: "2026-11-10" }, cfg, "2026-11-10T00:00:00.000Z").global[0]!.observedAt).toBe(
      "2026-11-10T00:00:00.000Z",
    );
  });

  test("a 404 is not retried, a timeout is reported, and the run goes on", async () => {
    let hits = 0;
    const s = await serve({
      "GET /gone.json": (_q, res) => void (hits++, res.writeHead(404).end()),
      "GET /slow.json": () => undefined, // never answers
    });
    const dir = await dataset([globalSource("gone", `${s.url}/gone.json`), globalSource("slow", `${s.url}/slow.json`)]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, retries: 1, backoffMs: 5, timeoutMs: 200 });
    expect(hits).toBe(1);
    expect(reports[0]).toMatchObject({ ok: false, error: expect.stringMatching(/HTTP 404/) });
    expect(reports[1]).toMatchObject({ ok: false, error: expect.stringMatching(/timed out after 200 ms/) });
  });
});

describe("the seller-document adapter", () => {
  const fields = { seller: "bank", asset: "currency", buy: "buy", sell: "sell", time: "updated" };

  test("a JSON document at a URL, mapped by the sources file, names translated to ids", async () => {
    const s = await serve({
      "GET /rates": (_q, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            data: {
              rates: [
                {
                  bank: "Alpha Bank",
                  currency: "USD",
                  buy: "47.70",
                  sell: "47.85",
                  updated: "2026-11-19T12:00:00+02:00",
                },
                { bank: "Alpha Bank", currency: "BTC", buy: 1, sell: 2, updated: "2026-11-19T12:00:00+02:00" },
                {
                  bank: "Alpha Bank",
                  currency: "OMR",
                  buy: "n/a",
                  sell: "124.1",
                  updated: "2026-11-19T12:00:00+02:00",
                },
                { bank: "Alpha Bank", currency: "OMR", buy: null, sell: "124.1", updated: 1795082400 },
              ],
            },
          }),
        ),
    });
    const dir = await dataset([
      {
        id: "alpha-site",
        name: "Alpha Bank's rate page",
        adapter: "seller-document",
        url: `${s.url}/rates`,
        format: "json",
        records: "data.rates",
        fields,
        sellers: { "Alpha Bank": "alpha" },
        assets: { USD: "USD-EGP", OMR: "OMR-EGP" },
      },
    ]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    expect(reports[0]).toMatchObject({
      ok: true,
      fetched: 4,
      appended: 2,
      skipped: { "asset not in the catalog": 1, "price is not a number": 1 },
    });
    expect(await lines(path.join(dir, "quotes/2026-11-19.ndjson"))).toEqual([
      {
        source: "alpha-site",
        seller: "alpha",
        asset: "USD-EGP",
        buy: 47.7,
        sell: 47.85,
        observedAt: "2026-11-19T10:00:00.000Z",
      },
      {
        source: "alpha-site",
        seller: "alpha",
        asset: "OMR-EGP",
        buy: null,
        sell: 124.1,
        observedAt: "2026-11-19T10:00:00.000Z",
      },
    ]);
  });

  test("a CSV file at a path", () => {
    const records = recordsOf('bank,currency,buy,sell,updated\nBeta Bank,USD,"47,720.5",47800,2026-11-19T09:00:00Z\n', {
      format: "csv",
      records: "",
    });
    const q = sellerQuotes(
      records,
      { id: "beta-csv", fields, sellers: { "Beta Bank": "beta" }, assets: { USD: "USD-EGP" } },
      NOW,
      new Set(["USD-EGP"]),
    );
    expect(q.quotes).toEqual([
      {
        source: "beta-csv",
        seller: "beta",
        asset: "USD-EGP",
        buy: 47720.5,
        sell: 47800,
        observedAt: "2026-11-19T09:00:00.000Z",
      },
    ]);
  });

  test("a document whose shape changed is a failure, not an empty day", () => {
    expect(() => recordsOf(JSON.stringify({ items: [] }), { format: "json", records: "data.rates" })).toThrow(
      /no array of records at "data.rates"/,
    );
    expect(() => recordsOf("<html>", { format: "json", records: "" })).toThrow(/not JSON/);
  });
});

describe("the run", () => {
  test("running twice for the same instant adds nothing twice; a line once written is never rewritten", async () => {
    const cbe = await cbeServer();
    const dir = await dataset([
      { id: "cbe", name: "CBE", adapter: "cbe", pageUrl: `${cbe.url}/en/historical-data`, currencies: CURRENCIES },
    ]);
    await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    const before = await fs.readFile(path.join(dir, "official/2026-11-19.ndjson"), "utf8");
    const { reports, files } = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    expect(reports[0]).toMatchObject({ appended: 0, duplicates: 3 });
    expect(files).toEqual([]);
    expect(await fs.readFile(path.join(dir, "official/2026-11-19.ndjson"), "utf8")).toBe(before);
  });

  test("network sources need a contact for the User-Agent", async () => {
    const glob = globalSource("glob", "http://127.0.0.1:9/x.json");
    const dir = await dataset([glob], { contact: undefined }); // no "contact" in sources.json
    await expect(runIngest({ dataDir: dir, nowMs: NOW })).rejects.toThrow(
      /sources.json: network sources need a "contact"/,
    );
  });

  test("a typo in a mapping stops the run with the file and the field", async () => {
    const dir = await dataset([
      { id: "x", name: "X", adapter: "seller-document", path: "x.json", format: "xml", fields: {} },
    ]);
    await expect(runIngest({ dataDir: dir, nowMs: NOW })).rejects.toThrow(/sources\.json.*format/s);
  });
});

test("the README's example sources file for a real deployment is valid", async () => {
  const { Sources } = await import("../../src/schema/inputs.js");
  const parsed = Sources.parse(JSON.parse(await fs.readFile("examples/sources.real.json", "utf8")));
  expect(parsed.sources.map((s) => s.adapter)).toEqual(["seller-document", "seller-document", "cbe", "global-rates"]);
  expect(parsed.sources[2]).toMatchObject({ attribution: "Source: Central Bank of Egypt", enabled: true });
});
