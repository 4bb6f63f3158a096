/**
 * `price-feed names "…"` (issue 51, item 4): how a name folds, the seller it resolves to or none and
 * the nearest keys, so that an alias is one line to add — and after that line, the name resolves.
 * In process, through main(), on a copy of the registry `init` writes.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../helpers/dataset.js";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (line: string) => void out.push(line);
  console.error = (line: string) => void err.push(line);
  try {
    const code = await main(["node", "price-feed", ...argv]);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    [console.log, console.error] = [log, error];
  }
}

async function registryCopy(): Promise<string> {
  const dir = await tempDir();
  await fs.copyFile("examples/egypt/sellers.json", path.join(dir, "sellers.json"));
  return dir;
}

describe("price-feed names", () => {
  test("a name of the registry: its folds, its key, its seller and through which name", async () => {
    const data = await registryCopy();
    const r = await run("names", "--data", data, "بنك البركة – مصر");
    expect(r.code).toBe(0);
    expect(r.out).toContain('folds: letters "بنك بركه مصر" → leading "بركه مصر" → country "بركه"');
    expect(r.out).toContain('key: "بركه"');
    expect(r.out).toContain(
      'seller: al-baraka-bank-egypt (Al Baraka Bank Egypt), through the key of "بنك البركة - مصر"',
    );
  });

  test("an unknown name: none, the nearest keys, the alias to add; once added, it resolves", async () => {
    const data = await registryCopy();
    const before = await run("names", "--data", data, "Banque Misrr");
    expect(before.code).toBe(0);
    expect(before.out).toContain("seller: none (a name the registry does not give is never a seller");
    expect(before.out).toContain('nearest keys: "banquemisr" (banque-misr; from "Banque Misr"; 1 apart)');
    expect(before.out).toContain(`add "Banque Misrr" to that seller's "aliases" in ${path.join(data, "sellers.json")}`);

    // The one line: the alias.
    const file = path.join(data, "sellers.json");
    const registry = JSON.parse(await fs.readFile(file, "utf8")) as Array<{ id: string; aliases?: string[] }>;
    const misr = registry.find((s) => s.id === "banque-misr")!;
    misr.aliases = [...(misr.aliases ?? []), "Banque Misrr"];
    await fs.writeFile(file, JSON.stringify(registry));
    const after = await run("names", "--data", data, "Banque Misrr");
    expect(after.out).toContain("seller: banque-misr (Banque Misr), through the key of");
  });

  test("a name two banks could own: none, and why", async () => {
    const data = await registryCopy();
    const r = await run("names", "--data", data, "بنك مصر (CIB)", "QNB الأهلي");
    expect(r.out).toContain(
      "seller: none: the name could be banque-misr (Banque Misr) or commercial-international-bank (Commercial International Bank (CIB))",
    );
    expect(r.out).toContain("the name and its bracketed part name different sellers");
    // Several names, each explained; a name in two scripts shows its parts.
    expect(r.out).toContain('parts: "اهلي" → national-bank-of-egypt; "qnb" → qnb-alahli');
  });

  test("a control or bidi character is shown escaped, never acted on", async () => {
    const data = await registryCopy();
    const r = await run("names", "--data", data, "Bank\u202eZed\u0007");
    expect(r.out).toContain('"Bank\\u202eZed\\u0007"');
    expect(r.out.includes("\u202e") || r.out.includes("\u0007")).toBe(false);
  });

  test("a missing folder: one line naming it and what to do, exit 1", async () => {
    const r = await run("names", "--data", path.join(await tempDir(), "nope"), "x");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no such folder \(--data\)\n/);
  });
});
