/**
 * The rehearsal's oracle (src/rehearse/oracle): each rule it implements, on tables of tiny hand-made
 * days and data folders; then the oracle against a real build (no difference), against a build
 * whose best was replaced by the worst seller (caught), and its probation replay against ingest's
 * own record.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { judgeDay, type DayContext } from "../../src/rehearse/oracle/judge.js";
import type { RawQuote } from "../../src/rehearse/oracle/data.js";
import { midHalf, roundHalf } from "../../src/rehearse/oracle/rulebook.js";
import {
  checkProbation,
  compareAssets,
  compareFeed,
  expectFeed,
  expectStanding,
  judgeRun,
  type Run,
} from "../../src/rehearse/oracle/index.js";
import type { ProbationState, SourceProbation } from "../../src/schema/probation.js";
import { runBuild } from "../../src/jobs/build.js";
import { recordProbation } from "../../src/jobs/probation-runs.js";
import { catalog, registry, sources as testSources, tempDir, writeDataset, type Rows } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

/** The test registry and two more banks: rule 6 wants three other sellers. */
const sellers = [
  ...registry,
  ...["delta", "epsilon"].map((id) => ({
    id,
    name: `${id[0]!.toUpperCase()}${id.slice(1)} Bank`,
    nameAr: null,
    kind: "bank" as const,
    licensedBy: "CBE",
    categories: ["currencies"],
  })),
];

const DATE = "2026-11-19"; // Cairo is UTC+2 in November
const NOW = Date.parse(`${DATE}T12:00:00Z`);
const at = (hhmm: string, date = DATE) => `${date}T${hhmm}:00Z`;

const q = (
  source: string,
  seller: string,
  buy: number | null,
  sell: number | null,
  o: Partial<RawQuote> = {},
): RawQuote => ({
  source,
  seller,
  asset: "USD-EGP",
  buy,
  sell,
  observedAt: at("09:00"),
  ...o,
});

/** A day's context over the test catalog: sources s1, s2, s3, agg, p in that order; `own` the seller sources. */
function ctx(
  o: Partial<DayContext> & { probation?: string[]; officialUsd?: number | null; globalGold?: number } = {},
): DayContext {
  const order = ["s1", "s2", "s3", "s4", "agg", "p"];
  const onProbation = new Set(o.probation ?? []);
  return {
    date: DATE,
    nowMs: NOW,
    assets: new Map(catalog.map((a) => [a.id, a])),
    sellers: new Map(sellers.map((s) => [s.id, s])),
    rank: (s) => (order.includes(s) ? order.indexOf(s) : order.length),
    own: (s) => s === "s1",
    counts: (source) => !onProbation.has(source),
    official: (asset) =>
      asset === "USD-EGP" && o.officialUsd !== null
        ? { buy: (o.officialUsd ?? 50) - 0.1, sell: o.officialUsd ?? 50 }
        : null,
    global: (asset) => (asset === "XAU24K-EGP" ? (o.globalGold ?? null) : null),
    ...o,
  };
}

const reasons = (quotes: RawQuote[], c = ctx()) => judgeDay(quotes, c).quotes.map((j) => j.reason);

describe("rounding half away from zero, on the printed decimal (§3.1)", () => {
  it.each([
    [1.005, 2, 1.01],
    [1.004999, 2, 1],
    [-1.005, 2, -1.01],
    [49.995, 2, 50],
    [0.004, 2, 0],
    [-0.004, 2, 0],
    [6049.5, 0, 6050],
    [123.45678, 4, 123.4568],
    [1e-7, 2, 0],
    [12.5, 0, 13],
  ])("%d at %i decimals is %d", (x, d, want) => {
    expect(Object.is(roundHalf(x, d), want)).toBe(true);
  });

  it.each([
    [12.92, 12.95, 2, 12.94],
    [55.8, 55.93, 2, 55.87],
    [49.9, 50.01, 2, 49.96],
    [6000, 6051, 0, 6026],
    [49.9, 50, 2, 49.95],
  ])("the mid of %d and %d is %d: the exact half goes away from zero", (a, b, d, want) => {
    expect(midHalf(a, b, d)).toBe(want);
  });
});

