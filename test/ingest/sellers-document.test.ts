/**
 * What every document adapter shares (src/ingest/document): currency and gold names in English and
 * Arabic, prices as pages write them, times in Cairo local time, wrapped JSON, challenge pages; and
 * the parts of the html, xml and seller-document adapters that read them. Table-driven.
 */
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseHtml } from "node-html-parser";
import { ALIASES, asciiDigits, foldName, namingOf, resolveAsset } from "../../src/ingest/document/names.js";
import { parsePrice } from "../../src/ingest/document/numbers.js";
import { parseTime } from "../../src/ingest/document/time.js";
import { challengeOf, decodeBody, parseJsonDocument } from "../../src/ingest/document/body.js";
import { headerColumns, htmlQuotes, textOf } from "../../src/ingest/adapters/html.js";
import { xmlQuotes, xmlRecords } from "../../src/ingest/adapters/xml.js";
import { documentQuotes, recordsOf, sellerQuotes } from "../../src/ingest/adapters/seller-document.js";
import { HtmlSource, XmlSource } from "../../src/schema/document-sources.js";
import { SourceConfig } from "../../src/schema/sources.js";

const FIXTURES = path.resolve("test/fixtures/sellers");
const fixture = (f: string) => readFileSync(path.join(FIXTURES, f), "utf8");
const CATALOG = new Set(
  [
    "USD",
    "EUR",
    "GBP",
    "SAR",
    "AED",
    "KWD",
    "QAR",
    "BHD",
    "OMR",
    "JOD",
    "CHF",
    "JPY",
    "CNY",
    "CAD",
    "AUD",
    "SEK",
    "NOK",
    "DKK",
    "XAU24K",
    "XAU21K",
    "XAU18K",
    "GOLDPOUND",
  ].map((c) => `${c}-EGP`),
);
const NOW = Date.parse("2016-12-04T15:30:00Z");
const none = namingOf({});

