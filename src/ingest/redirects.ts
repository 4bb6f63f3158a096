/**
 * Where a source's redirect may lead (issue 26, item 4). The configured URL is the operator's choice
 * and is asked as written, wherever it points; a redirect is the answering server's choice, so it is
 * followed only
 * - to the configured URL's own origin (RFC 6454: the same scheme, host and port, which the operator
 *   chose already), or
 * - to an address on the public internet: every address the target's host resolves to (node:dns
 *   lookup, all of them: the connection may use any) must be globally reachable in IANA's
 *   special-purpose address registries (RFC 6890) — not loopback, private (RFC 1918, RFC 4193),
 *   link-local (RFC 3927, which holds the cloud metadata address 169.254.169.254; RFC 4291),
 *   unspecified, shared (CGNAT, RFC 6598), multicast, documentation, benchmarking or reserved;
 * and never from https down to http (the Fetch standard's and browsers' mixed-content rule: a page
 * asked over TLS is not read in clear because its server said so), whatever the origin.
 *
 * A source on the operator's own network opts in with `"allowPrivateRedirects": true`: its redirects
 * may then lead to any address (still never down to http). This is the same line browsers draw for
 * public pages reaching into private networks (WICG Private Network Access), so that a source's
 * server cannot point the hourly job, with its network position, at a runner's metadata service or
 * an internal admin page.
 *
 * The check is made on the addresses the lookup answers just before the request; the request then
 * resolves the host again, so a host whose DNS answer changes within that moment (rebinding) is not
 * caught here. That needs the address pinned in the connection, which the global fetch does not offer.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";

/** Why an address is not on the public internet, with the rule that says so; null when it is. */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""); // a URL's [v6] brackets, a zone id
  const family = isIP(bare);
  if (family === 4) return v4Reason(v4Number(bare));
  if (family === 6) return v6Reason(v6Hextets(bare));
  return "not an IP address";
}

const v4Number = (a: string) => a.split(".").reduce((n, part) => n * 256 + Number(part), 0);

/** IANA IPv4 Special-Purpose Address Registry (RFC 6890), the blocks not globally reachable. */
const V4_BLOCKS: ReadonlyArray<readonly [string, number, string]> = [
  ["0.0.0.0", 8, 'an unspecified address ("this network", RFC 791, RFC 1122)'],
  ["10.0.0.0", 8, "a private address (RFC 1918)"],
  ["100.64.0.0", 10, "a shared carrier-grade NAT address (RFC 6598)"],
  ["127.0.0.0", 8, "a loopback address (RFC 1122)"],
  ["169.254.0.0", 16, "a link-local address (RFC 3927; 169.254.169.254 is a cloud metadata service)"],
  ["172.16.0.0", 12, "a private address (RFC 1918)"],
  ["192.0.0.0", 24, "an IETF protocol assignment (RFC 6890)"],
  ["192.0.2.0", 24, "a documentation address (RFC 5737)"],
  ["192.88.99.0", 24, "a deprecated 6to4 relay address (RFC 7526)"],
  ["192.168.0.0", 16, "a private address (RFC 1918)"],
  ["198.18.0.0", 15, "a benchmarking address (RFC 2544)"],
  ["198.51.100.0", 24, "a documentation address (RFC 5737)"],
  ["203.0.113.0", 24, "a documentation address (RFC 5737)"],
  ["224.0.0.0", 4, "a multicast address (RFC 5771)"],
  ["240.0.0.0", 4, "a reserved address (RFC 1112; 255.255.255.255 is the broadcast address, RFC 919)"],
];
const V4_TABLE = V4_BLOCKS.map(([net, bits, why]) => ({ net: v4Number(net), size: 2 ** (32 - bits), why }));

function v4Reason(n: number): string | null {
  for (const b of V4_TABLE) if (n >= b.net && n < b.net + b.size) return b.why;
  return null;
}

