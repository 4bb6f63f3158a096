/**
 * The world's side of the network: loopback servers at ports drawn from the seed, and the page a
 * bot wall answers with.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { uniform } from "../../sample/random.js";

/** A bot wall as Cloudflare serves it, status 200: its title and markers are what ingest knows it by. */
export const CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">
<div class="main-content"><h1>Checking if the site connection is secure</h1>
<div id="cf-challenge-running"></div><noscript>Enable JavaScript and cookies to continue</noscript>
</div></div><script>window._cf_chl_opt={cvId:'3',cType:'managed'};</script></body></html>
`;

const listenAt = (server: Server, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });

/**
 * The ports the world tries, in order, from its seed: the addresses end up in the copy's sources file
 * and in ingest's reasons (a failure names its URL), which the site publishes, so the same seed must
 * give the same addresses for a run to replay byte for byte. A port taken by another program is
 * skipped for the next of the seed's; only when all are taken does the system choose.
 */
export function portsOf(seed: string): number[] {
  const first = Math.floor(uniform(`${seed}:world-port`) * 30_000);
  return [...Array.from({ length: 12 }, (_, k) => 20_000 + ((first + k * 7919) % 30_000)), 0];
}

/** A server listening on `host` at the first free port of `ports`; null when the address cannot be had. */
export async function serve(handler: Parameters<typeof createServer>[1], host: string, ports: readonly number[]) {
  for (const port of ports) {
    const server = createServer(handler);
    try {
      return { server, port: await listenAt(server, host, port) };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" && code !== "EACCES") return null;
    }
  }
  return null;
}
