/**
 * Sellers' names matched to the registry (issue 41, item 3): in Arabic or English whatever the
 * spelling — hamza and alef forms, ى/ي, ة/ه, tatweel, harakat, a bracketed abbreviation, «بنك»
 * before or not, case, whitespace and punctuation — and exactly after that, never as a part of
 * another name. A name the registry does not give is never a seller (the rulebook's rule 1): the row
 * is skipped and the name listed in the observations' `unknownSellers`. Table-driven.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  ambiguousSellerNames,
  foldSellerName,
  resolveSeller,
  sellerNamesOf,
  type NamedSeller,
} from "../../src/ingest/document/names.js";
import { htmlQuotes } from "../../src/ingest/adapters/html.js";
import { documentQuotes } from "../../src/ingest/adapters/seller-document.js";
import { HtmlSource, SellerDocumentSource } from "../../src/schema/document-sources.js";
import { Registry } from "../../src/schema/inputs.js";

/** The real deployment's registry, as `init` writes it. */
const REAL = Registry.parse(JSON.parse(readFileSync("examples/egypt/sellers.json", "utf8")));
const REAL_NAMES = sellerNamesOf(REAL);
const NOW = Date.parse("2026-09-13T12:30:00Z");

describe("a seller's name folded", () => {
  test.each([
    // Arabic letter forms: hamza and alef (أ إ آ ٱ → ا), ى → ي, ة → ه.
    ["البنك الأهلى المصرى", "اهلي مصري"],
    ["البنك الاهلي المصري", "اهلي مصري"],
    ["بنك الإسكندرية", "اسكندريه"],
    ["بنك الاسكندريه", "اسكندريه"],
    ["مصرف آبوظبي", "ابوظبي"],
    ["ٱلمصرف المتحد", "متحد"],
    // Tatweel and harakat.
    ["بنـــك القـاهرة", "قاهره"],
    ["بَنْكُ القَاهِرَةِ", "قاهره"],
    // A bracketed abbreviation is left out; alone, it is the name.
    ["البنك التجاري الدولي (CIB)", "تجاري دولي"],
    ["البنك التجاري الدولي（CIB）", "تجاري دولي"],
    ["(CIB)", "cib"],
    // «بنك» before the name or not; only before it.
    ["بنك القاهرة", "قاهره"],
    ["القاهرة", "قاهره"],
    ["ميد بنك", "ميد بنك"],
    ["بنك", "بنك"],
    // English: case, whitespace, punctuation.
    ["  Banque   MISR ", "banque misr"],
    ["Commercial International Bank (CIB)", "commercial international"],
    ["Housing & Development Bank", "housing and development"],
    ["Citibank N.A. – Egypt", "citibank"],
    ["Crédit Agricole Egypt", "credit agricole"],
    // Arabic-Indic digits are digits.
    ["بنك ٦ أكتوبر", "6 اكتوبر"],
  ])("%s → %s", (name, key) => {
    expect(foldSellerName(name)).toBe(key);
  });
});

/** A small registry: names that look alike but are different banks. */
const SMALL: NamedSeller[] = [
  { id: "banque-misr", name: "Banque Misr", nameAr: "بنك مصر" },
  { id: "misr-iran", name: "Misr Iran Development Bank", nameAr: "بنك مصر إيران للتنمية" },
  { id: "nbe", name: "National Bank of Egypt", nameAr: "البنك الأهلي المصري", aliases: ["NBE"] },
  { id: "abk", name: "Al Ahli Bank of Kuwait – Egypt (ABK)", nameAr: "البنك الأهلي الكويتي - مصر" },
  { id: "cib", name: "Commercial International Bank (CIB)", nameAr: "البنك التجاري الدولي" },
  { id: "adib", name: "Abu Dhabi Islamic Bank – Egypt (ADIB)", nameAr: null, aliases: ["مصرف أبوظبى الإسلامى"] },
];
const SMALL_NAMES = sellerNamesOf(SMALL);