describe("accepting quotes, rules 1–7 with the peers of 2026-11-29", () => {
  const peers = [q("s2", "beta", 49.8, 50.1), q("s2", "gamma", 49.7, 50), q("s3", "delta", 49.8, 50.1)];
  it.each<[string, RawQuote[], DayContext, Array<string | null>]>([
    ["rule 1: a seller not in the registry", [q("s1", "street", 49, 50)], ctx(), ["unlicensed-seller"]],
    [
      "rule 1: a bank quoting gold",
      [q("s1", "alpha", 6000, 6050, { asset: "XAU24K-EGP" })],
      ctx(),
      ["not-licensed-for-category"],
    ],
    ["rule 2: no price at all", [q("s1", "alpha", null, null)], ctx(), ["no-price"]],
    ["rule 2: a zero", [q("s1", "alpha", 0, 50)], ctx(), ["non-positive-price"]],
    ["rule 2: a price that rounds to zero", [q("s1", "alpha", null, 0.004)], ctx(), ["non-positive-price"]],
    ["rule 2: a price too large to round exactly", [q("s1", "alpha", null, 1e22)], ctx(), ["out-of-range-price"]],
    ["rule 3: crossed", [q("s1", "alpha", 50.2, 50)], ctx(), ["crossed"]],
    ["rule 3: equal once rounded is not crossed", [q("s1", "alpha", 49.996, 49.995)], ctx(), [null]],
    [
      "rule 4: not an instant",
      [q("s1", "alpha", 49.9, 50, { observedAt: "2026-11-19 09:00" })],
      ctx(),
      ["invalid-observedAt"],
    ],
    [
      "rule 4: six minutes ahead of the build",
      [q("s1", "alpha", 49.9, 50, { observedAt: at("12:06") })],
      ctx(),
      ["observed-in-future"],
    ],
    [
      "rule 4: four minutes ahead is the clock's skew",
      [q("s1", "alpha", 49.9, 50, { observedAt: at("12:04") })],
      ctx(),
      [null],
    ],
    ["rule 5: a reference asset", [q("s1", "alpha", 6.7, 6.72, { asset: "CNY-EGP" })], ctx(), ["reference-asset"]],
    [
      "a quote of another Cairo day",
      [q("s1", "alpha", 49.9, 50, { observedAt: at("21:00", "2026-11-18") })],
      ctx(),
      ["wrong-day-file"],
    ],
    [
      "rule 6: 15 % above the median of three other sellers from other sources",
      [q("s1", "alpha", 49.9, 57.6), ...peers],
      ctx(),
      ["implausible-sell", null, null, null],
    ],
    ["rule 6: 9 % off stays", [q("s1", "alpha", 49.9, 54.5), ...peers], ctx(), [null, null, null, null]],
    [
      "rule 6: fewer than three peers: the official rate",
      [q("s1", "alpha", 49.9, 56), q("s2", "beta", 49.8, 50.1)],
      ctx({ officialUsd: 50 }),
      ["implausible-sell", null],
    ],
    [
      "Peers: a source never vouches for itself — a page misread whole agrees with itself, the official rate does not",
      [
        q("agg", "alpha", 99.6, 100),
        q("agg", "beta", 99.7, 100.2),
        q("agg", "gamma", 99.5, 100.1),
        q("agg", "delta", 99.8, 100.3),
      ],
      ctx({ officialUsd: 50 }),
      ["implausible-sell", "implausible-sell", "implausible-sell", "implausible-sell"],
    ],
    [
      "Peers: a counted quote is judged by counted sources only (three on probation at 60 do not refuse it)",
      [q("s1", "alpha", 49.9, 50), q("p", "beta", 59.8, 60), q("p", "gamma", 59.9, 60.1), q("p", "delta", 59.8, 60)],
      ctx({ probation: ["p"], officialUsd: 50 }),
      [null, "implausible-sell", "implausible-sell", "implausible-sell"],
    ],
    [
      "Peers: a quote on probation is judged against every other source, counted or not",
      [q("p", "alpha", 59.9, 60), q("s1", "beta", 49.8, 50.1), q("s2", "gamma", 49.7, 50), q("p2", "delta", 49.8, 50)],
      ctx({ probation: ["p", "p2"], officialUsd: null }),
      ["implausible-sell", null, null, null],
    ],
    [
      "rule 6, gold: the global reference, 25 % below to 60 % above",
      [
        q("s1", "dahab", 6000, 6350, { asset: "XAU24K-EGP" }),
        q("s2", "sagha", 6000, 6500, { asset: "XAU24K-EGP" }),
        q("s3", "dahab", 2950, null, { asset: "XAU24K-EGP" }),
      ],
      ctx({ globalGold: 4000 }),
      [null, "implausible-sell", "implausible-buy"],
    ],
    ["rule 6: no yardstick at all, no check", [q("s1", "alpha", 10, 11)], ctx({ officialUsd: null }), [null]],
    [
      "rule 7: a lone buy above the others' sell median",
      [q("s1", "alpha", 50.3, null), q("s2", "beta", 49.8, 50.1)],
      ctx(),
      ["side-doubtful", null],
    ],
    [
      "rule 7: a lone sell below the others' buy median",
      [q("s1", "alpha", null, 49.5), q("s2", "beta", 49.8, 50.1)],
      ctx(),
      ["side-doubtful", null],
    ],
    [
      "rule 7: the other seller from the same source is no peer, so no check",
      [q("s2", "alpha", 50.3, null), q("s2", "beta", 49.8, 50.1)],
      ctx(),
      [null, null],
    ],
    [
      "§11: one source's two prices at one instant are both refused; another source's quote stands",
      [q("s2", "alpha", 49.8, 50), q("s2", "alpha", 49.85, 50.05), q("s3", "alpha", 49.8, 50)],
      ctx(),
      ["conflicting-quote", "conflicting-quote", null],
    ],
    [
      "§11: the same price told twice is one observation",
      [q("s2", "alpha", 49.8, 50), q("s2", "alpha", 49.8, 50)],
      ctx(),
      [null, null],
    ],
    [
      "§11: an outlier of the group is implausible, and the good quote stays",
      [q("s2", "alpha", 49.8, 50), q("s2", "alpha", 60, 61)],
      ctx({ officialUsd: 50 }),
      [null, "implausible-sell"],
    ],
  ])("%s", (_, quotes, c, want) => {
    expect(reasons(quotes, c)).toEqual(want);
  });

  it("§2.3: the seller's own publication first, then the latest, then the source listed first", () => {
    const day = judgeDay(
      [
        q("agg", "alpha", 49.7, 50.05, { observedAt: at("11:00") }),
        q("s1", "alpha", 49.6, 50, { observedAt: at("09:00") }),
        q("s3", "beta", 49.7, 50.2, { observedAt: at("10:00") }),
        q("s2", "beta", 49.75, 50.15, { observedAt: at("10:00") }),
        q("s3", "gamma", 49.7, 50.1, { observedAt: at("10:30") }),
        q("s2", "gamma", 49.7, 50.0, { observedAt: at("10:00") }),
      ],
      ctx(),
    );
    const closes = day.assets.get("USD-EGP")!.closes;
    expect([...closes.values()].map((c) => [c.seller, c.source, c.sell, c.sources])).toEqual([
      ["alpha", "s1", 50, ["agg", "s1"]],
      ["beta", "s2", 50.15, ["s2", "s3"]],
      ["gamma", "s3", 50.1, ["s2", "s3"]],
    ]);
    expect(day.assets.get("USD-EGP")!.sources).toEqual(["agg", "s1", "s2", "s3"]);
    expect(day.assets.get("USD-EGP")!.disagree).toBe(false);
  });

  it("§2.4: a quote of a source on probation is judged, then in no close", () => {
    const day = judgeDay([q("s1", "alpha", 49.8, 50), q("p", "beta", 49.8, 50.1)], ctx({ probation: ["p"] }));
    expect(day.quotes.map((j) => [j.reason, j.counted])).toEqual([
      [null, true],
      [null, false],
    ]);
    expect([...day.assets.get("USD-EGP")!.closes.keys()]).toEqual(["alpha"]);
  });
});

