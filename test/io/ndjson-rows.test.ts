/**
 * src/io/ndjson.ts ndjsonRows parses the lines of flat rows (quotes, official and global rates:
 * FLAT_ROWS) many at a time, as one JSON array a chunk (flatChunk). It must give exactly what a
 * JSON.parse of each line gives: the same rows with the same line numbers, or the same error naming
 * the same line. The reference is the same function line by line, which it takes for a check that
 * is not one of FLAT_ROWS (a wrapper of the same check).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ndjsonRows } from "../../src/io/ndjson.js";
import { Quote } from "../../src/schema/inputs.js";
import { isQuote } from "../../src/schema/fast-inputs.js";

const lineByLine = (v: unknown) => isQuote(v); // not in FLAT_ROWS: the reference path

/** The rows, or the error's message: what a reader of the file sees. */
function read(text: string | Buffer, fast: (v: unknown) => boolean) {
  try {
    return { rows: [...ndjsonRows("day.ndjson", text, Quote, { fast })] };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const quoteRow = fc.record({
  source: fc.constantFrom("bank-sites", "rates-aggregator", "a}b", 'q"{'),
  seller: fc.constantFrom("nile-commercial", "delta-national", "ش", "x\ny", "{"),
  asset: fc.constantFrom("USD-EGP", "EUR-EGP"),
  buy: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
  sell: fc.oneof(fc.integer(), fc.constant(null)),
  observedAt: fc.constantFrom("2026-11-19T10:00:00Z", "2026-11-19T11:00:00+02:00"),
});
const goodLine = quoteRow.map((q) => JSON.stringify(q));

/** Lines a damaged or hand-edited file may hold, each breaking one assumption of flatChunk. */
const oddLine = fc.oneof(
  fc.constantFrom(
    "",
    "   ",
    "\r",
    "oops",
    "{}",
    '{"a":1}',
    "1",
    "[]",
    "null",
    '{"q":[{"a":1}', // with the next line, one nested value over two lines
    '{"b":2}]}',
    "{",
    "}",
    "{}}",
    "\u2028",
  ),
  goodLine.map((l) => `${l}\r`), // CRLF
  goodLine.map((l) => ` ${l}`),
  goodLine.map((l) => `${l} `),
  goodLine.map((l) => `\ufeff${l}`), // a byte-order mark: trimmed by String#trim, not JSON white space
  goodLine.map((l) => `\u00a0${l}`),
  fc.tuple(goodLine, goodLine).map(([a, b]) => `${a},${b}`), // two rows on one line
  fc.tuple(goodLine, fc.nat()).map(([l, k]) => l.slice(0, k % l.length)), // a row cut short
  fc.tuple(goodLine, fc.nat()).map(([l, k]) => `${l.slice(0, k % l.length)}\n${l.slice(k % l.length)}`), // split over two lines
);

/** A day's text: mostly good rows, past a chunk's 256 lines, with now and then an odd line. */
const dayText = fc
  .tuple(
    fc.array(fc.oneof({ weight: 60, arbitrary: goodLine }, { weight: 1, arbitrary: oddLine }), {
      minLength: 1,
      maxLength: 700,
      size: "max", // lengths up to 700, so that most days pass a chunk's boundary
    }),
    fc.boolean(),
  )
  .map(([lines, trailingNewline]) => lines.join("\n") + (trailingNewline ? "\n" : ""));

describe("flat rows parsed a chunk at a time read exactly as line by line", () => {
  it("the same rows and lines, or the same error, on generated days (as text and as bytes)", () => {
    fc.assert(
      fc.property(dayText, (text) => {
        const expected = read(text, lineByLine);
        expect(read(text, isQuote)).toEqual(expected);
        expect(read(Buffer.from(text, "utf8"), isQuote)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    {
      name: "lines that make one array but not one value a line: a value over two lines, two on one",
      text: ['{"q":[{"a":1}', '{"b":2}]}', "{},{}"].join("\n"),
      error: "day.ndjson:1: not valid JSON",
    },
    {
      // Without the check that each line is "{…}", the array would be three good quotes.
      name: "a quote split over two lines between its fields, and two quotes on a third",
      text: [
        '{"source":"bank-sites","seller":"nile-commercial","asset":"USD-EGP"',
        '"buy":47.5,"sell":47.7,"observedAt":"2026-11-19T10:00:00Z"}',
        `${JSON.stringify(sample())},${JSON.stringify(sample())}`,
      ].join("\n"),
      error: "day.ndjson:1: not valid JSON",
    },
    {
      // Joined by a comma alone, the first two lines would be one quote whose source is "},{".
      name: "a quote split over two lines inside a string, each half shaped like a row, and two quotes on a third",
      text: [
        '{"source":"}',
        '{","seller":"nile-commercial","asset":"USD-EGP","buy":47.5,"sell":47.7,"observedAt":"2026-11-19T10:00:00Z"}',
        `${JSON.stringify(sample())},${JSON.stringify(sample())}`,
      ].join("\n"),
      error: "day.ndjson:1: not valid JSON",
    },
    {
      name: "a bad row past the first chunk names its own line",
      text: [...Array.from({ length: 300 }, () => JSON.stringify(sample())), '{"source":"s"}'].join("\n"),
      error: "day.ndjson:301:",
    },
  ])("$name", ({ text, error }) => {
    const flat = read(text, isQuote);
    expect(flat).toEqual(read(text, lineByLine));
    expect(flat.error).toContain(error);
  });

  it("a day of good rows is read whole, with blank lines skipped but counted", () => {
    const rows = Array.from({ length: 600 }, (_, i) => ({ ...sample(), buy: i }));
    const text = rows.map((r, i) => (i === 400 ? `\n${JSON.stringify(r)}` : JSON.stringify(r))).join("\n") + "\n";
    const got = read(text, isQuote).rows!;
    expect(got.map((r) => r.value)).toEqual(rows);
    expect(got[399]!.line).toBe(400);
    expect(got[400]!.line).toBe(402);
    expect(got.at(-1)!.line).toBe(601);
  });
});

function sample() {
  return {
    source: "bank-sites",
    seller: "nile-commercial",
    asset: "USD-EGP",
    buy: 47.5,
    sell: 47.7,
    observedAt: "2026-11-19T10:00:00Z",
  };
}