/** The eight 16-bit groups of an IPv6 address (isIP says it is one), a trailing dotted IPv4 included. */
function v6Hextets(a: string): number[] {
  let text = a.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (s: string | undefined) => (s ? s.split(":").map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (hi: number, lo: number) => hi * 65536 + lo;

/** IANA IPv6 Special-Purpose Address Registry (RFC 6890) and the unicast space IANA allocates (2000::/3). */
function v6Reason(h: number[]): string | null {
  const [a = 0, b = 0] = h;
  const zeroUpTo = (k: number) => h.slice(0, k).every((x) => x === 0);
  if (zeroUpTo(8)) return "an unspecified address (RFC 4291)";
  if (zeroUpTo(7) && h[7] === 1) return "a loopback address (RFC 4291)";
  // An IPv4 address inside an IPv6 one reaches that IPv4 address: it is judged as one.
  const embedded = (hi: number, lo: number, how: string) => {
    const why = v4Reason(v4Of(hi, lo));
    return why === null ? null : `${why}, ${how}`;
  };
  if (zeroUpTo(5) && h[5] === 0xffff) return embedded(h[6]!, h[7]!, "IPv4-mapped (RFC 4291)");
  if (a === 0x64 && b === 0xff9b && h.slice(2, 6).every((x) => x === 0))
    return embedded(h[6]!, h[7]!, "through NAT64 (RFC 6052)");
  if (a === 0x2002) return embedded(b, h[2]!, "through 6to4 (RFC 3056)");
  if ((a & 0xfe00) === 0xfc00) return "a unique local (private) address (RFC 4193)";
  if ((a & 0xffc0) === 0xfe80) return "a link-local address (RFC 4291)";
  if ((a & 0xffc0) === 0xfec0) return "a site-local address (deprecated, RFC 3879)";
  if ((a & 0xff00) === 0xff00) return "a multicast address (RFC 4291)";
  if (a === 0x2001 && b === 0x0db8) return "a documentation address (RFC 3849)";
  if ((a & 0xfff0) === 0x3ff0) return "a documentation address (RFC 9637)";
  if (a === 0x2001 && b < 0x0200) return "an IETF protocol assignment (RFC 2928, RFC 6890)";
  if ((a & 0xe000) !== 0x2000) return "outside the global unicast space 2000::/3 (RFC 4291, RFC 6890)";
  return null;
}

/** Resolves a host to every address it has; an IP literal is itself. */
export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((r) => r.address);

/** Why a redirect from `from` to `to` is not followed, for a source's request first sent to `configured`; null: follow it. */
export async function redirectRefusal(
  configured: URL,
  from: URL,
  to: URL,
  o: { allowPrivate: boolean; lookup: Lookup },
): Promise<string | null> {
  // Mixed content (W3C Mixed Content; Fetch): never from TLS down to clear text, opt-in or not.
  if (from.protocol === "https:" && to.protocol === "http:") return "it leads from https down to http";
  if (o.allowPrivate || to.origin === configured.origin) return null;
  const host = to.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else
    try {
      addresses = await o.lookup(host);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return `its host ${host} does not resolve${code ? ` (${code})` : ""}`;
    }
  if (addresses.length === 0) return `its host ${host} does not resolve`;
  for (const address of addresses) {
    const why = nonPublicReason(address);
    if (why !== null) return `${host === address ? host : `${host} is ${address}`}, ${why}`;
  }
  return null;
}

/**
 * The request headers that may follow a redirect to another origin: only those that say who asks
 * and what it takes, never one that could carry a credential. The Fetch standard drops
 * `Authorization` on a cross-origin redirect (and a browser's cookie jar keeps cookies to their
 * site); a source's own headers may hold an API key under any name (`X-Api-Key`), and a `Referer`
 * may hold the first URL's query, so everything not listed here stays with the origin it was
 * configured for. The same policy for every request: a document's, a token's, the CBE's form.
 */
const CROSS_ORIGIN_SAFE = new Set(["user-agent", "accept", "accept-language", "content-type"]);

export function headersAcrossOrigins(headers: Headers): Headers {
  const out = new Headers();
  for (const [k, v] of headers) if (CROSS_ORIGIN_SAFE.has(k)) out.set(k, v);
  return out;
}
