/**
 * docs/methodology.md "New sources: probation": who is subject, when a quote counts, a source's
 * standing after each run, and a raw day's quotes set apart — table-driven, worked out by hand.
 */
import { describe, expect, test } from "vitest";
import { afterRun, counting, countingPeriods, subjectSources, type RunResult } from "../../src/rules/probation.js";
import { closeRawDay, sourceOrder } from "../../src/rules/days.js";
import { Sources } from "../../src/schema/inputs.js";
import { MAX_RUNS, ProbationState, type SourceProbation } from "../../src/schema/probation.js";
import { PROBATION_RUNS } from "../../src/core/methodology.js";
import type { LocatedQuote } from "../../src/core/dataset.js";
import type { RejectionReason } from "../../src/core/dataset.js";
import { catalog } from "../helpers/dataset.js";
import { bank } from "../helpers/rules.js";

const sources = Sources.parse({
  sources: [
    { id: "own", name: "own", adapter: "demo", kind: "seller" },
    { id: "relay", name: "relay", adapter: "demo", kind: "aggregator" },
    { id: "trusted", name: "trusted", adapter: "demo", kind: "aggregator", probation: false, note: "seen live" },
    { id: "cbe", name: "cbe", adapter: "demo", kind: "official" },
    { id: "glob", name: "glob", adapter: "demo", kind: "reference" },
  ],
}).sources;

describe("who is on probation", () => {
  test("seller and aggregator sources of the sources file, unless they say probation: false", () => {
    expect([...subjectSources(sources)].sort()).toEqual(["own", "relay"]);
  });
  test.each([
    { source: "own", at: "2026-11-19T10:00:00Z", expected: false, why: "never graduated" },
    { source: "trusted", at: "2026-11-19T10:00:00Z", expected: true, why: "the operator's word" },
    { source: "cbe", at: "2026-11-19T10:00:00Z", expected: true, why: "a yardstick" },
    { source: "by-hand", at: "2026-11-19T10:00:00Z", expected: true, why: "not in the sources file" },
    { source: "relay", at: "2026-11-19T09:59:59Z", expected: false, why: "before its graduation" },
    { source: "relay", at: "2026-11-19T10:00:00Z", expected: true, why: "from its graduation" },
    { source: "relay", at: "2026-11-20T11:59:59Z", expected: true, why: "before its return" },
    { source: "relay", at: "2026-11-20T12:00:00Z", expected: false, why: "from its return" },
    { source: "relay", at: "2026-11-22T08:00:00Z", expected: true, why: "graduated again" },
  ])("$source at $at counts: $expected ($why)", ({ source, at, expected }) => {
    const relay: SourceProbation = {
      standing: "graduated",
      since: "2026-11-22T08:00:00Z",
      runs: [],
      changes: [
        { at: "2026-11-19T10:00:00Z", standing: "graduated", reason: "r" },
        { at: "2026-11-20T12:00:00Z", standing: "probation", reason: "r" },
        { at: "2026-11-22T08:00:00Z", standing: "graduated", reason: "r" },
      ],
    };
    const c = counting(sources, { sources: { relay } });
    expect(c.counts(source, Date.parse(at))).toBe(expected);
    expect(countingPeriods(relay)).toEqual([
      [Date.parse("2026-11-19T10:00:00Z"), Date.parse("2026-11-20T12:00:00Z")],
      [Date.parse("2026-11-22T08:00:00Z"), null],
    ]);
  });
});

/** `n` hourly runs from `start`, each refusing what `refusals(i)` says. */
function runs(start: string, n: number, refusals: (i: number) => RejectionReason[] = () => []): RunResult[] {
  return Array.from({ length: n }, (_, i) => ({
    at: new Date(Date.parse(start) + i * 3_600_000).toISOString().replace(".000Z", "Z"),
    ok: true,
    refusals: refusals(i),
  }));
}
const replay = (list: RunResult[], from?: SourceProbation) => list.reduce<SourceProbation | undefined>(afterRun, from);

