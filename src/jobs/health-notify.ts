/**
 * `price-feed health --notify`: carries out src/feed/health-notices.ts's plan over GitHub's REST API
 * with the job's own token, and posts the openings and closings to a chat webhook. Nothing here may
 * fail the publishing: every failure is a warning (returned, printed by the CLI), and no warning or
 * log line ever holds the token or the webhook's URL (scrub()).
 *
 * The REST calls, as GitHub documents them (docs.github.com/en/rest/issues, API version 2022-11-28):
 * - list a repository's issues: GET /repos/{owner}/{repo}/issues?labels=…&state=open|closed
 *   &sort=updated&direction=desc&per_page=100, paged by the Link header's rel="next"; pull requests
 *   come back too (they carry a `pull_request` member) and are passed over; each has `state_reason`.
 *   ("List repository issues", rest/issues/issues)
 * - create an issue: POST /repos/{owner}/{repo}/issues {title, body, labels} → 201 with `number`,
 *   `html_url`. ("Create an issue")
 * - create an issue comment: POST /repos/{owner}/{repo}/issues/{issue_number}/comments {body} → 201.
 *   ("Create an issue comment", rest/issues/comments#create-an-issue-comment)
 * - update an issue: PATCH /repos/{owner}/{repo}/issues/{issue_number} {state: "closed"|"open",
 *   state_reason: "completed"|"not_planned"|"reopened", body}; state_reason is taken only with a change of state
 *   (github/docs issue 22914). ("Update an issue", rest/issues/issues#update-an-issue)
 * Headers: `Accept: application/vnd.github+json`, `Authorization: Bearer <token>`,
 * `X-GitHub-Api-Version: 2022-11-28`. The base is GITHUB_API_URL (Actions sets it; GitHub Enterprise
 * differs), https://api.github.com when unset.
 */
import { redactUrls } from "../core/redact.js";
import { HEALTH_LABEL, keyOf, planNotices, type IssueView, type Notice } from "../feed/health-notices.js";
import type { Problem } from "../feed/health.js";

export const DEFAULT_API = "https://api.github.com";
/** Each call's time budget: a slow API costs the step at most this per call. */
const CALL_TIMEOUT_MS = 15_000;
/** Pages of issues read at most per list (100 each). */
const MAX_PAGES = 10;

export interface NotifyEnv {
  GITHUB_REPOSITORY?: string | undefined;
  GITHUB_TOKEN?: string | undefined;
  GITHUB_API_URL?: string | undefined;
  PRICE_FEED_ALERT_WEBHOOK?: string | undefined;
}

export interface NotifyResult {
  /** One line per call made: "opened #12 source-failing:x", "closed #9 feed-stale". */
  done: string[];
  /** What did not work, scrubbed of every secret. */
  warnings: string[];
}

/** `text` without the secrets given (each replaced by ***), and with every URL's query and userinfo removed. */
export function scrub(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("***");
  return redactUrls(out);
}

/** Why a call failed, in words without the address called (the webhook's URL is itself the secret). */
function failure(e: unknown): string {
  const err = e as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> };
  };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return `no answer within ${CALL_TIMEOUT_MS / 1000} s`;
  // fetch's own error says only "fetch failed": the reason is its cause's (ECONNREFUSED, ENOTFOUND…).
  const why = err?.cause?.code ?? err?.cause?.errors?.[0]?.code ?? err?.cause?.message ?? err?.message ?? String(e);
  return `could not be reached (${why})`;
}

class ApiError extends Error {}

interface ApiIssue {
  number: number;
  state: string;
  title: string;
  body?: string | null;
  closed_at?: string | null;
  state_reason?: string | null;
  html_url: string;
  pull_request?: unknown;
}

/** GitHub's REST API for one repository, with the job's token. */
class GitHub {
  constructor(
    private readonly base: string,
    private readonly repo: string,
    private readonly token: string,
    private readonly fetchImpl: typeof fetch,
  ) {}

