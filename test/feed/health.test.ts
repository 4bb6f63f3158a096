/**
 * `price-feed health`'s verdicts (src/feed/health.ts), table-driven with the clock injected: failures
 * in a row count only the hourly runs inside the source's market's sessions (a weekend is not a
 * failure), the official and reference sources' trading day, probation too long or a return, the feed
 * as /readyz judges it, a refused build. In November Cairo is UTC+2: currencies trade 07:00–15:00Z
 * Sunday to Thursday, metals 08:00–20:00Z Saturday to Thursday (test/helpers/dataset.ts calendar).
 */
import { describe, expect, test } from "vitest";
import { Sources } from "../../src/schema/inputs.js";
import type { Manifest, SourceRuns } from "../../src/schema/documents.js";
import type { ProbationState, SourceProbation } from "../../src/schema/probation.js";
import type { BuildOutcome } from "../../src/schema/health.js";
import { failingAction, inSessionRuns, judgeHealth, tradingDayRuns, type HealthInputs } from "../../src/feed/health.js";
import { calendar, catalog } from "../helpers/dataset.js";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const sources = Sources.parse({
  sources: [
    { id: "bank", name: "bank", adapter: "demo", kind: "seller" },
    { id: "dealer", name: "dealer", adapter: "demo", kind: "seller" },
    { id: "newbie", name: "newbie", adapter: "demo", kind: "aggregator" },
    { id: "cbe", name: "cbe", adapter: "demo", kind: "official" },
    { id: "glob", name: "glob", adapter: "demo", kind: "reference" },
    { id: "off", name: "off", adapter: "demo", kind: "seller", enabled: false },
  ],
}).sources;
const served = new Map<string, Set<string>>([
  ["bank", new Set(["USD-EGP"])],
  ["dealer", new Set(["XAU24K-EGP"])],
  ["cbe", new Set(["USD-EGP", "CNY-EGP"])],
  ["glob", new Set(["USD-EGP", "XAU24K-EGP"])],
]);
/** A manifest as /readyz reads it: its instant, its assets' newest observations, the calendar. */
const manifest = (generatedAt: string, observedAt: string) =>
  ({
    generatedAt,
    assets: [
      { slug: "us-dollar", category: "currencies", observedAt },
      { slug: "gold-24k", category: "metals", observedAt },
    ],
    calendar: calendar.categories,
  }) as unknown as Manifest;

/** A source failing every hour from `from` to `to` (its last run), after a success an hour before `from`. */
const failing = (from: string, to: string, reason = "HTTP 503 Service Unavailable"): SourceRuns["sources"][string] => ({
  lastRunAt: to,
  lastSuccessAt: new Date(at(from) - HOUR).toISOString(),
  lastFailure: { at: to, reason },
  failingSince: from,
});
const ok = (when: string): SourceRuns["sources"][string] => ({
  lastRunAt: when,
  lastSuccessAt: when,
  lastFailure: null,
});
const graduated: SourceProbation = {
  standing: "graduated",
  since: "2026-11-01T10:07:00.000Z",
  runs: [],
  changes: [{ at: "2026-11-01T10:07:00.000Z", standing: "graduated", reason: "24 clean runs" }],
};

function inputs(nowIso: string, over: Partial<HealthInputs> = {}): HealthInputs {
  return {
    nowMs: at(nowIso),
    afterHours: 6,
    sources,
    catalog,
    calendar,
    runs: { sources: {} },
    probation: { sources: { bank: graduated, dealer: graduated, newbie: graduated } },
    sourceAssets: served,
    manifest: manifest(nowIso, new Date(at(nowIso) - 30 * 60_000).toISOString()),
    site: "public",
    build: { at: nowIso, outcome: "built", reason: null, lastBuiltAt: nowIso },
    ...over,
  };
}

