/**
 * Nothing a source sends can cost the hour (issue 42, item 1): bodies of ~3 MB, built to make a
 * backtracking regex or the HTML parser's worst case take minutes, go through the challenge test,
 * the HTML adapter and an operator's field and time regexes. No duration is asserted (performance
 * belongs to `npm run bench`): the old code takes minutes on each of these, so a regression shows as
 * a test that hangs past vitest's timeout; each test asserts what the code reads.
 * And a pattern RE2 cannot run (backreferences, lookaround) is refused when the sources file is
 * read, naming the source and the field.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { challengeOf } from "../../src/ingest/document/body.js";
import { pick } from "../../src/ingest/document/regex.js";
import { parseTime } from "../../src/ingest/document/time.js";
import { htmlQuotes } from "../../src/ingest/adapters/html.js";
import { valueOf } from "../../src/ingest/adapters/seller-document.js";
import { readJson } from "../../src/io/json-file.js";
import { Sources } from "../../src/schema/inputs.js";
import { HtmlSource } from "../../src/schema/document-sources.js";

/** About 3 MB: under the 5 MB cap, and minutes for the old code (560 KB took it 40 s). */
const SIZE = 3 * 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length));

describe("the challenge test reads any body in linear time", () => {
  test.each([
    // The old `<title>access denied</title>[\s\S]*you don't have…` rescanned the rest from every title.
    ["the Access Denied title, repeated, without the sentence", fill("<title>Access Denied</title>"), false, null],
    [
      "the same, the sentence at the very end",
      `${fill("<title>Access Denied</title>")}You don't have permission to access`,
      false,
      'firewall refusal ("Access Denied")',
    ],
    // The old `<div[^>]+id=["']px-captcha` scanned to the end from every `<div` when no `>` came.
    ["`<div ` repeated with no `>`", fill("<div "), false, null],
    [
      "`<div ` repeated, the captcha at the end",
      `${fill("<div ")}id="px-captcha">`,
      false,
      "bot challenge (DataDome/PerimeterX captcha)",
    ],
    ["`<title>` repeated, never closed", fill("<title>blocked "), true, null],
    ["a weak title repeated without `<`", fill("<title>forbidden") + "</title>", true, null],
    ["whitespace after `<title>`", `<title>${fill(" ")}`, true, null],
  ])("%s", (_, body, contentMissing, expected) => {
    expect(challengeOf(body, { contentMissing })).toBe(expected);
  });

  // What the signatures found before the rewrite, they still find (small pages).
  test.each([
    ["<html><title> Just a moment...</title>", false, 'Cloudflare challenge ("Just a moment...")'],
    ["<TITLE>Attention Required! | Cloudflare</TITLE>", false, 'Cloudflare block ("Attention Required!")'],
    ["<script>window._cf_chl_opt={}</script>", false, "Cloudflare challenge"],
    [
      "<p>Request unsuccessful. Incapsula incident ID: 1</p>",
      false,
      'Imperva/Incapsula block ("Request unsuccessful. Incapsula incident ID")',
    ],
    [
      "<title>Access Denied</title><h1>x</h1>You dont have permission to access /",
      false,
      'firewall refusal ("Access Denied")',
    ],
    ["You don't have permission to access<title>Access Denied</title>", true, "firewall refusal page"],
    ["You don't have permission to access<title>Access Denied</title>", false, null],
    [
      "The requested URL was rejected. Please consult with your administrator.",
      false,
      'F5 firewall refusal ("The requested URL was rejected")',
    ],
    ["<div class='a' id='px-captcha'></div>", false, "bot challenge (DataDome/PerimeterX captcha)"],
    ["<div class='a'></div><span id='px-captcha'>", true, "captcha page"],
    ["<title>Are you a robot?</title>", false, "bot challenge page"],
    ["<title>Blocked by policy</title>", true, "firewall refusal page"],
    ["<title>Blocked by policy</title>", false, null],
    ["Please verify you are a human", true, "bot challenge page"],
    ["<script src=/cdn-cgi/challenge-platform/x.js>", true, "Cloudflare challenge"],
    ["<script src=/cdn-cgi/challenge-platform/x.js>", false, null],
    ["<table><tr><td>USD</td></tr></table>", true, null],
  ])("%s (content missing: %s) → %s", (body, contentMissing, expected) => {
    expect(challengeOf(body, { contentMissing })).toBe(expected);
  });
});

const page = (rows: string, tail: string) =>
  `<html><body><table id="rates"><tr><td>USD</td><td>47.50</td><td>47.60</td></tr>${rows}</table>${tail}</body></html>`;
const cfg = HtmlSource.parse({
  id: "hostile",
  name: "Hostile",
  adapter: "html",
  url: "http://127.0.0.1/rates",
  seller: "bank",
  rows: "#rates tr",
  fields: { asset: { cell: 0 }, buy: { cell: 1, regex: "^(?P<value>[\\d.]+)$" }, sell: { cell: 2 } },
});

