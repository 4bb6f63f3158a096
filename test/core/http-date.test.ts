/**
 * The HTTP-date (src/core/http-date.ts, RFC 9110 §5.6.7): written as IMF-fixdate, read in its three
 * forms, and nothing else read as one.
 */
import { describe, expect, test } from "vitest";
import { httpDate, parseHttpDate } from "../../src/core/http-date.js";

const AT = Date.parse("1994-11-06T08:49:37Z");

describe("the HTTP-date", () => {
  test("is written as IMF-fixdate, and read back to the second", () => {
    expect(httpDate(AT)).toBe("Sun, 06 Nov 1994 08:49:37 GMT");
    expect(parseHttpDate(httpDate(AT + 400))).toBe(AT);
  });

  // RFC 9110 §5.6.7's own three examples of one instant.
  test.each(["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])(
    "%j is read",
    (value) => expect(parseHttpDate(value)).toBe(AT),
  );

  test.each(["2027-01-01", "3000", "Sat, 31 Feb 2026 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", ""])(
    "%j is not an HTTP-date",
    (value) => expect(parseHttpDate(value)).toBeNull(),
  );
});
