/**
 * The build records its outcome in data/state/build.json (src/io/build-outcome.ts), built or refused
 * with the one-line reason, so that `price-feed health` sees a refused build; and health reads it:
 * exit 3 while the last build was refused, 0 once one is built again.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { loadBuildOutcome, outcomeOf, refusalReason } from "../../src/io/build-outcome.js";
import { main } from "../../src/cli/main.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";

const NOW = Date.parse("2026-11-19T11:30:00Z");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the build's outcome in data/state/build.json", () => {
  test("built, then refused (an earlier --now), keeping when the last one was built; health says so", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    const out = path.join(await tempDir(), "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: NOW, renderers: [] });
    expect(await loadBuildOutcome(data)).toEqual({
      at: "2026-11-19T11:30:00.000Z",
      outcome: "built",
      reason: null,
      lastBuiltAt: "2026-11-19T11:30:00.000Z",
    });
    await expect(runBuild({ dataDir: data, outDir: out, nowMs: NOW - 3_600_000, renderers: [] })).rejects.toThrow(
      /an older build never replaces a newer one/,
    );
    const refused = await loadBuildOutcome(data);
    expect(refused).toMatchObject({
      at: "2026-11-19T10:30:00.000Z",
      outcome: "refused",
      lastBuiltAt: "2026-11-19T11:30:00.000Z",
    });
    expect(refused!.reason).toMatch(/^\/.* holds a build made at 2026-11-19T11:30:00Z, later than this build's --now/);
    expect(refused!.reason).not.toContain("\n");

    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    const health = (now: string) =>
      main(["node", "price-feed", "health", "--data", data, "--out", out, "--now", now, "--json"]);
    expect(await health("2026-11-19T11:35:00Z")).toBe(3);
    const report = JSON.parse(lines.join("\n")) as { problems: Array<{ key: string }>; feed: { status: string } };
    expect(report.problems.map((p) => p.key)).toEqual(["build-refused"]);
    expect(report.feed.status).toBe("ready");

    await runBuild({ dataDir: data, outDir: out, nowMs: NOW + 600_000, renderers: [] });
    lines.length = 0;
    expect(await health("2026-11-19T11:45:00Z")).toBe(0);
    expect((JSON.parse(lines.join("\n")) as { problems: unknown[] }).problems).toEqual([]);
  });

  test("a build without state (--no-state) records nothing", async () => {
    const data = await writeDataset(await tempDir(), smallRows());
    await runBuild({
      dataDir: data,
      outDir: path.join(await tempDir(), "public"),
      nowMs: NOW,
      renderers: [],
      saveState: false,
    });
    await expect(fs.stat(path.join(data, "state", "build.json"))).rejects.toThrow();
  });

  test("the reason is one line, a URL's secrets removed", () => {
    expect(refusalReason(new Error("key refused (https://u:p@k.example/x?token=s)\nsecond line"))).toBe(
      "key refused (https://k.example/x)",
    );
    expect(outcomeOf(null, NOW, "plain")).toEqual({
      at: "2026-11-19T11:30:00.000Z",
      outcome: "refused",
      reason: "plain",
      lastBuiltAt: null,
    });
  });
});
