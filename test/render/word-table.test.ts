/**
 * Every word table of the pages (src/render/pages/*-words.ts, and words.ts's and seller-words.ts's
 * pairs): the same keys in English and Arabic all the way down, the same kind of entry in both (a
 * word, markup, a phrase that takes values, or a table of them), and no empty word. The type of
 * word-table.ts refuses a missing key where the table is written; this holds it for every table,
 * the pairs included, and reads them as a translator's edit leaves them.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SafeHtml } from "../../src/render/pages/html.js";

const PAGES = path.resolve("src/render/pages");
const FILES = readdirSync(PAGES)
  .filter((f) => f.endsWith("-words.ts") || f === "words.ts")
  .sort();

type Entry = unknown;
const isRecord = (x: Entry): x is Record<string, Entry> =>
  typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof SafeHtml);
/** A language table: exactly `en` and `ar`. */
const isLangTable = (x: Entry): x is { en: Entry; ar: Entry } =>
  isRecord(x) && Object.keys(x).sort().join() === "ar,en";
/** A pair: [English, Arabic] (words.ts, seller-words.ts). */
const isPair = (x: Entry): x is [Entry, Entry] =>
  Array.isArray(x) && x.length === 2 && x.every((v) => typeof v === "string" || typeof v === "function");

const kind = (x: Entry) => (x instanceof SafeHtml ? "markup" : isRecord(x) ? "table" : typeof x);

/** Where the English and the Arabic differ in shape, or a word is empty: one line each, by key path. */
function problems(en: Entry, ar: Entry, at: string): string[] {
  if (kind(en) !== kind(ar)) return [`${at}: ${kind(en)} in English, ${kind(ar)} in Arabic`];
  if (typeof en === "string" || en instanceof SafeHtml) {
    const empty = [
      ...(String(en).trim() ? [] : [`${at}: empty in English`]),
      ...(String(ar).trim() ? [] : [`${at}: empty in Arabic`]),
    ];
    return empty;
  }
  if (!isRecord(en) || !isRecord(ar)) return [];
  const keys = new Set([...Object.keys(en), ...Object.keys(ar)]);
  return [...keys].flatMap((k) =>
    !(k in en)
      ? [`${at}.${k}: only in Arabic`]
      : !(k in ar)
        ? [`${at}.${k}: only in English`]
        : problems(en[k], ar[k], `${at}.${k}`),
  );
}

/** A table of pairs, walked: each pair's two entries compared as the two languages' are. */
function pairProblems(x: Entry, at: string): string[] {
  if (isPair(x)) return problems(x[0], x[1], at);
  if (Array.isArray(x)) return [];
  if (isRecord(x)) return Object.entries(x).flatMap(([k, v]) => pairProblems(v, `${at}.${k}`));
  return [];
}

/** Every exported table of a module: language tables, and records whose leaves are pairs. */
async function tablesOf(file: string): Promise<Array<{ name: string; table: Entry }>> {
  const m = (await import(path.join(PAGES, file))) as Record<string, Entry>;
  return Object.entries(m)
    .filter(([, v]) => isLangTable(v) || (isRecord(v) && countPairs(v) > 0))
    .map(([name, table]) => ({ name: `${file} ${name}`, table }));
}
const countPairs = (x: Entry): number =>
  isPair(x) ? 1 : isRecord(x) ? Object.values(x).reduce<number>((n, v) => n + countPairs(v), 0) : 0;

const tables = (await Promise.all(FILES.map(tablesOf))).flat();

describe("the pages' word tables", () => {
  test("there is one beside each page that has words, and the shared ones", () => {
    const names = tables.map((t) => t.name);
    for (const expected of [
      "day-words.ts DAY_WORDS",
      "asset-words.ts ASSET_WORDS",
      "home-words.ts HOME_WORDS",
      "words.ts SIDE_WORDS",
      "seller-words.ts SELLER_WORDS",
    ])
      expect(names).toContain(expected);
    expect(tables.length).toBeGreaterThanOrEqual(20);
  });

  test.each(tables)("$name: the same keys and kinds in both languages, no empty word", ({ table }) => {
    const found = isLangTable(table) ? problems(table.en, table.ar, "") : pairProblems(table, "");
    expect(found).toEqual([]);
  });

  test("a key missing in one language is found", () => {
    expect(problems({ a: "x", b: { c: "y" } }, { a: "س", b: {} }, "")).toEqual([".b.c: only in English"]);
    expect(problems({ a: "x" }, { a: " " }, "")).toEqual([".a: empty in Arabic"]);
    expect(problems({ a: (n: number) => `${n}` }, { a: "س" }, "")).toEqual([
      ".a: function in English, string in Arabic",
    ]);
    expect(pairProblems({ a: ["x", ""] }, "")).toEqual([".a: empty in Arabic"]);
  });
});
