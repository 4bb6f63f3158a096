/**
 * Client generation works: openapi-typescript turns the built description into types, the typed
 * example client (examples/client.ts, compiled beside them in a scratch folder under
 * examples/tsconfig.json's options) compiles against them with tsc, and it runs against the local
 * server over loopback HTTP, revalidating with its ETag.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { promises as fs } from "node:fs";
import path from "node:path";
import { tempDir } from "./helpers/dataset.js";
import { builtSite, testServer } from "./helpers/site.js";
import type { RunningServer } from "../src/server/serve.js";

const run = promisify(execFile);
const bin = (name: string) => path.resolve("node_modules/.bin", name);
let server: RunningServer;
let out: string;

beforeAll(async () => {
  ({ out } = await builtSite());
  server = await testServer(out, { log: () => {} });
});
afterAll(() => server?.close());

test("types generated from the description compile the example client, which reads the feed and revalidates", async () => {
  // In a folder of its own, beside a copy of the client, under examples/tsconfig.json's options: the
  // README's walk-through (test/readme.test.ts) writes examples/price-feed.d.ts, maybe at this moment.
  const dir = await tempDir("pf-client-");
  await fs.copyFile("examples/client.ts", path.join(dir, "client.ts"));
  await fs.writeFile(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: path.resolve("examples/tsconfig.json"),
      compilerOptions: { typeRoots: [path.resolve("node_modules/@types")] },
      files: ["client.ts", "price-feed.d.ts"],
    }),
  );
  await run(bin("openapi-typescript"), [
    path.join(out, "api/v1/openapi.json"),
    "-o",
    path.join(dir, "price-feed.d.ts"),
  ]);
  await run(bin("tsc"), ["-p", dir]); // throws with the compiler's messages on a type error
  const { stdout } = await run(process.execPath, [
    "--import",
    "tsx",
    path.join(dir, "client.ts"),
    server.url,
    "metals",
  ]);
  const lines = stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^XAU24K-EGP sell \d+ \(\w+\) buy \d+ \(\w+\) \w+$/);
  expect(lines.at(-1)).toBe("second request: 304, copy reused");
}, 60_000);

test("the example client reports the server's problem for an unknown category", async () => {
  const failed = await run(process.execPath, ["--import", "tsx", "examples/client.ts", server.url, "crypto"]).then(
    () => null,
    (e: { code: number; stderr: string }) => e,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toMatch(/^400 Unknown category: .*Use one of: currencies, metals\./);
}, 60_000);
