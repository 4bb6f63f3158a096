/**
 * What `price-feed health --notify` says on GitHub, as a pure plan: from the problems of this run
 * (src/feed/health.ts) and the issues that already carry the label, the issues to open, comment on,
 * reopen and close. src/jobs/health-notify.ts carries the plan out over the REST API.
 *
 * Each issue's body holds two HTML comments the next run reads back (GitHub renders neither):
 * the problem's key, `<!-- price-feed-health: source-failing:cib-rates-api -->`, by which a problem
 * finds its issue and is never opened twice; and what was last said of it, its state, when it began
 * and when it was last said, by which a change is commented on at most every COMMENT_EVERY_MS.
 * An issue the operator closed as not planned stays closed while its problem says the same: they
 * have seen it and chose to live with it (a name on a page that is no seller, say).
 */
import { humanAge } from "./readiness.js";
import type { Problem } from "./health.js";

export const HEALTH_LABEL = "feed-health";
/** A change of a problem is commented on at most this often. */
export const COMMENT_EVERY_MS = 6 * 3_600_000;
/** A problem back within this time of its issue's closing reopens that issue, rather than opening another. */
export const REOPEN_WITHIN_MS = 24 * 3_600_000;

const KEY_MARK = "price-feed-health:";
const STATE_MARK = "price-feed-health-state:";

/** An issue as the plan needs it (the REST API's `number`, `state`, `state_reason`, `body`, `closed_at`, `html_url`). */
export interface IssueView {
  number: number;
  state: "open" | "closed";
  /** How it was closed: "completed" (by this command, or by hand), "not_planned" (by hand: let it be); null when open. */
  stateReason: string | null;
  title: string;
  body: string;
  closedAt: string | null;
  url: string;
}

/** What was last said of a problem, kept in its issue's body. */
export interface Said {
  state: string;
  since: string;
  said: string;
}

/** One call to make; `alert` is the line a chat webhook gets (openings, reopenings and closings only). */
export type Notice = { key: string; title: string; alert: string | null } & (
  | { do: "open"; body: string }
  | { do: "comment"; number: number; comment: string; body: string }
  | { do: "reopen"; number: number; comment: string; body: string }
  | { do: "close"; number: number; comment: string; body?: string; stateReason: "completed" | "not_planned" }
);

export const keyMarker = (key: string) => `<!-- ${KEY_MARK} ${key} -->`;

/**
 * The state's marker: JSON inside an HTML comment, every "-" written as its JSON escape so that no
 * text of the state (a reason may hold "-->") can end the comment early.
 */
export const stateMarker = (s: Said) => `<!-- ${STATE_MARK} ${JSON.stringify(s).replaceAll("-", "\\u002d")} -->`;

/** The problem's key an issue's body carries, or null for an issue this command did not open. */
export function keyOf(body: string | null | undefined): string | null {
  const at = (body ?? "").indexOf(`<!-- ${KEY_MARK} `);
  if (at < 0) return null;
  const start = at + KEY_MARK.length + 6;
  const end = body!.indexOf(" -->", start);
  return end > start ? body!.slice(start, end).trim() : null;
}

/** What the body says was last said, or null when it says nothing readable. */
export function saidOf(body: string | null | undefined): Said | null {
  const text = body ?? "";
  // The last marker: ours closes the body, after any text a source wrote that might imitate it.
  const at = text.lastIndexOf(`<!-- ${STATE_MARK} `);
  if (at < 0) return null;
  const start = at + STATE_MARK.length + 6;
  const end = text.indexOf(" -->", start);
  try {
    const v = JSON.parse(text.slice(start, end)) as Partial<Said>;
    return typeof v.state === "string" && typeof v.since === "string" && typeof v.said === "string"
      ? { state: v.state, since: v.since, said: v.said }
      : null;
  } catch {
    return null;
  }
}

const ago = (fromIso: string, nowMs: number) => humanAge(Math.max(0, Math.round((nowMs - Date.parse(fromIso)) / 1000)));

/** The issue's body: the problem as it stands, what to do, and the two markers. */
export function issueBody(p: Problem, said: Said): string {
  return [
    keyMarker(p.key),
    p.detail,
    `**What to do.** ${p.action}`,
    `_Kept by \`price-feed health --notify\` (docs/operating.md "When something breaks"): it comments when this problem changes, at most every ${humanAge(COMMENT_EVERY_MS / 1000)}, and closes this issue when it clears._`,
    stateMarker(said),
  ].join("\n\n");
}

