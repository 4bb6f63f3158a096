/**
 * The pages' loose ends (issue 43 item 3), on built HTML and as pure functions: the market state
 * said once per home-page table (home.ts tableWhen).
 */
import { describe, expect, test } from "vitest";
import { tableWhen } from "../src/render/pages/home.js";
import type { Asset } from "../src/schema/outputs.js";

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
