import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { bundleEdge } from "../../scripts/bundle-edge.js";
import { tempDir } from "../helpers/dataset.js";

describe("the Netlify edge function", () => {
  test("bundles into one module with no node:* import", async () => {
    const file = await bundleEdge(path.join(await tempDir(), "api.js"));
    const code = await fs.readFile(file, "utf8");
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).toMatch(/export\s*\{[^}]*\bas default\b/);
  });

  test("netlify.toml publishes public/, bundles the function and maps it to /api/*, /readyz and the service worker", async () => {
    const toml = await fs.readFile("netlify.toml", "utf8");
    expect(toml).toContain('publish = "public"');
    expect(toml).toContain('command = "npm run build:netlify"');
    for (const p of ["/api/*", "/readyz", "/sw.js"]) expect(toml).toContain(`function = "api"\n  path = "${p}"`);
  });

  test.each(["src/edge", "src/schema", "src/core", "src/rules", "src/core/canonical.ts", "src/feed/paths.ts"])(
    "%s imports nothing from node:",
    async (p) => {
      const stat = await fs.stat(p);
      const files = stat.isDirectory() ? (await fs.readdir(p)).map((f) => path.join(p, f)) : [p];
      for (const f of files) expect(await fs.readFile(f, "utf8"), f).not.toMatch(/from "node:/);
    },
  );
});
