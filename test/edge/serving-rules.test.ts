/**
 * The pure parts behind issue 26's serving items, table by table: the preconditions of RFC 9110
 * §13.2.2, strong comparison, who counts as identified, the busy threshold, the caps and the
 * RateLimit-Policy a caller gets, the in-memory store's check-then-spend, and the instant the
 * stale-site hint suggests.
 */
import { describe, expect, test } from "vitest";
import { evaluatePreconditions, strongMatch } from "../../src/edge/conditional.js";
import { MemoryStore, busyIndex, hitFromReply, isBusy, scriptInputs } from "../../src/edge/counters.js";
import {
  capsFor,
  holdsContact,
  identifies,
  parseBusyThreshold,
  policyHeader,
  windowFor,
} from "../../src/edge/policy.js";
import { localHint, readiness, readyInstant } from "../../src/feed/readiness.js";
import { anonymousWindow } from "../../src/feed/index-doc.js";
import { localCommands, shellWord } from "../../src/cli/serve.js";
import type { Manifest } from "../../src/schema/documents.js";
import { calendar } from "../helpers/dataset.js";

const ETAG = '"abc123"';
const LM = Date.parse("2026-11-19T11:30:00.400Z");
const NOW = Date.parse("2026-11-19T12:00:00Z");

describe("evaluatePreconditions (RFC 9110 §13.2.2)", () => {
  test.each([
    { name: "no preconditions", h: {}, out: "proceed" },
    { name: "If-Match current", h: { "If-Match": ETAG }, out: "proceed" },
    { name: "If-Match *", h: { "If-Match": "*" }, out: "proceed" },
    { name: "If-Match other", h: { "If-Match": '"zzz"' }, out: { failed: "If-Match" } },
    { name: "If-Match weak current", h: { "If-Match": `W/${ETAG}` }, out: { failed: "If-Match" } },
    { name: "If-Match list with current", h: { "If-Match": `"x", ${ETAG}` }, out: "proceed" },
    { name: "If-Match not an entity-tag", h: { "If-Match": "abc123" }, out: { failed: "If-Match" } },
    { name: "If-Match empty list", h: { "If-Match": " , " }, out: { failed: "If-Match" } },
    {
      name: "IUS before Last-Modified",
      h: { "If-Unmodified-Since": "Thu, 19 Nov 2026 11:29:59 GMT" },
      out: { failed: "If-Unmodified-Since" },
    },
    {
      name: "IUS at Last-Modified's second",
      h: { "If-Unmodified-Since": "Thu, 19 Nov 2026 11:30:00 GMT" },
      out: "proceed",
    },
    { name: "IUS in the future", h: { "If-Unmodified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" }, out: "proceed" },
    { name: "IUS not a date", h: { "If-Unmodified-Since": "2020-01-01" }, out: "proceed" },
    {
      name: "IUS ignored beside If-Match",
      h: { "If-Match": ETAG, "If-Unmodified-Since": "Thu, 01 Jan 2026 00:00:00 GMT" },
      out: "proceed",
    },
    {
      name: "If-Match false before INM",
      h: { "If-Match": '"old"', "If-None-Match": ETAG },
      out: { failed: "If-Match" },
    },
    {
      name: "IUS false before INM",
      h: { "If-Unmodified-Since": "Thu, 01 Jan 2026 00:00:00 GMT", "If-None-Match": ETAG },
      out: { failed: "If-Unmodified-Since" },
    },
    { name: "If-Match true then INM match", h: { "If-Match": ETAG, "If-None-Match": ETAG }, out: "not-modified" },
    { name: "INM weak match", h: { "If-None-Match": `W/${ETAG}` }, out: "not-modified" },
    { name: "IMS not modified", h: { "If-Modified-Since": "Thu, 19 Nov 2026 11:30:00 GMT" }, out: "not-modified" },
    {
      name: "IMS in the future is ignored",
      h: { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" },
      out: "proceed",
    },
  ])("$name", ({ h, out }) => {
    expect(evaluatePreconditions(new Headers(h), ETAG, LM, NOW)).toEqual(out);
  });

  test.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', false],
    ['"a"', 'W/"a"', false],
    ['W/"a"', 'W/"a"', false],
    ['"a"', '"b"', false],
  ])("strongMatch(%s, %s) is %s (§8.8.3.2)", (a, b, same) => {
    expect(strongMatch(a, b)).toBe(same);
  });
});

describe("who identifies itself", () => {
  test.each([
    [null, false],
    ["", false],
    ["curl/8.5.0", false],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36", false],
    ["my app", false],
    ["http://localhost", false],
    ["ops@app.example", true],
    ["mailto:ops@app.example", true],
    ["https://app.example/contact", true],
    ["Mozilla/5.0 (compatible; price-feed/1.0; +https://app.example)", true],
    ["app/1.0 (+mailto:you@app.example)", true],
    [`${"x".repeat(600)} ops@app.example`, false], // only the start of a header is read
  ])("%j → %s", (value, yes) => {
    expect(holdsContact(value)).toBe(yes);
  });

  test.each([
    [{}, false],
    [{ "X-Contact": "ops@app.example" }, true],
    [{ "User-Agent": "bot (+https://bot.example)" }, true],
    [{ "X-Contact": "me", "User-Agent": "curl/8" }, false],
  ])("headers %j → %s", (h, yes) => {
    expect(identifies(new Headers(h))).toBe(yes);
  });
});

