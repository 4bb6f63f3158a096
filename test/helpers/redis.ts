/**
 * A real redis-server on a free loopback port, started for a test file and stopped after it; and the
 * harness of the files that serve the small built site with counters in it (servedWithRedis).
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import type { RunningServer, ServeOptions } from "../../src/server/serve.js";
import { builtSite, testServer } from "./site.js";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  /** SIGSTOP: the server keeps its connections but answers nothing until resume (a slow or hung Redis). */
  pause(): void;
  /** SIGCONT after pause. */
  resume(): void;
  /** Between pause() and resume(). */
  paused(): boolean;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const spawned = new Promise<never>((_, reject) =>
    child.once("error", (e) => reject(new Error(`redis-server could not start (${e.message}); .ci/run installs it`))),
  );
  const url = `redis://127.0.0.1:${port}`;
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on("error", () => {});
      try {
        await c.connect();
        await c.ping();
        c.disconnect();
        return;
      } catch {
        c.disconnect();
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error("redis-server did not answer");
  })();
  await Promise.race([ready, spawned]);
  let paused = false;
  return {
    url,
    port,
    pause: () => void ((paused = true), child.kill("SIGSTOP")),
    resume: () => void ((paused = false), child.kill("SIGCONT")),
    paused: () => paused,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGCONT"); // a paused server would not act on SIGTERM
        child.kill("SIGTERM");
      }),
  };
}

/**
 * A client of a test's redis-server for one use, disconnected after it whatever it does: one left
 * open would keep reconnecting once the server stops after its file, and (isolate: false) print
 * "[ioredis] Unhandled error event: ... ECONNREFUSED" through the files that run after it.
 */
export async function withRedisClient<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url);
  client.on("error", () => {}); // a failing command rejects with the error; the event would only repeat it
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

export interface ServedWithRedis {
  /** The built site (helpers/site.ts builtSite), once beforeAll has run. */
  readonly out: string;
  /** The file's redis-server, once beforeAll has run. */
  readonly redis: RedisServer;
  /** `price-feed serve` over the site (helpers/site.ts testServer): `defaults`, then `o`; closed after the file. */
  server(o?: Partial<ServeOptions>, logs?: string[]): Promise<RunningServer>;
}

/**
 * For a test file: the small site built and a redis-server started before its tests, and the servers
 * its tests start closed and Redis stopped after them.
 */
export function servedWithRedis(defaults: Partial<ServeOptions> = {}): ServedWithRedis {
  let out: string | undefined;
  let redis: RedisServer | undefined;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    [{ out }, redis] = await Promise.all([builtSite(), startRedis()]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await redis?.stop();
  });
  const ready = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`servedWithRedis: no ${what} before beforeAll has run`);
    return v;
  };
  return {
    get out() {
      return ready(out, "site");
    },
    get redis() {
      return ready(redis, "redis-server");
    },
    async server(o = {}, logs = []) {
      const s = await testServer(ready(out, "site"), { ...defaults, ...o }, logs);
      servers.push(s);
      return s;
    },
  };
}
