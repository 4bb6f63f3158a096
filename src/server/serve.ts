/**
 * `price-feed serve`: the edge handler over real HTTP on one machine, through @hono/node-server's
 * adapter for web Request/Response. Reads the built folder; one log line per request — including
 * the requests Node's parser or the adapter cannot read (a raw backslash, a bad Host), which get
 * the handler's problem+json 400 with CORS like any other problem (docs/operating.md "What can go wrong").
 */
import { promises as fs } from "node:fs";
import http, { type IncomingMessage } from "node:http";
import path from "node:path";
import type { AddressInfo, Socket } from "node:net";
import { RequestError, getRequestListener } from "@hono/node-server";
import type { Deprecation, Limits } from "../edge/deps.js";
import { FeedCache } from "../edge/feed-cache.js";
import { handle } from "../edge/handler.js";
import { bareProblem } from "../edge/headers.js";
import { addressMatcher, clientAddress, type ProxyTrust } from "../edge/client.js";
import { problems } from "../core/http-problem.js";
import { MemoryStore, type CounterStore } from "../edge/counters.js";
import { NotBuiltError, UsageError } from "../core/errors.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/documents.js";
import { RedisStore } from "./redis-store.js";
import type { LocalCommands } from "../feed/readiness.js";

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /**
   * A fixed data clock for tests and reproducible checks (`--now`); the real clock otherwise. It pins
   * what the data is served at, never the rate limiter, which runs on `limiterClock`.
   */
  nowMs?: number;
  /** The rate limiter's clock: the wall clock unless a test gives its own (HandlerDeps.limiterNow). */
  limiterClock?: () => number;
  /**
   * The server's own command lines without --now (src/cli/serve.ts localCommands): /readyz's action
   * then ends with what shows this build's data ready (src/feed/readiness.ts localHint).
   */
  local?: LocalCommands;
  /** A clock shared with something else (the demo's builds); wins over nowMs. */
  clock?: () => number;
  limits: Limits;
  redisUrl?: string;
  /** The socket's peer is a proxy: the client is the address it saw (src/edge/client.ts clientAddress). */
  trustProxy: boolean;
  /** With trustProxy: further proxies in front (addresses or CIDR blocks) whose X-Forwarded-For hops are skipped. */
  trustedProxies?: string[];
  /** With trustProxy: a header the proxy sets to the client's address, read instead of X-Forwarded-For. */
  clientIpHeader?: string;
  deprecations?: Record<string, Deprecation>;
  log?: (line: string) => void;
}

/** The built site on disk: the manifest, re-read when the build swapped the folder, and its files. */
export class SiteReader {
  private manifestCache: { mtimeMs: number; checkedAt: number; value: Manifest } | null = null;
  private readonly files = new Map<string, string>();
  private readonly root: string;

  constructor(dir: string) {
    this.root = path.resolve(dir);
  }

  async manifest(): Promise<Manifest> {
    const now = Date.now();
    const c = this.manifestCache;
    if (c && now - c.checkedAt < 1000) return c.value;
    const file = path.join(this.root, MANIFEST_FILE);
    const { mtimeMs } = await fs.stat(file).catch((e: NodeJS.ErrnoException) => {
      throw e.code === "ENOENT" || e.code === "ENOTDIR" ? new NotBuiltError(this.root, { cause: e }) : e;
    });
    if (c && c.mtimeMs === mtimeMs) {
      c.checkedAt = now;
      return c.value;
    }
    const value = Manifest.parse(JSON.parse(await fs.readFile(file, "utf8")));
    this.files.clear();
    this.manifestCache = { mtimeMs, checkedAt: now, value };
    return value;
  }

  /** The next manifest() looks at the file again, however recently it did (a build has just swapped the folder). */
  recheck(): void {
    if (this.manifestCache) this.manifestCache.checkedAt = -Infinity;
  }

  /** A file as bytes (a picture), read each time: a few, each read when a chat's preview asks. */
  async readBytes(rel: string): Promise<Uint8Array<ArrayBuffer> | null> {
    const abs = path.resolve(this.root, rel);
    if (!abs.startsWith(this.root + path.sep)) return null; // never outside the site
    try {
      const b = await fs.readFile(abs);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength) as Uint8Array<ArrayBuffer>;
    } catch {
      return null;
    }
  }

  async readFile(rel: string): Promise<string | null> {
    const hit = this.files.get(rel);
    if (hit !== undefined) return hit;
    const abs = path.resolve(this.root, rel);
    if (!abs.startsWith(this.root + path.sep)) return null; // never outside the site
    try {
      const text = await fs.readFile(abs, "utf8");
      this.files.set(rel, text);
      return text;
    } catch {
      return null;
    }
  }
}

/** A Response as the bytes of an HTTP/1.1 answer, for a socket the parser gave up on (it is closed after). */
async function rawAnswer(res: Response): Promise<Buffer> {
  const body = Buffer.from(await res.arrayBuffer());
  const head = [`HTTP/1.1 ${res.status} ${http.STATUS_CODES[res.status] ?? ""}`];
  res.headers.forEach((v, k) => head.push(`${k}: ${v}`));
  head.push(`content-length: ${body.length}`, "connection: close");
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}

