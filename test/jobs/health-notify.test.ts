/**
 * `price-feed health --notify` against a loopback stand-in of GitHub's REST API (real HTTP,
 * test/helpers/github-standin.ts): a table of problem histories, hour by hour, gives exactly the
 * issues opened, commented on, reopened and closed; the webhook gets the openings and closings; an
 * API that fails is a warning; and no warning or log line holds the token or the webhook's URL.
 */
import { promises as fs } from "node:fs";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { notifyHealth, scrub, type NotifyEnv } from "../../src/jobs/health-notify.js";
import { keyMarker, stateMarker } from "../../src/feed/health-notices.js";
import type { Problem } from "../../src/feed/health.js";
import { main } from "../../src/cli/main.js";
import { writeSourceRuns } from "../../src/io/source-runs.js";
import { startStandIn, type StandIn } from "../helpers/github-standin.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const T0 = Date.parse("2026-11-22T08:07:00.000Z");
const HOUR = 3_600_000;
const TOKEN = "ghs_T0KEN-of-the-job-1234";

/** A loopback port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const problem = (key: string, state = "s"): Problem => ({
  key,
  title: `${key} is wrong`,
  detail: `${key}: ${state}`,
  action: "fix it",
  state,
  since: null,
});

let gh: StandIn;
beforeEach(async () => {
  gh = await startStandIn();
});
afterEach(async () => {
  await gh.close();
});

const env = (over: Partial<NotifyEnv> = {}): NotifyEnv => ({
  GITHUB_REPOSITORY: "owner/feed",
  GITHUB_TOKEN: TOKEN,
  GITHUB_API_URL: gh.base,
  ...over,
});

/** Runs `health --notify`'s notifier at each hour of the history; each run's calls, as done lines. */
async function replay(history: Array<[hour: number, problems: Problem[]]>, e: NotifyEnv = env()) {
  const calls: string[][] = [];
  for (const [hour, problems] of history) {
    gh.now = new Date(T0 + hour * HOUR).toISOString();
    const r = await notifyHealth(problems, T0 + hour * HOUR, e);
    expect(r.warnings).toEqual([]);
    calls.push(r.done);
  }
  return calls;
}