describe("the HTML adapter reads any page in linear time", () => {
  test.each([
    // node-html-parser's `<!--[\s\S]*?-->` scanned to the end from every unclosed opener.
    ["`<!--` repeated, never closed", fill("<!--")],
    ["`<![CDATA[` repeated, never closed", fill("<![CDATA[")],
    // Elements never closed: each one's children were moved up one level per element left open.
    ["`<div>` repeated, never closed", fill("<div>")],
  ])("%s after the rates: the rates are read", (_, tail) => {
    const out = htmlQuotes(page("", tail), cfg, Date.UTC(2026, 10, 19, 9), new Set(["USD-EGP"]));
    expect(out.quotes.map((q) => [q.asset, q.buy, q.sell])).toEqual([["USD-EGP", 47.5, 47.6]]);
  });

  test("a closed comment before the rates still hides what it holds", () => {
    const html = page("<!-- <tr><td>EUR</td><td>1</td><td>2</td></tr> -->", "<!--");
    const out = htmlQuotes(html, cfg, Date.UTC(2026, 10, 19, 9), new Set(["USD-EGP", "EUR-EGP"]));
    expect(out.quotes.map((q) => q.asset)).toEqual(["USD-EGP"]);
  });
});

describe("an operator's regex runs in RE2, as JavaScript's exec picked", () => {
  // `^(a+)+$` backtracks exponentially in JavaScript on "aaa…b": 30 characters are minutes.
  test.each([
    ["^(a+)+$", `${fill("a")}b`, null],
    ["(x+x+)+y", fill("x"), null],
    ["^(\\d+)*$", `${fill("1")}z`, null],
  ])("/%s/ on ~3 MB built to backtrack: no match", (pattern, text, expected) => {
    expect(valueOf({ v: text }, { path: "v", regex: pattern })).toBe(expected);
  });

  test("a time regex on ~3 MB built to backtrack reads no time", () => {
    const spec = { zone: "Africa/Cairo", regex: "^(\\s*\\S+\\s*)+Z$" };
    expect(parseTime(fill("ab "), spec, 0)).toBeNull();
  });

  test.each([
    ["Buy:\\s*([\\d.,]+)", "Buy: 47.50 Sell: 47.60", "47.50"],
    ["(?P<value>\\d+)\\.(\\d+)", "47.60", "47"],
    ["(?<value>\\d+)\\.(\\d+)", "47.60", "47"],
    ["[\\d.]+", "EGP 47.60", "47.60"],
    ["(x)?(\\d+)", "47", "47"], // a group that took no part: the whole match, as JavaScript's m[1] ?? m[0]
    ["(?P<value>x)?\\d+", "47", "47"],
    ["([a-z]{3})\\.png$", "/flags/usd.png", "usd"],
    ["\\x{0645}(\\d+)", "\u064547", "47"],
    ["^nothing$", "47", null],
  ])("/%s/ on %j → %j", (pattern, text, expected) => {
    expect(pick(pattern, text, "value")).toBe(expected);
  });

  test("a time's group named time, else the first", () => {
    expect(pick("at (?P<time>\\d\\d:\\d\\d) \\((\\w+)\\)", "at 09:30 (Cairo)", "time")).toBe("09:30");
    expect(pick("at (\\d\\d:\\d\\d)", "at 09:30", "time")).toBe("09:30");
  });
});

describe("a regex RE2 refuses stops the sources file when it is read", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hostile-regex-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const html = (id: string, fields: Record<string, unknown>, time?: Record<string, unknown>) => ({
    id,
    name: id,
    adapter: "html",
    url: "https://bank.example/rates",
    seller: "bank",
    rows: "tr",
    fields: { asset: { cell: 0 }, buy: { cell: 1 }, sell: { cell: 2 }, ...fields },
    ...(time ? { time } : {}),
  });
  const document = (id: string, perAsset: unknown) => ({
    id,
    name: id,
    adapter: "seller-document",
    url: "https://dealer.example/prices.json",
    format: "json",
    seller: "dealer",
    fields: {},
    perAsset,
  });

  test.each([
    ["a backreference", html("bank-a", { buy: { cell: 1, regex: "(\\d)\\1" } }), 'source "bank-a": fields.buy.regex'],
    [
      "a lookahead",
      html("bank-b", { sell: { cell: 2, regex: "(?=\\d)[\\d.]+" } }),
      'source "bank-b": fields.sell.regex',
    ],
    ["a lookbehind", html("bank-c", {}, { selector: "p", regex: "(?<=at )(.+)" }), 'source "bank-c": time.regex'],
    [
      "a negative lookahead in perAsset",
      document("dealer-d", [{ asset: { const: "XAU21K-EGP" }, buy: { path: "b", regex: "(?!0)\\d+" }, sell: "s" }]),
      'source "dealer-d": perAsset.0.buy.regex',
    ],
    [
      "JavaScript's \\u escape",
      html("bank-e", { asset: { cell: 0, regex: "\\u0645" } }),
      'source "bank-e": fields.asset.regex',
    ],
  ])("%s is refused, naming the source and the field", async (_, source, named) => {
    const file = path.join(dir, `${(source as { id: string }).id}.json`);
    await writeFile(file, JSON.stringify({ contact: "mailto:ops@feed.test", sources: [source] }));
    const err = await readJson(file, Sources).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe("DataError");
    expect(err?.message).toContain(named);
    expect(err?.message).toContain("RE2");
  });

  test("RE2 syntax the operator writes today is accepted", async () => {
    const file = path.join(dir, "ok.json");
    const source = html(
      "bank-ok",
      { buy: { cell: 1, regex: "Buy:\\s*(?P<value>[\\d.,]+)" } },
      {
        selector: "p",
        regex: "Latest update at\\s*:\\s*(.+)",
      },
    );
    await writeFile(file, JSON.stringify({ contact: "mailto:ops@feed.test", sources: [source] }));
    await expect(readJson(file, Sources)).resolves.toBeTruthy();
  });
});
