/**
 * A stand-in for GitHub's REST API on loopback (node:http, real HTTP), for `price-feed health
 * --notify` (src/jobs/health-notify.ts): it keeps issues and their comments, answers the four calls
 * the command makes as GitHub does (list with labels/state/since and a Link header's rel="next",
 * create, comment, update), records every request, and takes posts to a chat webhook. Its clock is
 * the test's (`now`), so closed_at and updated_at follow the injected instants.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInIssue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  state_reason: string | null;
  labels: string[];
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  comments: string[];
  pull_request?: { url: string };
}

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
  apiVersion: string | undefined;
}

export interface StandIn {
  base: string;
  /** The webhook's URL, a secret in its path as Slack's and Discord's are. */
  hook: string;
  issues: StandInIssue[];
  requests: Recorded[];
  posts: Array<{ text: string }>;
  now: string;
  /** Answer this status (with this body) to the calls whose "METHOD path" matches, instead of serving them. */
  fail: { match: RegExp; status: number; body: string } | null;
  /** Issues per page of a list: small, so that paging is exercised. */
  pageSize: number;
  /** The origin the Link header's next page names: the stand-in's own unless set. */
  linkOrigin: string | null;
  close(): Promise<void>;
}

const REPO = /^\/repos\/([^/]+)\/([^/]+)\/issues(?:\/(\d+)(\/comments)?)?$/;

export async function startStandIn(hookSecret = "T0PSECRET-hook"): Promise<StandIn> {
  const s: Omit<StandIn, "base" | "hook" | "close"> = {
    issues: [],
    requests: [],
    posts: [],
    now: "2026-11-22T00:00:00.000Z",
    fail: null,
    pageSize: 2,
    linkOrigin: null,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const text = Buffer.concat(chunks).toString("utf8");
      const body: unknown = text ? JSON.parse(text) : null;
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(json === null ? "" : JSON.stringify(json));
      };
      if (url.pathname === `/hook/${hookSecret}` && req.method === "POST") {
        if (s.fail?.match.test(`POST /hook`)) return send(s.fail.status, { error: s.fail.body });
        s.posts.push(body as { text: string });
        return send(200, { ok: true });
      }
      s.requests.push({
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        authorization: req.headers.authorization,
        apiVersion: req.headers["x-github-api-version"] as string | undefined,
      });
      if (s.fail?.match.test(`${req.method} ${url.pathname}`)) return send(s.fail.status, { message: s.fail.body });
      const m = REPO.exec(url.pathname);
      if (!m) return send(404, { message: "Not Found" });
      const view = (i: StandInIssue) => ({
        number: i.number,
        title: i.title,
        body: i.body,
        state: i.state,
        state_reason: i.state_reason,
        labels: i.labels.map((name) => ({ name })),
        created_at: i.created_at,
        updated_at: i.updated_at,
        closed_at: i.closed_at,
        comments: i.comments.length,
        html_url: `https://github.example/${m[1]}/${m[2]}/issues/${i.number}`,
        ...(i.pull_request ? { pull_request: i.pull_request } : {}),
      });
      const number = m[3] ? Number(m[3]) : null;
      const issue = number === null ? null : s.issues.find((i) => i.number === number);
      if (req.method === "GET" && number === null) {
        const state = url.searchParams.get("state") ?? "open";
        const labels = (url.searchParams.get("labels") ?? "").split(",").filter(Boolean);
        const since = url.searchParams.get("since");
        const all = s.issues
          .filter((i) => state === "all" || i.state === state)
          .filter((i) => labels.every((l) => i.labels.includes(l)))
          .filter((i) => since === null || i.updated_at >= since)
          .sort((a, b) =>
            url.searchParams.get("sort") === "updated"
              ? b.updated_at.localeCompare(a.updated_at) || b.number - a.number
              : b.number - a.number,
          );
        const page = Number(url.searchParams.get("page") ?? "1");
        const slice = all.slice((page - 1) * s.pageSize, page * s.pageSize);
        const next = new URL(url.href);
        next.searchParams.set("page", String(page + 1));
        const link =
          page * s.pageSize < all.length
            ? { link: `<${s.linkOrigin ?? base}${next.pathname}${next.search}>; rel="next"` }
            : {};
        return send(200, slice.map(view), link);
      }
      if (req.method === "POST" && number === null) {
        const b = body as { title: string; body: string; labels: string[] };
        const i: StandInIssue = {
          number: s.issues.length + 1,
          title: b.title,
          body: b.body,
          state: "open",
          state_reason: null,
          labels: b.labels ?? [],
          created_at: s.now,
          updated_at: s.now,
          closed_at: null,
          comments: [],
        };
        s.issues.push(i);
        return send(201, view(i));
      }
      if (!issue) return send(404, { message: "Not Found" });
      if (req.method === "POST" && m[4]) {
        issue.comments.push((body as { body: string }).body);
        issue.updated_at = s.now;
        return send(201, { id: issue.comments.length, body: (body as { body: string }).body });
      }
      if (req.method === "PATCH" && !m[4]) {
        const b = body as Partial<{ title: string; body: string; state: "open" | "closed"; state_reason: string }>;
        if (b.title !== undefined) issue.title = b.title;
        if (b.body !== undefined) issue.body = b.body;
        if (b.state !== undefined && b.state !== issue.state) {
          issue.state = b.state;
          issue.state_reason = b.state_reason ?? null;
          issue.closed_at = b.state === "closed" ? s.now : null;
        }
        issue.updated_at = s.now;
        return send(200, view(issue));
      }
      return send(405, { message: "Method Not Allowed" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(s as StandIn, {
    base,
    hook: `${base}/hook/${hookSecret}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
