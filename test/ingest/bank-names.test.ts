/**
 * Egypt's banks as the wild writes them (issue 51): the folds a seller's name goes through, each
 * with its example; the real registry (examples/egypt/sellers.json) as the banks are in 2026, with
 * their short names and former names; near names kept apart; a name two banks could own refused;
 * and a collection of real spellings, each with where it was seen
 * (test/fixtures/names/bank-spellings.json), every one resolved as expected.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  ambiguousSellerNames,
  explainSeller,
  foldSeller,
  nearestSellerKeys,
  resolveSeller,
  sellerKey,
  sellerNamesOf,
  type NamedSeller,
} from "../../src/ingest/document/names.js";
import { Registry } from "../../src/schema/inputs.js";

const REAL = Registry.parse(JSON.parse(readFileSync("examples/egypt/sellers.json", "utf8")));
const NAMES = sellerNamesOf(REAL);

interface Spellings {
  sources: Record<string, string>;
  spellings: Array<{ name: string; expected: string | null; seen: string }>;
}
const COLLECTION = JSON.parse(readFileSync("test/fixtures/names/bank-spellings.json", "utf8")) as Spellings;

const idOf = (name: string, names = NAMES) => {
  const r = resolveSeller(name, names);
  return "seller" in r ? r.seller : null;
};

describe("each fold, with the example docs/operating.md gives", () => {
  test.each<[string, string, string, string]>([
    // [rule, name, the same name written otherwise, their key]
    ["bracket", "البنك التجاري الدولي (CIB)", "البنك التجاري الدولي", "تجاريدولي"],
    ["bracket", "HSBC Bank Egypt (branch)", "HSBC", "hsbc"],
    ["letters", "البنك الأهلى المصرى", "البنك الأهلي المصري", "اهليمصري"],
    ["letters", "مصرف أبوظبـــى الإسلامى", "مصرف ابوظبي الاسلامي", "ابوظبياسلامي"],
    ["letters", "بَنْكُ القَاهِرَةِ", "بنك القاهره", "قاهره"],
    ["letters", "Housing & Development Bank", "Housing And Development Bank", "housinganddevelopment"],
    ["leading", "بنك البركة", "البركة", "بركه"],
    ["leading", "البنك العربي", "المصرف العربي", "عربي"],
    ["leading", "The United Bank", "United", "united"],
    ["leading", "Bank of Alexandria", "Alexandria Bank", "alexandria"],
    ["company", "First Abu Dhabi Bank Misr S.A.E.", "First Abu Dhabi Bank", "firstabudhabi"],
    ["company", "بنك نكست التجاري ش.م.م", "بنك نكست التجاري", "نكستتجاري"],
    ["company", "Citibank N.A.", "Citibank", "citi"],
    ["country", "بنك البركة - مصر", "بنك البركة", "بركه"],
    ["country", "بنك البركة – مصر", "بنك البركة مصر", "بركه"],
    ["country", "بنك البركة بمصر", "البركة", "بركه"],
    ["country", "HSBC - Egypt", "HSBC Egypt", "hsbc"],
    ["country", "FAB Misr", "FAB", "fab"],
    ["trailing", "Suez Canal Bank", "Suez Canal", "suezcanal"],
    ["joined", "بنك أبو ظبي الأول", "بنك أبوظبي الأول", "ابوظبياول"],
    ["joined", "كريدي أجريكول", "كريدى اجريكول", "كريدياجريكول"],
    ["joined", "MIDBANK", "MID Bank", "mid"],
    ["joined", "Al Baraka", "Albaraka", "albaraka"],
  ])("%s: «%s» and «%s» → %s", (rule, a, b, key) => {
    expect(sellerKey(a)).toBe(key);
    expect(sellerKey(b)).toBe(key);
    expect(foldSeller(a).steps.map((s) => s.rule)).toContain(rule);
  });

  test.each<[string, string]>([
    // A fold never leaves nothing, or only a word that is no name.
    ["Banque Misr", "banquemisr"], // not "banque": "Misr" stays
    ["بنك مصر", "مصر"], // not nothing
    ["National Bank of Egypt", "nationalbankofegypt"], // "of Egypt" is the name, not a suffix
    ["بنك", "بنك"],
    ["Bank", "bank"],
    ["The Bank", "thebank"], // only generic words: nothing is dropped
    ["Egypt", "egypt"],
    ["(CIB)", "cib"], // a name that is only its abbreviation
  ])("%s → %s", (name, key) => {
    expect(sellerKey(name)).toBe(key);
  });
});

describe("the collection: real spellings, where each was seen", () => {
  test("at least 150 spellings, each citing a source the file describes", () => {
    expect(COLLECTION.spellings.length).toBeGreaterThanOrEqual(150);
    for (const s of COLLECTION.spellings) expect(COLLECTION.sources[s.seen], s.name).toBeDefined();
    for (const s of COLLECTION.spellings) if (s.expected !== null) expect(NAMES.ids.has(s.expected), s.name).toBe(true);
  });

  test.each(COLLECTION.spellings.map((s) => [s.name, s.expected, s.seen] as const))(
    "%s → %s (seen: %s)",
    (name, expected) => {
      expect(idOf(name)).toBe(expected);
    },
  );
});

describe("near names stay apart", () => {
  test.each<[string, string | null]>([
    // Al Ahli Bank of Kuwait, the National Bank of Egypt and the National Bank of Greece.
    ["Al Ahli Bank of Kuwait - Egypt", "al-ahli-bank-of-kuwait-egypt"],
    ["البنك الأهلي الكويتي - مصر", "al-ahli-bank-of-kuwait-egypt"],
    ["National Bank of Egypt", "national-bank-of-egypt"],
    ["البنك الأهلي المصري", "national-bank-of-egypt"],
    ["البنك الأهلي اليوناني", null],
    ["National Bank of Greece", null],
    // The National Bank of Kuwait is not Al Ahli Bank of Kuwait.
    ["National Bank of Kuwait", "national-bank-of-kuwait-egypt"],
    ["NBK", "national-bank-of-kuwait-egypt"],
    ["ABK", "al-ahli-bank-of-kuwait-egypt"],
    ["بنك الكويت الوطني", "national-bank-of-kuwait-egypt"],
    ["البنك الأهلي الكويتي", "al-ahli-bank-of-kuwait-egypt"],
    // First Abu Dhabi Bank, Abu Dhabi Commercial Bank, Abu Dhabi Islamic Bank: three banks.
    ["FAB", "first-abu-dhabi-bank-misr"],
    ["ADCB", "abu-dhabi-commercial-bank-egypt"],
    ["ADIB", "abu-dhabi-islamic-bank-egypt"],
    ["بنك أبوظبي الأول", "first-abu-dhabi-bank-misr"],
    ["بنك أبوظبي التجاري", "abu-dhabi-commercial-bank-egypt"],
    ["مصرف أبوظبي الإسلامي", "abu-dhabi-islamic-bank-egypt"],
    ["بنك أبوظبي", null],
    ["Abu Dhabi Bank", null],
    // Arab Bank, Arab International Bank, Arab African International Bank: three.
    ["Arab Bank", "arab-bank"],
    ["البنك العربي", "arab-bank"],
    ["Arab International Bank", "arab-international-bank"],
    ["المصرف العربي الدولي", "arab-international-bank"],
    ["Arab African International Bank", "arab-african-international-bank"],
    ["البنك العربي الأفريقي الدولي", "arab-african-international-bank"],
    ["Arab African Bank", null],
    // Cairo Amman Bank is not Banque du Caire.
    ["Cairo Amman Bank", null],
    ["بنك القاهرة عمان", null],
    ["Banque du Caire", "banque-du-caire"],
    ["بنك القاهرة", "banque-du-caire"],
    // Never sellers: the central bank, the parallel market, Egypt Post.
    ["البنك المركزي المصري", null],
    ["Central Bank of Egypt", null],
    ["CBE", null],
    ["السوق السوداء", null],
    ["السوق الموازية", null],
    ["Egypt Post", null],
    ["البريد المصري", null],
    // A part of a name is not the name.
    ["بنك مصر إيران", null],
    ["Misr", null],
    ["Commercial", null],
  ])("%s → %s", (name, id) => {
    expect(idOf(name)).toBe(id);
  });
});

describe("a name two banks could own is refused, never guessed", () => {
  const TWO: NamedSeller[] = [
    { id: "nbe", name: "National Bank of Egypt", nameAr: "البنك الأهلي المصري", aliases: ["البنك الأهلي"] },
    { id: "qnb", name: "QNB Alahli", nameAr: "بنك قطر الوطني الأهلي", aliases: ["QNB"] },
    { id: "abk", name: "Al Ahli Bank of Kuwait – Egypt", nameAr: "البنك الأهلي الكويتي - مصر" },
    { id: "other", name: "Ahli Bank Egypt", nameAr: null },
  ];
  const names = sellerNamesOf(TWO);

  test("a key two sellers share names neither, and the registry check names it", () => {
    // «البنك الأهلي» (nbe's alias) and "Ahli Bank Egypt" fold apart; a fourth seller whose name folds to «اهلي» would not.
    const clash = sellerNamesOf([...TWO, { id: "ahli", name: "Al Ahli", nameAr: "الأهلي - مصر" }]);
    expect(resolveSeller("البنك الأهلي", clash)).toEqual({ ambiguous: ["nbe", "ahli"] });
    expect(ambiguousSellerNames(clash)).toEqual([{ key: "اهلي", ids: ["nbe", "ahli"] }]);
  });

  test("an Arabic part and a Latin part naming two banks: refused", () => {
    expect(resolveSeller("QNB الأهلي", names)).toEqual({ ambiguous: ["nbe", "qnb"] });
  });

  test("both parts naming one bank: that bank; one part unknown: unknown", () => {
    expect(resolveSeller("البنك الأهلي المصري NBE", sellerNamesOf([{ ...TWO[0]!, aliases: ["NBE"] }]))).toEqual({
      seller: "nbe",
    });
    expect(resolveSeller("البنك الأهلي XYZ", names)).toEqual({ unknown: "البنك الأهلي XYZ" });
  });

  test("a bracketed part naming another bank: refused", () => {
    expect(resolveSeller("البنك الأهلي (QNB)", names)).toEqual({ ambiguous: ["nbe", "qnb"] });
    expect(resolveSeller("البنك الأهلي (فرع)", names)).toEqual({ seller: "nbe" });
  });

  test("the real registry has no key two banks share", () => {
    expect(ambiguousSellerNames(NAMES)).toEqual([]);
  });
});

describe("the registry as Egypt's banks are in 2026", () => {
  test.each<[string, string]>([
    ["Arab Investment Bank", "bank-nxt"],
    ["aiBANK", "bank-nxt"],
    ["بنك الاستثمار العربي", "bank-nxt"],
    ["Misr Iran Development Bank", "midbank"],
    ["بنك مصر إيران للتنمية", "midbank"],
    ["Ahli United Bank Egypt", "kuwait-finance-house-egypt"],
    ["Bank Audi Egypt", "first-abu-dhabi-bank-misr"],
    ["Piraeus Bank Egypt", "al-ahli-bank-of-kuwait-egypt"],
    ["NSGB", "qnb-alahli"],
    ["Union National Bank - Egypt", "abu-dhabi-commercial-bank-egypt"],
    ["Blom Bank Egypt", "bank-abc-egypt"],
    ["BNP Paribas Egypt", "emirates-nbd-egypt"],
  ])("a former name, %s, is today's %s", (name, id) => {
    expect(idOf(name)).toBe(id);
    expect(explainSeller(name, NAMES).via).toBe("key");
  });

  test("a closed bank is no seller: National Bank of Greece", () => {
    expect(REAL.some((s) => /greece|اليوناني/i.test(JSON.stringify(s.name) + (s.nameAr ?? "")))).toBe(false);
  });

  test("every bank's names cite two sources at least, every former name one", () => {
    for (const s of REAL.filter((x) => x.kind === "bank")) {
      expect(s.nameEvidence?.length ?? 0, s.id).toBeGreaterThanOrEqual(2);
      for (const f of s.formerNames ?? []) expect(f.evidence.length, `${s.id}: ${f.name}`).toBeGreaterThanOrEqual(1);
    }
  });
});

describe("the nearest keys, for the operator only", () => {
  test("a near spelling is named with its nearest keys, and stays unknown", () => {
    expect(resolveSeller("Banque Misrr", NAMES)).toEqual({ unknown: "Banque Misrr" });
    const near = nearestSellerKeys(sellerKey("Banque Misrr"), NAMES);
    expect(near[0]).toEqual({ key: "banquemisr", ids: ["banque-misr"], distance: 1 });
    expect(near).toHaveLength(3);
  });
});

describe("a hostile name", () => {
  test("a wall of words is unknown at once, never folded word by word", () => {
    const wall = `x ${"bank ".repeat(200_000)}`;
    // Folded word by word, 200,000 trailing "bank"s would be dropped one at a time: the test's time-out.
    expect(resolveSeller(wall, NAMES)).toEqual({ unknown: wall.trim() });
  });
});