describe("a name matched to the registry, exactly after folding", () => {
  test.each<[string, string | null]>([
    ["البنك الأهلى المصرى", "nbe"],
    ["البنك الأهلي المصري", "nbe"],
    ["الأهلي المصري", "nbe"],
    ["national bank of egypt", "nbe"],
    ["NBE", "nbe"], // an alias
    ["بنك مصر", "banque-misr"],
    ["مصر", "banque-misr"], // «بنك» before or not
    ["BANQUE MISR", "banque-misr"],
    ["بنك مصر إيران للتنمية", "misr-iran"],
    ["بنك مصر ايران للتنميه", "misr-iran"],
    ["البنك التجاري الدولي (CIB)", "cib"],
    ["CIB", "cib"], // the registry name's bracketed abbreviation
    ["Commercial International Bank", "cib"],
    ["البنك الأهلي الكويتي - مصر", "abk"],
    ["ABK", "abk"],
    ["مصرف أبوظبي الإسلامي", "adib"], // the alias, spelt otherwise
    ["banque-misr", "banque-misr"], // a registry id as written
    // Never a part of another name, nor a name with a part more or less.
    ["بنك مصر إيران", null],
    ["مصر إيران للتنمية للاستثمار", null],
    ["البنك الأهلي الكويتي", "abk"], // the registry's «- مصر» is a country suffix (issue 51)
    ["البنك الأهلي", null],
    ["البنك الأهلي المصري الكويتي", null],
    ["Banque Misr Egypt", "banque-misr"], // "Egypt" as a suffix
    ["Commercial International", "cib"], // "Bank" after the name is folded away
    ["Commercial", null],
    ["البنك التجاري", null],
    ["nbe bank", "nbe"],
    ["nbe bank cib", null],
    ["", null],
  ])("%s → %s", (name, id) => {
    const r = resolveSeller(name, SMALL_NAMES);
    expect(r).toEqual(id === null ? { unknown: name } : { seller: id });
  });

  test.each<[string, Record<string, string>, string | null]>([
    // The source's own map comes first, matched as the registry's names are.
    ["Banque Misr", { "Banque Misr": "misr-iran" }, "misr-iran"],
    ["بنك القاهره", { "بنك القاهرة": "banque-misr" }, "banque-misr"],
    // A map entry must lead to a registry id: a typo there is a name the registry does not know.
    ["Misr Bank", { "Misr Bank": "banque-misr-typo" }, null],
  ])("%s through the source's sellers %j → %s", (name, map, id) => {
    expect(resolveSeller(name, SMALL_NAMES, map)).toEqual(id === null ? { unknown: name } : { seller: id });
  });

  test("a name two sellers share names neither, and says which", () => {
    const names = sellerNamesOf([...SMALL, { id: "other", name: "Other", nameAr: "بنك مصر" }]);
    expect(resolveSeller("مصر", names)).toEqual({ ambiguous: ["banque-misr", "other"] });
    expect(ambiguousSellerNames(names)).toEqual([{ key: "مصر", ids: ["banque-misr", "other"] }]);
  });
});

describe("the real registry", () => {
  test("no name of one seller is a name of another", () => {
    expect(ambiguousSellerNames(REAL_NAMES)).toEqual([]);
  });

  // The spellings egrates' currency pages use, as the public code that reads them writes them
  // (Seifffffffsamehh/optirate services/providers/egrates_provider.py@ed420944), and as the
  // issue quotes them: each is the registry's seller it names.
  test.each([
    ["البنك الأهلى المصرى", "national-bank-of-egypt"],
    ["البنك الأهلي المصري", "national-bank-of-egypt"],
    ["البنك التجاري الدولي (CIB)", "commercial-international-bank"],
    ["بنك مصر", "banque-misr"],
    ["بنك القاهرة", "banque-du-caire"],
    ["بنك الشركة المصرفية العربية الدولية", "societe-arabe-internationale-de-banque"],
    ["بنك التعمير والإسكان", "housing-and-development-bank"],
    ["مصرف أبوظبى الإسلامى", "abu-dhabi-islamic-bank-egypt"],
    ["مصرف أبوظبي الإسلامي", "abu-dhabi-islamic-bank-egypt"],
    ["البنك المصرى الخليجى", "eg-bank"],
    ["ميد بنك", "midbank"],
    ["المصرف المتحد", "united-bank"],
    ["بنك مصر إيران للتنمية", "midbank"], // its former name (issue 51)
    ["Commercial International Bank (CIB)", "commercial-international-bank"],
    ["National Bank of Egypt", "national-bank-of-egypt"],
  ])("%s → %s", (name, id) => {
    expect(resolveSeller(name, REAL_NAMES)).toEqual({ seller: id });
  });

  test.each([
    "بنك مصر إيران", // a part of midbank's former name: not Banque Misr, not midbank
    "البنك الأهلي اليوناني", // National Bank of Greece, closed in Egypt: not NBE
    "بنك",
    "البنك",
  ])("%s is no seller of the registry", (name) => {
    expect(resolveSeller(name, REAL_NAMES)).toEqual({ unknown: name });
  });
});

