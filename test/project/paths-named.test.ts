/**
 * A path named in a comment or a doc is a promise that a newcomer will find that file there. Files
 * move (src/core/precomputed.ts came from render/; the tests went into test/<room>/), and a comment
 * left behind sends its reader to nothing. This test reads every comment of src/, scripts/ and test/,
 * and the whole of README.md and docs/*.md, and fails naming each path that does not exist:
 *
 * - a path from the repository's root, under src/, scripts/, test/ or docs/ (a file or a folder);
 * - a module named from its room of src/, `<room>/<module>.ts` (as the issues and comments often
 *   name them), looked up under src/.
 *
 * A path with `<`, `*`, `{` or `$` is a pattern or an example, not a file, and is skipped, as is a
 * link's `#anchor`. NAMED_ON_PURPOSE lists the few named knowingly although not in the repository,
 * each with its reason; an entry that is no longer named fails too, so the list stays true.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const at = (p: string) => path.join(ROOT, p);

/** `file → path named in it → why it may name a path that is not in the repository`. */
const NAMED_ON_PURPOSE: Record<string, Record<string, string>> = {
  "docs/data-formats.md": { "docs/index.html": "a file of public/, in the table of the site's layout" },
  "docs/performance.md": { "src/cli/heap.ts": "the log says when it was removed (issue 36)" },
};

const ROOMS = readdirSync(at("src"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
// Not after a word, a dot, a slash or a dash: client/src/… and ../jobs/… are not paths from the root.
const FROM_ROOT = /(?<![\w./@~-])(?:src|scripts|test|docs)\/[\w./<>*{}$@+-]*/g;
const FROM_ROOM = new RegExp(`(?<![\\w./@~-])(?:${ROOMS.join("|")})/[\\w./<>*{}$-]*\\.ts\\b`, "g");

/** The files whose comments are read, and the documents read whole. */
function filesRead(): string[] {
  const code = ["src", "scripts", "test"].flatMap((dir) =>
    readdirSync(at(dir), { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(?:ts|mts|mjs|js|sh)$/.test(f))
      .map((f) => `${dir}/${f.split(path.sep).join("/")}`),
  );
  const docs = readdirSync(at("docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return [...code, "README.md", ...docs].sort();
}

/**
 * The comment on a line of code: the whole line when it is one (`//`, `/*`, ` *`, or `#` in a shell
 * script), else what follows a `//` or `/*` after the code. A `//` after a colon (a URL) or inside a
 * word is not one.
 */
export function commentOf(line: string, shell: boolean): string {
  const t = line.trimStart();
  if (/^(?:\/\/|\/\*|\*)/.test(t) || (shell && t.startsWith("#"))) return line;
  const after = (shell ? /\s#\s/ : /\s(?:\/\/|\/\*)\s/).exec(line);
  return after ? line.slice(after.index) : "";
}

/** The paths a text names, as written (trailing punctuation and anchors off), patterns left out. */
export function pathsIn(text: string): Array<{ path: string; fromRoom: boolean }> {
  const clean = (p: string) => p.replace(/[.,:;)]+$/, "");
  const keep = (p: string) => !/[<*{$]/.test(p);
  return [
    ...[...text.matchAll(FROM_ROOT)].map((m) => ({ path: clean(m[0]), fromRoom: false })),
    ...[...text.matchAll(FROM_ROOM)].map((m) => ({ path: m[0], fromRoom: true })),
  ].filter((p) => keep(p.path));
}

interface Named {
  file: string;
  line: number;
  path: string;
  exists: boolean;
}

function named(): Named[] {
  return filesRead().flatMap((file) => {
    const whole = file.endsWith(".md");
    return readFileSync(at(file), "utf8")
      .split("\n")
      .flatMap((line, i) =>
        pathsIn(whole ? line : commentOf(line, file.endsWith(".sh"))).map((p) => ({
          file,
          line: i + 1,
          path: p.path,
          exists: existsSync(at(p.fromRoom ? `src/${p.path}` : p.path)),
        })),
      );
  });
}

describe("paths named in comments and docs", () => {
  const all = named();

  test("every path named exists (or is named on purpose, with its reason)", () => {
    const missing = all
      .filter((n) => !n.exists && !NAMED_ON_PURPOSE[n.file]?.[n.path])
      .map((n) => `${n.file}:${n.line} names ${n.path}, which does not exist`);
    expect(missing).toEqual([]);
  });

  test("every path named on purpose is still named, and still not in the repository", () => {
    const stale = Object.entries(NAMED_ON_PURPOSE).flatMap(([file, paths]) =>
      Object.keys(paths)
        .filter((p) => !all.some((n) => n.file === file && n.path === p && !n.exists))
        .map((p) => `${file}: ${p}`),
    );
    expect(stale).toEqual([]);
  });

  test("the reading finds paths: in comments, from a room, not in code, not in patterns", () => {
    expect(commentOf(`const a = "src/x.ts"; // see src/core/flat.ts`, false)).toBe(" // see src/core/flat.ts");
    expect(commentOf(`fetch("https://example.com/src/x.ts")`, false)).toBe("");
    expect(commentOf(` * src/core/flat.ts`, false)).toBe(" * src/core/flat.ts");
    expect(commentOf(`# scripts/test.sh`, true)).toBe("# scripts/test.sh");
    expect(pathsIn("(src/core/flat.ts), jobs/demo/loop.ts; docs/api.md#the-index client/src/x.ts")).toEqual([
      { path: "src/core/flat.ts", fromRoom: false },
      { path: "docs/api.md", fromRoom: false },
      { path: "jobs/demo/loop.ts", fromRoom: true },
    ]);
    expect(pathsIn("test/<room>/<module>.test.ts, data/state/archive/<date>.json, src/**/*.ts")).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });
});
