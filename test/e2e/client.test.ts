/**
 * The example app (examples/client.ts) is a user of the client package (client/): it type-checks
 * with tsc under examples/tsconfig.json, reads the feed from the local server over loopback HTTP
 * with the age of its build, and reports the server's problem for a request the server refuses.
 * The package itself is tested in test/client/package.test.ts and test/client/fallback.test.ts.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";
import { builtSite, testServer } from "../helpers/site.js";
import type { RunningServer } from "../../src/server/serve.js";

const run = promisify(execFile);
const bin = (name: string) => path.resolve("node_modules/.bin", name);
let server: RunningServer;

beforeAll(async () => {
  const { out } = await builtSite();
  server = await testServer(out, { log: () => {} });
});
afterAll(() => server?.close());

test("the example app, a user of the client package, type-checks and reads the feed, then reuses its copy", async () => {
  // Under examples/tsconfig.json's options (strict, exactOptionalPropertyTypes), against the package's
  // sources and their generated types (client/src/openapi.ts).
  await run(bin("tsc"), ["-p", "examples/tsconfig.json"]); // throws with the compiler's messages on a type error
  const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/client.ts", server.url, "metals"]);
  const lines = stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^XAU24K-EGP sell \d+ \(\w+\) buy \d+ \(\w+\) \w+$/);
  // How old the build is, at the real clock (the test build is of 2026-11-19): its instant and age.
  expect(lines[1]).toMatch(/^built 2026-11-19T11:30:00\.000Z \(\d+ (min|h|d) ago\)/);
  expect(lines.at(-1)).toBe("second call: copy reused, 1 request sent in all");
}, 60_000);

test("the example client reports the server's problem for an unknown category", async () => {
  const failed = await run(process.execPath, ["--import", "tsx", "examples/client.ts", server.url, "crypto"]).then(
    () => null,
    (e: { code: number; stderr: string }) => e,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toMatch(/^400 Unknown category: .*Use one of: currencies, metals\./);
}, 60_000);