describe("graduation and return", () => {
  test.each([
    {
      name: "24 clean runs over two Cairo days graduate",
      // 2026-11-19 12:00 Cairo (10:00Z) to 2026-11-20 11:00 Cairo: two dates.
      list: runs("2026-11-19T10:00:00Z", 24),
      standing: "graduated",
      count: null,
    },
    {
      name: "23 clean runs do not",
      list: runs("2026-11-19T10:00:00Z", 23),
      standing: "probation",
      count: 23,
    },
    {
      name: "24 clean runs within one Cairo day do not (00:00 to 23:00 Cairo)",
      list: runs("2026-11-18T22:00:00Z", 24),
      standing: "probation",
      count: 24,
    },
    {
      name: "…and the 25th, on the next day, graduates",
      list: runs("2026-11-18T22:00:00Z", 25),
      standing: "graduated",
      count: null,
    },
    {
      name: "a refusal by rule 6 in the window holds it back",
      list: runs("2026-11-19T10:00:00Z", 24, (i) => (i === 5 ? ["implausible-sell"] : [])),
      standing: "probation",
      count: 24,
    },
    {
      name: "…until it leaves the last 24 runs",
      list: runs("2026-11-19T10:00:00Z", 30, (i) => (i === 5 ? ["implausible-sell"] : [])),
      standing: "graduated",
      count: null,
    },
    {
      name: "rule 5 (reference asset) and rule 7 (side) hold it back too",
      list: runs("2026-11-19T10:00:00Z", 24, (i) => (i === 0 ? ["reference-asset"] : i === 1 ? ["side-doubtful"] : [])),
      standing: "probation",
      count: 24,
    },
    {
      name: "other refusals (rule 1: an unlicensed seller) do not",
      list: runs("2026-11-19T10:00:00Z", 24, () => ["unlicensed-seller"]),
      standing: "graduated",
      count: null,
    },
    {
      name: "24 runs over two Cairo days but 2 hours (every 5 minutes across midnight) do not: 23 hours are needed",
      list: runs("2026-11-19T21:00:00Z", 24).map((r, i) => ({
        ...r,
        at: new Date(Date.parse("2026-11-19T21:00:00Z") + i * 300_000).toISOString().replace(".000Z", "Z"),
      })),
      standing: "probation",
      count: 24,
    },
    {
      name: "a clock set back: 23 runs in 23 minutes, then one two days earlier, is not counted",
      list: [
        ...runs("2026-11-21T10:00:00Z", 23).map((r, i) => ({
          ...r,
          at: new Date(Date.parse("2026-11-21T10:00:00Z") + i * 60_000).toISOString().replace(".000Z", "Z"),
        })),
        { at: "2026-11-19T10:00:00Z", ok: true, refusals: [] },
      ],
      standing: "probation",
      count: 23,
    },
    {
      name: "a run at the same instant as the last is not counted twice",
      list: [...runs("2026-11-19T10:00:00Z", 23), { at: "2026-11-20T08:00:00Z", ok: true, refusals: [] }],
      standing: "probation",
      count: 23,
    },
    {
      name: "failed runs neither count nor reset",
      list: runs("2026-11-19T10:00:00Z", 30).map((r, i) => (i % 5 === 4 ? { ...r, ok: false, refusals: [] } : r)),
      standing: "graduated",
      count: null,
    },
  ])("$name", ({ list, standing, count }) => {
    const p = replay(list)!;
    expect(p.standing).toBe(standing);
    expect(count === null ? null : p.runs.length).toBe(count);
  });

  test("the graduation is recorded with its instant and reason, and starts counting its quotes", () => {
    const p = replay(runs("2026-11-19T10:00:00Z", 24))!;
    expect(p.changes).toEqual([
      {
        at: "2026-11-20T09:00:00Z",
        standing: "graduated",
        reason:
          "24 successful runs over 2 Cairo days (2026-11-19 to 2026-11-20) with no quote refused by rules 3, 5, 6 or 7",
      },
    ]);
    expect(p.since).toBe("2026-11-20T09:00:00Z");
  });

  const graduated = replay(runs("2026-11-19T10:00:00Z", 24))!;
  test.each([
    { name: "one refusal by rule 6 is not enough", refusals: ["implausible-buy"], standing: "graduated" },
    { name: "two by rules 3 and 7 send it back", refusals: ["crossed", "side-doubtful"], standing: "probation" },
    { name: "two by rule 6 send it back", refusals: ["implausible-sell", "implausible-sell"], standing: "probation" },
    {
      name: "rule 5 does not count for a return (the catalog's to fix)",
      refusals: ["reference-asset", "reference-asset", "implausible-sell"],
      standing: "graduated",
    },
  ] as Array<{ name: string; refusals: RejectionReason[]; standing: string }>)("$name", ({ refusals, standing }) => {
    const p = afterRun(graduated, { at: "2026-11-21T10:00:00Z", ok: true, refusals });
    expect(p.standing).toBe(standing);
    if (standing === "probation") {
      expect(p.runs).toEqual([]);
      expect(p.changes.at(-1)).toMatchObject({ at: "2026-11-21T10:00:00Z", standing: "probation" });
      expect(p.changes.at(-1)!.reason).toMatch(/^2 quotes refused in one run/);
    }
  });

  test.each([
    {
      name: "a quote stamped earlier that day counts from its stamp",
      earliest: "2026-11-20T06:30:00Z",
      countsFrom: "2026-11-20T06:30:00Z",
    },
    {
      name: "a stamp the day before does not reach back (a closed day stays)",
      earliest: "2026-11-19T21:00:00Z",
      countsFrom: undefined,
    },
    { name: "a stamp after the run (clock skew) is not used", earliest: "2026-11-20T09:02:00Z", countsFrom: undefined },
    { name: "no quote time: the run's instant", earliest: undefined, countsFrom: undefined },
  ])("graduating: $name", ({ earliest, countsFrom }) => {
    // The 24th run at 2026-11-20T09:00Z (11:00 in Cairo); 2026-11-19T21:00Z is 23:00 of the 19th in Cairo.
    const list = runs("2026-11-19T10:00:00Z", 24);
    const last = { ...list.at(-1)!, ...(earliest ? { earliest } : {}) };
    const p = replay([...list.slice(0, -1), last])!;
    expect(p.changes.at(-1)?.countsFrom).toBe(countsFrom);
    const from = Date.parse(countsFrom ?? "2026-11-20T09:00:00Z");
    expect(countingPeriods(p)).toEqual([[from, null]]);
  });

  test("a source first seen failing is on probation with no run", () => {
    expect(afterRun(undefined, { at: "2026-11-19T10:00:00Z", ok: false, refusals: [] })).toEqual({
      standing: "probation",
      since: "2026-11-19T10:00:00Z",
      runs: [],
      changes: [],
    });
  });
});