describe("an aggregator's rows: an unknown name is skipped and listed, never a seller", () => {
  const page = `<table><tbody>
    <tr><td>البنك الأهلى المصرى</td><td><i data-value="51.32"></i>51.32</td><td><i data-value="51.42"></i>51.42</td></tr>
    <tr><td>البنك الأهلي اليوناني</td><td><i data-value="51.20"></i>51.20</td><td><i data-value="51.30"></i>51.30</td></tr>
    <tr><td>بنك مصر</td><td><i data-value="51.30"></i>51.30</td><td><i data-value="51.40"></i>51.40</td></tr>
    <tr><td>البنك الأهلي اليوناني</td><td>51.21</td><td>51.31</td></tr>
    <tr><td>Bank Zed</td><td><i data-value="51.1"></i>51.1</td><td><i data-value="51.2"></i>51.2</td></tr>
  </tbody></table>`;
  const cfg = HtmlSource.parse({
    id: "egrates-usd",
    name: "egrates: the dollar",
    adapter: "html",
    kind: "aggregator",
    url: "https://egrates.example/currency/usd",
    rows: "table tr",
    fields: {
      seller: { cell: 0 },
      asset: { const: "USD" },
      buy: { cell: 1, selector: "i[data-value]", attr: "data-value" },
      sell: { cell: 2, selector: "i[data-value]", attr: "data-value" },
    },
  });

  test("html: the known banks quote; the others are named, sorted and once each", () => {
    const out = htmlQuotes(page, cfg, NOW, new Set(["USD-EGP"]), REAL_NAMES);
    expect(out.quotes.map((q) => [q.seller, q.buy, q.sell])).toEqual([
      ["national-bank-of-egypt", 51.32, 51.42],
      ["banque-misr", 51.3, 51.4],
    ]);
    expect(out.unknownSellers).toEqual(["Bank Zed", "البنك الأهلي اليوناني"]);
    expect(out.skipped).toEqual([
      // Row 4 has no <i data-value>: the field reads nothing, and the row is skipped for that first.
      { reason: "no buy in the row", detail: "row 4 (3 cells): البنك الأهلي اليوناني 51.21 51.31" },
      {
        reason: "seller not in the registry",
        detail: 'row 2: "البنك الأهلي اليوناني" (add the seller to sellers.json, or the name to its aliases)',
      },
      {
        reason: "seller not in the registry",
        detail: 'row 5: "Bank Zed" (add the seller to sellers.json, or the name to its aliases)',
      },
    ]);
  });

  test("without a registry (a page read on its own), a name is taken as an id, as before", () => {
    const out = htmlQuotes(page, cfg, NOW, new Set(["USD-EGP"]));
    expect(out.quotes.map((q) => q.seller)).toEqual([
      "البنك الأهلى المصرى",
      "البنك الأهلي اليوناني",
      "بنك مصر",
      "Bank Zed",
    ]);
    expect(out.unknownSellers).toEqual([]);
  });

  test("skipSellers: the source does not take a known seller's rows, saying so", () => {
    const out = htmlQuotes(page, { ...cfg, skipSellers: ["banque-misr"] }, NOW, new Set(["USD-EGP"]), REAL_NAMES);
    expect(out.quotes.map((q) => q.seller)).toEqual(["national-bank-of-egypt"]);
    expect(out.skipped).toContainEqual({ reason: "seller not taken from this source", detail: "row 3: banque-misr" });
  });

  test("a page whose every name is unknown fails the source, naming the reason", () => {
    const strangers = `<table><tr><td>Bank Zed</td><td><i data-value="51.1"></i></td><td><i data-value="51.2"></i></td></tr>
      <tr><td>البنك الأهلي اليوناني</td><td><i data-value="51.2"></i></td><td><i data-value="51.3"></i></td></tr></table>`;
    expect(() => htmlQuotes(strangers, cfg, NOW, new Set(["USD-EGP"]), REAL_NAMES)).toThrow(
      /^none of the 2 rows matching "table tr" gives a price \(seller not in the registry; first: row 1: "Bank Zed"/,
    );
  });

  test("json records name their sellers the same way", () => {
    const json = SellerDocumentSource.parse({
      id: "relay",
      name: "A relay",
      adapter: "seller-document",
      kind: "aggregator",
      url: "https://relay.example/rates",
      format: "json",
      fields: { seller: "bank", asset: "code", buy: "buy", sell: "sell" },
    });
    const body = JSON.stringify([
      { bank: "البنك التجاري الدولي (CIB)", code: "USD", buy: 51.35, sell: 51.45 },
      { bank: "البنك الأهلي اليوناني", code: "USD", buy: 51.3, sell: 51.4 },
    ]);
    const out = documentQuotes(body, json, NOW, new Set(["USD-EGP"]), REAL_NAMES);
    expect(out.quotes.map((q) => q.seller)).toEqual(["commercial-international-bank"]);
    expect(out.unknownSellers).toEqual(["البنك الأهلي اليوناني"]);
  });
});
