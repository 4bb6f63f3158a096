/**
 * Issue 49 in CI: `price-feed rehearse` on init's real configuration (examples/egypt), the world and
 * the oracle of src/rehearse as they are. Fourteen days with faults across Egypt's spring clock
 * change (the last Friday of April) and two Friday–Saturday weekends must pass every check; a build
 * that publishes the worst seller as the best must be caught within two days. The wall time of the
 * fourteen days is npm run bench's (scripts/bench-rehearse.ts), not an assertion here: about 10
 * minutes of an idle core (1.8 s of CPU an hour on average), 49 minutes on this shared machine under
 * a load of 13, hence the generous time-out.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { DEPLOYMENT_TEMPLATE } from "../../src/jobs/init.js";
import { rehearse } from "../../src/rehearse/run.js";
import { tempDir } from "../helpers/dataset.js";

/** Captures what a command prints, and its exit status. */
async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  const write = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
    out.push(String(s));
    return true;
  });
  try {
    const status = await main(["node", "price-feed", ...args]);
    return { status, out: out.join("\n"), err: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}

describe("price-feed rehearse, init's configuration", () => {
  test(
    "fourteen days with faults, across Egypt's spring clock change: every check passes",
    async () => {
      const json = path.join(await tempDir(), "rehearsal.json");
      const before = await fs.readFile(path.join(DEPLOYMENT_TEMPLATE, "sources.json"), "utf8");
      const r = await run([
        "rehearse",
        "--data",
        DEPLOYMENT_TEMPLATE,
        "--from",
        "2026-04-18",
        "--days",
        "14",
        "--seed",
        "ci-14",
        "--json",
        json,
      ]);
      const doc = JSON.parse(await fs.readFile(json, "utf8")) as {
        seed: string;
        hours: number;
        faults: Record<string, number>;
        checks: { passed: number; failed: number; byInvariant: Record<string, { passed: number; failed: number }> };
        failures: unknown[];
        incidents: unknown[];
        sources: Array<{ source: string; standing: string }>;
        timing: { hoursPerSecond: number };
      };
      expect(doc.failures).toEqual([]);
      expect(r.status).toBe(0);
      expect(r.out).toMatch(/rehearsing .*: 14 day\(s\) from 2026-04-17T22:00:00Z, seed ci-14/);
      expect(r.out).toMatch(/every check passed/);
      expect(doc).toMatchObject({ seed: "ci-14", hours: 336, checks: { failed: 0 } });
      // Every invariant was checked, most of them every hour.
      for (const [k, t] of Object.entries(doc.checks.byInvariant)) expect(t.passed, k).toBeGreaterThan(300);
      // Every kind of fault met, the process's included.
      for (const k of ["build-killed", "cache-lost", "state-truncated", "outage", "timeout", "reference-down"])
        expect(doc.faults[k], k).toBeGreaterThan(0);
      expect(doc.incidents.length).toBeGreaterThan(0);
      // The sources graduated from probation, as the rulebook says they do in their first days.
      expect(doc.sources.filter((s) => s.standing === "graduated").length).toBeGreaterThan(5);
      expect(doc.timing.hoursPerSecond).toBeGreaterThan(0);
      expect(await fs.readFile(path.join(DEPLOYMENT_TEMPLATE, "sources.json"), "utf8")).toBe(before);
    },
    120 * 60_000,
  );

  test(
    "a build that publishes the worst seller as the best is caught within two days",
    async () => {
      const lines: string[] = [];
      const r = await rehearse({
        dataDir: DEPLOYMENT_TEMPLATE,
        fromMs: Date.parse("2026-11-17T22:00:00Z"),
        days: 2,
        seed: "tamper",
        faults: false,
        tamper: "worst-as-best",
        log: (l) => lines.push(l),
      });
      const caught = r.failures.filter((f) => f.invariant === "feed");
      expect(caught.length).toBeGreaterThan(0);
      expect(caught[0]!.hour).toBeLessThan(48);
      expect(caught[0]!.what).toMatch(/best/);
      expect(lines.find((l) => l.startsWith("FAIL") && l.includes(" feed: "))).toMatch(
        /^FAIL hour \d+ \(2026-11-\d\dT\d\d:07:00Z\) feed: .* — replay: price-feed rehearse --data .* --seed tamper --from 2026-11-17T22:00:00Z --days 2 --no-faults$/,
      );
    },
    30 * 60_000,
  );

  test("a seed that cannot be typed back, and a missing folder, are refused in one line", async () => {
    const bad = await run(["rehearse", "--seed", "a b", "--days", "1"]);
    expect(bad.status).toBe(1);
    const missing = await run(["rehearse", "--data", "/nonexistent/data", "--days", "1"]);
    expect(missing.status).toBe(1);
    expect(missing.err).toMatch(/^price-feed: \/nonexistent\/data: no such folder \(--data\)/);
  });
});