describe("a problem's history gives exactly its issue's openings, comments and closings", () => {
  const A = (state?: string) => problem("source-failing:cib-rates-api", state);
  const B = () => problem("feed-stale");
  test.each([
    {
      name: "appears",
      history: [[0, [A()]]],
      calls: [["opened #1 source-failing:cib-rates-api"]],
      final: ["#1 open 0"],
    },
    {
      name: "persists: never opened twice",
      history: [
        [0, [A()]],
        [1, [A()]],
        [2, [A()]],
      ],
      calls: [["opened #1 source-failing:cib-rates-api"], [], []],
      final: ["#1 open 0"],
    },
    {
      name: "changes: a comment at most every 6 hours",
      history: [
        [0, [A("x")]],
        [1, [A("y")]],
        [6, [A("y")]],
        [7, [A("z")]],
        [12, [A("z")]],
        [13, [A("z")]],
      ],
      calls: [
        ["opened #1 source-failing:cib-rates-api"],
        [],
        ["commented on #1 source-failing:cib-rates-api"],
        [],
        ["commented on #1 source-failing:cib-rates-api"],
        [],
      ],
      final: ["#1 open 2"],
    },
    {
      name: "clears: closed with when and after how long",
      history: [
        [0, [A()]],
        [1, [A()]],
        [3, []],
      ],
      calls: [["opened #1 source-failing:cib-rates-api"], [], ["closed #1 source-failing:cib-rates-api"]],
      final: ["#1 closed 1"],
    },
    {
      name: "flaps: one issue, closed and reopened",
      history: [
        [0, [A()]],
        [1, []],
        [2, [A()]],
        [3, []],
        [4, [A()]],
      ],
      calls: [
        ["opened #1 source-failing:cib-rates-api"],
        ["closed #1 source-failing:cib-rates-api"],
        ["reopened #1 source-failing:cib-rates-api"],
        ["closed #1 source-failing:cib-rates-api"],
        ["reopened #1 source-failing:cib-rates-api"],
      ],
      final: ["#1 open 4"],
    },
    {
      name: "back more than a day after it cleared: a new issue",
      history: [
        [0, [A()]],
        [1, []],
        [30, [A()]],
      ],
      calls: [
        ["opened #1 source-failing:cib-rates-api"],
        ["closed #1 source-failing:cib-rates-api"],
        ["opened #2 source-failing:cib-rates-api"],
      ],
      final: ["#1 closed 1", "#2 open 0"],
    },
    {
      name: "two problems, one clears",
      history: [
        [0, [B(), A()]],
        [1, [A()]],
        [2, [A()]],
      ],
      calls: [["opened #1 feed-stale", "opened #2 source-failing:cib-rates-api"], ["closed #1 feed-stale"], []],
      final: ["#1 closed 1", "#2 open 0"],
    },
  ] as Array<{ name: string; history: Array<[number, Problem[]]>; calls: string[][]; final: string[] }>)(
    "$name",
    async ({ history, calls, final }) => {
      expect(await replay(history)).toEqual(calls);
      expect(gh.issues.map((i) => `#${i.number} ${i.state} ${i.comments.length}`)).toEqual(final);
      for (const i of gh.issues) expect(i.labels).toEqual(["feed-health"]);
    },
  );

  test("closed as not planned by the operator: quiet while the problem says the same, a new issue when it changes", async () => {
    await replay([[0, [A("x")]]]);
    gh.now = new Date(T0 + HOUR).toISOString();
    Object.assign(gh.issues[0]!, {
      state: "closed",
      state_reason: "not_planned",
      closed_at: gh.now,
      updated_at: gh.now,
    });
    expect(
      await replay([
        [2, [A("x")]],
        [40, [A("x")]],
        [41, [A("y")]],
      ]),
    ).toEqual([[], [], ["opened #2 source-failing:cib-rates-api"]]);
  });

  test("two open issues for one problem (a run cut short between calls): the older kept, the other closed and unmarked", async () => {
    for (const n of [1, 2])
      gh.issues.push({
        number: n,
        title: "t",
        body: `${keyMarker("feed-stale")}\n\n${stateMarker({ state: "s", since: gh.now, said: gh.now })}`,
        state: "open",
        state_reason: null,
        labels: ["feed-health"],
        created_at: gh.now,
        updated_at: gh.now,
        closed_at: null,
        comments: [],
      });
    expect(
      await replay([
        [0, [B()]],
        [1, [B()]],
      ]),
    ).toEqual([["closed #2 feed-stale"], []]);
    expect(gh.issues.map((i) => `#${i.number} ${i.state} ${i.state_reason ?? "-"}`)).toEqual([
      "#1 open -",
      "#2 closed not_planned",
    ]);
    expect(gh.issues[1]!.body).not.toContain(keyMarker("feed-stale"));
  });

  test("the closing comment says when and after how long; the issue is closed as completed", async () => {
    await replay([
      [0, [A()]],
      [3, []],
    ]);
    const [i] = gh.issues;
    expect(i!.comments[0]).toMatch(
      /^\*\*Cleared at 2026-11-22T11:07:00\.000Z\*\*, after 3 h \(it began at 2026-11-22T08:07:00\.000Z\)/,
    );
    expect(i!.state_reason).toBe("completed");
    expect(i!.closed_at).toBe("2026-11-22T11:07:00.000Z");
  });

  test("a change's comment says what changed, and the body then says it", async () => {
    await replay([
      [0, [A("HTTP 403")]],
      [6, [A("HTTP 500")]],
    ]);
    const [i] = gh.issues;
    expect(i!.comments).toEqual([expect.stringContaining("source-failing:cib-rates-api: HTTP 500")]);
    expect(i!.body).toContain("source-failing:cib-rates-api: HTTP 500");
    expect(i!.body).toContain(keyMarker("source-failing:cib-rates-api"));
  });

  test("the calls are GitHub's: the version header, the job's token, the label, paging past the first page", async () => {
    // Four issues of others with the label and a pull request: the list takes three pages of two.
    for (let n = 1; n <= 4; n++)
      gh.issues.push({
        number: n,
        title: `someone's ${n}`,
        body: "written by hand",
        state: "open",
        state_reason: null,
        labels: ["feed-health"],
        created_at: gh.now,
        updated_at: gh.now,
        closed_at: null,
        comments: [],
        ...(n === 4 ? { pull_request: { url: "x" } } : {}),
      });
    gh.issues.push({
      number: 5,
      title: "left open by the last run",
      body: `${keyMarker("feed-stale")}\n\nold\n\n${stateMarker({ state: "s", since: gh.now, said: gh.now })}`,
      state: "open",
      state_reason: null,
      labels: ["feed-health"],
      created_at: gh.now,
      updated_at: gh.now,
      closed_at: null,
      comments: [],
    });
    expect(await replay([[0, [B(), A()]]])).toEqual([["opened #6 source-failing:cib-rates-api"]]);
    const lists = gh.requests.filter((r) => r.method === "GET");
    expect(lists.map((r) => [r.query["state"], r.query["labels"], r.query["page"] ?? "1"])).toEqual([
      ["open", "feed-health", "1"],
      ["open", "feed-health", "2"],
      ["open", "feed-health", "3"],
      ["closed", "feed-health", "1"],
    ]);
    expect(lists.every((r) => r.query["sort"] === "updated" && r.query["direction"] === "desc")).toBe(true);
    for (const r of gh.requests) {
      expect(r.authorization).toBe(`Bearer ${TOKEN}`);
      expect(r.apiVersion).toBe("2022-11-28");
      expect(r.path.startsWith("/repos/owner/feed/issues")).toBe(true);
    }
    // The issues of others are left as they were; the problem already open is not opened again.
    expect(gh.issues.slice(0, 5).every((i) => i.state === "open" && i.comments.length === 0)).toBe(true);
    expect(gh.requests.filter((r) => r.method === "POST").map((r) => (r.body as { title: string }).title)).toEqual([
      "source-failing:cib-rates-api is wrong",
    ]);
  });
});

