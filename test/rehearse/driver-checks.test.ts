/**
 * The checks the rehearsal's driver makes itself (src/rehearse/checks.ts), each shown to fail on what
 * it guards against: a log that lost bytes, a refusal that is not one line, and events or standings
 * that disagree with data/state/.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { DataError } from "../../src/core/errors.js";
import { eventsDisagree, lostFromLogs, markLogs, oneLine } from "../../src/rehearse/checks.js";
import { tempDir } from "../helpers/dataset.js";

const write = async (dir: string, file: string, text: string) => {
  await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await fs.writeFile(path.join(dir, file), text);
};

describe("data/ loses nothing", () => {
  test("appending is no loss; a cut, an edit, or a raw day gone without its history is", async () => {
    const dir = await tempDir();
    await write(dir, "quotes/2026-11-18.ndjson", '{"a":1}\n');
    await write(dir, "quotes/2026-11-19.ndjson", '{"b":1}\n{"b":2}\n');
    await write(dir, "official/2026-11-19.ndjson", '{"c":1}\n');
    const before = await markLogs(dir);
    await write(dir, "quotes/2026-11-19.ndjson", '{"b":1}\n{"b":2}\n{"b":3}\n');
    expect(await lostFromLogs(dir, before, await markLogs(dir))).toEqual([]);

    // Compacted: the raw day went to history/.
    await fs.rm(path.join(dir, "quotes/2026-11-18.ndjson"));
    await write(dir, "history/2026-11-18.ndjson", '{"close":1}\n');
    expect(await lostFromLogs(dir, before, await markLogs(dir))).toEqual([]);

    await write(dir, "quotes/2026-11-19.ndjson", '{"b":1}\n');
    await write(dir, "official/2026-11-19.ndjson", '{"c":9}\n{"c":2}\n');
    await fs.rm(path.join(dir, "history/2026-11-18.ndjson"));
    expect(await lostFromLogs(dir, before, await markLogs(dir))).toEqual([
      "quotes/2026-11-18.ndjson is gone",
      "quotes/2026-11-19.ndjson shrank from 16 to 8 bytes",
      "official/2026-11-19.ndjson: its first 8 bytes changed",
    ]);
  });
});

describe("a refusal in one line", () => {
  test("one of ours in one line is; a bug or a message of many lines is not", () => {
    expect(oneLine(new DataError("/d/state/sources.json", "not valid JSON"))).toMatch(/state\/sources.json/);
    expect(oneLine(new Error("boom"))).toBeNull();
    expect(oneLine(new DataError("/d/x.json", "one\ntwo"))).toBeNull();
  });
});

describe("the events agree with the state", () => {
  const NOW = Date.parse("2026-11-20T10:07:00Z");
  const change = { at: "2026-11-19T06:07:00Z", standing: "graduated", reason: "24 successful runs" };
  const record = {
    sources: {
      alpha: { standing: "graduated", since: change.at, runs: [], changes: [change] },
    },
  };
  const published = (o: { standing?: string; events?: object[]; kept?: object[]; builtAt?: string }) => ({
    health: {
      sources: [
        {
          id: "alpha",
          probation: {
            standing: o.standing ?? "graduated",
            since: change.at,
            runs: null,
            runsNeeded: null,
            lastChange: { ...change, countsFrom: null },
          },
        },
        { id: "cbe", probation: { standing: "counted", since: null, runs: null, runsNeeded: null, lastChange: null } },
      ],
    },
    events: o.events ?? [
      {
        kind: "probation",
        at: "2026-11-19T06:07:00.000Z",
        source: "alpha",
        before: { standing: "probation", reason: null },
        after: { standing: "graduated", reason: change.reason },
      },
    ],
  });
  async function site(o: Parameters<typeof published>[0]) {
    const data = await tempDir();
    const out = await tempDir();
    const p = published(o);
    await write(data, "state/probation.json", JSON.stringify(record));
    const builtAt = o.builtAt ?? "2026-11-20T10:07:00Z";
    await write(data, "state/events.json", JSON.stringify({ summary: null, events: o.kept ?? p.events, builtAt }));
    await write(out, "api/v1/sources.json", JSON.stringify(p.health));
    await write(out, "api/v1/events.json", JSON.stringify({ events: p.events }));
    return eventsDisagree(data, out, new Set(["alpha"]), NOW);
  }

  test("as the build publishes them: no problem", async () => {
    expect(await site({})).toEqual([]);
  });

  test("a standing, a missing or extra event, and a record that is not what was published", async () => {
    expect(await site({ standing: "probation" })).toEqual([
      "alpha: published standing probation, data/state/probation.json graduated",
    ]);
    expect(await site({ events: [] })).toEqual(["no probation event for alpha graduated at 2026-11-19T06:07:00Z"]);
    const extra = { kind: "probation", at: "2026-11-20T09:07:00Z", source: "alpha", after: { standing: "probation" } };
    expect(await site({ events: [...published({}).events, extra] })).toEqual([
      "a probation event the record does not hold: alpha probation at 2026-11-20T09:07:00Z",
    ]);
    expect(await site({ kept: [] })).toEqual(["data/state/events.json does not hold the events the build published"]);
    // The previous hour's record put back over this build's (the same events, an older build).
    expect(await site({ builtAt: "2026-11-20T09:07:00Z" })).toEqual([
      "data/state/events.json is the record of the build of 2026-11-20T09:07:00Z, not of this one",
    ]);
  });
});