describe("a raw day: quotes on probation are judged, then set apart", () => {
  const usd = catalog.find((a) => a.id === "USD-EGP")!;
  const maps = {
    assets: new Map([[usd.id, usd]]),
    sellers: new Map(["a", "b", "c", "d"].map((s) => [s, bank(s)])),
  };
  const lq = (line: number, source: string, seller: string, buy: number | null, sell: number | null): LocatedQuote => ({
    quote: { source, seller, asset: usd.id, buy, sell, observedAt: "2026-11-19T10:00:00Z" },
    file: "quotes/2026-11-19.ndjson",
    line,
  });
  const day = {
    date: "2026-11-19",
    quotes: [
      lq(1, "trusted", "a", 47.5, 47.6),
      lq(2, "trusted", "b", 47.52, 47.62),
      lq(3, "relay", "c", 47.51, 47.61), // on probation, passes
      lq(4, "relay", "d", 52.9, 53), // on probation: implausible against its three peers' median
      lq(5, "own", "a", 47.4, 47.3), // on probation: crossed
      lq(6, "own", "c", 47.55, 47.65), // on probation, passes: a peer of relay's quotes, never of trusted's
    ],
  };
  const r = closeRawDay(
    day,
    Date.parse("2026-11-19T12:00:00Z"),
    maps,
    { official: new Map() },
    sourceOrder(sources),
    counting(sources, undefined),
  );

  test("only the counted sources' quotes make the closes", () => {
    expect(r.closes).toHaveLength(1);
    expect(r.closes[0]!.closes.map((c) => [c.seller, c.source])).toEqual([
      ["a", "trusted"],
      ["b", "trusted"],
    ]);
    expect(r.closes[0]!.sources).toEqual(["trusted"]);
    expect(r.accepted).toBe(2);
  });

  test("each quote on probation is listed apart with whether it passed", () => {
    expect(r.probation.map((p) => [p.seller, p.source, p.buy, p.sell, p.passed, p.reason])).toEqual([
      ["a", "own", 47.4, 47.3, false, "crossed"],
      ["c", "own", 47.55, 47.65, true, null],
      ["c", "relay", 47.51, 47.61, true, null],
      ["d", "relay", 52.9, 53, false, "implausible-sell"],
    ]);
  });

  test("a quote on probation is judged by every other source, on probation or not (Peers)", () => {
    // d (relay) is judged against a and b (trusted) and c as "own" gives it (on probation): three
    // peers only because a source on probation judges another one; relay's own c is no peer of d,
    // since a source never vouches for itself. Without own's c: two peers, no official rate, no check.
    expect(r.rejected.find((x) => x.seller === "d")?.reason).toBe("implausible-sell");
    const withoutOwn = closeRawDay(
      { date: day.date, quotes: day.quotes.filter((q) => q.line !== 6) },
      Date.parse("2026-11-19T12:00:00Z"),
      maps,
      { official: new Map() },
      sourceOrder(sources),
      counting(sources, undefined),
    );
    expect(withoutOwn.rejected.find((x) => x.seller === "d")).toBeUndefined();
  });

  test("a day with no source on probation is closed as before", () => {
    const all = closeRawDay(
      day,
      Date.parse("2026-11-19T12:00:00Z"),
      maps,
      { official: new Map() },
      sourceOrder(sources),
    );
    expect(all.probation).toEqual([]);
    expect(all.closes[0]!.closes.map((c) => c.seller)).toEqual(["a", "b", "c"]);
  });
});