  private async call(method: string, url: string, body?: unknown): Promise<{ json: unknown; next: string | null }> {
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method,
        headers: {
          accept: "application/vnd.github+json",
          authorization: `Bearer ${this.token}`,
          "x-github-api-version": "2022-11-28",
          "user-agent": "price-feed-health",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (e) {
      throw new ApiError(`${method} ${this.path(url)}: GitHub's API ${failure(e)}`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message: string;
      try {
        message = String((JSON.parse(text) as { message?: unknown }).message ?? "");
      } catch {
        message = "";
      }
      throw new ApiError(
        `${method} ${this.path(url)}: HTTP ${res.status}${message ? ` (${message.slice(0, 200)})` : ""}` +
          (res.status === 403 || res.status === 404 ? ": does the job grant `issues: write`?" : ""),
      );
    }
    const link = res.headers.get("link") ?? "";
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null;
    return { json: text ? (JSON.parse(text) as unknown) : null, next };
  }

  /** The path called, for a message: never the host's userinfo or the query. */
  private path(url: string): string {
    return new URL(url).pathname;
  }

  private url(p: string): string {
    return `${this.base.replace(/\/+$/, "")}/repos/${this.repo}${p}`;
  }

  /** The issues with the label, most lately updated first, at most MAX_PAGES pages. */
  async list(state: "open" | "closed"): Promise<IssueView[]> {
    const q = new URLSearchParams({ labels: HEALTH_LABEL, state, sort: "updated", direction: "desc", per_page: "100" });
    const out: IssueView[] = [];
    let url: string | null = this.url(`/issues?${q}`);
    for (let page = 0; url && page < MAX_PAGES; page++) {
      const r: { json: unknown; next: string | null } = await this.call("GET", url);
      for (const i of (r.json as ApiIssue[]) ?? [])
        if (!i.pull_request)
          out.push({
            number: i.number,
            state: i.state === "closed" ? "closed" : "open",
            stateReason: i.state_reason ?? null,
            title: i.title,
            body: i.body ?? "",
            closedAt: i.closed_at ?? null,
            url: i.html_url,
          });
      // The token goes to the API's own origin only, whatever a Link header names.
      url = r.next !== null && new URL(r.next).origin === new URL(this.base).origin ? r.next : null;
    }
    return out;
  }

  async create(title: string, body: string): Promise<{ number: number; url: string }> {
    const r = await this.call("POST", this.url("/issues"), { title, body, labels: [HEALTH_LABEL] });
    const i = r.json as ApiIssue;
    return { number: i.number, url: i.html_url };
  }

  async comment(n: number, body: string): Promise<void> {
    await this.call("POST", this.url(`/issues/${n}/comments`), { body });
  }

  async update(n: number, fields: Record<string, unknown>): Promise<void> {
    await this.call("PATCH", this.url(`/issues/${n}`), fields);
  }
}

/** One notice carried out; the issue's address, for the webhook. */
async function carryOut(
  gh: GitHub,
  n: Notice,
  urls: ReadonlyMap<number, string>,
): Promise<{ line: string; url: string | null }> {
  switch (n.do) {
    case "open": {
      const i = await gh.create(n.title, n.body);
      return { line: `opened #${i.number} ${n.key}`, url: i.url };
    }
    case "comment":
      await gh.comment(n.number, n.comment);
      await gh.update(n.number, { title: n.title, body: n.body });
      return { line: `commented on #${n.number} ${n.key}`, url: urls.get(n.number) ?? null };
    case "reopen":
      await gh.update(n.number, { state: "open", state_reason: "reopened", title: n.title, body: n.body });
      await gh.comment(n.number, n.comment);
      return { line: `reopened #${n.number} ${n.key}`, url: urls.get(n.number) ?? null };
    case "close":
      await gh.comment(n.number, n.comment);
      await gh.update(n.number, { state: "closed", state_reason: n.stateReason, ...(n.body ? { body: n.body } : {}) });
      return { line: `closed #${n.number} ${n.key}`, url: urls.get(n.number) ?? null };
  }
}

/** Posts `{"text": …}` to the webhook (the shape Slack, Discord and Teams' incoming webhooks take). */
async function postWebhook(url: string, text: string, fetchImpl: typeof fetch): Promise<string | null> {
  try {
    const res = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "price-feed-health" },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? null : `the alert webhook (PRICE_FEED_ALERT_WEBHOOK) answered HTTP ${res.status}`;
  } catch (e) {
    return `the alert webhook (PRICE_FEED_ALERT_WEBHOOK) ${failure(e)}`;
  }
}

/**
 * Opens, comments on, reopens and closes the issues of `problems` at `nowMs`, then posts each
 * opening and closing to the webhook. Never throws: a call that fails is a warning, and the calls
 * after it still run (a notice left undone is done by the next run, which finds the same state).
 */
export async function notifyHealth(
  problems: readonly Problem[],
  nowMs: number,
  env: NotifyEnv,
  fetchImpl: typeof fetch = fetch,
): Promise<NotifyResult> {
  const secrets = [env.GITHUB_TOKEN, env.PRICE_FEED_ALERT_WEBHOOK];
  const done: string[] = [];
  const warnings: string[] = [];
  const warn = (w: string) => warnings.push(scrub(w, secrets));
  const repo = env.GITHUB_REPOSITORY?.trim();
  const token = env.GITHUB_TOKEN?.trim();
  if (!repo || !token || !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    warn(
      `--notify: GITHUB_REPOSITORY (owner/name) and GITHUB_TOKEN must both be set: no issue was opened or closed` +
        (env.PRICE_FEED_ALERT_WEBHOOK ? ", and the webhook, which follows the issues, was not posted to" : ""),
    );
    return { done, warnings };
  }
  const gh = new GitHub(env.GITHUB_API_URL?.trim() || DEFAULT_API, repo, token, fetchImpl);
  let issues: IssueView[];
  try {
    // The open ones, and the closed ones: one closed lately reopens when its problem is back; one the
    // operator closed as not planned keeps it quiet while it says the same (src/feed/health-notices.ts).
    const [open, closed] = [await gh.list("open"), await gh.list("closed")];
    issues = [...open, ...closed.filter((i) => keyOf(i.body) !== null)];
  } catch (e) {
    warn(
      `--notify: the issues labelled ${HEALTH_LABEL} could not be listed, so none was opened or closed: ${(e as Error).message}`,
    );
    return { done, warnings };
  }
  const urls = new Map(issues.map((i) => [i.number, i.url]));
  const alerts: string[] = [];
  for (const n of planNotices(problems, issues, nowMs)) {
    try {
      const r = await carryOut(gh, n, urls);
      done.push(r.line);
      if (n.alert) alerts.push(r.url ? `${n.alert} (${r.url})` : n.alert);
    } catch (e) {
      warn(`--notify: ${n.do} ${n.key}: ${(e as Error).message}`);
    }
  }
  const hook = env.PRICE_FEED_ALERT_WEBHOOK?.trim();
  if (hook)
    for (const text of alerts) {
      const w = await postWebhook(hook, text, fetchImpl);
      if (w) warn(w);
      else done.push("posted to the alert webhook");
    }
  return { done, warnings };
}
