/**
 * What the sources configuration can say since the real endpoints were tried (issue 35, item 3):
 * a regex on a JSON field, one record giving several assets, a unit per row, names written with
 * their code ("US Dollar/USD") or by karat ("Gold 24 Karat", «عيار ٢١»), and prices written with
 * the pound's own word ("٦٬٥٤٨٫٥٧ ج.م"). Each table row is one case; the documents are built here.
 */
import { describe, expect, test } from "vitest";
import { namingOf, resolveAsset } from "../../src/ingest/document/names.js";
import { parsePrice } from "../../src/ingest/document/numbers.js";
import { htmlQuotes } from "../../src/ingest/adapters/html.js";
import { documentQuotes, recordsOf, valueOf } from "../../src/ingest/adapters/seller-document.js";
import { HtmlSource, SellerDocumentSource } from "../../src/schema/document-sources.js";

const CATALOG = new Set(["USD-EGP", "EUR-EGP", "JPY-EGP", "XAU24K-EGP", "XAU21K-EGP", "XAU18K-EGP", "GOLDPOUND-EGP"]);
const NOW = Date.parse("2026-11-26T10:00:00Z");
const none = namingOf({});

describe("names written with their code, or gold by its karat", () => {
  test.each([
    ["US Dollar/USD", "USD-EGP", 1],
    ["Euro / EUR", "EUR-EGP", 1],
    ["USD/EGP", "USD-EGP", 1],
    ["100 Japanese Yen/JPY", "JPY-EGP", 100],
    ["US Dollar (USD)", "USD-EGP", 1],
    ["Gold 24 Karat", "XAU24K-EGP", 1],
    ["Gold 21 Carat", "XAU21K-EGP", 1],
    ["24K Gold Bar", "XAU24K-EGP", 1],
    ["عيار 21", "XAU21K-EGP", 1],
    ["عيار ٢١", "XAU21K-EGP", 1],
    ["ذهب عيار ١٨ جرام", "XAU18K-EGP", 1],
    ["سعر الذهب عيار 24", "XAU24K-EGP", 1],
    ["جنيه ذهب عيار 21", "GOLDPOUND-EGP", 1],
    ["Gold Pound", "GOLDPOUND-EGP", 1],
  ])("%s → %s per %d", (name, asset, unit) => {
    expect(resolveAsset(name, none, CATALOG)).toMatchObject({ asset, unit });
  });

  test.each([
    // A karat the catalog does not carry is named, not guessed into another.
    ["Gold 22 Karat", "asset not in the catalog"],
    // A number with no gold word is no karat.
    ["Fund 21", "name not recognised"],
    // A pound with no gold word is not the gold pound.
    ["جنيه", "name not recognised"],
  ])("%s → %s", (name, reason) => {
    expect(resolveAsset(name, none, CATALOG)).toEqual({ reason });
  });
});

describe("prices written with the pound's word", () => {
  test.each<[string, number | null | "bad"]>([
    ["٦٬٥٤٨٫٥٧ ج.م", 6548.57],
    ["6,548.57 ج.م", 6548.57],
    ["6548 جنيه", 6548],
    ["6548 جنيهًا", 6548],
    ["٤٧٫٦٠ جنيه مصري", 47.6],
    ["EGP 47.60", 47.6],
    ["47.60 EGP", 47.6],
    ["47.60 L.E.", 47.6],
    ["47.60 LE", 47.6],
    ["E£ 47.60", 47.6],
    ["\u200f٦٬٥٤٨٫٥٧\u200f ج.م", 6548.57],
    // Any other word is not the pound's, and the cell is not read.
    ["47.60 USD", "bad"],
    ["$ 47.60", "bad"],
    ["47.60 ج.م 48", "bad"],
    ["ج.م", "bad"],
    ["- ج.م", null],
  ])("%j → %j", (text, expected) => {
    expect(parsePrice(text)).toBe(expected);
  });
});

const docSource = (over: object) =>
  SellerDocumentSource.parse({
    id: "dealer",
    name: "Dealer",
    adapter: "seller-document",
    url: "https://dealer.example/prices",
    format: "json",
    seller: "dealer",
    ...over,
  });

describe("a regex on a JSON field", () => {
  test.each<[unknown, { path: string; regex?: string }, unknown]>([
    [{ buyRate: "47.60 EGP" }, { path: "buyRate", regex: "([\\d.]+)" }, "47.60"],
    [{ r: { v: "sell: 48.1" } }, { path: "r.v", regex: "sell: (?<value>[\\d.]+)" }, "48.1"],
    [{ buyRate: 47.6 }, { path: "buyRate", regex: "([\\d.]+)" }, "47.6"],
    [{ buyRate: "n/a" }, { path: "buyRate", regex: "(\\d+\\.\\d+)" }, null],
    [{ buyRate: 47.6 }, { path: "buyRate" }, 47.6],
    [{}, { path: "buyRate", regex: "(.+)" }, undefined],
  ])("%j at %j → %j", (rec, field, expected) => {
    expect(valueOf(rec, field)).toEqual(expected);
  });

  test("a field whose regex does not match is a missing price, said per record", () => {
    const cfg = docSource({
      records: "rates",
      fields: {
        asset: "currencyID",
        buy: { path: "buyRate", regex: "^([\\d.]+) EGP$" },
        sell: { path: "sellRate", regex: "^([\\d.]+) EGP$" },
      },
    });
    const out = documentQuotes(
      JSON.stringify({
        rates: [
          { currencyID: "USD", buyRate: "47.50 EGP", sellRate: "47.60 EGP" },
          { currencyID: "EUR", buyRate: "?", sellRate: "?" },
        ],
      }),
      cfg,
      NOW,
      CATALOG,
    );
    expect(out.quotes).toEqual([expect.objectContaining({ asset: "USD-EGP", buy: 47.5, sell: 47.6 })]);
    expect(out.skipped).toEqual([{ reason: "not dealt (cash)", detail: "record 2: dealer EUR-EGP" }]);
  });
});

