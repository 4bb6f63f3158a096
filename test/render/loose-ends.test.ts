/**
 * The pages' loose ends (issue 43 item 3), as pure functions: the market state said once per
 * home-page table (home.ts tableWhen); which addresses are a page's, which day's address is
 * malformed, and in which language a missing page is said (src/edge/pages.ts).
 */
import { describe, expect, test } from "vitest";
import { tableWhen } from "../../src/render/pages/home.js";
import { isPagePath, languageQuality, malformedDay, pageLanguage } from "../../src/edge/pages.js";
import type { Asset } from "../../src/schema/outputs.js";

type State = Asset["freshness"]["state"];
/** An asset as tableWhen reads it: its freshness and the time of its latest price. */
const asset = (slug: string, state: State, observedAt: string | null = "2026-11-19T14:00:00Z") =>
  ({ slug, freshness: { state }, observedAt }) as unknown as Asset;
const CLOSED = "Market closed: these are the latest prices";
const AT_16 = "Thu 19 Nov · 16:00";

describe("the market state once per table (home.ts tableWhen)", () => {
  const table: Array<[string, Asset[], string, string[]]> = [
    [
      "every row closed at one time: all in the caption, nothing on the rows",
      [asset("a", "closed"), asset("b", "closed"), asset("c", "closed")],
      `${CLOSED} · ${AT_16}`,
      ["", "", ""],
    ],
    [
      "every row closed, at two times: the state in the caption, each row its time",
      [asset("a", "closed"), asset("b", "closed", "2026-11-19T13:58:00Z")],
      CLOSED,
      [AT_16, "Thu 19 Nov · 15:58"],
    ],
    [
      "one row differs: it says its own state; the shared time stays in the caption",
      [asset("a", "closed"), asset("b", "delayed"), asset("c", "closed")],
      `${CLOSED} · ${AT_16}`,
      ["", "Delayed: no new prices for over 3 trading hours", ""],
    ],
    [
      "most rows up to date: no caption (it would cost a line), each row its time, a closed one its state",
      [asset("a", "fresh"), asset("b", "closed"), asset("c", "fresh")],
      "",
      [AT_16, `${CLOSED} · ${AT_16}`, AT_16],
    ],
    [
      "most rows closed, one up to date: that row says so",
      [asset("a", "closed"), asset("b", "fresh"), asset("c", "closed")],
      `${CLOSED} · ${AT_16}`,
      ["", "Up to date", ""],
    ],
    [
      "a tie: the first row's state is the table's",
      [asset("a", "stale"), asset("b", "closed")],
      `Out of date: no new prices for over 8 trading hours · ${AT_16}`,
      ["", CLOSED],
    ],
    [
      "a row without a price: no time to share, each row its own",
      [asset("a", "closed"), asset("b", "closed", null)],
      CLOSED,
      [AT_16, ""],
    ],
  ];
  test.each(table)("%s", (_, assets, caption, rows) => {
    const when = tableWhen(assets, "en");
    expect(when.caption).toBe(caption);
    expect(assets.map(when.row)).toEqual(rows);
  });

  test("in Arabic, the same rule in Arabic words", () => {
    const when = tableWhen([asset("a", "closed"), asset("b", "closed")], "ar");
    expect(when.caption).toBe("السوق مغلق: هذه آخر الأسعار · الخميس، 19 نوفمبر · 16:00");
    expect([asset("a", "closed")].map(when.row)).toEqual([""]);
  });
});

describe("a page's address with no page (src/edge/pages.ts)", () => {
  test.each([
    ["/", true],
    ["/nowhere", true],
    ["/days/2026-13-01/", true],
    ["/ar/assets/bitcoin/", true],
    ["/apis", true],
    ["/api", false],
    ["/api/", false],
    ["/api/v1/nothing.json", false],
    ["/api/v2/feed.json", false],
    ["/readyz", false],
  ])("%s is a page's address: %s", (p, page) => expect(isPagePath(p)).toBe(page));

  test.each([
    ["/days/2026-13-01/", true],
    ["/days/2026-02-30/", true],
    ["/days/2026-1-1/", true],
    ["/days/yesterday", true],
    ["/ar/days/2026-13-01/", true],
    ["/days/2026-11-20/", false], // a date that exists: a 404 when it has no page
    ["/ar/days/2024-02-29/", false],
    ["/days/", false],
    ["/days/2026-13-01/extra/", false], // not a day's address: any missing page
    ["/assets/2026-13-01/", false],
  ])("%s is a malformed day: %s", (p, bad) => expect(malformedDay(p)).toBe(bad));

  test.each([
    [null, "ar", 0],
    ["", "en", 0],
    ["ar", "ar", 1],
    ["ar-EG", "ar", 1],
    ["arabic", "ar", 0],
    ["en-GB,en;q=0.9,ar;q=0.8", "ar", 0.8],
    ["en-GB,en;q=0.9,ar;q=0.8", "en", 1],
    ["en;q=0.9, en-GB;q=0.4", "en", 0.4], // the most specific range that matches wins (RFC 4647 §3.3.2)
    ["*;q=0.5", "ar", 0.5],
    ["*;q=0.5, ar;q=0", "ar", 0],
    ["ar;q=abc", "ar", 1], // a malformed weight is no weight
    ["fr, ar;q=0.5", "ar", 0.5],
  ])("Accept-Language %j: %s at %s", (header, lang, q) => expect(languageQuality(header, lang as "en" | "ar")).toBe(q));

  test.each([
    ["/ar/nowhere", "en", "ar", false],
    ["/ar", "en", "ar", false],
    ["/days/2026-13-01/", "ar", "en", false],
    ["/assets/bitcoin/", "ar", "en", false],
    ["/docs", "ar", "en", false],
    ["/arabic", "ar", "ar", true], // not under /ar/: in neither language, so the reader's
    ["/nowhere", null, "en", true],
    ["/nowhere", "ar-EG,ar;q=0.9,en;q=0.8", "ar", true],
    ["/nowhere", "en;q=0.5,ar;q=0.5", "en", true], // a tie: English
    ["/nowhere", "de", "en", true],
  ])("%s with %j: %s (negotiated: %s)", (p, header, lang, negotiated) =>
    expect(pageLanguage(p, header)).toEqual({ lang, negotiated }),
  );
});