describe("where a source stands after a run (§2.4 with the rulebook's 23 hours)", () => {
  const hourly = (n: number, start = Date.parse("2026-11-18T10:00:00Z"), stepMs = 3_600_000) =>
    Array.from({ length: n }, (_, i) => new Date(start + i * stepMs).toISOString().replace(".000Z", "Z"));
  const replay = (ats: string[], run: (at: string, i: number) => Partial<Run> = () => ({}), prev?: SourceProbation) => {
    let p = prev;
    const moves: Array<[number, string]> = [];
    for (const [i, a] of ats.entries()) {
      const before = p?.changes.length ?? 0;
      p = expectStanding(p, { at: a, ok: true, refusals: [], ...run(a, i) });
      if (p.changes.length > before) moves.push([i + 1, p.changes.at(-1)!.standing]);
    }
    return { p: p!, moves };
  };

  it.each<[string, string[], (at: string, i: number) => Partial<Run>, Array<[number, string]>]>([
    ["24 hourly runs over two Cairo days graduate on the 24th", hourly(30), () => ({}), [[24, "graduated"]]],
    [
      "24 runs inside one Cairo day do not; the 25th, past midnight, does",
      hourly(26, Date.parse("2026-11-17T22:00:00Z")), // 00:00 Cairo on the 18th
      () => ({}),
      [[25, "graduated"]],
    ],
    [
      "half-hourly runs: any 24 span 11.5 hours, never 23, so no graduation",
      hourly(48, Date.parse("2026-11-18T15:00:00Z"), 1_800_000),
      () => ({}),
      [],
    ],
    ["a failed run neither counts nor resets", hourly(30), (_, i) => ({ ok: i % 2 === 1 }), []],
    [
      "a run with a quote refused by rule 5 holds it for 24 runs",
      hourly(50),
      (_, i) => ({ refusals: i === 3 ? ["reference-asset"] : ["unlicensed-seller"] }),
      [[28, "graduated"]],
    ],
    [
      "graduated, two refusals by rules 3, 6 or 7 in one run send it back; rule 5 does not",
      hourly(40),
      (_, i) => ({
        refusals:
          i === 29
            ? ["reference-asset", "reference-asset", "crossed"]
            : i === 30
              ? ["side-doubtful", "implausible-sell"]
              : [],
      }),
      [
        [24, "graduated"],
        [31, "probation"],
      ],
    ],
  ])("%s", (_, ats, run, moves) => {
    expect(replay(ats, run).moves).toEqual(moves);
  });

  it("a run stamped before the last one counted is not counted", () => {
    const ats = hourly(24);
    const { p } = replay([...ats.slice(0, 10), "2026-11-18T12:30:00Z", ...ats.slice(10)]);
    expect(p.standing).toBe("graduated");
    const { p: q2 } = replay(ats.slice(0, 10));
    expect(expectStanding(q2, { at: "2026-11-18T12:30:00Z", ok: true, refusals: [] })).toBe(q2);
  });

  it("a graduation counts from the run's earliest quote when stamped earlier the same Cairo day", () => {
    const ats = hourly(24);
    const { p } = replay(ats, (_, i) => (i === 23 ? { earliest: "2026-11-19T08:55:00Z" } : {}));
    expect(p.changes.at(-1)).toMatchObject({ at: ats[23], standing: "graduated", countsFrom: "2026-11-19T08:55:00Z" });
    const { p: p2 } = replay(ats, (_, i) => (i === 23 ? { earliest: "2026-11-18T21:00:00Z" } : {})); // the day before in Cairo
    expect(p2.changes.at(-1)!.countsFrom).toBeUndefined();
  });
});

