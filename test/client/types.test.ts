/**
 * The client package (client/) as it is published: its types are what openapi-typescript generates
 * from the description today (scripts/client-types.ts), it compiles with tsc without Node's types
 * (it needs nothing but fetch), `npm pack` of it holds the compiled code, its declarations and
 * its README, with no runtime dependency, and that README's TypeScript examples type-check.
 */
import { describe, expect, test } from "vitest";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { CLIENT_TYPES, clientTypes } from "../../scripts/client-types.js";
import { tempDir } from "../helpers/dataset.js";

const run = promisify(execFile);
const CLIENT = path.resolve("client");

/** The ```ts blocks of client/README.md, in order. */
async function readmeCode(): Promise<string[]> {
  const text = await fs.readFile(path.join(CLIENT, "README.md"), "utf8");
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe("the client package", () => {
  test("its README's TypeScript examples, as printed and in order, type-check against the package", async () => {
    const blocks = await readmeCode();
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const dir = await tempDir("pf-client-readme-");
    await fs.writeFile(path.join(dir, "readme.mts"), `${blocks.join("\n")}\nexport {};\n`);
    await fs.writeFile(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: path.join(CLIENT, "tsconfig.build.json"),
        compilerOptions: {
          noEmit: true,
          rootDir: "/",
          module: "NodeNext",
          target: "ES2023",
          // The package's name, as an app imports it, resolved to its sources.
          paths: { "@price-feed/client": [path.join(CLIENT, "src/index.ts")] },
          noUnusedLocals: false,
        },
        files: ["readme.mts"],
      }),
    );
    await run(path.resolve("node_modules/.bin/tsc"), ["-p", dir]).catch((e: { stdout: string }) => {
      throw new Error(e.stdout);
    });
  }, 60_000);

  test("its committed types are what the description generates (npm run generate in client/ rewrites them)", async () => {
    expect(await fs.readFile(CLIENT_TYPES, "utf8")).toBe(await clientTypes());
  });

  test("compiles without Node's types, imports nothing but its own modules, and packs without dependencies", async () => {
    const out = await tempDir("pf-client-dist-");
    await run(path.resolve("node_modules/.bin/tsc"), ["-p", path.join(CLIENT, "tsconfig.build.json"), "--outDir", out]);
    const built = (await fs.readdir(out)).sort();
    expect(built).toEqual(expect.arrayContaining(["index.js", "index.d.ts", "openapi.d.ts", "http.js", "mirror.js"]));
    for (const f of built.filter((x) => x.endsWith(".js"))) {
      const imports = [
        ...(await fs.readFile(path.join(out, f), "utf8")).matchAll(/(?:import|from)\s+["']([^"']+)["']/g),
      ];
      expect(imports.map((m) => m[1]).filter((s) => !s!.startsWith("./"))).toEqual([]);
    }

    const pkg = JSON.parse(await fs.readFile(path.join(CLIENT, "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg["dependencies"]).toBeUndefined();
    expect(pkg["scripts"]).toMatchObject({ release: "npm publish --access public" });
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json"], { cwd: CLIENT });
    const [packed] = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
    expect(packed!.name).toBe("@price-feed/client");
    expect(packed!.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(["README.md", "package.json", "dist/index.js", "dist/index.d.ts", "dist/openapi.d.ts"]),
    );
    expect(packed!.files.every((f) => /^(dist\/|README\.md$|package\.json$)/.test(f.path))).toBe(true);
  }, 60_000);
});