/** Why the server could not listen, as the operator can act on it. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === "EADDRINUSE")
    return new UsageError(`port ${port} on ${host} is already in use`, {
      hint: "stop the other server, or pass --port 0 to take any free port",
      cause: e,
    });
  if (e.code === "EACCES")
    return new UsageError(`not allowed to listen on port ${port} of ${host}`, {
      hint: "use a port above 1023",
      cause: e,
    });
  if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND")
    return new UsageError(`${host} is not an address of this machine`, {
      hint: "use --host 127.0.0.1 (or 0.0.0.0 for every interface)",
      cause: e,
    });
  return e;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Serve the folder's current build from the next request on (the caller has just built into it). */
  reload(): void;
  close(): Promise<void>;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const log = o.log ?? ((line: string) => console.log(line));
  const site = new SiteReader(o.dir);
  await site.manifest(); // fail at start, not at the first request, when nothing is built
  const counters: CounterStore = o.redisUrl ? new RedisStore(o.redisUrl, log) : new MemoryStore();
  const cache = new FeedCache();
  const now = o.clock ?? (o.nowMs === undefined ? () => Date.now() : () => o.nowMs!);
  // Issue 26: with the limiter on a pinned --now, a window never ended and Retry-After was a lie.
  const limiterNow = o.limiterClock ?? (() => Date.now());

  // An unreadable entry of --trusted-proxies is a UsageError naming it (src/edge/client.ts).
  const trusted: ProxyTrust["trusted"] = o.trustedProxies?.length ? addressMatcher(o.trustedProxies) : undefined;
  const trust: ProxyTrust = {
    trustProxy: o.trustProxy,
    ...(trusted ? { trusted } : {}),
    ...(o.clientIpHeader ? { header: o.clientIpHeader.toLowerCase() } : {}),
  };
  const ms = (started: number) => `${(performance.now() - started).toFixed(1)}ms`;

  const answer = async (request: Request, incoming: IncomingMessage, started: number) => {
    const response = await handle(request, {
      readFile: (p) => site.readFile(p),
      readBytes: (p) => site.readBytes(p),
      manifest: () => site.manifest(),
      counters,
      now,
      limiterNow,
      clientAddress: clientAddress(incoming.socket.remoteAddress, request.headers, trust),
      limits: o.limits,
      ...(o.deprecations ? { deprecations: o.deprecations } : {}),
      serveSite: true,
      cache,
      ...(o.local ? { local: o.local } : {}),
    });
    const contact = request.headers.get("x-contact");
    const { pathname, search } = new URL(request.url);
    log(
      `${request.method} ${pathname}${search} ${response.status} ${ms(started)}${contact ? ` contact=${JSON.stringify(contact.slice(0, 200))}` : ""}`,
    );
    return response;
  };

  // Node's own HTTP server, so that what the adapter cannot turn into a Request (RequestError) and
  // what Node's parser rejects ('clientError') are answered as documented, not with a bare 400.
  // A missing Host is left to the adapter, which refuses it (RFC 9112 §3.2) through errorHandler.
  const server = http.createServer({ requireHostHeader: false }, (incoming, outgoing) => {
    const started = performance.now();
    const listener = getRequestListener(
      (request, env) => answer(request, (env as { incoming: IncomingMessage }).incoming, started),
      {
        errorHandler: (e) => {
          if (e instanceof RequestError) {
            const why = e.message.charAt(0).toLowerCase() + e.message.slice(1);
            log(
              `${incoming.method ?? "?"} ${JSON.stringify((incoming.url ?? "").slice(0, 200))} 400 ${ms(started)} malformed: ${why}`,
            );
            return bareProblem(problems.malformed(why), incoming.url, incoming.method === "HEAD");
          }
          log(
            `${incoming.method ?? "?"} ${JSON.stringify((incoming.url ?? "").slice(0, 200))} 503 ${ms(started)} error: ${(e as Error).message}`,
          );
          return bareProblem(problems.unavailable(), incoming.url, incoming.method === "HEAD");
        },
      },
    );
    void listener(incoming, outgoing);
  });
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer; reason?: string }, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      log(`- - 000 timeout: the request was not complete within the server's request timeout; connection closed`);
      return void socket.destroy();
    }
    const [method, target] = (err.rawPacket?.toString("latin1") ?? "").split("\r\n", 1)[0]!.split(" ");
    const why =
      err.code === "HPE_HEADER_OVERFLOW"
        ? "the request's headers are larger than the server reads"
        : `not valid HTTP/1.1 (${err.reason ?? err.message})`;
    log(
      `${(method || "?").replace(/[^\w-]/g, "?").slice(0, 16)} ${JSON.stringify((target ?? "").slice(0, 200))} 400 malformed: ${why}`,
    );
    void rawAnswer(bareProblem(problems.malformed(why), target, method === "HEAD"))
      .then((bytes) => socket.end(bytes))
      .catch(() => socket.destroy());
  });
  server.listen(o.port, o.host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", (e: NodeJS.ErrnoException) => reject(listenError(e, o.host, o.port)));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${o.host.includes(":") ? `[${o.host}]` : o.host}:${port}`,
    port,
    reload: () => site.recheck(),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await counters.close?.();
    },
  };
}