/** A data folder of the test catalog with these rows, sources and probation record. */
async function folder(rows: Partial<Rows>, o: { sources?: object; probation?: ProbationState } = {}) {
  const dir = await writeDataset(await tempDir("pf-oracle-"), { quotes: [], official: [], global: [], ...rows });
  await fs.writeFile(path.join(dir, "sellers.json"), JSON.stringify(sellers));
  if (o.sources) await fs.writeFile(path.join(dir, "sources.json"), JSON.stringify(o.sources));
  if (o.probation) {
    await fs.mkdir(path.join(dir, "state"), { recursive: true });
    await fs.writeFile(path.join(dir, "state", "probation.json"), JSON.stringify(o.probation));
  }
  return dir;
}

const days = (n: number, end = DATE) =>
  Array.from({ length: n }, (_, i) =>
    new Date(Date.parse(`${end}T00:00:00Z`) - (n - i) * 86_400_000).toISOString().slice(0, 10),
  );

describe("the feed expected from a data folder", () => {
  it("today's table, its order, the bests and their ties, the previous close", async () => {
    const dir = await folder({
      quotes: [
        q("s1", "alpha", 49.7, 50.1, { observedAt: at("10:00", "2026-11-18") }),
        q("s1", "alpha", 49.7, 50.0, { observedAt: at("09:00") }),
        q("s1", "beta", 49.8, 50.0, { observedAt: at("10:00") }),
        q("s1", "gamma", 49.8, null, { observedAt: at("08:00") }),
      ],
    });
    const e = (await expectFeed(dir, NOW)).assets["us-dollar"]!;
    expect(e.asOf).toBe(DATE);
    expect(e.sellers.map((r) => [r.id, r.sell, r.previous])).toEqual([
      ["alpha", 50, { buy: 49.7, sell: 50.1 }], // equal sells: by name
      ["beta", 50, null],
      ["gamma", null, null], // no value on the default side: last
    ]);
    expect(e.directions.sell.best).toEqual({ id: "beta", seller: "Beta Bank", value: 50 }); // the more recent
    expect(e.directions.buy.best).toEqual({ id: "beta", seller: "Beta Bank", value: 49.8 }); // more recent than gamma
    expect(e.directions.sell.previous).toEqual({ date: "2026-11-18", value: 50.1, change: -0.1, changePct: -0.2 });
    expect(e.series.map((s) => [s.date, s.sellLo, s.sellHi, s.buyLo, s.buyHi])).toEqual([
      ["2026-11-18", 50.1, 50.1, 49.7, 49.7],
      [DATE, 50, 50, 49.7, 49.8],
    ]);
    expect(e.confidence).toEqual({ level: "low", checks: 1 });
  });

  it.each<[string, number[], number, string, number | null]>([
    ["today below every prior sell: favorable", [51, 51, 51, 51, 51, 51, 51, 51, 51, 51], 50, "favorable", 1],
    ["today above every prior sell: weak", [49, 49, 49, 49, 49, 49, 49, 49, 49, 49], 50, "weak", 0],
    ["in the middle: ordinary", [49, 49, 49, 49, 49, 51, 51, 51, 51, 51], 50, "ordinary", 0.5],
    ["nine prior days: calibrating", [51, 51, 51, 51, 51, 51, 51, 51, 51], 50, "calibrating", null],
  ])("§6: %s", async (_, prior, today, verdict, favorability) => {
    const dates = days(prior.length);
    const dir = await folder({
      quotes: [
        ...prior.map((v, i) => q("s1", "alpha", v - 0.3, v, { observedAt: at("09:00", dates[i]) })),
        q("s1", "alpha", today - 0.3, today),
      ],
    });
    const d = (await expectFeed(dir, NOW)).assets["us-dollar"]!.directions.sell;
    expect([d.verdict, d.favorability, d.priorDays]).toEqual([verdict, favorability, prior.length]);
  });

  it("§6.4: a falling week on the sell side leans +1; with a −1 position the verdict is mixed", async () => {
    const prior: Array<[number, number]> = [
      ...Array.from({ length: 9 }, (_, i) => [30 - i, 45] as [number, number]),
      [3, 52],
      [2, 51.5],
      [1, 51],
    ];
    const dayAgo = (n: number) => new Date(Date.parse(`${DATE}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    const dir = await folder({
      quotes: [
        ...prior.map(([n, v]) => q("s1", "alpha", v - 0.3, v, { observedAt: at("09:00", dayAgo(n)) })),
        q("s1", "alpha", 50.2, 50.5),
      ],
      official: [{ source: "cbe", asset: "USD-EGP", buy: 50.2, sell: 50.4, observedAt: at("08:00") }],
    });
    const d = (await expectFeed(dir, NOW)).assets["us-dollar"]!.directions.sell;
    expect(d.signals.trend).toEqual({ lean: 1, direction: "down", changePct: -2.88, volatilityPct: 0.01, days: 3 });
    expect(d.signals.official).toEqual({ lean: 0, diffPct: 0.2 });
    expect([d.signals.position.lean, d.favorability, d.verdict]).toEqual([-1, 0.25, "mixed"]);
  });

  it("§2.4: a source on probation counts from its graduation (countsFrom) until its return", async () => {
    const sources = {
      sources: [
        { id: "s1", name: "s1", adapter: "demo", kind: "seller", probation: false },
        { id: "p", name: "p", adapter: "demo", kind: "aggregator" },
      ],
    };
    const probation: ProbationState = {
      sources: {
        p: {
          standing: "probation",
          since: at("11:00"),
          runs: [],
          changes: [
            { at: at("09:00"), standing: "graduated", reason: "r", countsFrom: at("08:30") },
            { at: at("11:00"), standing: "probation", reason: "r" },
          ],
        },
      },
    };
    const dir = await folder(
      {
        quotes: [
          q("s1", "alpha", 49.8, 50.1, { observedAt: at("08:00") }),
          q("p", "beta", 49.7, 50.0, { observedAt: at("08:00") }), // before countsFrom: apart
          q("p", "gamma", 49.7, 50.0, { observedAt: at("08:30") }), // counts
          q("p", "gamma", 49.6, 49.9, { observedAt: at("11:00") }), // returned: apart; gamma keeps its 08:30
        ],
      },
      { sources, probation },
    );
    const e = (await expectFeed(dir, NOW)).assets["us-dollar"]!;
    expect(e.sellers.map((r) => [r.id, r.sell])).toEqual([
      ["gamma", 50],
      ["alpha", 50.1],
    ]);
    expect(e.probation).toEqual([
      { source: "p", id: "beta", passed: true, reason: null },
      { source: "p", id: "gamma", passed: true, reason: null },
    ]);
  });

  it("§4: a reference asset's price is the global value, else the official mid; its series the day's low and high", async () => {
    const cny = (value: number, observedAt: string) => ({ source: "glob", asset: "CNY-EGP", value, observedAt });
    const dir = await folder({
      global: [cny(6.7101, at("08:00")), cny(6.7205, at("09:00")), cny(6.69, at("13:00"))], // 13:00 is after the build
      official: [
        { source: "cbe", asset: "CNY-EGP", buy: 6.69, sell: 6.71, observedAt: at("08:00", "2026-11-18") },
        { source: "cbe", asset: "CNY-EGP", buy: 6.7, sell: 6.7101, observedAt: at("08:00") },
      ],
    });
    const e = (await expectFeed(dir, NOW)).assets["chinese-yuan"]!;
    expect(e.series).toEqual([
      { date: "2026-11-18", buyLo: 6.7, buyHi: 6.7, sellLo: 6.7, sellHi: 6.7, bench: 6.7 },
      { date: DATE, buyLo: 6.7101, buyHi: 6.7205, sellLo: 6.7101, sellHi: 6.7205, bench: 6.7051 },
    ]);
    expect([e.asOf, e.sellers, e.directions.sell.best, e.directions.sell.previous, e.confidence]).toEqual([
      DATE,
      [],
      null,
      null,
      { level: "low", checks: 1 },
    ]);
    expect(e.directions.sell.signals).toEqual({ position: { lean: 0 }, trend: null, official: null, global: null });
    expect(e.observedAtMs).toBe(Date.parse(at("09:00")));
  });

  it("§10: a compacted day is taken as kept, and its raw quotes are ignored", async () => {
    const dir = await folder({ quotes: [q("s1", "alpha", 49.7, 50, { observedAt: at("09:00", "2026-11-18") })] });
    await fs.mkdir(path.join(dir, "history"));
    const close = { seller: "beta", source: "s2", buy: 49.5, sell: 49.9, observedAt: at("10:00", "2026-11-18") };
    const line = {
      date: "2026-11-18",
      asset: "USD-EGP",
      closes: [close],
      sources: ["s2"],
      disagreements: [],
      observedAt: close.observedAt,
    };
    await fs.writeFile(path.join(dir, "history", "2026-11-18.ndjson"), `${JSON.stringify(line)}\n`);
    const e = (await expectFeed(dir, NOW)).assets["us-dollar"]!;
    expect([e.asOf, e.sellers.map((r) => [r.id, r.source])]).toEqual(["2026-11-18", [["beta", "s2"]]]);
  });
});

/** feed.json with each side's best replaced by the worst seller of that side. */
async function worstAsBest(out: string) {
  const file = path.join(out, "api", "v1", "feed.json");
  const feed = JSON.parse(await fs.readFile(file, "utf8")) as {
    assets: Array<{
      sellers: Array<{ seller: string; buy: number | null; sell: number | null }>;
      directions: Record<string, { best: unknown }>;
    }>;
  };
  for (const a of feed.assets) {
    for (const side of ["sell", "buy"] as const) {
      const rows = a.sellers
        .filter((r) => r[side] !== null)
        .sort((x, y) => (side === "sell" ? y.sell! - x.sell! : x.buy! - y.buy!));
      const worst = rows[0];
      if (worst && a.directions[side]!.best)
        a.directions[side]!.best = { seller: worst.seller, sellerAr: null, value: worst[side] };
    }
  }
  await fs.writeFile(file, JSON.stringify(feed));
}

describe("the oracle against a real build", () => {
  it("finds no difference on the end-to-end dataset, and finds the worst seller published as the best", async () => {
    const dir = await writeDataset(await tempDir("pf-oracle-"), smallRows());
    const out = path.join(dir, "public");
    const nowMs = Date.parse("2026-11-19T11:30:00Z");
    await runBuild({ dataDir: dir, outDir: out, nowMs, saveState: false });
    const expected = await expectFeed(dir, nowMs);
    expect(await compareFeed(expected, out)).toEqual([]);
    await worstAsBest(out);
    const diffs = await compareFeed(expected, out);
    expect(diffs.filter((d) => d.invariant === "best").map((d) => [d.asset, d.path])).toEqual([
      ["us-dollar", "directions.sell.best"],
      ["us-dollar", "directions.buy.best"],
    ]);
    expect(diffs[0]).toMatchObject({
      expected: { seller: "Alpha Bank", value: 49.9 },
      published: { seller: "Beta Bank", value: 50.1 },
    });
  });

  it("finds no difference where sources are on probation, graduated and sent back", async () => {
    const rows = smallRows();
    const sources = {
      sources: [...testSources.sources, { id: "p", name: "p", adapter: "demo", kind: "aggregator" }],
    };
    rows.quotes.push(
      q("p", "beta", 49.8, 50.05, { observedAt: at("09:30") }),
      q("p", "gamma", 49.6, 49.95, { observedAt: at("10:30") }),
      q("p", "gamma", 55, 56, { observedAt: at("11:00") }),
    );
    const probation: ProbationState = {
      sources: {
        p: {
          standing: "graduated",
          since: at("10:00"),
          runs: [],
          changes: [{ at: at("10:00"), standing: "graduated", reason: "r" }],
        },
      },
    };
    const dir = await folder(rows, { sources, probation });
    const out = path.join(dir, "public");
    const nowMs = Date.parse("2026-11-19T11:30:00Z");
    await runBuild({ dataDir: dir, outDir: out, nowMs, saveState: false });
    const expected = await expectFeed(dir, nowMs);
    expect(expected.assets["us-dollar"]!.sellers.map((r) => r.id)).toContain("gamma");
    expect(expected.assets["us-dollar"]!.probation.map((r) => r.id)).toEqual(["beta"]);
    expect(await compareFeed(expected, out)).toEqual([]);
  });

  it("names a published value that differs, by invariant and path", () => {
    const e = {
      nowMs: NOW,
      days: new Map(),
      assets: {
        x: {
          id: "X-EGP",
          slug: "x",
          reference: false,
          asOf: DATE,
          observedAtMs: null,
          confidence: { level: "none" as const, checks: 0 },
          sellers: [],
          directions: {
            sell: {
              best: null,
              verdict: "calibrating" as const,
              favorability: null,
              priorDays: 0,
              signals: { position: { lean: 0 as const }, trend: null, official: null, global: null },
              previous: null,
            },
            buy: {
              best: null,
              verdict: "calibrating" as const,
              favorability: null,
              priorDays: 0,
              signals: { position: { lean: 0 as const }, trend: null, official: null, global: null },
              previous: null,
            },
          },
          series: [],
          benchmark: null,
          global: null,
          probation: [],
        },
      },
    };
    const published = structuredClone({
      ...e.assets.x,
      observedAt: null,
      directions: { sell: { ...e.assets.x.directions.sell, verdict: "weak" }, buy: e.assets.x.directions.buy },
      series: [],
    });
    expect(compareAssets(e, [published as never])).toEqual([
      { invariant: "verdict", asset: "x", path: "directions.sell.verdict", expected: "calibrating", published: "weak" },
    ]);
  });
});

describe("probation replayed against ingest's own record", () => {
  it("judges each run as ingest does, and the record moves in the hour the rulebook says", async () => {
    const sources = {
      sources: [
        { id: "s1", name: "s1", adapter: "demo", kind: "seller", probation: false },
        { id: "p", name: "p", adapter: "demo", kind: "aggregator" },
      ],
    };
    const official = [0, 1].map((d) => ({
      source: "cbe",
      asset: "USD-EGP",
      buy: 49.9,
      sell: 50,
      observedAt: at("07:00", d ? DATE : "2026-11-18"),
    }));
    const dir = await folder({ official }, { sources });
    const start = Date.parse("2026-11-18T08:00:00Z");
    const runs: Array<{
      nowMs: number;
      at: string;
      reports: Array<{ id: string; ok: boolean; observed?: { quotes: RawQuote[] } }>;
    }> = [];
    const moves: Array<[number, string]> = [];
    for (let h = 0; h < 30; h++) {
      const nowMs = start + h * 3_600_000;
      const stamp = new Date(nowMs).toISOString().replace(".000Z", "Z");
      const date = new Date(nowMs + 2 * 3_600_000).toISOString().slice(0, 10);
      // p misreads a side in hour 2 (a lone buy above the sells); in hour 28 it sends two implausible quotes.
      const own = [
        q("s1", "alpha", 49.7, 50, { observedAt: stamp }),
        q("s1", "beta", 49.8, 50.1, { observedAt: stamp }),
      ];
      const relayed =
        h === 2
          ? [q("p", "gamma", 50.6, null, { observedAt: stamp })]
          : h === 28
            ? [q("p", "gamma", 70, 71, { observedAt: stamp }), q("p", "beta", 70, 71, { observedAt: stamp })]
            : [q("p", "gamma", 49.75, 50.05, { observedAt: stamp })];
      const file = path.join(dir, "quotes", `${date}.ndjson`);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, [...own, ...relayed].map((x) => `${JSON.stringify(x)}\n`).join(""));
      const ok = h !== 5; // hour 5: p's page is down
      const { moves: moved } = await recordProbation(dir, nowMs, [
        { id: "s1", ok: true, quotes: own },
        { id: "p", ok, quotes: ok ? relayed : [] },
      ]);
      for (const m of moved) moves.push([h, m.change.standing]);
      runs.push({
        nowMs,
        at: stamp,
        reports: [
          { id: "s1", ok: true, observed: { quotes: own } },
          { id: "p", ok, ...(ok && { observed: { quotes: relayed } }) },
        ],
      });
      expect(await checkProbation({ dataDir: dir, nowMs, runs })).toEqual([]);
    }
    // Held in hour 2, skipped in hour 5: the 24 clean runs are hours 3–4 and 6–27; 28 sends it back.
    expect(moves).toEqual([
      [27, "graduated"],
      [28, "probation"],
    ]);
    expect((await judgeRun(dir, start + 28 * 3_600_000, "p", runs[28]!.reports[1]!.observed!.quotes)).refusals).toEqual(
      ["implausible-sell", "implausible-sell"],
    );
    // A record that lost its return is caught.
    const file = path.join(dir, "state", "probation.json");
    const kept = JSON.parse(await fs.readFile(file, "utf8")) as ProbationState;
    const p = kept.sources["p"]!;
    kept.sources["p"] = {
      ...p,
      standing: "graduated",
      since: p.changes[0]!.at,
      runs: [],
      changes: p.changes.slice(0, 1),
    };
    await fs.writeFile(file, JSON.stringify(kept));
    const diffs = await checkProbation({ dataDir: dir, nowMs: runs.at(-1)!.nowMs, runs });
    expect(diffs.map((d) => [d.invariant, d.path])).toEqual([["probation", "sources.p"]]);
    await fs.writeFile(file, JSON.stringify(kept).slice(0, 40)); // cut short
    expect(await checkProbation({ dataDir: dir, nowMs: runs.at(-1)!.nowMs, runs })).toMatchObject([
      { invariant: "probation", path: "data/state/probation.json", expected: "a readable record" },
    ]);
  });
});
