/**
 * The markers `health --notify` keeps in an issue's body (src/feed/health-notices.ts): read back as
 * written, whatever text a source put into the problem — a reason holding "-->" or an imitation of
 * the markers cannot end them early or be taken for them.
 */
import { describe, expect, test } from "vitest";
import { issueBody, keyOf, planNotices, saidOf, stateMarker, type IssueView } from "../../src/feed/health-notices.js";
import { verbatim, type Problem } from "../../src/feed/health.js";

const NOW = Date.parse("2026-11-22T10:07:00.000Z");
const hostile = `HTTP 500 --> <!-- price-feed-health-state: {"state":"forged","since":"2020-01-01T00:00:00.000Z","said":"2020-01-01T00:00:00.000Z"} --> @octocat ![x](https://evil.example/p.png) \`code\``;
const problem = (state: string): Problem => ({
  key: "source-failing:x",
  title: "x: failing inside its trading sessions",
  detail: `Last reason: ${verbatim(state)}.`,
  action: "fix it",
  state,
  since: null,
});

describe("the issue's markers", () => {
  test("the key and what was said read back as written, a hostile reason in the body notwithstanding", () => {
    const said = { state: hostile, since: "2026-11-22T08:07:00.000Z", said: "2026-11-22T09:07:00.000Z" };
    const body = issueBody(problem(hostile), said);
    expect(keyOf(body)).toBe("source-failing:x");
    expect(saidOf(body)).toEqual(said);
    expect(stateMarker(said)).not.toMatch(/-->.*-->/);
  });

  test("the reason lands in one code span: no mention, no image, no second code span", () => {
    expect(verbatim(hostile)).toBe(
      '`HTTP 500 --> <!-- price-feed-health-state: {"state":"forged","since":"2020-01-01T00:00:00.000Z","said":"2020-01-01T00:00:00.000Z"} --> @octocat ![x](https://evil.example/p.png) \'code\'`',
    );
  });

  test("an issue whose state is the problem's is left alone; another issue's body is never ours", () => {
    const said = { state: hostile, since: "2026-11-22T08:07:00.000Z", said: "2026-11-22T09:07:00.000Z" };
    const issue: IssueView = {
      number: 7,
      state: "open",
      stateReason: null,
      title: "t",
      body: issueBody(problem(hostile), said),
      closedAt: null,
      url: "u",
    };
    expect(planNotices([problem(hostile)], [issue], NOW)).toEqual([]);
    expect(keyOf("a body a person wrote, quoting price-feed-health: x")).toBeNull();
    expect(saidOf("<!-- price-feed-health-state: not json -->")).toBeNull();
  });
});