describe("one record, several assets", () => {
  const cfg = docSource({
    fields: { time: "DateOfRecord" },
    perAsset: [
      { asset: { const: "XAU24K-EGP" }, buy: "LocalSellPrice24", sell: "LocalPrice24" },
      { asset: { const: "XAU21K-EGP" }, buy: "Sell", sell: "Buy" },
      { asset: { const: "XAU18K-EGP" }, buy: "LocalSellPrice18", sell: "LocalPrice18" },
    ],
    time: { format: "yyyy-MM-dd HH:mm:ss" },
  });
  const record = {
    Buy: "5,740",
    Sell: 5700,
    LocalPrice24: 6560,
    LocalSellPrice24: 6515,
    LocalPrice18: 4920,
    LocalSellPrice18: 4885,
    DateOfRecord: "2026-11-26 11:45:00",
  };

  test("an array of one record gives every karat, each with its own buy and sell, at the record's time", () => {
    const out = documentQuotes(JSON.stringify([record]), cfg, NOW, CATALOG);
    expect(out.quotes.map((q) => [q.asset, q.buy, q.sell, q.observedAt])).toEqual([
      ["XAU24K-EGP", 6515, 6560, "2026-11-26T09:45:00.000Z"],
      ["XAU21K-EGP", 5700, 5740, "2026-11-26T09:45:00.000Z"],
      ["XAU18K-EGP", 4885, 4920, "2026-11-26T09:45:00.000Z"],
    ]);
    expect(out.fetched).toBe(3);
  });

  test("a lone object is one record", () => {
    expect(recordsOf(JSON.stringify(record), { format: "json", records: "" })).toEqual([record]);
    expect(documentQuotes(JSON.stringify(record), cfg, NOW, CATALOG).quotes).toHaveLength(3);
  });

  test("an asset of the record with no price is skipped, the others stand", () => {
    const out = documentQuotes(
      JSON.stringify([{ ...record, LocalPrice18: null, LocalSellPrice18: "" }]),
      cfg,
      NOW,
      CATALOG,
    );
    expect(out.quotes.map((q) => q.asset)).toEqual(["XAU24K-EGP", "XAU21K-EGP"]);
    expect(out.skipped).toEqual([{ reason: "not dealt (cash)", detail: "record 1, asset 3: dealer XAU18K-EGP" }]);
  });

  test.each([
    [{ fields: { asset: "a", buy: "b", sell: "c" }, perAsset: [{ asset: "a", buy: "b", sell: "c" }] }, "not both"],
    [{ fields: {} }, "or perAsset"],
    [{ fields: {}, perAsset: [] }, ">=1"],
  ])("the schema refuses %j", (over, message) => {
    const r = SellerDocumentSource.safeParse({
      id: "d",
      name: "D",
      adapter: "seller-document",
      url: "https://d.example/",
      format: "json",
      seller: "d",
      ...over,
    });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain(message);
  });
});

describe("a unit per row", () => {
  const page = `<table id="g"><thead><tr><th>Karat</th><th>Unit</th><th>Buy</th><th>Sell</th></tr></thead><tbody>
    <tr><td>Gold 24 Karat</td><td>Gram</td><td>6,515 ج.م</td><td>6,560 ج.م</td></tr>
    <tr><td>Gold 24 Karat</td><td>Ounce</td><td>202,640 ج.م</td><td>204,040 ج.م</td></tr>
    <tr><td>عيار ٢١</td><td>جرام</td><td>٥٬٧٠٠</td><td>٥٬٧٤٠</td></tr>
    <tr><td>Gold 21 Karat</td><td>Kilo</td><td>5,700,000</td><td>5,740,000</td></tr>
  </tbody></table>`;
  const cfg = (rowUnits: Record<string, number>) =>
    HtmlSource.parse({
      id: "dealer",
      name: "Dealer",
      adapter: "html",
      url: "https://dealer.example/gold",
      seller: "dealer",
      rows: "#g tbody tr",
      header: "#g thead tr",
      fields: {
        asset: { column: "Karat" },
        unit: { column: "Unit" },
        buy: { column: "Buy" },
        sell: { column: "Sell" },
      },
      rowUnits,
    });

  test("only the units listed are taken: the ounce row never competes with the gram row", () => {
    const out = htmlQuotes(page, cfg({ gram: 1, جرام: 1 }), NOW, CATALOG);
    expect(out.quotes.map((q) => [q.asset, q.buy, q.sell])).toEqual([
      ["XAU24K-EGP", 6515, 6560],
      ["XAU21K-EGP", 5700, 5740],
    ]);
    expect(out.skipped).toEqual([
      { reason: "unit not taken", detail: 'row 2: dealer XAU24K-EGP per "Ounce"' },
      { reason: "unit not taken", detail: 'row 4: dealer XAU21K-EGP per "Kilo"' },
    ]);
  });

  test("a unit listed with its size is divided out: a page with only kilo rows gives per-gram prices", () => {
    const out = htmlQuotes(page, cfg({ kilo: 1000 }), NOW, CATALOG);
    expect(out.quotes.map((q) => [q.asset, q.buy, q.sell])).toEqual([["XAU21K-EGP", 5700, 5740]]);
  });

  test("fields.unit without rowUnits is refused when the sources file is read", () => {
    const r = HtmlSource.safeParse({ ...cfg({ gram: 1 }), rowUnits: {} });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain("fields.unit needs rowUnits");
  });
});
