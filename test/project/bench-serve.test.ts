/**
 * `npm run bench` reads wrk's summary (scripts/bench-serve.ts parseWrk): requests over the run's
 * real duration, the 99th percentile in any unit, and answers that were not 2xx/3xx, which would
 * make a fast server look faster than it is. The outputs below are wrk 4.1.0's, recorded against
 * sirv on this repository's sample site.
 */
import { describe, expect, test } from "vitest";
import { parseWrk } from "../../scripts/bench-serve.js";

const ok = `Running 1s test @ http://127.0.0.1:18913/api/v1/feed.json
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.82ms    1.62ms  12.97ms   86.15%
    Req/Sec     2.61k   742.95     4.00k    63.64%
  Latency Distribution
     50%    1.16ms
     75%    2.23ms
     90%    4.01ms
     99%    7.98ms
  2851 requests in 1.10s, 219.09MB read
Requests/sec:   2592.30
Transfer/sec:    199.21MB
`;

const notFound = `Running 1s test @ http://127.0.0.1:18913/nope
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   207.06us  544.11us   6.31ms   94.27%
    Req/Sec    44.78k    18.43k   65.17k    70.00%
  Latency Distribution
     50%   72.00us
     75%  114.00us
     90%  244.00us
     99%    3.20ms
  44451 requests in 1.00s, 6.06MB read
  Non-2xx or 3xx responses: 44451
Requests/sec:  44427.36
Transfer/sec:      6.06MB
`;

describe("wrk's summary as the bench reads it", () => {
  test.each([
    { name: "a full-feed run", out: ok, want: { requests: 2851, seconds: 1.1, p99ms: 7.98, non2xx: 0, errors: 0 } },
    {
      name: "every answer a 404",
      out: notFound,
      want: { requests: 44451, seconds: 1, p99ms: 3.2, non2xx: 44451, errors: 0 },
    },
    {
      name: "microseconds and socket errors",
      out: ok
        .replace("99%    7.98ms", "99%  950.00us")
        .replace("  2851 requests", "  Socket errors: connect 0, read 2, write 0, timeout 3\n  2851 requests"),
      want: { requests: 2851, seconds: 1.1, p99ms: 0.95, non2xx: 0, errors: 5 },
    },
    {
      name: "a run reported in minutes",
      out: ok.replace("in 1.10s", "in 1.50m"),
      want: { requests: 2851, seconds: 90, p99ms: 7.98, non2xx: 0, errors: 0 },
    },
  ])("$name", ({ out, want }) => {
    expect(parseWrk(out)).toEqual(want);
  });

  test("an output without a total or a 99th percentile is an error, not a zero", () => {
    expect(() => parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n")).toThrow(/unexpected output/);
    expect(() => parseWrk(ok.replace(/^\s*99%.*$/m, ""))).toThrow(/unexpected output/);
  });
});