describe("names", () => {
  test.each([
    ["U.S. DOLLARS", "us dollar"],
    ["US Dollar", "us dollar"],
    ["STERL. POUNDS", "sterl pound"],
    ["U.A.E DIRHAM", "uae dirham"],
    ["YENS(100)", "yen 100"],
    ["Crédit Agricole", "credit agricole"],
    ["أإآٱ", "اااا"],
    ["مصرفية", "مصرفيه"],
    ["أمريكى", "امريكي"],
    ["الدولار", "دولار"],
    ["اليـــورو", "يورو"],
    ["الدُّولارُ الأَمْرِيكِيُّ", "دولار امريكي"],
    ["عيار ٢٤", "عيار 24"],
    ["  Swiss   Franc ", "swiss franc"],
  ])("foldName(%j) = %j", (name, folded) => {
    expect(foldName(name)).toBe(folded);
  });

  test.each([
    // English, as the recorded pages write them
    ["US Dollar", "USD-EGP", 1],
    ["US DOLLAR", "USD-EGP", 1],
    ["U.S. DOLLARS", "USD-EGP", 1],
    ["U.S. Dollar", "USD-EGP", 1],
    ["US Dollar (USD)", "USD-EGP", 1],
    ["USD       ", "USD-EGP", 1],
    ["usd", "USD-EGP", 1],
    ["EURO", "EUR-EGP", 1],
    ["EURO CURRENCY", "EUR-EGP", 1],
    ["POUND STERLING", "GBP-EGP", 1],
    ["GB POUND", "GBP-EGP", 1],
    ["British Pound", "GBP-EGP", 1],
    ["STERL. POUNDS", "GBP-EGP", 1],
    ["Sterling Pound", "GBP-EGP", 1],
    ["SAUDI RIALS", "SAR-EGP", 1],
    ["Saudi Rial", "SAR-EGP", 1],
    ["U.A.E DIRHAM", "AED-EGP", 1],
    ["EMIRAT DIRHAM", "AED-EGP", 1],
    ["Kuwait DINAR", "KWD-EGP", 1],
    ["KUWAIT DINARS", "KWD-EGP", 1],
    ["QATARI RIAL", "QAR-EGP", 1],
    ["BAHRAIN DINAR", "BHD-EGP", 1],
    ["OMAN RIYAL", "OMR-EGP", 1],
    ["JORDANIAN DINAR", "JOD-EGP", 1],
    ["CANAD. DOLLAR", "CAD-EGP", 1],
    ["NORWEG. KRONE", "NOK-EGP", 1],
    ["DANISH KRONES", "DKK-EGP", 1],
    ["SWEDISH KRONA", "SEK-EGP", 1],
    ["JAPANESE YENS", "JPY-EGP", 1],
    // a unit count in the name
    ["100 Japan Yen", "JPY-EGP", 100],
    ["YENS(100)", "JPY-EGP", 100],
    ["Japanese Yen 100", "JPY-EGP", 100],
    ["١٠٠ ين ياباني", "JPY-EGP", 100],
    // Arabic, with its letter variants, diacritics, tatweel and digits
    ["دولار أمريكي", "USD-EGP", 1],
    ["الدولار الأمريكى", "USD-EGP", 1],
    ["الدُّولار الأمْريكيّ", "USD-EGP", 1],
    ["يورو", "EUR-EGP", 1],
    ["اليـــورو", "EUR-EGP", 1],
    ["الجنيه الإسترلينى", "GBP-EGP", 1],
    ["جنيه استرليني", "GBP-EGP", 1],
    ["ريال سعودى", "SAR-EGP", 1],
    ["درهم اماراتى", "AED-EGP", 1],
    ["دينار كويتي", "KWD-EGP", 1],
    ["ريال قطرى", "QAR-EGP", 1],
    ["فرنك سويسرى", "CHF-EGP", 1],
    ["يوان صينى", "CNY-EGP", 1],
    // gold
    ["عيار 24 ", "XAU24K-EGP", 1],
    ["عيار ٢١", "XAU21K-EGP", 1],
    ["ذهب عيار 18", "XAU18K-EGP", 1],
    ["Gold 24K", "XAU24K-EGP", 1],
    ["21 Karat", "XAU21K-EGP", 1],
    ["جنيه ذهب", "GOLDPOUND-EGP", 1],
    ["Gold Pound", "GOLDPOUND-EGP", 1],
    // a catalog id as is
    ["USD-EGP", "USD-EGP", 1],
  ])("%j is %s, per %i", (name, asset, unit) => {
    expect(resolveAsset(name, none, CATALOG)).toMatchObject({ asset, unit });
  });

  test.each([
    ["CYPRUS POUND", "name not recognised"],
    ["عيار 999", "name not recognised"],
    ["أوقية الذهب", "name not recognised"],
    ["BTC", "asset not in the catalog"],
    ["Hong Kong Dollar (HKD)", "asset not in the catalog"],
    ["", "no asset name"],
    ["   ", "no asset name"],
  ])("%j is not read: %s", (name, reason) => {
    expect(resolveAsset(name, none, CATALOG)).toEqual({ reason });
  });

  test("a source's own names and units come first, whatever their spelling", () => {
    const naming = namingOf({
      assets: { BAD: "BHD-EGP", QTR: "QAR-EGP", "Swidish Krone": "SEK-EGP", USD: "USD-EGP" },
      units: { JPY: 100, "CHF-EGP": 10 },
    });
    expect(resolveAsset("BAD", naming, CATALOG)).toMatchObject({ asset: "BHD-EGP", unit: 1 });
    expect(resolveAsset("QTR       ", naming, CATALOG)).toMatchObject({ asset: "QAR-EGP" });
    expect(resolveAsset("SWIDISH KRONE", naming, CATALOG)).toMatchObject({ asset: "SEK-EGP" });
    expect(resolveAsset("Japanese Yen", naming, CATALOG)).toMatchObject({ asset: "JPY-EGP", unit: 100 });
    // The configured unit replaces the name's, it does not multiply it.
    expect(resolveAsset("100 Japan Yen", naming, CATALOG)).toMatchObject({ asset: "JPY-EGP", unit: 100 });
    expect(resolveAsset("Swiss Franc", naming, CATALOG)).toMatchObject({ asset: "CHF-EGP", unit: 10 });
    // A map to an asset the catalog does not have is still not in the catalog.
    expect(resolveAsset("Omani", namingOf({ assets: { Omani: "OMR-XXX" } }), CATALOG)).toEqual({
      reason: "asset not in the catalog",
    });
  });

  test("the built-in table maps every code to itself and holds no name twice for two codes", () => {
    for (const code of [
      "USD",
      "EUR",
      "GBP",
      "CHF",
      "JPY",
      "SAR",
      "AED",
      "KWD",
      "QAR",
      "BHD",
      "OMR",
      "JOD",
      "CNY",
      "XAU24K",
      "GOLDPOUND",
    ])
      expect(ALIASES.get(foldName(code))).toBe(code);
    expect(asciiDigits("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ ٤٧٫٨٥ ١٬٢٣٤")).toBe("0123456789 0123456789 47.85 1,234");
  });
});

