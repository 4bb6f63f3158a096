/**
 * The command line as the README ("The command line") and docs/cli.md document it: every failure is
 * one line saying what and where and one saying what to do, with the documented exit status and no
 * stack trace; docs/cli.md's table names exactly each command's flags; --help shows defaults as a
 * user types them; `serve` warns when it starts on data that is not ready, and
 * /readyz says which assets are stale since when and what to do; `npm test` names what it cannot
 * install.
 */
import { execFile, spawn } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { program } from "../../src/cli/main.js";
import { humanAge, readiness } from "../../src/feed/readiness.js";
import { Readiness } from "../../src/schema/documents.js";
import type { Manifest } from "../../src/schema/documents.js";
import { calendar, tempDir } from "../helpers/dataset.js";

const run = promisify(execFile);
const ROOT = path.resolve(".");
const BIN = path.join(ROOT, "dist/cli/bin.js");

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await run("node", [BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** One line of what, one of what to do; never a stack. */
function expectOneClearFailure(r: Result, what: string | RegExp, todo: string | RegExp): void {
  expect(r.code).toBe(1);
  const lines = r.stderr.trim().split("\n");
  expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(typeof what === "string" ? new RegExp(what.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : what);
  expect(lines.at(-1)).toMatch(
    typeof todo === "string" ? new RegExp(todo.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : todo,
  );
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

async function busyPort(): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      resolve({ port, close: () => new Promise((r) => s.close(() => r())) });
    });
  });
}

describe("failures: one clear line and what to do, exit 1, no stack trace", () => {
  test("folders that are missing or not folders, per command, in that command's words", async () => {
    const file = path.join(await tempDir(), "file.txt");
    await fs.writeFile(file, "x");
    const [compact, ingest, build, demo] = await Promise.all([
      cli(["compact", "--data", "/nonexistent/data"]),
      cli(["ingest", "--data", "/nonexistent/data"]),
      cli(["build", "--data", file]),
      cli(["demo", "--data", "/nonexistent/data", "--port", "0"]),
    ]);
    expectOneClearFailure(
      compact,
      "price-feed: /nonexistent/data: no such folder (--data)",
      "or pass the folder with --data DIR",
    );
    expectOneClearFailure(
      ingest,
      "price-feed: /nonexistent/data: no such folder (--data)",
      "or pass the folder with --data DIR",
    );
    expectOneClearFailure(build, `price-feed: ${file} is a file, not a folder (--data)`, "--data DIR");
    expectOneClearFailure(demo, "price-feed: /nonexistent/data: no such folder (--data)", "--data DIR");
    for (const r of [compact, ingest]) expect(r.stderr).not.toContain("published");
  });

  test("a sources file with an error: where, and that nothing was appended (not 'published')", async () => {
    const data = await tempDir();
    await fs.cp(path.join(ROOT, "data"), data, { recursive: true });
    const sources = path.join(data, "sources.json");
    await fs.writeFile(sources, (await fs.readFile(sources, "utf8")).replace('"adapter": "demo"', '"adapter": "dmeo"'));
    const r = await cli(["ingest", "--data", data, "--now", "2026-11-22T09:00:00Z"]);
    expectOneClearFailure(r, `price-feed: ${sources}`, "nothing was appended; the data folder is as it was.");
  });

  test("a compact over a malformed file says nothing was compacted", async () => {
    const data = await tempDir();
    await fs.cp(path.join(ROOT, "data"), data, { recursive: true });
    await fs.appendFile(path.join(data, "quotes/2026-11-19.ndjson"), "not json\n");
    const r = await cli(["compact", "--data", data, "--now", "2026-11-22T09:00:00Z"]);
    expectOneClearFailure(
      r,
      `${path.join(data, "quotes/2026-11-19.ndjson")}:`,
      "nothing was compacted; the data folder is as it was.",
    );
  });

  test("a port in use, for serve and for the demo, suggests --port 0", async () => {
    const busy = await busyPort();
    try {
      const site = await tempDir();
      await cli([
        "build",
        "--no-state",
        "--data",
        path.join(ROOT, "data"),
        "--out",
        path.join(site, "public"),
        "--now",
        "2026-11-19T19:30:00Z",
      ]);
      const [serve, demo] = await Promise.all([
        cli(["serve", "--dir", path.join(site, "public"), "--port", String(busy.port)]),
        cli(["demo", "--port", String(busy.port), "--work", path.join(site, "work")]),
      ]);
      expectOneClearFailure(serve, `price-feed: port ${busy.port} on 127.0.0.1 is already in use`, "--port 0");
      expectOneClearFailure(
        demo,
        `price-feed: port ${busy.port} on 127.0.0.1 is already in use`,
        "npm start -- --port 0",
      );
    } finally {
      await busy.close();
    }
  });

  test("bad flags and values: commander's one line and the help hint", async () => {
    const [unknown, badPort, badRate, badNow] = await Promise.all([
      cli(["build", "--bogus"]),
      cli(["serve", "--port", "http"]),
      cli(["serve", "--rate-limit", "lots"]),
      cli(["demo", "--now", "tomorrow"]),
    ]);
    expectOneClearFailure(unknown, "error: unknown option '--bogus'", "(add --help for usage)");
    expectOneClearFailure(badPort, '"http" is not a port number', "(add --help for usage)");
    expectOneClearFailure(badRate, '"lots" is not N/SECONDS, e.g. 240/60', "(add --help for usage)");
    expectOneClearFailure(badNow, '"tomorrow" is not an ISO 8601 instant', "(add --help for usage)");
  });

  test("serve on a folder with nothing built says how to build it", async () => {
    const r = await cli(["serve", "--dir", await tempDir(), "--port", "0"]);
    expectOneClearFailure(r, "nothing is built there yet (no _manifest.json)", "npm start");
  });
});

