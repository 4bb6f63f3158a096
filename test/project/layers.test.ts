/**
 * The folders of src/ form layers, and imports only point down (README "Where things are"): a module may import
 * its own folder or a lower layer, never a higher one nor a sibling folder of the same layer unless
 * the table below lets it. A cycle between folders is then impossible. The imports are read from the
 * source text, so the check needs no build and sees type-only imports too.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/** Lower number = lower layer. Folders of one layer may not import each other. */
const LAYER: Record<string, number> = {
  schema: 0,
  core: 1,
  rules: 2,
  feed: 3,
  sample: 3,
  edge: 4,
  render: 4,
  ingest: 4,
  io: 5,
  server: 5,
  netlify: 5,
  incremental: 6,
  jobs: 7,
  rehearse: 8,
  cli: 9,
};

const SRC = path.resolve("src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

/** Relative module specifiers of a file: static imports, re-exports and dynamic `import()`. */
export function relativeImports(text: string): string[] {
  const found: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.[^"']*)["']/gm;
  for (const m of text.matchAll(re)) found.push(m[1]!);
  return found;
}

const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

const edges = sourceFiles(SRC).flatMap((file) =>
  relativeImports(readFileSync(file, "utf8")).map((spec) => ({
    file: path.relative(".", file),
    from: folderOf(file),
    to: folderOf(path.resolve(path.dirname(file), spec)),
    spec,
  })),
);

describe("the folder layers of src/", () => {
  test("every folder under src/ has a layer", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !(f in LAYER))).toEqual([]);
  });

  test("no import leaves src/", () => {
    expect(edges.filter((e) => e.to.startsWith(".."))).toEqual([]);
  });

  test("every import between folders points to a lower layer", () => {
    const upward = edges
      .filter((e) => e.from !== e.to && !((LAYER[e.to] ?? 99) < (LAYER[e.from] ?? -1)))
      .map((e) => `${e.file} imports ${e.spec} (${e.from} → ${e.to})`);
    expect(upward).toEqual([]);
  });

  // io/ only reads and writes: what a build makes of the data (rules/, feed/) is decided elsewhere,
  // and what it may reuse of earlier builds is incremental/'s.
  test("io/ imports neither rules/ nor feed/", () => {
    const io = edges.filter((e) => e.from === "io" && (e.to === "rules" || e.to === "feed"));
    expect(io.map((e) => `${e.file} imports ${e.spec}`)).toEqual([]);
  });

  // The HTTP contract is answered by edge/ and described by render/: both read it from below
  // (src/core/http-contract.ts, src/core/http-problem.ts, src/feed/readiness.ts, src/feed/filters.ts),
  // so the description never runs against the data's flow into the code that serves it.
  test("render/ and edge/ import nothing of each other", () => {
    const across = edges.filter(
      (e) => (e.from === "render" && e.to === "edge") || (e.from === "edge" && e.to === "render"),
    );
    expect(across.map((e) => `${e.file} imports ${e.spec}`)).toEqual([]);
  });

  test("no module imports another that imports it back, even through others (no cycle of files)", () => {
    // Tarjan's strongly connected components over the file graph: any component of two or more
    // files is a cycle, named by its files.
    const graph = new Map<string, string[]>();
    for (const e of edges) {
      const target = path.relative(".", path.resolve(path.dirname(e.file), e.spec)).replace(/\.js$/, ".ts");
      graph.set(e.file, [...(graph.get(e.file) ?? []), target]);
    }
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1) cycles.push(scc.sort());
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });

  // A file splits when it holds two ideas, not at a line count; 450 lines is only a guard against
  // sprawl, well above what one idea needs (the 300 it replaced split families by name prefix).
  test("no module under src/ is over 450 lines", () => {
    const long = sourceFiles(SRC)
      .map((f) => ({ file: path.relative(".", f), lines: readFileSync(f, "utf8").split("\n").length - 1 }))
      .filter((f) => f.lines > 450);
    expect(long).toEqual([]);
  });

  test("the checker sees every form of import", () => {
    expect(
      relativeImports(
        'import { a } from "../x.js";\nimport type { B } from \'./y.js\';\nexport * from "../z.js";\nconst m = await import("../w.js");\nimport "./side.js";',
      ),
    ).toEqual(["../x.js", "./y.js", "../z.js", "../w.js", "./side.js"]);
  });
});
