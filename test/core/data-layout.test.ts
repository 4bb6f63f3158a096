/**
 * src/core/data-layout.ts joins paths without node:path (src/core imports nothing from node:): its
 * joinPath must give what node:path's posix join gives, for every shape of folder a user may pass.
 */
import path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dataPaths, joinPath } from "../../src/core/data-layout.js";

describe("joinPath is node:path's posix join", () => {
  // Every folder with every name: plain, dotted, with trailing, doubled or leading slashes, empty.
  const folders = ["data", "./data", "data/", "/tmp/x//y/", "../data", "a/../..", "/..", ".", "", "a", "a/b"];
  const names = ["assets.json", "quotes", "state/published.json", "history", "b", "x", "", "../..", "c/"];
  test.each(folders.flatMap((folder) => names.map((name): [string[]] => [[folder, name]])))("%j", (parts) => {
    expect(joinPath(...parts)).toBe(path.posix.join(...parts));
  });

  test("on any segments of names, dots and slashes", () => {
    const seg = fc.constantFrom("", ".", "..", "a", "bb", "/", "//", "a/", "/a", "../a", "a/..");
    fc.assert(
      fc.property(
        fc.array(
          fc.array(seg, { maxLength: 4 }).map((x) => x.join("")),
          { minLength: 1, maxLength: 4 },
        ),
        (parts) => {
          expect(joinPath(...parts)).toBe(path.posix.join(...parts));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("dataPaths names every file and folder of the layout", () => {
    expect(dataPaths("./data/")).toEqual({
      catalog: "data/assets.json",
      registry: "data/sellers.json",
      calendar: "data/calendar.json",
      site: "data/site.json",
      sources: "data/sources.json",
      quotes: "data/quotes",
      official: "data/official",
      global: "data/global",
      history: "data/history",
      summaries: "data/summaries",
      state: "data/state/published.json",
      sourceRuns: "data/state/sources.json",
      events: "data/state/events.json",
      probation: "data/state/probation.json",
      buildOutcome: "data/state/build.json",
      keys: "data/keys.json",
      closedDays: "data/state/closed-days",
      archive: "data/state/archive",
    });
  });
});
