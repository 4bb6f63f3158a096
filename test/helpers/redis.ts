/** A real redis-server on a free loopback port, started for a test file and stopped after it. */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { Redis } from "ioredis";

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
