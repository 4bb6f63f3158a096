/**
 * ScriptStore (src/edge/counters.ts): what the Redis store and the Upstash one share, run here on a
 * Redis that is a function: a hit counts and a peek only looks, the reply becomes a Hit, and a store
 * that fails is failed open, said once, probed once a PROBE_INTERVAL_MS, and said again when it is
 * back. The real Redis, through both stores, is test/server/redis-store.test.ts.
 */
import { describe, expect, test } from "vitest";
import { PROBE_INTERVAL_MS, ScriptStore, scriptInputs } from "../../src/edge/counters.js";

const NOW = Date.parse("2026-11-19T12:00:00Z");

/** A store whose Redis answers `reply` (or throws it, when it is an Error), recording every call. */
class FakeStore extends ScriptStore {
  calls: Array<{ keys: readonly string[]; args: readonly string[] }> = [];
  reply: unknown = [1, 60_000, 1, 0, 0];
  constructor(log: (line: string) => void = () => {}, clock?: () => number) {
    super("the fake Redis", log, clock);
  }
  protected async evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    this.calls.push({ keys, args });
    if (this.reply instanceof Error) throw this.reply;
    return this.reply;
  }
}

describe("ScriptStore", () => {
  const caps = { window: 2, busyWindow: 1, daily: 3 };

  test("a hit runs the script to count, a peek to look, with the same keys; the reply is the Hit", async () => {
    const s = new FakeStore();
    s.reply = [2, 500, 7, 1, 1];
    expect(await s.hit("c", NOW, 60_000, caps)).toEqual({
      windowCount: 2,
      windowResetMs: 500,
      dayCount: 7,
      refused: "window",
      busy: true,
    });
    s.reply = [2, 400, 7, 0, 0];
    expect(await s.peek("c", NOW, 60_000, caps)).toEqual({
      windowCount: 2,
      windowResetMs: 400,
      dayCount: 7,
      busy: false,
    });
    expect(s.calls).toEqual([scriptInputs("c", NOW, 60_000, caps, true), scriptInputs("c", NOW, 60_000, caps, false)]);
    expect(s.calls.map((c) => c.args.at(-1))).toEqual(["1", "0"]);
  });

  test("down: null at once (fail open), said once, probed once an interval; said again when back", async () => {
    const logs: string[] = [];
    let t = NOW;
    const s = new FakeStore(
      (l) => logs.push(l),
      () => t,
    );
    s.reply = new Error("connection refused");
    expect(await s.hit("c", NOW, 60_000)).toBeNull();
    expect(await s.peek("c", NOW, 60_000)).toBeNull(); // within the interval: not asked
    expect(await s.hit("c", NOW, 60_000)).toBeNull();
    expect(s.calls).toHaveLength(1);
    t += PROBE_INTERVAL_MS;
    expect(await s.peek("c", NOW, 60_000)).toBeNull(); // the probe, a peek as well as a hit
    expect(s.calls).toHaveLength(2);
    expect(logs).toEqual([
      "the fake Redis unreachable (connection refused): serving without rate limits (fail open), probing once a second",
    ]);
    t += PROBE_INTERVAL_MS;
    s.reply = [1, 60_000, 1, 0, 0];
    expect(await s.hit("c", NOW, 60_000)).toMatchObject({ windowCount: 1, dayCount: 1 });
    expect(logs[1]).toBe(
      "the fake Redis reachable again: rate limits enforced (4 requests were served without limits)",
    );
  });

  test("a reply of another shape is a failure, failed open like any other", async () => {
    const logs: string[] = [];
    const s = new FakeStore((l) => logs.push(l));
    s.reply = "OK";
    expect(await s.hit("c", NOW, 60_000)).toBeNull();
    expect(logs[0]).toContain('unexpected script reply "OK"');
  });
});