/**
 * The plan. Per problem: its open issue, commented on when its state differs from what was last
 * said and that was COMMENT_EVERY_MS ago or more; else its issue closed within REOPEN_WITHIN_MS,
 * reopened (a flapping problem keeps one issue); else a new issue. Per open issue of ours whose
 * problem is gone: a closing comment (when, after how long), then closed. Issues without our key
 * marker are someone else's and are left alone; of two open issues with one key (a run that died
 * between two calls), the older is kept and the other closed as a duplicate.
 */
export function planNotices(problems: readonly Problem[], issues: readonly IssueView[], nowMs: number): Notice[] {
  const now = new Date(nowMs).toISOString();
  const out: Notice[] = [];
  const ours = issues.filter((i) => keyOf(i.body) !== null).sort((a, b) => a.number - b.number);
  const open = new Map<string, IssueView>();
  for (const i of ours.filter((x) => x.state === "open")) {
    const key = keyOf(i.body)!;
    if (!open.has(key)) open.set(key, i);
    else
      out.push({
        do: "close",
        key,
        number: i.number,
        title: i.title,
        comment: `A duplicate of #${open.get(key)!.number}, which follows this problem: closed at ${now}.`,
        // Its key marker goes: no later run takes it for the problem's issue.
        body: i.body.replace(keyMarker(key), `<!-- price-feed-health duplicate of #${open.get(key)!.number} -->`),
        stateReason: "not_planned",
        alert: null,
      });
  }
  const current = new Set(problems.map((p) => p.key));
  for (const p of problems) {
    const issue = open.get(p.key);
    if (issue) {
      const said = saidOf(issue.body);
      if (said?.state === p.state) continue;
      if (said && nowMs - Date.parse(said.said) < COMMENT_EVERY_MS) continue;
      const next = { state: p.state, since: said?.since ?? p.since ?? now, said: now };
      out.push({
        do: "comment",
        key: p.key,
        number: issue.number,
        title: p.title,
        comment: `**Changed at ${now}**: ${p.title}.\n\n${p.detail}\n\n**What to do.** ${p.action}`,
        body: issueBody(p, next),
        alert: null,
      });
      continue;
    }
    // Closed as not planned by the operator, and the problem says what it said then: let it be.
    const dismissed = ours.some(
      (i) =>
        i.state === "closed" &&
        i.stateReason === "not_planned" &&
        keyOf(i.body) === p.key &&
        saidOf(i.body)?.state === p.state,
    );
    if (dismissed) continue;
    const closed = ours
      .filter((i) => i.state === "closed" && keyOf(i.body) === p.key && i.closedAt !== null)
      .filter((i) => nowMs - Date.parse(i.closedAt!) <= REOPEN_WITHIN_MS)
      .sort((a, b) => Date.parse(b.closedAt!) - Date.parse(a.closedAt!))[0];
    const said = { state: p.state, since: p.since ?? now, said: now };
    if (closed)
      out.push({
        do: "reopen",
        key: p.key,
        number: closed.number,
        title: p.title,
        comment: `**Back at ${now}**, ${ago(closed.closedAt!, nowMs)} after it cleared: ${p.title}.\n\n${p.detail}`,
        body: issueBody(p, said),
        alert: `price-feed health: back at ${now}: ${p.title}`,
      });
    else
      out.push({
        do: "open",
        key: p.key,
        title: p.title,
        body: issueBody(p, said),
        alert: `price-feed health: ${p.title}`,
      });
  }
  for (const [key, issue] of open) {
    if (current.has(key)) continue;
    const said = saidOf(issue.body);
    const since = said?.since;
    out.push({
      do: "close",
      key,
      number: issue.number,
      title: issue.title,
      comment: `**Cleared at ${now}**${since ? `, after ${ago(since, nowMs)} (it began at ${since})` : ""}: this run of \`price-feed health\` no longer finds the problem. Should it come back within ${humanAge(REOPEN_WITHIN_MS / 1000)}, this issue reopens; later, a new one opens.`,
      stateReason: "completed",
      alert: `price-feed health: cleared at ${now}${since ? ` after ${ago(since, nowMs)}` : ""}: ${issue.title}`,
    });
  }
  return out;
}
