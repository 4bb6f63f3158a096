/**
 * `npm run build`, `npm start` and the other commands compile only when dist/ is older than what it
 * is compiled from (scripts/compile.mjs). The decision, from modification times alone: every case
 * below, then the same decision read from a scratch tree whose times are set by hand.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { checkTree, INPUTS, OUTPUTS, STAMP, staleness, type InputTime } from "../../scripts/compile.mjs";
import { tempDir } from "../helpers/dataset.js";

const T = Date.parse("2026-11-19T12:00:00Z");
const inputs = (...times: Array<[string, number | null]>): InputTime[] =>
  times.map(([p, mtimeMs]) => ({ path: p, mtimeMs }));
const ALL_THERE: string[] = [];

const CASES: Array<{
  case: string;
  stampMs: number | null;
  missingOutputs?: string[];
  inputs: InputTime[];
  stale: boolean;
  why: RegExp;
}> = [
  {
    case: "never compiled",
    stampMs: null,
    inputs: inputs(["src/cli/main.ts", T - 1000]),
    stale: true,
    why: /no stamp/,
  },
  {
    case: "every input older than the stamp",
    stampMs: T,
    inputs: inputs(["src", T - 5000], ["src/cli/main.ts", T - 1000], ["package-lock.json", T - 90_000]),
    stale: false,
    why: /up to date/,
  },
  {
    case: "a source edited after the compile started",
    stampMs: T,
    inputs: inputs(["src/cli/main.ts", T - 1000], ["src/io/ndjson.ts", T + 1]),
    stale: true,
    why: /^src\/io\/ndjson\.ts changed/,
  },
  {
    case: "a time equal to the stamp's (a coarse clock: the edit may have come after the start)",
    stampMs: T,
    inputs: inputs(["src/cli/main.ts", T]),
    stale: true,
    why: /src\/cli\/main\.ts changed/,
  },
  {
    case: "a folder whose entries changed (a file added, removed or renamed in it)",
    stampMs: T,
    inputs: inputs(["src/io", T + 60_000], ["src/io/ndjson.ts", T - 1000]),
    stale: true,
    why: /^src\/io changed/,
  },
  {
    case: "several changes: the first is named, the others counted",
    stampMs: T,
    inputs: inputs(["docs/methodology.md", T + 10], ["tsconfig.json", T + 20], ["src/a.ts", T + 30]),
    stale: true,
    why: /^docs\/methodology\.md and 2 more changed/,
  },
  {
    case: "the lockfile changed (another version of a bundled package)",
    stampMs: T,
    inputs: inputs(["src/cli/main.ts", T - 1000], ["package-lock.json", T + 5000]),
    stale: true,
    why: /package-lock\.json changed/,
  },
  {
    case: "a compile script changed",
    stampMs: T,
    inputs: inputs(["scripts/bundle-cli.mjs", T + 5000]),
    stale: true,
    why: /scripts\/bundle-cli\.mjs changed/,
  },
  {
    case: "a listed input is missing",
    stampMs: T,
    inputs: inputs(["src/cli/main.ts", T - 1000], ["docs/methodology.md", null]),
    stale: true,
    why: /docs\/methodology\.md is missing/,
  },
  {
    case: "an output is missing, every input older",
    stampMs: T,
    missingOutputs: ["dist/cli/main.bundle.cjs"],
    inputs: inputs(["src/cli/main.ts", T - 1000]),
    stale: true,
    why: /dist\/cli\/main\.bundle\.cjs is missing/,
  },
  {
    case: "no inputs listed at all, stamp and outputs there",
    stampMs: T,
    inputs: [],
    stale: false,
    why: /up to date/,
  },
];

describe("staleness: compile again or not, from modification times", () => {
  test.each(CASES)("$case", (c) => {
    const got = staleness({ stampMs: c.stampMs, missingOutputs: c.missingOutputs ?? ALL_THERE, inputs: c.inputs });
    expect(got.stale).toBe(c.stale);
    expect(got.why).toMatch(c.why);
  });
});

describe("checkTree: the decision read from a tree", () => {
  /** A scratch project: every input and output there, all dated `at`, and the stamp dated `stampAt`. */
  async function tree(at: number, stampAt: number | null): Promise<string> {
    const root = await tempDir("pf-compile-");
    const files = [...INPUTS.map((i) => (i === "src" ? "src/cli/main.ts" : i)), "src/io/ndjson.ts", ...OUTPUTS];
    for (const f of files) {
      mkdirSync(path.join(root, path.dirname(f)), { recursive: true });
      writeFileSync(path.join(root, f), "x");
    }
    for (const f of [...files, "src/cli", "src/io", "src"]) setTime(root, f, at);
    if (stampAt !== null) {
      writeFileSync(path.join(root, STAMP), "stamp");
      setTime(root, STAMP, stampAt);
    }
    return root;
  }
  const setTime = (root: string, f: string, ms: number) => utimesSync(path.join(root, f), ms / 1000, ms / 1000);
  const OLD = Date.parse("2020-01-01T00:00:00Z");

  test("fresh; then a source touched later is stale", async () => {
    const root = await tree(OLD, OLD + 60_000);
    expect(checkTree(root)).toEqual({ stale: false, why: "dist/ is up to date" });
    setTime(root, "src/io/ndjson.ts", OLD + 120_000);
    expect(checkTree(root)).toMatchObject({ stale: true, why: "src/io/ndjson.ts changed since the last compile" });
  });

  test("a source removed: its folder's time says so", async () => {
    const root = await tree(OLD, OLD + 60_000);
    rmSync(path.join(root, "src/io/ndjson.ts"));
    expect(checkTree(root)).toMatchObject({ stale: true, why: "src/io changed since the last compile" });
  });

  test("no stamp, or an output gone", async () => {
    expect(checkTree(await tree(OLD, null)).stale).toBe(true);
    const root = await tree(OLD, OLD + 60_000);
    rmSync(path.join(root, "dist/cli/main.bundle.cjs"));
    expect(checkTree(root)).toMatchObject({ stale: true, why: "dist/cli/main.bundle.cjs is missing" });
  });
});
