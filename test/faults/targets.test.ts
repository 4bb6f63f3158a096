/**
 * Issue 50, item 6: no command destroys what it did not make. `build --out X` replaced whatever X
 * was and exited 0: `--out data` wiped the data folder, `--out README.md` turned the file into a
 * folder, `--out .` in a repository deleted `.git`. Each target below is refused in one line (and a
 * line saying what to do), exit 1, with nothing touched: not the target, nor anything beside it (no
 * lock file, no cache). `sample`, `init` and `demo`, which write folders too, refuse the same.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { snapshot, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const NOW = "2026-11-19T11:30:00Z";

let root: string;
let data: string;
let said: string[];
beforeEach(async () => {
  root = await tempDir("pf-targets-");
  data = await writeDataset(path.join(root, "data"), smallRows());
  said = [];
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void said.push(a.join(" ")));
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(root, { recursive: true, force: true });
});

/** Every file and folder name under `dir`, with each file's bytes: what "touching nothing" compares. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const p = path.relative(dir, path.join(e.parentPath, e.name));
    out[p] = e.isFile() ? await fs.readFile(path.join(dir, p), "utf8") : "<dir>";
  }
  return out;
}

const build = (out: string, ...more: string[]) =>
  main(["node", "price-feed", "build", "--data", data, "--out", out, "--now", NOW, ...more]);

/** The command refused in one line (and its hint), exit 1, the whole temporary root as it was. */
async function refused(run: () => Promise<number>, words: RegExp): Promise<void> {
  const before = await tree(root);
  said.length = 0;
  expect(await run()).toBe(1);
  expect(said).toHaveLength(1);
  const lines = said[0]!.split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(words);
  expect(lines[1]).toMatch(/^pass |^give |^init writes/);
  expect(await tree(root)).toEqual(before);
}

describe("build --out refuses what it did not make, touching nothing", () => {
  test("a file: --out README.md", async () => {
    const readme = path.join(root, "README.md");
    await fs.writeFile(readme, "# mine\n");
    await refused(
      () => build(readme),
      /--out .*README\.md: .*README\.md is a file, not a folder: a build would replace it/,
    );
  });

  test("the data folder itself: --out data for --data data", async () => {
    await refused(() => build(data, "--no-state"), /is the data folder .*: a build would replace it/);
    expect((await snapshot(data)).size).toBeGreaterThan(5);
  });

  test("a folder that holds the data folder: --out . beside data/", async () => {
    await refused(() => build(root), /holds the data folder/);
  });

  test("the data folder through a symbolic link", async () => {
    const link = path.join(root, "site");
    await fs.symlink(data, link);
    await refused(() => build(link), /is the data folder/);
  });

  test("a repository's root, even with an earlier build's manifest in it", async () => {
    const repo = path.join(root, "repo");
    await fs.mkdir(path.join(repo, ".git"), { recursive: true });
    await fs.writeFile(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    await fs.writeFile(path.join(repo, "_manifest.json"), JSON.stringify({ generatedAt: NOW }));
    await refused(() => build(repo), /is a repository's root \(it holds \.git\)/);
  });

  test("a non-empty folder that is not an earlier build", async () => {
    const notes = path.join(root, "notes");
    await fs.mkdir(notes);
    await fs.writeFile(path.join(notes, "todo.txt"), "keep me\n");
    await refused(() => build(notes), /holds files a build did not make \(todo\.txt\), and would replace them/);
  });

  test("a folder whose manifest is not a build's is not an earlier build", async () => {
    const odd = path.join(root, "odd");
    await fs.mkdir(odd);
    await fs.writeFile(path.join(odd, "_manifest.json"), "not json");
    await refused(() => build(odd), /holds files a build did not make/);
  });

  test("a new folder, an empty one and an earlier build are built into", async () => {
    const out = path.join(root, "public");
    expect(await build(out, "--no-state")).toBe(0);
    expect(await build(out, "--no-state")).toBe(0); // over its own earlier build
    const empty = path.join(root, "empty");
    await fs.mkdir(empty);
    expect(await build(empty, "--no-state")).toBe(0);
    expect(said).toEqual([]);
  });
});

describe("every other command that writes a folder refuses the same", () => {
  test("sample --out: a real dataset, a repository's root, a file", async () => {
    // A dataset that is not simulated (init's, a real deployment's) is never written over.
    const real = JSON.parse(await fs.readFile(path.join(data, "site.json"), "utf8")) as Record<string, unknown>;
    await fs.writeFile(path.join(data, "site.json"), JSON.stringify({ ...real, simulated: false }));
    await fs.writeFile(path.join(data, "sources.json"), JSON.stringify({ sources: [] }));
    const sample = (out: string) => main(["node", "price-feed", "sample", "--out", out, "--now", NOW, "--days", "2"]);
    await refused(() => sample(data), /holds files a simulated dataset did not make/);
    await refused(() => sample(root), /holds files a simulated dataset did not make/);
    const file = path.join(root, "file.json");
    await fs.writeFile(file, "{}");
    await refused(() => sample(file), /is a file, not a folder/);
    const repo = path.join(root, "repo");
    await fs.mkdir(path.join(repo, ".git"), { recursive: true });
    await refused(() => sample(repo), /is a repository's root/);
    // A simulated dataset (npm run sample over data/) is written over, as before.
    const fresh = path.join(root, "fresh");
    expect(await sample(fresh)).toBe(0);
    expect(await sample(fresh)).toBe(0);
  });

  test("init DIR: a file", async () => {
    const file = path.join(root, "file");
    await fs.writeFile(file, "x");
    await refused(() => main(["node", "price-feed", "init", file]), /init .*: .*file is a file, not a folder/);
  });

  test("ingest --save-bodies: a file, a repository's root, a folder that holds the data folder", async () => {
    const bodies = (dir: string) =>
      main(["node", "price-feed", "ingest", "--data", data, "--now", NOW, "--dry-run", "--save-bodies", dir]);
    const file = path.join(root, "bodies.txt");
    await fs.writeFile(file, "x");
    await refused(() => bodies(file), /--save-bodies .*bodies\.txt: not a folder that can be read \(ENOTDIR\)/);
    const repo = path.join(root, "repo");
    await fs.mkdir(path.join(repo, ".git"), { recursive: true });
    await refused(() => bodies(repo), /is not empty and holds no saved bodies of an earlier run/);
    await refused(() => bodies(root), /is not empty and holds no saved bodies of an earlier run/);
  });

  test("demo --work: a file, a repository's root", async () => {
    const file = path.join(root, "work");
    await fs.writeFile(file, "x");
    const demo = (work: string) =>
      main(["node", "price-feed", "demo", "--data", data, "--work", work, "--port", "0", "--now", NOW]);
    await refused(() => demo(file), /--work .*: .*work is a file, not a folder/);
    const repo = path.join(root, "repo");
    await fs.mkdir(path.join(repo, ".git"), { recursive: true });
    await refused(() => demo(repo), /is a repository's root/);
  });
});