describe("the token goes to the API's origin only", () => {
  test("a Link header naming another origin is not followed", async () => {
    for (let n = 1; n <= 3; n++)
      gh.issues.push({
        number: n,
        title: `someone's ${n}`,
        body: "by hand",
        state: "open",
        state_reason: null,
        labels: ["feed-health"],
        created_at: gh.now,
        updated_at: gh.now,
        closed_at: null,
        comments: [],
      });
    gh.linkOrigin = "http://127.0.0.2:1";
    const r = await notifyHealth([], T0, env());
    expect(r.warnings).toEqual([]);
    expect(gh.requests.map((x) => `${x.query["state"]} ${x.query["page"] ?? "1"}`)).toEqual(["open 1", "closed 1"]);
  });
});

describe("the webhook: the same openings and closings, never its URL or the token in a message", () => {
  test("openings, reopenings and closings are posted as {text}; comments are not", async () => {
    await replay(
      [
        [0, [problem("build-refused")]],
        [1, []],
        [2, [problem("build-refused")]],
        [8, [problem("build-refused", "other")]],
        [9, []],
      ],
      env({ PRICE_FEED_ALERT_WEBHOOK: gh.hook }),
    );
    expect(gh.posts.map((p) => p.text)).toEqual([
      "price-feed health: build-refused is wrong (https://github.example/owner/feed/issues/1)",
      "price-feed health: cleared at 2026-11-22T09:07:00.000Z after 1 h: build-refused is wrong (https://github.example/owner/feed/issues/1)",
      "price-feed health: back at 2026-11-22T10:07:00.000Z: build-refused is wrong (https://github.example/owner/feed/issues/1)",
      "price-feed health: cleared at 2026-11-22T17:07:00.000Z after 7 h: build-refused is wrong (https://github.example/owner/feed/issues/1)",
    ]);
  });

  test("a webhook that fails, or cannot be reached, is a warning without its URL", async () => {
    gh.fail = { match: /^POST \/hook/, status: 500, body: `no such hook ${gh.hook}` };
    const r = await notifyHealth([problem("feed-stale")], T0, env({ PRICE_FEED_ALERT_WEBHOOK: gh.hook }));
    expect(r.done).toEqual(["opened #1 feed-stale"]);
    expect(r.warnings).toEqual(["the alert webhook (PRICE_FEED_ALERT_WEBHOOK) answered HTTP 500"]);
    const gone = `http://127.0.0.1:${await closedPort()}/hook/T0PSECRET-hook`;
    const r2 = await notifyHealth([], T0 + HOUR, env({ PRICE_FEED_ALERT_WEBHOOK: gone }));
    expect(r2.warnings).toEqual([
      expect.stringMatching(/^the alert webhook \(PRICE_FEED_ALERT_WEBHOOK\) could not be reached \(E[A-Z]+\)$/),
    ]);
    expect(JSON.stringify([r, r2])).not.toMatch(/T0PSECRET|127\.0\.0\.1/);
  });
});