describe("failures in a row count only hourly runs inside the source's sessions", () => {
  test.each([
    // Thursday 2026-11-19 13:07Z (15:07 Cairo) to Sunday 07:07Z: Thursday's 13:07 and 14:07, Sunday's 07:07.
    {
      name: "a currencies bank across the weekend",
      id: "bank",
      from: "2026-11-19T13:07:00Z",
      to: "2026-11-22T07:07:00Z",
      count: 3,
      problem: false,
    },
    {
      name: "the same bank by Sunday noon",
      id: "bank",
      from: "2026-11-19T13:07:00Z",
      to: "2026-11-22T10:07:00Z",
      count: 6,
      problem: true,
    },
    {
      name: "a bank failing only on Friday and Saturday",
      id: "bank",
      from: "2026-11-20T00:07:00Z",
      to: "2026-11-21T23:07:00Z",
      count: 0,
      problem: false,
    },
    // Metals trade on Saturday: Thursday 18:07 and 19:07, then Saturday 08:07 to 10:07.
    {
      name: "a gold dealer across Friday",
      id: "dealer",
      from: "2026-11-19T18:07:00Z",
      to: "2026-11-21T10:07:00Z",
      count: 5,
      problem: false,
    },
    {
      name: "the dealer an hour later",
      id: "dealer",
      from: "2026-11-19T18:07:00Z",
      to: "2026-11-21T11:07:00Z",
      count: 6,
      problem: true,
    },
    // A source that served nothing yet counts every market's sessions: Saturday is metals' day.
    {
      name: "a source of no known market on a Saturday",
      id: "newbie",
      from: "2026-11-21T08:07:00Z",
      to: "2026-11-21T13:07:00Z",
      count: 6,
      problem: true,
    },
    {
      name: "a source of no known market on a Friday",
      id: "newbie",
      from: "2026-11-20T08:07:00Z",
      to: "2026-11-20T20:07:00Z",
      count: 0,
      problem: false,
    },
  ])("$name: $count", ({ id, from, to, count, problem }) => {
    const r = judgeHealth(inputs(to, { runs: { sources: { [id]: failing(from, to) } } }));
    const line = r.sources.find((s) => s.id === id)!;
    expect(line).toMatchObject({ failing: true, failingSince: from, failuresInRow: count });
    expect(r.problems.map((p) => p.key)).toEqual(problem ? [`source-failing:${id}`] : []);
  });

  test("--after moves the threshold", () => {
    const runs = { sources: { bank: failing("2026-11-22T07:07:00Z", "2026-11-22T09:07:00Z") } };
    expect(judgeHealth(inputs("2026-11-22T09:07:00Z", { runs })).problems).toEqual([]);
    expect(judgeHealth(inputs("2026-11-22T09:07:00Z", { runs, afterHours: 3 })).problems.map((p) => p.key)).toEqual([
      "source-failing:bank",
    ]);
  });

  test("a success ends the failures; the last reason stays, without a URL's secrets", () => {
    const runs = {
      sources: {
        bank: {
          ...ok("2026-11-22T10:07:00.000Z"),
          lastFailure: { at: "2026-11-22T09:07:00.000Z", reason: "HTTP 403 (https://u:pw@bank.example/r?key=s3cret)" },
        },
      },
    };
    const line = judgeHealth(inputs("2026-11-22T10:30:00Z", { runs })).sources.find((s) => s.id === "bank")!;
    expect(line).toMatchObject({ failing: false, failuresInRow: 0, lastReason: "HTTP 403 (https://bank.example/r)" });
  });

  test("a record an older ingest wrote (no failingSince) counts from the run after the last success", () => {
    const runs = {
      sources: {
        bank: {
          lastRunAt: "2026-11-22T12:07:00.000Z",
          lastSuccessAt: "2026-11-22T06:07:00.000Z",
          lastFailure: { at: "2026-11-22T12:07:00.000Z", reason: "timed out" },
        },
      },
    };
    const line = judgeHealth(inputs("2026-11-22T12:10:00Z", { runs })).sources.find((s) => s.id === "bank")!;
    expect(line).toMatchObject({ failingSince: "2026-11-22T07:07:00.000Z", failuresInRow: 6 });
  });

  test("the counting helpers: a trading day's runs; runs an hour apart", () => {
    expect(tradingDayRuns([calendar.categories["currencies"]!])).toBe(8);
    expect(tradingDayRuns([calendar.categories["currencies"]!, calendar.categories["metals"]!])).toBe(13);
    expect(
      inSessionRuns(at("2026-11-22T06:07:00Z"), at("2026-11-22T16:07:00Z"), [calendar.categories["currencies"]!]),
    ).toBe(8);
  });
});

describe("what to do, by the reason", () => {
  test.each([
    ["HTTP 403 Forbidden (https://bank.example/r)", /bot wall/],
    ["a challenge page (Cloudflare)", /bot wall/],
    ["HTTP 404 Not Found (https://bank.example/r)", /moved/],
    ["timed out after 20000 ms", /cannot be reached/],
    ['no rows match "table tbody tr" (robots.txt aside)', /saved answers/],
  ])("%s", (reason, action) => {
    expect(failingAction(reason)).toMatch(action);
  });
});