describe("the record is checked when read (docs/methodology.md §2.4, The record)", () => {
  const grad = { at: "2026-11-20T09:00:00Z", standing: "graduated" as const, reason: "24 runs" };
  const back = { at: "2026-11-21T09:00:00Z", standing: "probation" as const, reason: "2 crossed" };
  const run = (at: string) => ({ at, refused: 0 });
  test.each([
    {
      name: "on probation with no change",
      p: { standing: "probation", since: "2026-11-19T09:00:00Z", runs: [run("2026-11-19T09:00:00Z")], changes: [] },
      error: null,
    },
    {
      name: "graduated by its last change",
      p: { standing: "graduated", since: grad.at, runs: [], changes: [grad] },
      error: null,
    },
    {
      name: "back after a graduation",
      p: { standing: "probation", since: back.at, runs: [], changes: [grad, back] },
      error: null,
    },
    {
      name: "standing probation, last change a graduation (its quotes would count while published on probation)",
      p: { standing: "probation", since: grad.at, runs: [], changes: [grad] },
      error:
        'sources.s.standing: the record contradicts itself: standing "probation" contradicts its last change, a graduation at 2026-11-20T09:00:00Z',
    },
    {
      name: "graduated with no graduation",
      p: { standing: "graduated", since: grad.at, runs: [], changes: [] },
      error: 'sources.s.standing: the record contradicts itself: standing "graduated" with no graduation on record',
    },
    {
      name: "a return first",
      p: { standing: "probation", since: back.at, runs: [], changes: [back] },
      error: "sources.s.changes.0.standing: the record contradicts itself: a return where a graduation must come",
    },
    {
      name: "changes out of order",
      p: {
        standing: "probation",
        since: "2026-11-19T09:00:00Z",
        runs: [],
        changes: [grad, { ...back, at: "2026-11-19T09:00:00Z" }],
      },
      error:
        "sources.s.changes.1.at: the record contradicts itself: 2026-11-19T09:00:00Z is not after the change before it (2026-11-20T09:00:00Z)",
    },
    {
      name: "runs out of order",
      p: {
        standing: "probation",
        since: "2026-11-19T09:00:00Z",
        runs: [run("2026-11-19T10:00:00Z"), run("2026-11-19T09:00:00Z")],
        changes: [],
      },
      error:
        "sources.s.runs.1.at: the record contradicts itself: 2026-11-19T09:00:00Z is not after the run before it (2026-11-19T10:00:00Z)",
    },
    {
      name: "a graduated source with runs",
      p: { standing: "graduated", since: grad.at, runs: [run("2026-11-20T10:00:00Z")], changes: [grad] },
      error: "sources.s.runs: the record contradicts itself: a graduated source keeps no runs towards graduating",
    },
  ])("$name", ({ p, error }) => {
    const r = ProbationState.safeParse({ sources: { s: p } });
    expect(r.success ? null : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")).toBe(error);
  });

  test("the record's bound on runs is the rulebook's", () => {
    expect(MAX_RUNS).toBe(PROBATION_RUNS);
  });
});
