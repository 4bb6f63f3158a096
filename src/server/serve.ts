/**
 * `price-feed serve`: the edge handler over real HTTP on one machine, through @hono/node-server's
 * adapter for web Request/Response. Reads the built folder; one log line per request.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { serve as honoServe } from "@hono/node-server";
import { FeedCache, handle, type Deprecation, type Limits } from "../edge/handler.js";
import { MemoryStore, type CounterStore } from "../edge/counters.js";
import { NotBuiltError, UsageError } from "../core/errors.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/documents.js";
import { RedisStore } from "./redis-store.js";

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /** A fixed clock for tests and reproducible checks; the real clock otherwise. */
  nowMs?: number;
  limits: Limits;
  redisUrl?: string;
  trustProxy: boolean;
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

export function clientAddress(remote: string | undefined, forwardedFor: string | null, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const first = forwardedFor.split(",")[0]!.trim();
    if (first) return first;
  }
  return remote ?? "unknown";
}

/** Why the server could not listen, as the operator can act on it. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === "EADDRINUSE")
    return new UsageError(`port ${port} on ${host} is already in use`, "stop the other server, or pass --port 0 to take any free port", { cause: e });
  if (e.code === "EACCES") return new UsageError(`not allowed to listen on port ${port} of ${host}`, "use a port above 1023", { cause: e });
  if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND")
    return new UsageError(`${host} is not an address of this machine`, "use --host 127.0.0.1 (or 0.0.0.0 for every interface)", { cause: e });
  return e;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const log = o.log ?? ((line: string) => console.log(line));
  const site = new SiteReader(o.dir);
  await site.manifest(); // fail at start, not at the first request, when nothing is built
  const counters: CounterStore = o.redisUrl ? new RedisStore(o.redisUrl, log) : new MemoryStore();
  const cache = new FeedCache();
  const now = o.nowMs === undefined ? () => Date.now() : () => o.nowMs!;

  const server = honoServe({
    hostname: o.host,
    port: o.port,
    fetch: async (request, env) => {
      const started = performance.now();
      const incoming = "incoming" in env ? env.incoming : undefined;
      const response = await handle(request, {
        readFile: (p) => site.readFile(p),
        manifest: () => site.manifest(),
        counters,
        now,
        clientAddress: clientAddress(incoming?.socket.remoteAddress, request.headers.get("x-forwarded-for"), o.trustProxy),
        limits: o.limits,
        ...(o.deprecations ? { deprecations: o.deprecations } : {}),
        serveSite: true,
        cache,
      });
      const contact = request.headers.get("x-contact");
      const { pathname, search } = new URL(request.url);
      log(`${request.method} ${pathname}${search} ${response.status} ${(performance.now() - started).toFixed(1)}ms${contact ? ` contact=${JSON.stringify(contact.slice(0, 200))}` : ""}`);
      return response;
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", (e: NodeJS.ErrnoException) => reject(listenError(e, o.host, o.port)));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${o.host.includes(":") ? `[${o.host}]` : o.host}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await counters.close?.();
    },
  };
}