describe("the busy rule", () => {
  test.each([
    ["2000/60", { limit: 2000, seconds: 60 }],
    [" 5/1 ", { limit: 5, seconds: 1 }],
    ["0/60", null],
    ["5/0", null],
    ["5", null],
    ["lots", null],
    ["-1/60", null],
  ])("parseBusyThreshold(%j)", (v, out) => {
    expect(parseBusyThreshold(v)).toEqual(out);
  });

  const limits = { window: 240, windowSeconds: 60, daily: 1000, busy: { limit: 100, seconds: 10 } };
  test.each([
    { identified: true, busy: false, window: 240, policy: "240;w=60" },
    { identified: false, busy: false, window: 240, policy: "240;w=60" },
    { identified: true, busy: true, window: 240, policy: "240;w=60" },
    { identified: false, busy: true, window: 60, policy: /^60;w=60;comment="busy: anonymous callers limited first/ },
  ])("identified $identified, busy $busy → window $window", ({ identified, busy, window, policy }) => {
    expect(windowFor(limits, identified, busy)).toBe(window);
    expect(policyHeader(limits, identified, busy)).toMatch(policy);
  });

  test("caps: the busy window is the quarter for an anonymous caller, the threshold in ms", () => {
    expect(capsFor(limits, false)).toEqual({
      window: 240,
      busyWindow: 60,
      daily: 1000,
      busy: { limit: 100, windowMs: 10_000 },
    });
    expect(capsFor({ ...limits, busy: undefined }, true)).toEqual({ window: 240, busyWindow: 240, daily: 1000 });
    expect([1, 3, 4, 7, 240].map(anonymousWindow)).toEqual([1, 1, 1, 1, 60]);
  });

  test.each([
    // previous, current, elapsed, limit → busy
    [0, 5, 0.5, 5, false],
    [0, 6, 0.5, 5, true],
    [10, 0, 0.5, 5, false], // 10 × 0.5 = 5, not past 5
    [10, 1, 0.5, 5, true],
    [10, 0, 0.1, 5, true],
  ])("sliding estimate: previous %i, current %i, %f elapsed, limit %i → %s", (p, c, e, l, out) => {
    expect(isBusy(p, c, e, l)).toBe(out);
  });

  test("busyIndex splits the wall clock into windows", () => {
    expect(busyIndex(125_000, 60_000)).toEqual({ index: 2, elapsed: 5_000 / 60_000 });
  });
});

describe("the in-memory store checks, then spends", () => {
  const caps = { window: 2, busyWindow: 1, daily: 3 };
  test("a refused request is not counted; a peek counts nothing", async () => {
    const s = new MemoryStore();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await s.hit("c", NOW, 60_000, caps));
    expect(seen.map((h) => [h.windowCount, h.dayCount, h.refused ?? null])).toEqual([
      [1, 1, null],
      [2, 2, null],
      [2, 2, "window"],
      [2, 2, "window"],
    ]);
    expect(await s.peek("c", NOW, 60_000, caps)).toMatchObject({ windowCount: 2, dayCount: 2 });
    // A new window: one more, then the day is used up, and refusals leave it at 3.
    expect(await s.hit("c", NOW + 60_000, 60_000, caps)).toMatchObject({ windowCount: 1, dayCount: 3 });
    expect(await s.hit("c", NOW + 120_000, 60_000, caps)).toMatchObject({ dayCount: 3, refused: "daily" });
    expect(await s.peek("nobody", NOW, 60_000, caps)).toMatchObject({ windowCount: 0, dayCount: 0 });
  });

  test("busy: past the threshold across all clients, the busy window applies", async () => {
    const s = new MemoryStore();
    const busyCaps = { ...caps, daily: 100, busy: { limit: 3, windowMs: 60_000 } };
    for (const c of ["a", "b", "d"]) expect((await s.hit(c, NOW, 60_000, busyCaps)).busy).toBe(false);
    const fourth = await s.hit("e", NOW, 60_000, busyCaps);
    expect(fourth).toMatchObject({ busy: true, windowCount: 1 });
    expect(await s.hit("e", NOW, 60_000, busyCaps)).toMatchObject({ refused: "window", windowCount: 1 });
    // Peeks do not add to the total.
    const quiet = new MemoryStore();
    for (let i = 0; i < 10; i++) await quiet.peek("a", NOW, 60_000, busyCaps);
    expect((await quiet.hit("a", NOW, 60_000, busyCaps)).busy).toBe(false);
  });
});

