/**
 * The address classifier behind the redirect rule (src/ingest/redirects.ts, issue 26 item 4),
 * table-driven against IANA's special-purpose address registries (RFC 6890), and the rule itself
 * on URLs with an injected lookup.
 */
import { describe, expect, test } from "vitest";
import { nonPublicReason, redirectRefusal } from "../../src/ingest/redirects.js";

const PUBLIC = null;

describe("nonPublicReason: which addresses are on the public internet", () => {
  const table: Array<[string, RegExp | null]> = [
    // IPv4, public
    ["93.184.215.14", PUBLIC],
    ["8.8.8.8", PUBLIC],
    ["1.1.1.1", PUBLIC],
    ["100.63.255.255", PUBLIC], // just below 100.64/10
    ["100.128.0.0", PUBLIC], // just above it
    ["172.15.255.255", PUBLIC],
    ["172.32.0.0", PUBLIC],
    ["169.253.255.255", PUBLIC],
    ["192.169.0.0", PUBLIC],
    ["223.255.255.255", PUBLIC],
    // IPv4, not public
    ["0.0.0.0", /unspecified/],
    ["0.1.2.3", /unspecified/],
    ["127.0.0.1", /loopback address \(RFC 1122\)/],
    ["127.255.255.254", /loopback/],
    ["10.0.0.0", /private address \(RFC 1918\)/],
    ["10.255.255.255", /private address \(RFC 1918\)/],
    ["172.16.0.1", /private address \(RFC 1918\)/],
    ["172.31.255.255", /private address \(RFC 1918\)/],
    ["192.168.1.1", /private address \(RFC 1918\)/],
    ["169.254.169.254", /link-local address \(RFC 3927; 169\.254\.169\.254 is a cloud metadata service\)/],
    ["169.254.0.1", /link-local/],
    ["100.64.0.1", /carrier-grade NAT address \(RFC 6598\)/],
    ["100.127.255.255", /carrier-grade NAT/],
    ["192.0.0.8", /IETF protocol assignment/],
    ["192.0.2.1", /documentation address \(RFC 5737\)/],
    ["198.51.100.7", /documentation/],
    ["203.0.113.9", /documentation/],
    ["198.18.0.1", /benchmarking address \(RFC 2544\)/],
    ["198.19.255.255", /benchmarking/],
    ["192.88.99.1", /6to4 relay/],
    ["224.0.0.1", /multicast/],
    ["239.255.255.250", /multicast/],
    ["240.0.0.1", /reserved/],
    ["255.255.255.255", /broadcast/],
    // IPv6, public
    ["2606:4700:4700::1111", PUBLIC],
    ["2a00:1450:4001:82a::200e", PUBLIC],
    ["::ffff:93.184.215.14", PUBLIC],
    ["64:ff9b::8.8.8.8", PUBLIC],
    ["2002:5db8:d70e::1", PUBLIC], // 6to4 of 93.184.215.14
    // IPv6, not public
    ["::", /unspecified address \(RFC 4291\)/],
    ["::1", /loopback address \(RFC 4291\)/],
    ["[::1]", /loopback/], // as a URL writes it
    ["fe80::1", /link-local address \(RFC 4291\)/],
    ["fe80::1%eth0", /link-local/],
    ["febf:ffff::1", /link-local/],
    ["fc00::1", /unique local \(private\) address \(RFC 4193\)/],
    ["fd12:3456:789a::1", /unique local/],
    ["fec0::1", /site-local/],
    ["ff02::1", /multicast/],
    ["2001:db8::1", /documentation address \(RFC 3849\)/],
    ["3fff::1", /documentation address \(RFC 9637\)/],
    ["2001::1", /IETF protocol assignment/], // Teredo
    ["100::1", /outside the global unicast space/], // discard-only
    ["64:ff9b:1::1", /outside the global unicast space/], // local-use NAT64
    ["::ffff:127.0.0.1", /loopback address \(RFC 1122\), IPv4-mapped/],
    ["::ffff:7f00:1", /loopback address \(RFC 1122\), IPv4-mapped/],
    ["::ffff:169.254.169.254", /link-local .*IPv4-mapped/],
    ["::ffff:10.0.0.1", /private .*IPv4-mapped/],
    ["64:ff9b::a9fe:a9fe", /link-local .*NAT64/],
    ["2002:c0a8:0101::1", /private .*6to4/],
    ["::127.0.0.1", /outside the global unicast space/], // IPv4-compatible, deprecated
    // not an address
    ["localhost", /not an IP address/],
    ["", /not an IP address/],
  ];
  test.each(table)("%s", (address, expected) => {
    const why = nonPublicReason(address);
    if (expected === null) expect(why).toBeNull();
    else expect(why).toMatch(expected);
  });
});

describe("redirectRefusal: the rule on URLs", () => {
  const configured = new URL("http://127.0.0.1:8080/rates");
  const lookup = async (host: string) =>
    ({ "rates.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"], "inside.example": ["10.1.1.1"] })[
      host
    ] ?? Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
  const refusal = (to: string, from = configured.href, allowPrivate = false) =>
    redirectRefusal(configured, new URL(from), new URL(to), { allowPrivate, lookup });

  test.each([
    ["http://127.0.0.1:8080/other", false, null], // the configured origin
    ["http://rates.example/x", false, null], // public
    ["https://rates.example/x", false, null], // stronger
    ["http://127.0.0.1:8081/x", false, /^127\.0\.0\.1, a loopback address/],
    ["http://inside.example/x", false, /^inside\.example is 10\.1\.1\.1, a private address/],
    ["http://inside.example/x", true, null],
    ["http://169.254.169.254/", true, null],
    ["http://nowhere.example/x", false, /^its host nowhere\.example does not resolve \(ENOTFOUND\)/],
    ["http://[fd00::1]/x", false, /^fd00::1, a unique local/],
  ] as const)("%s (allowPrivate %s)", async (to, allowPrivate, expected) => {
    const why = await refusal(to, configured.href, allowPrivate);
    if (expected === null) expect(why).toBeNull();
    else expect(why).toMatch(expected);
  });

  test("never from https down to http, opt-in or not, same host or not", async () => {
    for (const allowPrivate of [false, true])
      expect(await refusal("http://rates.example/x", "https://rates.example/x", allowPrivate)).toBe(
        "it leads from https down to http",
      );
  });
});
