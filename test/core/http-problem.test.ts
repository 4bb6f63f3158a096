/**
 * The handler's problems (src/core/http-problem.ts): each one an RFC 9457 body of its type's URI,
 * title and status from the contract's table, with the members RFC 9457 §3.1 names and the
 * handler's own, and the headers its status calls for.
 */
import { describe, expect, test } from "vitest";
import { ALLOWED_METHODS, PROBLEM_TYPES, problemTypeUri } from "../../src/core/http-contract.js";
import { HttpProblem, problems } from "../../src/core/http-problem.js";
import { PriceFeedError } from "../../src/core/errors.js";

/** Every factory, called as the handler calls it. */
const MADE: Record<keyof typeof problems, HttpProblem> = {
  fileMissing: problems.fileMissing(),
  notFound: problems.notFound("/api/v1"),
  uriTooLong: problems.uriTooLong(),
  tooManyParameters: problems.tooManyParameters(),
  invalidEncoding: problems.invalidEncoding("asset"),
  dailyLimit: problems.dailyLimit(1000, 60),
  rateLimited: problems.rateLimited(240, 60, 17),
  preconditionFailed: problems.preconditionFailed("If-Match"),
  anonymousLimited: problems.anonymousLimited(60, 240, 60, 17),
  methodNotAllowed: problems.methodNotAllowed(),
  unavailable: problems.unavailable(),
  invalidDate: problems.invalidDate("from", "?from=2026-02-30 is not a date that exists."),
  unknownAssetPath: problems.unknownAssetPath("bitcoin", ["gold-21k"]),
  unknownSeller: problems.unknownSeller("no-such-bank", ["cib"]),
  noSuchDay: problems.noSuchDay("2026-01-01", null, "2026-01-02"),
  malformed: problems.malformed("a raw backslash"),
};

describe("the handler's problems", () => {
  test.each(Object.entries(MADE))("%s is a body of its type, title and status", (_, p) => {
    expect(p).toBeInstanceOf(PriceFeedError);
    const body = p.body("/api/v1/feed.json");
    expect(body).toMatchObject({
      type: problemTypeUri(p.slug),
      title: PROBLEM_TYPES[p.slug].title,
      status: PROBLEM_TYPES[p.slug].status,
      instance: "/api/v1/feed.json",
    });
    expect(typeof body["detail"]).toBe("string");
    expect(typeof body["error"]).toBe("string");
  });

  test("a 429 says when to retry, a 405 which methods there are", () => {
    for (const p of [MADE.dailyLimit, MADE.rateLimited, MADE.anonymousLimited])
      expect(p.headers["Retry-After"]).toMatch(/^\d+$/);
    expect(MADE.methodNotAllowed.headers["Allow"]).toBe(ALLOWED_METHODS.join(", "));
    expect(MADE.methodNotAllowed.body("/")["allow"]).toEqual([...ALLOWED_METHODS]);
  });
});