describe("prices", () => {
  test.each<[unknown, number | null | "bad"]>([
    ["17.5", 17.5],
    ["  17.75 ", 17.75],
    ["\n\t\t\t\t\t\t\t\t\t17.5\n\t\t\t\t\t\t\t\t", 17.5],
    ["17.620000", 17.62],
    [".5", 0.5],
    ["1775", 1775],
    ["1,234.56", 1234.56],
    ["41,160", 41160],
    ["1,234,567.5", 1234567.5],
    ["47 850.5", 47850.5],
    ["47\u00a0850", 47850],
    ["٤٧٫٨٥", 47.85],
    ["٤٧٬٨٥٠٫٥", 47850.5],
    ["۱۷٫۵", 17.5],
    [47.5, 47.5],
    // not dealt
    ["", null],
    ["   ", null],
    ["-", null],
    ["--", null],
    ["—", null],
    ["–", null],
    ["0", null],
    ["0.00", null],
    ["٠", null],
    [0, null],
    [null, null],
    [undefined, null],
    // not a number: never guessed
    ["17,50", "bad"],
    ["1,2345", "bad"],
    ["1.2.3", "bad"],
    ["n/a", "bad"],
    ["USD 15.4118", "bad"],
    ["51.34 0.137%", "bad"],
    ["12%", "bad"],
    ["-5", "bad"],
    [-5, "bad"],
    [Number.NaN, "bad"],
    [true, "bad"],
  ])("parsePrice(%j) = %j", (text, expected) => {
    expect(parsePrice(text)).toBe(expected);
  });
});

describe("times", () => {
  const cairo = (format: string | string[] | undefined, regex?: string) => ({ format, zone: "Africa/Cairo", regex });
  test.each<[string, ReturnType<typeof cairo>, string | null]>([
    // The recorded pages, Cairo local time without a zone; 2016: Egypt kept no daylight saving (UTC+2).
    [
      "Latest update at : 04/12/2016 08:31:20",
      cairo("d/M/yyyy H:mm:ss", "Latest update at\\s*:\\s*(.+)"),
      "2016-12-04T06:31:20.000Z",
    ],
    [
      "Last Updated on: 04-12-2016 09:24:54 AM | Quotes: 11101",
      cairo("d-M-yyyy h:mm:ss a", "Last Updated on:\\s*(\\d{1,2}-\\d{1,2}-\\d{4} \\d{1,2}:\\d{2}:\\d{2} [AP]M)"),
      "2016-12-04T07:24:54.000Z",
    ],
    ["12/4/2016 1:10:37 PM", cairo("M/d/yyyy h:mm:ss a"), "2016-12-04T11:10:37.000Z"],
    ["29/12/2016 - 02:25 PM", cairo("d/M/yyyy - h:mm a"), "2016-12-29T12:25:00.000Z"],
    ["2016-12-04 09:24:19", cairo("yyyy-MM-dd H:mm:ss"), "2016-12-04T07:24:19.000Z"],
    // 2026: summer time (UTC+3) from the last Friday of April to the last Thursday of October.
    ["10-09-2026 14:28:09", cairo("d-M-yyyy H:mm:ss"), "2026-09-10T11:28:09.000Z"],
    ["14:54 13/09/2026", cairo("H:mm d/M/yyyy"), "2026-09-13T11:54:00.000Z"],
    ["23/04/2026 12:00", cairo("d/M/yyyy H:mm"), "2026-04-23T10:00:00.000Z"],
    ["24/04/2026 12:00", cairo("d/M/yyyy H:mm"), "2026-04-24T09:00:00.000Z"],
    ["29/10/2026 12:00", cairo("d/M/yyyy H:mm"), "2026-10-29T09:00:00.000Z"],
    ["30/10/2026 12:00", cairo("d/M/yyyy H:mm"), "2026-10-30T10:00:00.000Z"],
    ["19/11/2026 12:30", cairo("d/M/yyyy H:mm"), "2026-11-19T10:30:00.000Z"],
    // Arabic digits and ص / م for AM / PM
    ["٠٤/١٢/٢٠١٦ ١٠:٠٥ م", cairo("d/M/yyyy h:mm a"), "2016-12-04T20:05:00.000Z"],
    [
      "آخر تحديث: ٠٤/١٢/٢٠١٦ ١٠:٠٥ ص",
      cairo("d/M/yyyy h:mm a", "(\\d{1,2}/\\d{1,2}/\\d{4} .+)$"),
      "2016-12-04T08:05:00.000Z",
    ],
    // A date alone: the run's instant when it is today in Cairo, else the start of that Cairo day.
    ["4/12/2016", cairo("d/M/yyyy"), "2016-12-04T15:30:00.000Z"],
    ["04 December 2016", cairo("dd MMMM yyyy"), "2016-12-04T15:30:00.000Z"],
    ["01/12/2016", cairo("d/M/yyyy"), "2016-11-30T22:00:00.000Z"],
    // Formats tried in order
    ["04-12-2016 09:24:54 AM", cairo(["d-M-yyyy H:mm:ss", "d-M-yyyy h:mm:ss a"]), "2016-12-04T07:24:54.000Z"],
    // No format: ISO 8601 with an offset, or epoch
    ["2026-11-19T12:00:00+02:00", cairo(undefined), "2026-11-19T10:00:00.000Z"],
    ["1795082400", cairo(undefined), "2026-11-19T10:00:00.000Z"],
    ["2026-11-19 12:00", cairo(undefined), null],
    // What does not read is null, never a guess
    ["Latest update at : soon", cairo("d/M/yyyy H:mm:ss", "Latest update at\\s*:\\s*(.+)"), null],
    ["no time here", cairo("d/M/yyyy H:mm:ss", "Latest update at\\s*:\\s*(.+)"), null],
    ["31/02/2016 10:00:00", cairo("d/M/yyyy H:mm:ss"), null],
  ])("%j with %j", (text, spec, expected) => {
    const ms = parseTime(text, spec, NOW);
    expect(ms === null ? null : new Date(ms).toISOString()).toBe(expected);
  });

  test("another zone when the page names it", () => {
    expect(new Date(parseTime("04/12/2016 08:31", { format: "d/M/yyyy H:mm", zone: "UTC" }, NOW)!).toISOString()).toBe(
      "2016-12-04T08:31:00.000Z",
    );
  });
});