describe("the official and reference sources: a trading day is a problem whatever --after says", () => {
  test.each([
    { name: "cbe, 7 runs of Sunday", id: "cbe", to: "2026-11-22T13:07:00Z", after: 12, problem: false },
    { name: "cbe, all 8 runs of Sunday", id: "cbe", to: "2026-11-22T14:07:00Z", after: 12, problem: true },
    {
      name: "a seller with the same 8 runs and --after 12",
      id: "bank",
      to: "2026-11-22T14:07:00Z",
      after: 12,
      problem: false,
    },
    { name: "cbe under --after 6: 6 runs are enough", id: "cbe", to: "2026-11-22T12:07:00Z", after: 6, problem: true },
  ])("$name", ({ id, to, after, problem }) => {
    const runs = { sources: { [id]: failing("2026-11-22T07:07:00Z", to) } };
    const r = judgeHealth(inputs(to, { runs, afterHours: after }));
    expect(r.problems.map((p) => p.key)).toEqual(problem ? [`source-failing:${id}`] : []);
    if (problem && after > 8)
      expect(r.problems[0]!.title).toBe("cbe: failing inside its trading sessions for a trading day");
  });
});

describe("seller names the registry does not know", () => {
  const withNames = (runs: number[]): SourceRuns => ({
    sources: {
      bank: {
        ...ok("2026-11-22T10:07:00.000Z"),
        unknownNames: runs.map((n, k) => ({
          name: `Bank ${k}`,
          runs: n,
          firstSeenAt: new Date(at("2026-11-22T10:07:00Z") - (n - 1) * HOUR).toISOString(),
          lastSeenAt: "2026-11-22T10:07:00.000Z",
        })),
      },
    },
  });
  test.each([
    { name: "a name given by 23 runs: not yet", runs: [23], keys: [], state: null },
    { name: "a name given by a day of runs", runs: [24], keys: ["source-unknown-names:bank"], state: "Bank 0" },
    { name: "two names, one new", runs: [30, 2], keys: ["source-unknown-names:bank"], state: "Bank 0" },
  ])("$name", ({ runs, keys, state }) => {
    const r = judgeHealth(inputs("2026-11-22T10:10:00Z", { runs: withNames(runs) }));
    expect(r.problems.map((p) => p.key)).toEqual(keys);
    if (state !== null) expect(r.problems[0]!.state).toBe(state);
    expect(r.sources[0]!.unknownNames.map((n) => n.runs)).toEqual(runs);
  });

  test("an older ingest's bare list counts one run each", () => {
    const runs = { sources: { bank: { ...ok("2026-11-22T10:07:00.000Z"), unknownSellers: ["Bank X"] } } };
    const r = judgeHealth(inputs("2026-11-22T10:10:00Z", { runs }));
    expect(r.sources[0]!.unknownNames).toEqual([{ name: "Bank X", runs: 1, firstSeenAt: "2026-11-22T10:07:00.000Z" }]);
    expect(r.problems).toEqual([]);
  });
});

describe("probation", () => {
  const onProbation = (since: string, changes: SourceProbation["changes"] = []): ProbationState => ({
    sources: { bank: graduated, dealer: graduated, newbie: { standing: "probation", since, runs: [], changes } },
  });
  test.each([
    { name: "6 days on probation", probation: onProbation("2026-11-16T10:00:00.000Z"), keys: [] },
    {
      name: "8 days on probation",
      probation: onProbation("2026-11-14T10:00:00.000Z"),
      keys: ["source-probation-long:newbie"],
    },
    {
      name: "sent back an hour ago",
      probation: onProbation("2026-11-22T09:07:00.000Z", [
        ...graduated.changes,
        {
          at: "2026-11-22T09:07:00.000Z",
          standing: "probation",
          reason: "3 quotes refused in one run (3 implausible-sell)",
        },
      ]),
      keys: ["source-returned:newbie"],
    },
    {
      name: "sent back nine days ago: still the return, not a second issue",
      probation: onProbation("2026-11-13T09:07:00.000Z", [
        ...graduated.changes,
        { at: "2026-11-13T09:07:00.000Z", standing: "probation", reason: "2 quotes refused in one run (2 crossed)" },
      ]),
      keys: ["source-returned:newbie"],
    },
    { name: "graduated", probation: { sources: { bank: graduated, newbie: graduated } }, keys: [] },
  ])("$name", ({ probation, keys }) => {
    const r = judgeHealth(inputs("2026-11-22T10:00:00Z", { probation }));
    expect(r.problems.map((p) => p.key)).toEqual(keys);
    expect(r.sources.find((s) => s.id === "newbie")!.standing).toBe(probation.sources["newbie"]!.standing);
  });

  test("a source not subject to probation is counted; a disabled one is not listed", () => {
    const r = judgeHealth(inputs("2026-11-22T10:00:00Z"));
    expect(r.sources.map((s) => [s.id, s.standing])).toEqual([
      ["bank", "graduated"],
      ["dealer", "graduated"],
      ["newbie", "graduated"],
      ["cbe", "counted"],
      ["glob", "counted"],
    ]);
  });
});