describe("the Redis script's inputs and reply", () => {
  test("keys: window, Cairo day, this busy window's total and the previous one's; args end with count or look", () => {
    const { keys, args } = scriptInputs(
      "c",
      NOW,
      60_000,
      { window: 2, busyWindow: 1, daily: 3, busy: { limit: 9, windowMs: 10_000 } },
      false,
    );
    expect(keys).toEqual([
      "pf:w:c",
      "pf:d:2026-11-19:c",
      `pf:t:10000:${Math.floor(NOW / 10_000)}`,
      `pf:t:10000:${Math.floor(NOW / 10_000) - 1}`,
    ]);
    expect(args.slice(2, 7)).toEqual(["2", "1", "3", "9", "10000"]);
    expect(args.at(-1)).toBe("0");
  });

  test.each([
    [[1, 60000, 1, 0, 0], { windowCount: 1, windowResetMs: 60000, dayCount: 1, busy: false }],
    [[2, 100, 2, 1, 1], { windowCount: 2, windowResetMs: 100, dayCount: 2, busy: true, refused: "window" }],
    [[0, 100, 5, 2, 0], { windowCount: 0, windowResetMs: 100, dayCount: 5, busy: false, refused: "daily" }],
  ])("reply %j", (reply, hit) => {
    expect(hitFromReply(reply)).toEqual(hit);
  });

  test("a reply of another shape is an error", () => {
    expect(() => hitFromReply([1, 2, 3])).toThrow(/unexpected script reply/);
  });
});

describe("the stale-site hint", () => {
  const manifest = (generatedAt: string, usd: string | null, gold: string | null): Manifest =>
    ({
      generatedAt,
      assets: [
        { slug: "us-dollar", category: "currencies", observedAt: usd },
        { slug: "gold-24k", category: "metals", observedAt: gold },
      ],
      calendar: calendar.categories, // the test datasets' (helpers/dataset.ts)
    }) as unknown as Manifest;

  test.each([
    {
      name: "built while fresh: the build's own instant",
      m: manifest("2026-11-19T19:30:00.000Z", "2026-11-19T14:00:00.000Z", "2026-11-19T19:00:00.000Z"),
      at: "2026-11-19T19:30:00.000Z",
    },
    {
      name: "built days after its data (npm run build on old data): the newest observation",
      m: manifest("2026-11-23T21:00:00.000Z", "2026-11-19T14:00:00.000Z", "2026-11-19T19:00:00.000Z"),
      at: "2026-11-19T19:00:00.000Z",
    },
    {
      name: "an asset never observed: no instant",
      m: manifest("2026-11-19T19:30:00.000Z", "2026-11-19T14:00:00.000Z", null),
      at: null,
    },
  ])("$name", ({ m, at }) => {
    const t = readyInstant(m);
    expect(t === null ? null : new Date(t).toISOString()).toBe(at);
    if (t !== null) expect(readiness(m, t).status).toBe(200);
    const hint = localHint(m, {
      serve: "npx price-feed serve --dir public",
      build: "npx price-feed build --out public",
    });
    if (at) expect(hint).toContain(`\`npx price-feed serve --dir public --now ${at}\``);
    else expect(hint).toMatch(/^No instant makes this build ready.*npm start/);
    // A build made after its data went stale is built again at that instant first: served at an
    // earlier clock, its documents would still say every asset is stale.
    if (at && at !== m.generatedAt) expect(hint).toContain(`\`npx price-feed build --out public --now ${at}\``);
    else expect(hint).not.toContain("build --out");
  });

  test("the hint never suggests the clock that gave the 503", () => {
    const m = manifest("2026-11-23T21:00:00.000Z", "2026-11-19T14:00:00.000Z", "2026-11-19T19:00:00.000Z");
    const r = readiness(m, Date.parse("2026-11-23T21:00:00Z"), "enforced", {
      serve: "npx price-feed serve",
      build: "npx price-feed build",
    });
    expect(r.status).toBe(503);
    expect(r.body.action).not.toContain("--now 2026-11-23T21:00:00.000Z");
    expect(r.body.action).toContain("`npx price-feed serve --now 2026-11-19T19:00:00.000Z`");
    // Without a command (on Netlify), the action is the operator's advice alone.
    expect(readiness(m, Date.parse("2026-11-23T21:00:00Z")).body.action).not.toContain("npx price-feed serve");
  });

  test.each([
    [{ dir: "public", port: 8888, host: "127.0.0.1" }, "npx price-feed serve --dir public", "--out public"],
    [
      { dir: "/tmp/a b", port: 0, host: "127.0.0.1" },
      "npx price-feed serve --dir '/tmp/a b' --port 0",
      "--out '/tmp/a b'",
    ],
    [
      { dir: "out", port: 9000, host: "0.0.0.0" },
      "npx price-feed serve --dir out --port 9000 --host 0.0.0.0",
      "--out out",
    ],
  ])("localCommands(%j)", (o, serve, out) => {
    expect(localCommands(o)).toEqual({ serve, build: `npx price-feed build --no-state --force ${out}` });
  });

  test("shellWord quotes what a shell would split or expand", () => {
    expect(["plain/dir", "it's", "$HOME", "a b"].map(shellWord)).toEqual([
      "plain/dir",
      "'it'\\''s'",
      "'$HOME'",
      "'a b'",
    ]);
  });
});