describe("bodies", () => {
  test.each<[string, unknown]>([
    ['{"d":[{"CurrencyID":"USD"}]}', [{ CurrencyID: "USD" }]],
    ['"{\\"d\\":[1,2]}"', [1, 2]],
    ['{"d":"[1,2]"}', [1, 2]],
    ['"[1]"', [1]],
    ['{"d":[1],"e":2}', { d: [1], e: 2 }],
    ['{"rates":[1]}', { rates: [1] }],
    ["\ufeff[1]", [1]],
  ])("parseJsonDocument(%j)", (text, doc) => {
    expect(parseJsonDocument(text)).toEqual(doc);
  });

  test("bytes are decoded by the charset the answer declares, then the page's", () => {
    const arabic = new Uint8Array([0xc7, 0xe1, 0xcf, 0xe6, 0xe1, 0xc7, 0xd1]); // "الدولار" in windows-1256
    expect(decodeBody(arabic, "text/html; charset=windows-1256")).toBe("الدولار");
    const page = new TextEncoder().encode('<meta charset="utf-8"><p>يورو</p>');
    expect(decodeBody(page, "text/html")).toContain("يورو");
    expect(decodeBody(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c, 0x61, 0x3e]), null)).toBe("<a>");
  });

  test.each([
    ["challenge-cloudflare.html", 'Cloudflare challenge ("Just a moment...")'],
    ["challenge-incapsula.html", 'Imperva/Incapsula block ("Request unsuccessful. Incapsula incident ID")'],
    ["challenge-access-denied.html", 'firewall refusal ("Access Denied")'],
  ])("%s is a challenge page even when it could hold content", (file, what) => {
    expect(challengeOf(fixture(file), { contentMissing: false })).toBe(what);
  });

  test("weak signs count only when the content is missing: real pages carry captchas and vendor scripts", () => {
    expect(challengeOf(fixture("challenge-captcha.html"), { contentMissing: false })).toBeNull();
    expect(challengeOf(fixture("challenge-captcha.html"), { contentMissing: true })).toBe("captcha page");
    const realPageBits = [
      `<meta http-equiv="Content-Security-Policy" content="img-src 'self' *.CaptchaImage.axd">`, // ABK Egypt, 2016
      `var _wpcf7 = {"recaptcha":{"messages":{"empty":"Please verify that you are not a robot."}}};`, // Crédit Agricole Egypt, 2016
      `<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`,
      `<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e"></script>`,
    ];
    for (const bit of realPageBits)
      expect(
        challengeOf(`<html><body>${bit}<table><tr><td>USD</td></tr></table></body></html>`, { contentMissing: false }),
        bit,
      ).toBeNull();
    for (const file of [
      "nbe-rates-2016.html",
      "abk-egypt-rates-2016.html",
      "credit-agricole-egypt-rates-2016.html",
      "ta3weem-cib-2026-reduced-fixture.html",
      "cib-rates-2016.json",
    ])
      expect(challengeOf(fixture(file), { contentMissing: false }), file).toBeNull();
  });
});

