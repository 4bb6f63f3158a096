/** The chart's coordinates as text (src/render/pages/chart.ts r1): the same text as printing the rounded number. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { r1 } from "../../src/render/pages/chart.js";

const printed = (n: number) => `${Math.round(n * 10) / 10}`;

describe("a coordinate rounded to a tenth", () => {
  test.each([
    [0, "0"],
    [-0, "0"],
    [-0.04, "0"],
    [0.05, "0.1"],
    [-0.05, "0"],
    [-0.06, "-0.1"],
    [12.25, "12.3"],
    [339.95, "340"],
    [-3.14, "-3.1"],
    [760, "760"],
    [1e6 + 0.35, "1000000.4"],
  ])("%d is %s, as printed", (n, text) => {
    expect(r1(n)).toBe(text);
    expect(r1(n)).toBe(printed(n));
  });

  test("any coordinate a chart can have prints the same", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (n) => r1(n) === printed(n)),
      { numRuns: 20_000 },
    );
  });
});
