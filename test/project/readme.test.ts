/**
 * The README's shell examples, as printed. Every ```sh block is read out of README.md and the pages of
 * docs/ it links to (docs/*.md but methodology.md, the rulebook, which has none) and
 *  - checked statically: nothing a shell would expand unquoted (zsh stops on a `?` or `*` that
 *    matches no file), no comments (an interactive zsh passes `# …` to the command as arguments),
 *    every `npm` script and every `npx price-feed` command and flag exists;
 *  - run, unless listed in NOT_RUN with the reason, by pasting it into an interactive bash and an
 *    interactive zsh started without rc files, from the project's root, as a reader would.
 * A block whose last command serves (npm start, price-feed serve) runs until it says it serves; the
 * blocks that talk to http://127.0.0.1:8888 then run against it. The one liberty taken: the port.
 * The servers get a free one through `PORT` (which both honour) and the URLs' 8888 becomes that
 * port, so the test runs beside a demo already on 8888.
 * Their links are read too: every relative link and anchor of README.md and docs/*.md leads to a file
 * and a heading that exist, and every page of docs/ is linked from the README.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { program } from "../../src/cli/main.js";

const ROOT = path.resolve(".");
/** The README, then the pages of docs/ (the rulebook has no shell examples and is not run). */
const DOCS = readdirSync(path.join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => `docs/${f}`);
const FILES = ["README.md", ...DOCS.filter((f) => f !== "docs/methodology.md")];
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
);

interface Block {
  file: string;
  line: number;
  text: string;
  /** One command per entry, continuation lines joined. */
  commands: string[];
}

function shellBlocks(file: string, markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== "```"; j++)
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    if (open[2] === "sh") {
      const text = body.join("\n");
      out.push({
        file,
        line: i + 1,
        text,
        commands: text
          .replace(/\\\n\s*/g, "")
          .split("\n")
          .filter((l) => l.trim()),
      });
    }
    i = j;
  }
  return out;
}

/**
 * What the test cannot give a command (`line`: that line is left out of the paste) or a block
 * (`block`: the whole block is only checked statically), and why.
 */
const NOT_RUN: Array<{ match: string; scope: "line" | "block"; why: string }> = [
  {
    match: "npm ci",
    scope: "line",
    why: "installing is the test run's own first step (.ci/run: npm ci, then npm test)",
  },
  { match: "npm test", scope: "block", why: "it is this very test run" },
  { match: "banquemisr.com", scope: "block", why: "it fetches a bank's page from the Internet" },
  {
    match: "try-banque-misr.json",
    scope: "block",
    why: "it needs the page saved by the step before and the scratch sources file the reader writes",
  },
  {
    match: "price-feed rehearse",
    scope: "block",
    why: "it lives a month of hours (minutes of CPU); test/rehearse/rehearse.test.ts runs 14 days of init's configuration",
  },
  {
    match: "try-dahab-masr.json",
    scope: "block",
    why: "it needs the scratch sources file the reader writes (test/jobs/init-real.test.ts runs that source for real)",
  },
];
const notRun = (command: string) => NOT_RUN.find((n) => command.includes(n.match));
const blockNotRun = (b: Block) => b.commands.some((c) => notRun(c)?.scope === "block");

/** Commands that serve until stopped: the paste waits for this line instead of the shell's exit. */
const SERVES = [
  { match: /^npm start\b/, ready: /Ctrl-C stops/ },
  { match: /^npx price-feed (serve|demo)\b/, ready: /serving .* on http|Ctrl-C stops/ },
];

/** The command line with quoted strings removed: what the shell sees unquoted. */
const unquoted = (command: string) => command.replace(/'[^']*'/g, "''").replace(/"(?:[^"\\]|\\.)*"/g, '""');

const blocks = FILES.flatMap((f) => shellBlocks(f, read(f)));
const readmeBlocks = blocks.filter((b) => b.file === "README.md");

