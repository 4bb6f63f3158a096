/**
 * Who a request counts against: the address the trusted proxy saw, normalised, so that neither a
 * forged X-Forwarded-For hop nor another spelling of one address escapes the rate limits (README
 * "What can go wrong"). Web-standard, no node:* imports: the Netlify adapter uses it too.
 */
import { UsageError } from "../core/errors.js";

/** An IP address parsed: 4 bytes or 16. */
interface Ip {
  v: 4 | 6;
  bytes: number[];
}

function parseV4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^(?:0|[1-9]\d{0,2})$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

function parseV6(s: string): number[] | null {
  let text = s;
  // An embedded IPv4 in the last 32 bits (RFC 4291 §2.2, form 3): ::ffff:192.0.2.1 → ::ffff:c000:201
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const words = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...rest].map((g) =>
    parseInt(g, 16),
  );
  return words.flatMap((w) => [w >> 8, w & 255]);
}

/**
 * An address as written in a header or by a socket: IPv4, IPv6 (bracketed or not), with an
 * optional port or zone, which are dropped. Null when it is not an address.
 */
export function parseIp(raw: string): Ip | null {
  let s = raw.trim();
  if (s.length === 0 || s.length > 64) return null;
  const bracket = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracket) s = bracket[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(":")); // IPv4 with a port
  s = s.replace(/%[\w.-]+$/, ""); // an IPv6 zone (fe80::1%eth0)
  if (!s.includes(":")) {
    const v4 = parseV4(s);
    return v4 ? { v: 4, bytes: v4 } : null;
  }
  const v6 = parseV6(s);
  if (!v6) return null;
  // An IPv4-mapped address (::ffff:a.b.c.d, RFC 4291 §2.5.5.2) is that IPv4 address.
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 255 && v6[11] === 255) return { v: 4, bytes: v6.slice(12) };
  return { v: 6, bytes: v6 };
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run of two or more zero groups as "::" (the first on a tie). */
function formatV6(bytes: number[]): string {
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(":");
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

export function formatIp(ip: Ip): string {
  return ip.v === 4 ? ip.bytes.join(".") : formatV6(ip.bytes);
}

/** One spelling per address: "::FFFF:192.0.2.1" and "192.0.2.1" are one; "2001:DB8:0:0::1" is "2001:db8::1". */
export function normalizeIp(raw: string): string | null {
  const ip = parseIp(raw);
  return ip ? formatIp(ip) : null;
}

/** An address or a CIDR block (`10.0.0.0/8`, `2001:db8::/32`); null when unreadable. */
export function parseCidr(raw: string): { ip: Ip; bits: number } | null {
  const [addr, len, extra] = raw.trim().split("/");
  if (extra !== undefined || addr === undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.v === 4 ? 32 : 128;
  const bits = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  return bits >= 0 && bits <= max ? { ip, bits } : null;
}

function inBlock(ip: Ip, block: { ip: Ip; bits: number }): boolean {
  if (ip.v !== block.ip.v) return false;
  for (let i = 0, left = block.bits; left > 0; i++, left -= 8) {
    const mask = left >= 8 ? 255 : (255 << (8 - left)) & 255;
    if ((ip.bytes[i]! & mask) !== (block.ip.bytes[i]! & mask)) return false;
  }
  return true;
}

/** A predicate over addresses from a list of addresses and CIDR blocks (unreadable entries throw). */
export function addressMatcher(list: readonly string[]): (address: string) => boolean {
  const blocks = list.map((entry) => {
    const b = parseCidr(entry);
    if (!b)
      throw new UsageError(`"${entry}" is not an IP address or a CIDR block`, {
        hint: "--trusted-proxies takes addresses or CIDR blocks, comma-separated (10.0.0.0/8,2001:db8::/32)",
      });
    return b;
  });
  return (address) => {
    const ip = parseIp(address);
    return ip !== null && blocks.some((b) => inBlock(ip, b));
  };
}

/**
 * The key a client's requests are counted under: its normalised address; an IPv6 address by its
 * /64, the block one subscriber gets (RFC 6177), so rotating addresses inside it does not reset the
 * counters. Anything that is not an address is kept as it is, cut to 64 characters.
 */
export function clientKey(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address.slice(0, 64) || "unknown";
  if (ip.v === 4) return formatIp(ip);
  return `${formatV6([...ip.bytes.slice(0, 8), 0, 0, 0, 0, 0, 0, 0, 0])}/64`;
}

export interface ProxyTrust {
  /** The socket's peer is a proxy whose X-Forwarded-For (or `header`) tells the client's address. */
  trustProxy: boolean;
  /** Further proxies in front of it, whose hops are skipped (addresses or CIDR blocks). */
  trusted?: (address: string) => boolean;
  /** A header the proxy sets to the client's address (e.g. x-nf-client-connection-ip, x-real-ip), instead of X-Forwarded-For. */
  header?: string;
}

/**
 * The address the trusted proxy saw. X-Forwarded-For is a list each proxy appends the address it
 * saw to, so only its right end is written by proxies we trust: the client writes whatever it likes
 * on the left. The client is therefore the rightmost hop that is not itself a trusted proxy — with
 * the default (no list), the rightmost hop (the one our proxy added). A hop that is not an address
 * stops the walk: the hop to its right, a proxy, is the best we know.
 */
export function clientAddress(peer: string | undefined, headers: Headers, trust: ProxyTrust): string {
  const socket = peer ?? "unknown";
  if (!trust.trustProxy) return socket;
  if (trust.header) {
    const v = headers.get(trust.header);
    return v !== null && parseIp(v.split(",").at(-1)!) ? v.split(",").at(-1)!.trim() : socket;
  }
  const xff = headers.get("x-forwarded-for");
  if (!xff) return socket;
  const hops = xff.split(",").map((h) => h.trim());
  let best = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!parseIp(hop)) return best;
    if (!trust.trusted?.(hop)) return hop;
    best = hop;
  }
  return best;
}
