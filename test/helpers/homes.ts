/**
 * The homes the client package is tested against (test/client/package.test.ts): the real local
 * server of a built site as the primary, a plain static server (sirv) of the same build under a
 * path prefix as the mirror, as GitHub Pages serves a project site, and loopback servers that
 * answer as a failing primary would. Each counts the requests it got, and the client runs on
 * ManualTimers, so no test waits in real time.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sirv from "sirv";
import type { Timers } from "../../client/src/index.js";
import { ManualTimers } from "./clock.js";

export interface CountingServer {
  url: string;
  /** The paths (with their query) asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** An HTTP server on a free loopback port that records each request's path before `handle` answers it. */
export async function countingServer(handle: http.RequestListener): Promise<CountingServer> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? "");
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The mirror: `dir` served as static files under `prefix` (no trailing slash), with ETags and a
 * max-age of 600 s as GitHub Pages gives; the query string is not read; anything else is a 404.
 */
export async function staticMirror(dir: string, prefix: string): Promise<CountingServer & { base: string }> {
  const files = sirv(dir, { etag: true, maxAge: 600, dev: false });
  const server = await countingServer((req, res) => {
    const url = req.url ?? "/";
    if (!url.startsWith(`${prefix}/`)) return void res.writeHead(404).end();
    req.url = url.slice(prefix.length);
    files(req, res, () => void res.writeHead(404).end());
  });
  return { ...server, base: `${server.url}${prefix}` };
}

/** ManualTimers as the client's Timers: time moves only when the test moves it. */
export function clientTimers(manual: ManualTimers): Timers {
  return {
    now: manual.now,
    setTimeout: (fn, ms) => manual.setTimer(fn, ms),
    clearTimeout: (cancel) => (cancel as () => void)(),
  };
}

/** Resolves once a timer due at `due` is pending: the client has started waiting for it. */
export async function timerAt(manual: ManualTimers, due: number): Promise<void> {
  while (!manual.pending().includes(due)) await manual.nextTimer();
}