describe("an API failure is a warning and never stops the run", () => {
  test("the issues cannot be listed: nothing is opened, one warning", async () => {
    gh.fail = { match: /^GET /, status: 502, body: "Server Error" };
    const r = await notifyHealth([problem("feed-stale")], T0, env());
    expect(r.done).toEqual([]);
    expect(r.warnings).toEqual([
      "--notify: the issues labelled feed-health could not be listed, so none was opened or closed: GET /repos/owner/feed/issues: HTTP 502 (Server Error)",
    ]);
    expect(gh.requests.filter((x) => x.method !== "GET")).toEqual([]);
  });

  test("a refused call is a warning without the token, even when the answer echoes it; the next call still runs", async () => {
    gh.fail = { match: /^POST \/repos\/owner\/feed\/issues$/, status: 401, body: `Bad credentials: ${TOKEN}` };
    const r = await notifyHealth([problem("a"), problem("b")], T0, env());
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toBe("--notify: open a: POST /repos/owner/feed/issues: HTTP 401 (Bad credentials: ***)");
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });

  test("GitHub cannot be reached, or is not configured: a warning, no throw", async () => {
    const r = await notifyHealth([problem("a")], T0, env({ GITHUB_API_URL: `http://127.0.0.1:${await closedPort()}` }));
    expect(r.warnings).toEqual([expect.stringMatching(/could not be reached \(E[A-Z]+\)$/)]);
    const none = await notifyHealth([problem("a")], T0, { PRICE_FEED_ALERT_WEBHOOK: gh.hook });
    expect(none.warnings).toEqual([
      "--notify: GITHUB_REPOSITORY (owner/name) and GITHUB_TOKEN must both be set: no issue was opened or closed, and the webhook, which follows the issues, was not posted to",
    ]);
    expect(gh.posts).toEqual([]);
  });

  test("scrub takes out every secret and every URL's query", () => {
    expect(scrub("tok abc123 at https://h.example/x?key=1 and abc123", ["abc123", undefined, ""])).toBe(
      "tok *** at https://h.example/x and ***",
    );
  });
});

describe("price-feed health --notify, the command", () => {
  const saved: Record<string, string | undefined> = {};
  const keys = ["GITHUB_REPOSITORY", "GITHUB_TOKEN", "GITHUB_API_URL", "PRICE_FEED_ALERT_WEBHOOK"] as const;
  beforeEach(() => {
    for (const k of keys) saved[k] = process.env[k];
  });
  afterEach(() => {
    for (const k of keys)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    vi.restoreAllMocks();
  });

  test("a usage error is exit 1: a bad --after, a missing --data", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    vi.spyOn(process.stderr, "write").mockImplementation((c: string | Uint8Array) => lines.push(String(c)) > 0);
    expect(await main(["node", "price-feed", "health", "--after", "0"])).toBe(1);
    expect(lines.join("")).toContain('"0" is not a whole number of hours from 1 to 8784');
    lines.length = 0;
    expect(await main(["node", "price-feed", "health", "--data", "/nonexistent/data"])).toBe(1);
    expect(lines.join("\n")).toContain("/nonexistent/data: no such folder (--data)");
  });

  test("exit 3 with the problems opened as issues; the token and the webhook's URL in no line it prints", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    await writeSourceRuns(data, {
      sources: {
        s1: {
          lastRunAt: "2026-11-22T14:07:00.000Z",
          lastSuccessAt: "2026-11-22T06:07:00.000Z",
          lastFailure: { at: "2026-11-22T14:07:00.000Z", reason: `HTTP 403 (https://u:${TOKEN}@bank.example/r?k=1)` },
          failingSince: "2026-11-22T07:07:00.000Z",
        },
      },
    });
    Object.assign(process.env, {
      GITHUB_REPOSITORY: "owner/feed",
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: gh.base,
      PRICE_FEED_ALERT_WEBHOOK: gh.hook,
    });
    gh.fail = { match: /^POST \/hook/, status: 404, body: "gone" };
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    const out = path.join(await tempDir(), "public");
    const status = await main([
      "node",
      "price-feed",
      "health",
      "--data",
      data,
      "--out",
      out,
      "--now",
      "2026-11-22T14:10:00Z",
      "--notify",
    ]);
    expect(status).toBe(3);
    expect(gh.issues.map((i) => i.title).sort()).toEqual([
      "The feed is not ready: no published build",
      "s1: failing inside its trading sessions",
    ]);
    const text = lines.join("\n");
    expect(text).toContain("price-feed health --notify: opened #1 feed-stale");
    expect(text).toContain(
      "price-feed health: warning: the alert webhook (PRICE_FEED_ALERT_WEBHOOK) answered HTTP 404",
    );
    expect(text).toMatch(/^s1 +counted +2026-11-22T06:07:00\.000Z +8 +HTTP 403 \(https:\/\/bank\.example\/r\)$/m);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("T0PSECRET");
    expect(JSON.stringify(gh.issues)).not.toContain(TOKEN);
    await fs.rm(data, { recursive: true, force: true });
  });
});