describe("--help", () => {
  test.each(["build", "ingest", "compact", "sample", "serve", "demo", "init"])(
    "%s shows its defaults as a user types them",
    async (cmd) => {
      const r = await cli([cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/default: ["{[]/); // not JSON
      expect(r.stdout).not.toContain("default: false");
    },
  );

  test("serve's rate limit and the top-level exit statuses", async () => {
    expect((await cli(["serve", "--help"])).stdout).toMatch(
      /--rate-limit <n\/seconds>\s+requests per window per client address \(default:\s+240\/60\)/,
    );
    const top = await cli(["--help"]);
    expect(top.stdout).toContain("Exit status:");
    expect(top.stdout).toMatch(/2 {2}ingest: some sources failed/);
    expect(top.stdout).toMatch(/demo \[options\]/);
  });

  test("a reader that stops early (`price-feed --help | head -1`) is no failure: no stack trace, exit 0", async () => {
    // The reader's end is closed before the help is written, so that the write surely meets it closed.
    const child = spawn("node", [BIN, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});

describe("docs/cli.md, the table of every flag", () => {
  /** command → what its rows name in the flag column: `--flag …` by its long name, an argument as itself. */
  function documented(): Map<string, string[]> {
    const table = readFileSync(path.join(ROOT, "docs/cli.md"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("| "));
    expect(table[0]).toMatch(/^\| command \| flag \| default \| what it does \|$/);
    const out = new Map<string, string[]>();
    let command = "";
    for (const row of table.slice(1)) {
      const [cmd, flag] = row
        .replace(/^\|/, "")
        .split(" | ")
        .map((c) => c.trim());
      if (cmd) command = /^`(\w+)`$/.exec(cmd)![1]!;
      out.set(command, [...(out.get(command) ?? []), /^`(--[\w-]+|[A-Z]+)[` ]/.exec(flag!)![1]!]);
    }
    return out;
  }

  test("every command is there, with exactly the flags and arguments --help shows", () => {
    const table = documented();
    const commands = program().commands.filter((c) => c.name() !== "help");
    expect([...table.keys()].sort()).toEqual(commands.map((c) => c.name()).sort());
    for (const c of commands) {
      const flags = c.options.map((o) => o.long!);
      const args = c.registeredArguments.map((a) => a.name().toUpperCase());
      expect(table.get(c.name())!.sort(), c.name()).toEqual([...flags, ...args].sort());
    }
  });
});

describe("not-ready data, said at start-up and by /readyz", () => {
  test("serve warns on its start-up line, naming the stale assets since when and what to do", async () => {
    const site = path.join(await tempDir(), "public");
    await cli([
      "build",
      "--no-state",
      "--data",
      path.join(ROOT, "data"),
      "--out",
      site,
      "--now",
      "2026-11-19T19:30:00Z",
    ]);
    const child = spawn("node", [BIN, "serve", "--dir", site, "--port", "0", "--now", "2026-11-22T09:00:00Z"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const until = Date.now() + 20_000;
      while (!out.includes("npm start") && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(out).toMatch(/^serving .* on http:\/\/127\.0\.0\.1:\d+ /);
      expect(out).toContain(
        "warning: serving data that is not fresh at --now 2026-11-22T09:00:00.000Z: /readyz answers 503 (4 of 15 assets stale; build made at 2026-11-19T19:30:00.000Z)",
      );
      expect(out).toContain("gold-24k (last observed 2026-11-19T19:00:00.000Z)");
      expect(out).toContain("serve it with --now 2026-11-19T19:30:00.000Z");
      const url = /on (http:\/\/\S+)/.exec(out)![1]!;
      const res = await fetch(`${url}/readyz`);
      expect(res.status).toBe(503);
      const body = Readiness.parse(await res.json());
      // Currencies last quoted on Thursday's close are 2 trading hours old at 11:00 in Cairo on Sunday: fresh.
      expect(body.staleSince).toEqual({
        "gold-24k": "2026-11-19T19:00:00.000Z",
        "gold-21k": "2026-11-19T19:00:00.000Z",
        "gold-18k": "2026-11-19T19:00:00.000Z",
        "gold-pound": "2026-11-19T19:00:00.000Z",
      });
      expect(body.assets["us-dollar"]).toBe("fresh");
      expect(body.action).toMatch(
        /^The published build is 2 d 13 h old \(made at 2026-11-19T19:30:00\.000Z; at most 2 h\)/,
      );
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });

  const manifest = (generatedAt: string, observedAt: string | null): Manifest =>
    ({
      generatedAt,
      assets: [
        { slug: "us-dollar", category: "currencies", observedAt },
        { slug: "gold-24k", category: "metals", observedAt: null },
      ],
      calendar: calendar.categories, // the test datasets' (helpers/dataset.ts)
    }) as unknown as Manifest;

  test("/readyz: ready has no action; stale assets and an old build each say why and what to do", () => {
    const fresh = manifest("2026-11-22T09:00:00Z", "2026-11-22T09:00:00Z");
    const ready = readiness({ ...fresh, assets: fresh.assets.slice(0, 1) }, Date.parse("2026-11-22T09:30:00Z"));
    expect(ready).toMatchObject({ status: 200, body: { staleSince: {}, action: null } });

    const staleOnly = readiness(
      manifest("2026-11-22T09:00:00Z", "2026-11-17T15:00:00Z"),
      Date.parse("2026-11-22T09:30:00Z"),
    );
    expect(staleOnly.status).toBe(503);
    expect(staleOnly.body.staleSince).toEqual({ "us-dollar": "2026-11-17T15:00:00Z", "gold-24k": null });
    expect(staleOnly.body.action).toBe(
      "2 assets have had no new observation for more than 8 h of trading time: us-dollar (last observed 2026-11-17T15:00:00Z), gold-24k (never observed). " +
        "Check which sources failed or skipped them (/api/v1/sources.json and the ingest log), fix or disable those in sources.json, then run the hourly job (ingest, compact, build, publish).",
    );

    const old = readiness(manifest("2026-11-22T05:00:00Z", "2026-11-22T09:00:00Z"), Date.parse("2026-11-22T09:30:00Z"));
    expect(old.body.action).toMatch(
      /^The published build is 4 h 30 min old \(made at 2026-11-22T05:00:00Z; at most 2 h\): the hourly job has stopped publishing\./,
    );
    for (const r of [ready, staleOnly, old]) expect(Readiness.safeParse(r.body).success).toBe(true);
  });

  test("ages read as an operator reads them", () => {
    expect([0, 59, 60, 3600, 3660, 86_400, 90_000, 223_200].map(humanAge)).toEqual([
      "0 min",
      "0 min",
      "1 min",
      "1 h",
      "1 h 1 min",
      "1 d",
      "1 d 1 h",
      "2 d 14 h",
    ]);
  });
});

describe("npm test on a machine it cannot install on", () => {
  /** A PATH with only what scripts/test.sh itself needs, and `extra` stand-ins. */
  async function sandboxPath(extra: Record<string, string> = {}): Promise<string> {
    const bin = await tempDir("pf-path-");
    for (const tool of ["bash", "dirname", "cat", "id", "env"]) {
      const { stdout } = await run("bash", ["-c", `command -v ${tool}`]);
      await fs.symlink(stdout.trim(), path.join(bin, tool));
    }
    for (const [name, script] of Object.entries(extra))
      await fs.writeFile(path.join(bin, name), `#!/bin/bash\n${script}\n`, { mode: 0o755 });
    return bin;
  }

  const testSh = async (PATH: string) => {
    try {
      await run("bash", [path.join(ROOT, "scripts/test.sh")], {
        cwd: ROOT,
        env: { PATH, HOME: process.env["HOME"] ?? "/tmp", CHROMIUM_PATH: "/nonexistent/chromium" },
      });
      return { code: 0, stderr: "", stdout: "" };
    } catch (e) {
      return e as { code: number; stderr: string; stdout: string };
    }
  };

  test("without apt-get it names exactly what to install, and exits 1 before running anything", async () => {
    const r = await testSh(await sandboxPath());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("CHROMIUM_PATH=/nonexistent/chromium is not an executable file");
    const r2 = await run(
      "bash",
      ["-c", `CHROMIUM_PATH= PATH=${await sandboxPath()} bash ${path.join(ROOT, "scripts/test.sh")} || echo "exit $?"`],
      { cwd: ROOT, env: { HOME: "/tmp", PATH: process.env["PATH"] ?? "/usr/bin:/bin" } },
    ).then(
      (x) => x,
      (e: { stdout: string; stderr: string }) => e,
    );
    expect(r2.stderr).toMatch(
      /npm test: missing redis-server( chromium)? curl zsh default-jre-headless\. Install, then run npm test again:/,
    );
    expect(r2.stderr).toContain("brew install redis zsh curl");
    expect(r2.stdout).toContain("exit 1");
  });

  test("with apt-get it updates, then installs exactly what is missing", async () => {
    const log = path.join(await tempDir(), "apt.log");
    const PATH = await sandboxPath({ "apt-get": `echo "$*" >> ${log}`, sudo: 'exec "$@"' });
    const r = await run(
      "bash",
      ["-c", `CHROMIUM_PATH= PATH=${PATH} bash ${path.join(ROOT, "scripts/test.sh")} || echo "exit $?"`],
      { cwd: ROOT, env: { HOME: "/tmp", PATH: process.env["PATH"] ?? "/usr/bin:/bin" } },
    ).then(
      (x) => x,
      (e: { stdout: string; stderr: string }) => e,
    );
    const calls = (await fs.readFile(log, "utf8")).trim().split("\n");
    expect(calls[0]).toBe("update -qq");
    expect(calls[1]).toMatch(
      /^install -y -qq --no-install-recommends redis-server( chromium)? curl zsh default-jre-headless$/,
    );
    // The stand-in installed nothing: it says so rather than running tests that cannot pass.
    expect(r.stderr).toMatch(/still missing after apt-get: redis-server/);
    expect(r.stdout).toContain("exit 1");
  });
});