describe("the html adapter", () => {
  const page = (rows: string, head = "<tr><th>Currency</th><th>Buy</th><th>Sell</th></tr>") =>
    `<html><body><p id="t">Latest update at : 04/12/2016 08:31:20</p><table id="r"><thead>${head}</thead><tbody>${rows}</tbody></table></body></html>`;
  const cfg = (over: object = {}) =>
    HtmlSource.parse({
      id: "bank",
      name: "Bank",
      adapter: "html",
      url: "https://bank.example/rates",
      seller: "bank",
      rows: "#r tbody tr",
      header: "#r thead tr",
      fields: { asset: { column: "Currency" }, buy: { column: "Buy" }, sell: { column: "Sell" } },
      time: { selector: "#t", regex: "at\\s*:\\s*(.+)", format: "d/M/yyyy H:mm:ss" },
      ...over,
    });

  test("two header rows, spans expanded: each column is named by its path", () => {
    const html = parseHtml(fixture("banquemisr-rates-2026-reduced-fixture.html"));
    const rows = html.querySelectorAll("thead tr");
    const cellsOf = (r: (typeof rows)[number]) => r.querySelectorAll("td");
    expect(headerColumns(rows, cellsOf)).toEqual([
      ["Currency"],
      ["Notes", "Buy"],
      ["Notes", "Sell"],
      ["Transfer", "Buy"],
      ["Transfer", "Sell"],
    ]);
    expect(textOf(parseHtml(fixture("ta3weem-cib-2026-reduced-fixture.html")).querySelectorAll("td")[3]!)).toBe(
      "14:54 13/09/2026",
    );
  });

  test("cash or transfer, thousands separators, Arabic digits, not-dealt cells and the yen per 100", () => {
    const html = page(
      `<tr><td>US Dollar</td><td>47.70</td><td>47.85</td><td>47.71</td><td>47.86</td></tr>
       <tr><td>الجنيه الإسترلينى</td><td>٦٠٫١٢</td><td>٦٠٫٥٠</td><td>60.10</td><td>60.48</td></tr>
       <tr><td>Kuwaiti Dinar</td><td>0</td><td>-</td><td>155.2</td><td>156.1</td></tr>
       <tr><td>100 Japan Yen</td><td>30.88</td><td>31.02</td><td>30.9</td><td>31</td></tr>
       <tr><td>Gold 24K</td><td>6,012.5</td><td>6,050</td><td></td><td></td></tr>
       <tr><td>Silver</td><td>70</td><td>75</td><td></td><td></td></tr>
       <tr><td></td><td></td><td></td><td></td><td></td></tr>`,
      `<tr><th rowspan="2">Currency</th><th colspan="2">Notes</th><th colspan="2">Transfer</th></tr><tr><th>Buy</th><th>Sell</th><th>Buy</th><th>Sell</th></tr>`,
    );
    const fields = {
      asset: { column: "Currency" },
      buy: { column: ["Notes", "Buy"] },
      sell: { column: "Notes / Sell" },
      transferBuy: { column: "transfer buy" },
      transferSell: { column: ["TRANSFER", "SELL"] },
    };
    const cash = htmlQuotes(html, cfg({ fields }), NOW, CATALOG);
    const at = "2016-12-04T06:31:20.000Z";
    expect(cash.quotes).toEqual([
      { source: "bank", seller: "bank", asset: "USD-EGP", buy: 47.7, sell: 47.85, observedAt: at },
      { source: "bank", seller: "bank", asset: "GBP-EGP", buy: 60.12, sell: 60.5, observedAt: at },
      { source: "bank", seller: "bank", asset: "JPY-EGP", buy: 0.3088, sell: 0.3102, observedAt: at },
      { source: "bank", seller: "bank", asset: "XAU24K-EGP", buy: 6012.5, sell: 6050, observedAt: at },
    ]);
    expect(cash.fetched).toBe(6); // the blank row is not a row of rates
    expect(cash.skipped.map((s) => s.reason)).toEqual(["not dealt (cash)", "asset not in the catalog"]);
    const transfer = htmlQuotes(html, cfg({ fields, take: "transfer" }), NOW, CATALOG);
    expect(transfer.quotes.map((q) => [q.asset, q.buy, q.sell])).toEqual([
      ["USD-EGP", 47.71, 47.86],
      ["GBP-EGP", 60.1, 60.48],
      ["KWD-EGP", 155.2, 156.1],
      ["JPY-EGP", 0.309, 0.31],
    ]);
  });

  test("an aggregator's rows name their seller; a row's own time is read per row", () => {
    const html = `<table id="r"><tr><th>Bank</th><th>Currency</th><th>Buy</th><th>Sell</th><th>Updated</th></tr>
      <tr><td>Banque Misr</td><td>USD</td><td>51.27</td><td>51.37</td><td><span>14:28</span><span>10/09/2026</span></td></tr>
      <tr><td>البنك الأهلى المصرى</td><td>USD</td><td>51.25</td><td>51.35</td><td><span>99:99</span><span>10/09/2026</span></td></tr></table>`;
    const agg = HtmlSource.parse({
      id: "agg",
      name: "Aggregator",
      adapter: "html",
      kind: "aggregator",
      url: "https://agg.example/",
      rows: "#r tr",
      header: "#r tr:first-child",
      fields: {
        seller: { column: "Bank" },
        asset: { column: "Currency" },
        buy: { column: "Buy" },
        sell: { column: "Sell" },
        time: { column: "Updated" },
      },
      sellers: { "Banque Misr": "banque-misr", "البنك الأهلي المصري": "national-bank-of-egypt" },
      time: { format: "H:mm d/M/yyyy" },
    });
    const out = htmlQuotes(html, agg, NOW, CATALOG);
    expect(out.quotes).toEqual([
      {
        source: "agg",
        seller: "banque-misr",
        asset: "USD-EGP",
        buy: 51.27,
        sell: 51.37,
        observedAt: "2026-09-10T11:28:00.000Z",
      },
    ]);
    expect(out.skipped).toEqual([{ reason: "unreadable time", detail: "row 2: 99:99 10/09/2026" }]);
  });

  test.each<[string, string, object, RegExp]>([
    [
      "the rows are gone",
      "<html><body><p id='t'>Latest update at : 04/12/2016 08:31:20</p><div id='rates-app'></div></body></html>",
      {},
      /^no rows match "#r tbody tr": the page has changed shape$/,
    ],
    [
      "the header is gone",
      page("<tr><td>USD</td><td>1</td><td>2</td></tr>").replace(/<thead>.*<\/thead>/, ""),
      {},
      /^no header row matches "#r thead tr"/,
    ],
    [
      "a column was renamed",
      page("<tr><td>USD</td><td>1</td><td>2</td></tr>", "<tr><th>Currency</th><th>We buy</th><th>Sell</th></tr>"),
      {},
      /^no column headed "Buy" \(the headers are "Currency", "We buy", "Sell"\)$/,
    ],
    [
      "two columns share the header",
      page(
        "<tr><td>USD</td><td>1</td><td>2</td><td>1</td><td>2</td></tr>",
        "<tr><th>Currency</th><th>Buy</th><th>Sell</th><th>Buy</th><th>Sell</th></tr>",
      ),
      {},
      /^more than one column headed "Buy"/,
    ],
    [
      "the time element is gone",
      page("<tr><td>USD</td><td>1</td><td>2</td></tr>").replace('id="t"', 'id="x"'),
      {},
      /^no time element matches "#t"/,
    ],
    [
      "the time changed its format",
      page("<tr><td>USD</td><td>1</td><td>2</td></tr>").replace("04/12/2016 08:31:20", "Sunday 4 December"),
      {},
      /^the page's time "Latest update at : Sunday 4 December" does not read as d\/M\/yyyy H:mm:ss \(Africa\/Cairo\)/,
    ],
    [
      "the prices are pictures",
      page(
        "<tr><td>USD</td><td><img src='usd-buy.png'></td><td><img src='usd-sell.png'></td></tr><tr><td>EUR</td><td><img src='b.png'></td><td><img src='s.png'></td></tr>",
      ),
      {},
      /^the prices are drawn as images \(2 rows/,
    ],
    [
      "no row gives a number",
      page("<tr><td>USD</td><td>call us</td><td>call us</td></tr>"),
      {},
      /^none of the 1 rows matching "#r tbody tr" gives a price \(price is not a number; first: row 1: bank USD-EGP "call us"\)$/,
    ],
    [
      "every row is not dealt",
      page("<tr><td>USD</td><td>-</td><td>-</td></tr>"),
      {},
      /gives a price \(not dealt \(cash\)/,
    ],
    [
      "a captcha stands where the rates were",
      "<html><body><div class='g-recaptcha'></div></body></html>",
      {},
      /bot challenge or firewall page \(captcha page\)/,
    ],
    ["the rows selector is not CSS", page(""), { rows: "tr[" }, /^the rows selector "tr\[" is not valid CSS/],
    [
      "a field selector is not CSS",
      page("<tr><td>USD</td><td>1</td><td>2</td></tr>"),
      {
        fields: { asset: { column: "Currency" }, buy: { column: "Buy", selector: "span[" }, sell: { column: "Sell" } },
      },
      /^the field selector "span\[" is not valid CSS/,
    ],
    [
      "the time selector is not CSS",
      page("<tr><td>USD</td><td>1</td><td>2</td></tr>"),
      { time: { selector: "p[", format: "d/M/yyyy" } },
      /^the time selector "p\[" is not valid CSS/,
    ],
  ])("%s: the source fails", (_what, html, over, error) => {
    expect(() => htmlQuotes(html, cfg(over), NOW, CATALOG)).toThrow(error);
  });

  test("an image beside a number (a flag, an arrow) is not a price drawn as an image", () => {
    const out = htmlQuotes(
      fixture("ta3weem-cib-2026-reduced-fixture.html"),
      HtmlSource.parse({
        id: "t",
        name: "t",
        adapter: "html",
        kind: "aggregator",
        url: "https://t.example/",
        seller: "commercial-international-bank",
        rows: "tbody tr",
        header: "thead tr",
        fields: {
          asset: { column: "Currency" },
          buy: { column: "Buy Rate", selector: "span" },
          sell: { column: "Sell Rate", selector: "span" },
        },
      }),
      NOW,
      CATALOG,
    );
    expect(out.quotes).toMatchObject([
      { asset: "USD-EGP", buy: 51.34, sell: 51.44, observedAt: new Date(NOW).toISOString() },
    ]);
  });
});

describe("the xml adapter", () => {
  const edbe = XmlSource.parse({
    id: "edbe",
    name: "EDBE",
    adapter: "xml",
    url: "https://edbe.example/rates.xml",
    seller: "export-development-bank-of-egypt",
    records: "Details.rates",
    fields: {
      asset: "{name}",
      buy: "@{name}Bbuy",
      sell: "@{name}Bsell",
      transferBuy: "@{name}Tbuy",
      transferSell: "@{name}Tsell",
      time: "@exchangeDate",
    },
    time: { format: "d/M/yyyy" },
  });

  test("rates in attributes, one row per currency the attributes name", () => {
    const records = xmlRecords(fixture("edbe-rates-2016.xml"), edbe, NOW);
    expect(records.map((r) => r.asset)).toEqual(["USD", "EUR", "GBP", "CHF", "JPY"]);
    const out = xmlQuotes(
      fixture("edbe-rates-2016.xml"),
      { ...edbe, take: "transfer" },
      Date.parse("2016-12-06T10:00:00Z"),
      CATALOG,
    );
    // Two days later, the file's date is the start of its own Cairo day.
    expect(out.quotes[0]).toEqual({
      source: "edbe",
      seller: "export-development-bank-of-egypt",
      asset: "USD-EGP",
      buy: 17.72,
      sell: 18,
      observedAt: "2016-12-03T22:00:00.000Z",
    });
  });

  test("records as elements with attributes or children", () => {
    const doc = `<?xml version="1.0" encoding="utf-8"?><rates updated="2026-11-19T12:00:00+02:00"><rate code="USD"><buy>47.70</buy><sell>47.85</sell></rate><rate code="EUR"><buy>-</buy><sell>55.1</sell></rate></rates>`;
    const cfg = XmlSource.parse({
      id: "x",
      name: "x",
      adapter: "xml",
      path: "x.xml",
      seller: "x",
      records: "rates.rate",
      fields: { asset: "@code", buy: "buy", sell: "sell" },
    });
    expect(xmlQuotes(doc, cfg, NOW, CATALOG).quotes.map((q) => [q.asset, q.buy, q.sell])).toEqual([
      ["USD-EGP", 47.7, 47.85],
      ["EUR-EGP", null, 55.1],
    ]);
  });

  test.each([
    [
      "the records moved",
      `<Details><rate USDBbuy="1" USDBsell="2"/></Details>`,
      /^no element at "Details.rates": the document has changed shape$/,
    ],
    [
      "the attributes were renamed",
      `<Details><rates USD_cash_buy="1" exchangeDate="04/12/2016"/></Details>`,
      /^record 1 at "Details.rates" has nothing that fits "@\{name\}Bbuy"/,
    ],
    ["not XML", `<html><body><p>Sorry<br></body>`, /^not well-formed XML/],
    ["a challenge page", fixture("challenge-access-denied.html"), /bot challenge or firewall page/],
  ])("%s: the source fails", (_what, text, error) => {
    expect(() => xmlQuotes(text, edbe, NOW, CATALOG)).toThrow(error);
  });
});

describe("the seller-document adapter", () => {
  test("ASP.NET's d member, codes as names, no time: the run's instant", () => {
    const records = recordsOf(fixture("cib-rates-2016.json"), { format: "json", records: "" });
    const out = sellerQuotes(
      records,
      {
        id: "cib",
        seller: "commercial-international-bank",
        fields: { asset: "CurrencyID", buy: "BuyRate", sell: "SellRate" },
      },
      NOW,
      CATALOG,
    );
    expect(out.quotes).toHaveLength(6);
    expect(out.quotes[0]).toEqual({
      source: "cib",
      seller: "commercial-international-bank",
      asset: "USD-EGP",
      buy: 17.5,
      sell: 17.75,
      observedAt: "2016-12-04T15:30:00.000Z",
    });
  });

  test("a CSV with Arabic headers and gold names", () => {
    const records = recordsOf(fixture("isagha-market-prices.csv"), { format: "csv", records: "" });
    const out = sellerQuotes(
      records,
      { id: "board", seller: "some-dealer", fields: { asset: "العيار", buy: "سعر الشراء", sell: "سعر البيع" } },
      NOW,
      CATALOG,
    );
    expect(out.quotes.map((q) => [q.asset, q.buy, q.sell])).toEqual([
      ["XAU24K-EGP", 5851.5, 5880],
      ["XAU21K-EGP", 5120, 5145],
      ["XAU18K-EGP", 4388.5, 4410],
      ["GOLDPOUND-EGP", 40960, 41160],
    ]);
    expect(out.skipped.filter((s) => s.reason === "no asset name")).toHaveLength(1);
  });

  test("a local time with a format, and the transfer rates", () => {
    const records = [{ c: "دولار أمريكي", b: "47.70", s: "47.85", tb: "47.72", ts: "47.86", t: "19/11/2026 12:30" }];
    const out = sellerQuotes(
      records,
      {
        id: "d",
        seller: "bank",
        fields: { asset: "c", buy: "b", sell: "s", transferBuy: "tb", transferSell: "ts", time: "t" },
        take: "transfer",
        time: { format: "d/M/yyyy H:mm", zone: "Africa/Cairo" },
      },
      NOW,
      CATALOG,
    );
    expect(out.quotes).toEqual([
      {
        source: "d",
        seller: "bank",
        asset: "USD-EGP",
        buy: 47.72,
        sell: 47.86,
        observedAt: "2026-11-19T10:30:00.000Z",
      },
    ]);
  });

  test("a document none of whose records gives a price fails, and a challenge read as CSV names the challenge", () => {
    const csv = SourceConfig.parse({
      id: "c",
      name: "c",
      adapter: "seller-document",
      path: "x.csv",
      format: "csv",
      seller: "bank",
      fields: { asset: "currency", buy: "buy", sell: "sell" },
    });
    if (csv.adapter !== "seller-document") throw new Error("unreachable");
    expect(() => documentQuotes("currency,buy,sell\nUSD,call,call\n", csv, NOW, CATALOG)).toThrow(
      /^none of the 1 records gives a price \(price is not a number; first: record 1: bank USD-EGP "call"\)$/,
    );
    expect(() => documentQuotes("currency,buy,sell\n", csv, NOW, CATALOG)).toThrow(/^the document has no records$/);
    expect(() => documentQuotes(fixture("challenge-captcha.html").replace(/\n/g, " "), csv, NOW, CATALOG)).toThrow(
      /bot challenge or firewall page \(captcha page\)/,
    );
  });

  test("a challenge page where JSON was expected names the challenge", () => {
    expect(() => recordsOf(fixture("challenge-incapsula.html"), { format: "json", records: "" })).toThrow(/Incapsula/);
    expect(() => recordsOf("<html><body>Service unavailable</body></html>", { format: "json", records: "" })).toThrow(
      /^not JSON/,
    );
  });
});

describe("the sources file", () => {
  const html = {
    id: "b",
    name: "B",
    adapter: "html",
    url: "https://b.example/",
    rows: "tr",
    fields: { asset: { cell: 0 }, buy: { cell: 1 }, sell: { cell: 2 } },
  };
  test.each<[string, object, RegExp]>([
    ["neither seller nor fields.seller", html, /exactly one of seller/],
    [
      "both seller and fields.seller",
      { ...html, seller: "b", fields: { ...html.fields, seller: { cell: 3 } } },
      /exactly one of seller/,
    ],
    ["transfer without transfer fields", { ...html, seller: "b", take: "transfer" }, /take "transfer" needs/],
    [
      "a column without a header",
      { ...html, seller: "b", fields: { ...html.fields, buy: { column: "Buy" } } },
      /need a header selector/,
    ],
    [
      "a bad regex",
      { ...html, seller: "b", fields: { ...html.fields, buy: { cell: 1, regex: "([" } } },
      /not a valid regular expression/,
    ],
    [
      "an unknown zone",
      { ...html, seller: "b", time: { selector: "p", format: "d/M/yyyy", zone: "Cairo/Nowhere" } },
      /not a known time zone/,
    ],
    ["both a url and a path", { ...html, seller: "b", path: "x.html" }, /exactly one of url and path/],
    ["an unknown kind", { ...html, seller: "b", kind: "bank" }, /^kind: /],
    [
      "a cell and a column",
      { ...html, seller: "b", header: "th", fields: { ...html.fields, buy: { cell: 1, column: "Buy" } } },
      /at most one of cell and column/,
    ],
  ])("%s is refused when the file is read", (_what, src, error) => {
    const r = SourceConfig.safeParse(src);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")).toMatch(error);
  });
});