describe("the README's shell examples, read", () => {
  test("there are examples to run in the README: the quick start, the requests, the pinned build, the typed client", () => {
    const all = readmeBlocks.flatMap((b) => b.commands);
    expect(all).toContain("npm start");
    expect(all.some((c) => c.startsWith("curl -i 'http://127.0.0.1:8888/api/v1/feed.json?asset="))).toBe(true);
    expect(all.some((c) => c.includes('-H "If-None-Match: $etag"'))).toBe(true);
    expect(all.some((c) => c.startsWith("npx price-feed serve --now"))).toBe(true);
    expect(all.some((c) => c.startsWith("npx openapi-typescript"))).toBe(true);
  });

  test("the pages of docs/ are read too: the walk-through's examples are among the blocks", () => {
    expect(blocks.some((b) => b.file === "docs/operating.md" && b.text.includes("price-feed ingest"))).toBe(true);
  });

  test.each(blocks.flatMap((b) => b.commands.map((c) => ({ file: b.file, line: b.line, command: c }))))(
    "$file:$line `$command` is safe to paste into bash and zsh",
    ({ command }) => {
      const bare = unquoted(command);
      // A URL or pattern with ? * [ ] { } outside quotes: zsh's "no matches found", bash's surprise.
      expect(bare, "quote it").not.toMatch(/[?*[\]{}]/);
      // `&` alone backgrounds, `;` splits: a URL's query must be quoted.
      expect(bare.replace(/&&/g, ""), "quote it").not.toMatch(/&/);
      // An interactive zsh (no interactivecomments) passes "#" and what follows as arguments.
      expect(bare, "no comments: put output in a text block").not.toMatch(/(^|\s)#/);
    },
  );

  test("every npm script and price-feed command and flag they name exists", () => {
    const cli = program();
    for (const command of blocks.flatMap((b) => b.commands)) {
      const npm = /^npm (?:run (\S+)|(start|test))\b/.exec(command);
      if (npm) expect(SCRIPTS, command).toContain(npm[1] ?? npm[2]);
      const pf = /^npx price-feed (\S+)(.*)$/.exec(command);
      if (pf) {
        const sub = cli.commands.find((c) => c.name() === pf[1]);
        expect(sub, command).toBeDefined();
        const longs = sub!.options.map((o) => o.long);
        for (const flag of pf[2]!.match(/--[\w-]+/g) ?? []) expect(longs, command).toContain(flag);
      }
    }
  });

  test("the README's test command is the one .ci/run runs, after npm ci", () => {
    const ci = readFileSync(path.join(ROOT, ".ci/run"), "utf8")
      .split("\n")
      .filter((l) => /^npm /.test(l));
    expect(ci).toEqual(["npm ci", "npm test"]);
    expect(readmeBlocks.flatMap((b) => b.commands)).toContain("npm test");
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(markdown).split("\n")) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = h[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The text outside fenced blocks. */
const withoutFences = (markdown: string) => markdown.replace(/^([ \t]*)```[^\n]*\n[\s\S]*?\n\1```[ \t]*$/gm, "");

/** The text outside fenced blocks, with inline code spans blanked (but not removed: link text may be code). */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, "code");

/** Every relative link `[text](target)` of a file, with the file it is in. */
function relativeLinks(file: string): Array<{ file: string; target: string }> {
  return [...withoutCode(read(file)).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t))
    .map((target) => ({ file, target }));
}

describe("the README and the pages of docs/, linked", () => {
  const links = ["README.md", ...DOCS].flatMap(relativeLinks);

  test("there are links to check", () => {
    expect(links.length).toBeGreaterThan(20);
  });

  test.each(links)("$file → $target leads to a file and a heading that exist", ({ file, target }) => {
    const [where, anchor] = target.split("#") as [string, string | undefined];
    const to = where === "" ? file : path.join(path.dirname(file), where);
    expect(existsSync(path.join(ROOT, to)), `${file}: ${target}`).toBe(true);
    if (anchor !== undefined) expect([...anchors(read(to))], `${file}: ${target}`).toContain(anchor);
  });

  test("every page of docs/ is linked from the README", () => {
    const linked = new Set(relativeLinks("README.md").map((l) => l.target.split("#")[0]));
    expect(DOCS.filter((d) => !linked.has(d))).toEqual([]);
  });

  test("the walk-throughs (Adding a licensed seller, a bank and a gold dealer) show the example's own entries", () => {
    const section = read("docs/operating.md").split("\n## Adding a licensed seller\n")[1]!.split("\n## ")[0]!;
    const [bank, dealer] = section.split("\n### A gold dealer, end to end\n");
    const blocks = (text: string) =>
      [...text.matchAll(/```json\n([\s\S]*?)```/g)].map(
        (m) => JSON.parse(m[1]!.replace(/^ {3}/gm, "")) as Record<string, unknown>,
      );
    const example = (f: string) => JSON.parse(read(path.join("examples/egypt", f))) as unknown;
    const registry = example("sellers.json") as Array<Record<string, unknown>>;
    const sources = (example("sources.json") as { sources: Array<Record<string, unknown>> }).sources;
    const entry = (id: string) => {
      const { note: _note, evidence: _evidence, ...rest } = sources.find((s) => s["id"] === id)!;
      return rest;
    };
    expect(blocks(bank!)).toEqual([registry.find((s) => s["id"] === "banque-misr"), entry("banque-misr")]);
    // The dealer's record as its fixture has it (the members shown), its registry and sources entries.
    const [record, ...rest] = blocks(dealer!);
    const fixture = (
      JSON.parse(read("test/fixtures/sellers/dahab-masr-prices-2026-constructed.json")) as Array<
        Record<string, unknown>
      >
    )[0]!;
    expect(record).toEqual([
      Object.fromEntries(Object.keys((record as unknown as object[])[0]!).map((k) => [k, fixture[k]])),
    ]);
    expect(rest).toEqual([registry.find((s) => s["id"] === "dahab-masr"), entry("dahab-masr")]);
  });

  test("the bench's figures have one place, between the markers of docs/performance.md (npm run bench:readme)", () => {
    const markers = (f: string) =>
      ["<!-- bench:start -->", "<!-- bench:end -->"].map((m) => read(f).split(m).length - 1);
    expect(markers("docs/performance.md")).toEqual([1, 1]);
    for (const f of FILES.filter((x) => x !== "docs/performance.md")) expect(markers(f), f).toEqual([0, 0]);
    expect(read("scripts/bench-readme.ts")).toContain('"docs/performance.md"');
  });
});

// ---------------------------------------------------------------------------------------------

const hasZsh = (() => {
  try {
    execFileSync("zsh", ["-f", "-c", "true"]);
    return true;
  } catch {
    return false;
  }
})();

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

type Shell = "bash" | "zsh";

interface Pasted {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/**
 * Pastes `text` into an interactive shell without rc files (`set -e` first, so the paste stops at
 * the first failure), from the project's root, in its own process group.
 */
function paste(shell: Shell, text: string, env: Record<string, string>): Pasted {
  const args = shell === "zsh" ? ["-f", "-i"] : ["--norc", "--noprofile", "-i"];
  const child = spawn(shell, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      // A cache of its own, as on a fresh machine (npx installs the project's own bin there once).
      npm_config_cache: path.join(ROOT, "node_modules/.cache/readme-npm"),
      npm_config_update_notifier: "false",
    },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdin!.end(`set -e\n${text}\n`);
  return { child, out: () => out, err: () => err, exited };
}

/** The shell's own complaints (not a command's): "no matches found", "command not found", a parse error. */
function shellErrors(shell: Shell, stderr: string): string[] {
  return stderr
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[a-zA-Z]`, "g"), "") // ANSI colour codes
    .split(/[\r\n]+/)
    .map((l) => l.replace(/^.*?(?=(zsh|bash): )/, ""))
    .filter((l) => l.startsWith(`${shell}: `))
    .filter((l) => !/cannot set terminal process group|no job control in this shell/.test(l));
}

async function waitFor(p: Pasted, re: RegExp, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  let done = false;
  void p.exited.then(() => (done = true));
  while (!re.test(p.out())) {
    if (done || Date.now() > until)
      throw new Error(
        `${what}: no ${re} (${done ? "the shell exited" : "timed out"})\nstdout:\n${p.out()}\nstderr:\n${p.err()}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(p: Pasted): Promise<void> {
  try {
    process.kill(-p.child.pid!, "SIGINT"); // Ctrl-C: the whole foreground group
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-p.child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, 10_000);
  await p.exited;
  clearTimeout(t);
}

/** A block as pasted: the lines not run left out, the port of the server under test in its URLs. */
function pasteText(b: Block, port: number): string {
  return b.text
    .split("\n")
    .filter((l) => !notRun(l))
    .join("\n")
    .replaceAll("127.0.0.1:8888", `127.0.0.1:${port}`)
    .trim();
}

const servesAtEnd = (b: Block) => SERVES.find((s) => s.match.test(b.commands.filter((c) => !notRun(c)).at(-1) ?? ""));
const runnable = blocks.filter((b) => !blockNotRun(b) && b.commands.some((c) => !notRun(c)));
const quickStart = runnable.find((b) => b.file === "README.md" && b.commands.includes("npm start"))!;
const againstServer = runnable.filter((b) => b !== quickStart && !servesAtEnd(b) && b.text.includes("127.0.0.1:8888"));
const pinned = runnable.filter((b) => b !== quickStart && servesAtEnd(b));
const standalone = runnable.filter((b) => b !== quickStart && !servesAtEnd(b) && !b.text.includes("127.0.0.1:8888"));

async function runToEnd(shell: Shell, b: Block, port: number): Promise<string> {
  const p = paste(shell, pasteText(b, port), {});
  const code = await p.exited;
  expect(shellErrors(shell, p.err()), `${b.file}:${b.line} in ${shell}`).toEqual([]);
  expect(code, `${b.file}:${b.line} in ${shell} exited ${code}\nstdout:\n${p.out()}\nstderr:\n${p.err()}`).toBe(0);
  return p.out();
}

/** What each runnable block must show, beyond exiting 0. */
function expectOutput(b: Block, out: string): void {
  if (b.text.includes("If-None-Match")) {
    expect(out).toMatch(/^HTTP\/1\.1 200/m);
    expect(out).toContain('"_self":"/api/v1/feed.json?asset=us-dollar,gold-24k"');
    expect(out).toContain('"status":"ready"');
    expect(out).toMatch(/HTTP\/1\.1 304 Not Modified/); // the ETag it captured, sent back
  }
}

describe.each(["bash", ...(hasZsh ? ["zsh"] : [])] as Shell[])(
  "the README's shell examples, pasted into %s",
  (shell) => {
    test(
      "the quick start: npm start serves; the requests and the typed client run against it",
      { timeout: 240_000 },
      async () => {
        const before = execFileSync(
          "git",
          ["status", "--porcelain", "--untracked-files=all", "--", "data", "examples", "package.json"],
          { cwd: ROOT, encoding: "utf8" },
        );
        let port = await freePort();
        let demo = paste(shell, pasteText(quickStart, port), { PORT: String(port) });
        try {
          // A free port can be taken by another test file's server before the demo binds it (the
          // demo first catches up and builds, for seconds): then the demo says so and exits, and a
          // fresh port is tried, twice at most; any other failure fails the test.
          for (let tries = 1; ; tries++) {
            const failed = await waitFor(demo, /Ctrl-C stops/, 120_000, "npm start").then(
              () => null,
              (e: unknown) => e,
            );
            if (failed === null) break;
            if (tries === 3 || !/is already in use/.test(demo.err())) throw failed;
            port = await freePort();
            demo = paste(shell, pasteText(quickStart, port), { PORT: String(port) });
          }
          expect(demo.out()).toContain(`serving http://127.0.0.1:${port}/`);
          expect(demo.out()).toMatch(/assets: .*; \/readyz 200/);
          // On the real clock: not across the top of the hour, when the demo's hourly run changes the ETags.
          const toHour = 3_600_000 - (Date.now() % 3_600_000);
          if (toHour < 45_000)
            await waitFor(demo, /hourly run[^]*hourly run/, toHour + 60_000, "the hourly run at the top of the hour");
          for (const b of againstServer) expectOutput(b, await runToEnd(shell, b, port));
        } finally {
          await stop(demo);
        }
        expect(shellErrors(shell, demo.err())).toEqual([]);
        expect(demo.out()).toContain("SIGINT: stopping the demo");
        for (const b of standalone) await runToEnd(shell, b, port);
        const after = execFileSync(
          "git",
          ["status", "--porcelain", "--untracked-files=all", "--", "data", "examples", "package.json"],
          { cwd: ROOT, encoding: "utf8" },
        );
        expect(after).toBe(before);
      },
    );

    test.each(pinned.map((b) => ({ file: b.file, line: b.line, b })))(
      "$file:$line, a build served at its own instant, is ready",
      { timeout: 120_000 },
      async ({ b }) => {
        const port = await freePort();
        const p = paste(shell, pasteText(b, port), { PORT: String(port) });
        try {
          await waitFor(p, servesAtEnd(b)!.ready, 90_000, `${b.file}:${b.line}`);
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
          const body = (await ready.json()) as { status: string; staleAssets: string[] };
          expect(body.staleAssets).toEqual([]);
          expect(ready.status).toBe(200);
          expect(p.out()).not.toContain("warning:");
        } finally {
          await stop(p);
        }
        expect(shellErrors(shell, p.err())).toEqual([]);
      },
    );
  },
);

test("zsh is installed, so the examples are also pasted into zsh (npm test installs it)", () => {
  expect(hasZsh || !existsSync("/usr/bin/apt-get")).toBe(true);
});