describe("the deployment: the feed as /readyz judges it, the last build", () => {
  test.each([
    { name: "fresh", m: manifest("2026-11-22T10:07:00Z", "2026-11-22T10:00:00Z"), status: "ready", keys: [] },
    // Observed Thursday 14:55Z, checked Saturday 07:30Z: 5 min of currencies' trading time and 5 h 5 min
    // of metals' (Friday closed for both); on Sunday, Saturday's 12 hours of metals make gold stale.
    {
      name: "across Friday, not stale",
      now: "2026-11-21T07:30:00Z",
      m: manifest("2026-11-21T07:07:00Z", "2026-11-19T14:55:00Z"),
      status: "ready",
      keys: [],
    },
    {
      name: "the same data after metals' Saturday",
      now: "2026-11-22T07:30:00Z",
      m: manifest("2026-11-22T07:07:00Z", "2026-11-19T14:55:00Z"),
      status: "not-ready",
      keys: ["feed-stale"],
    },
    {
      name: "the build too old",
      m: manifest("2026-11-22T07:07:00Z", "2026-11-22T07:00:00Z"),
      status: "not-ready",
      keys: ["feed-stale"],
    },
    { name: "no build at all", m: null, status: "no-build", keys: ["feed-stale"] },
  ])("$name", ({ m, status, keys, now }) => {
    const r = judgeHealth(inputs(now ?? "2026-11-22T10:10:00Z", { manifest: m }));
    expect(r.feed.status).toBe(status);
    expect(r.problems.map((p) => p.key)).toEqual(keys);
  });

  test("a stale asset is named, and its state is what a change is judged on", () => {
    // Observed Thursday 07:00Z: Thursday's 8 h of currencies and half an hour of Sunday's; metals' 12 h of Thursday.
    const r = judgeHealth(
      inputs("2026-11-22T07:30:00Z", { manifest: manifest("2026-11-22T07:07:00Z", "2026-11-19T07:00:00Z") }),
    );
    expect(r.feed).toMatchObject({ status: "not-ready", staleAssets: ["us-dollar", "gold-24k"] });
    expect(r.problems[0]).toMatchObject({ key: "feed-stale", title: "The feed is not ready: 2 assets stale" });
  });

  test("a refused build, its reason without secrets", () => {
    const build: BuildOutcome = {
      at: "2026-11-22T10:07:00.000Z",
      outcome: "refused",
      reason: "signing key rejected (https://keys.example/k?token=abc)",
      lastBuiltAt: "2026-11-22T09:07:00.000Z",
    };
    const r = judgeHealth(inputs("2026-11-22T10:10:00Z", { build }));
    expect(r.problems.map((p) => p.key)).toEqual(["build-refused"]);
    expect(JSON.stringify(r.problems)).not.toContain("token=abc");
    expect(r.problems[0]!.detail).toContain("(2026-11-22T09:07:00.000Z)");
  });

  test.each([
    { result: "success", build: "built", keys: [] },
    { result: "failure", build: "built", keys: ["publish-failed"] },
    { result: "cancelled", build: "built", keys: ["publish-failed"] },
    { result: "failure", build: "refused", keys: ["build-refused"] },
    { result: null, build: "built", keys: [] },
  ] as const)("the publish job $result after a build $build: $keys", ({ result, build, keys }) => {
    const outcome: BuildOutcome = {
      at: "2026-11-22T10:07:00.000Z",
      outcome: build,
      reason: build === "refused" ? "x" : null,
      lastBuiltAt: "2026-11-22T10:07:00.000Z",
    };
    const r = judgeHealth(inputs("2026-11-22T10:10:00Z", { build: outcome, publishResult: result }));
    expect(r.problems.map((p) => p.key)).toEqual(keys);
  });

  test("problems come sorted by key, the same inputs giving the same report", () => {
    const build: BuildOutcome = { at: "2026-11-22T12:07:00.000Z", outcome: "refused", reason: "x", lastBuiltAt: null };
    const i = inputs("2026-11-22T12:10:00Z", {
      build,
      manifest: null,
      runs: { sources: { glob: failing("2026-11-22T07:07:00Z", "2026-11-22T12:07:00Z") } },
    });
    expect(judgeHealth(i).problems.map((p) => p.key)).toEqual(["build-refused", "feed-stale", "source-failing:glob"]);
    expect(JSON.stringify(judgeHealth(i))).toBe(JSON.stringify(judgeHealth(i)));
  });
});
