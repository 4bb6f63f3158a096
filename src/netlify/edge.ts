/**
 * The Netlify Edge Function: a thin adapter over the handler. `npm run build:netlify` bundles it
 * (esbuild) into netlify/edge-functions/api.js; netlify.toml maps it to /api/* and /readyz.
 * Built files are read from the CDN with a secret header that makes this function step aside
 * (`context.next()`), so that reading a file under /api does not call the function again.
 * It fails closed: without PRICE_FEED_INTERNAL_TOKEN it answers every request with a 503 problem
 * and never steps aside. test/netlify/deno.test.ts runs the bundle in Deno behind a stand-in of
 * Netlify (test/helpers/netlify-harness.ts).
 */
import type { Context } from "@netlify/edge-functions";
import type { Limits } from "../edge/deps.js";
import { FeedCache } from "../edge/feed-cache.js";
import { handle } from "../edge/handler.js";
import { refusal } from "../edge/headers.js";
import { MemoryStore, type CounterStore } from "../edge/counters.js";
import { UpstashStore } from "../edge/upstash-store.js";
import { HttpProblem } from "../core/http-problem.js";
import { parseBusyThreshold } from "../edge/policy.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/documents.js";

declare const Netlify: { env: { get(name: string): string | undefined } };

const INTERNAL = "x-price-feed-internal";
/**
 * A variable of the deploy, trimmed; unset when empty. A runtime that refuses to let the function
 * read one (Deno without --allow-env for that name, as test/netlify/deno.test.ts runs the bundle)
 * leaves it unset, as on a deploy that does not define it, instead of failing every request.
 */
const env = (name: string): string | undefined => {
  try {
    return Netlify.env.get(name)?.trim() || undefined;
  } catch {
    return undefined;
  }
};

// No default: a public one would let any client send the header and read the files past the limits.
const secret = env("PRICE_FEED_INTERNAL_TOKEN");
let refusalLogged = false;
const notConfigured = () =>
  new HttpProblem("unavailable", "This deployment of the API is not configured yet; retry later.", "unavailable");

/** `N` or `N/SECONDS`, as `price-feed serve --rate-limit`; anything else keeps the published limit, said in the log. */
function limitsFromEnv(): Limits {
  const limits: Limits = { window: WINDOW_LIMIT, windowSeconds: WINDOW_SECONDS, daily: DAILY_LIMIT };
  const rate = env("PRICE_FEED_RATE_LIMIT");
  if (rate !== undefined) {
    const m = /^(\d+)(?:\/(\d+))?$/.exec(rate);
    if (m && Number(m[1]) >= 1 && (m[2] === undefined || Number(m[2]) >= 1)) {
      limits.window = Number(m[1]);
      if (m[2] !== undefined) limits.windowSeconds = Number(m[2]);
    } else
      console.error(`PRICE_FEED_RATE_LIMIT="${rate}" is not N or N/SECONDS: using ${WINDOW_LIMIT}/${WINDOW_SECONDS}`);
  }
  const daily = env("PRICE_FEED_DAILY_LIMIT");
  if (daily !== undefined) {
    if (/^\d+$/.test(daily) && Number(daily) >= 1) limits.daily = Number(daily);
    else console.error(`PRICE_FEED_DAILY_LIMIT="${daily}" is not a positive integer: using ${DAILY_LIMIT}`);
  }
  // As `serve --busy-threshold`: past N requests per SECONDS from all addresses (counted in Upstash
  // when it is set, else per edge node), anonymous callers are limited first (src/edge/policy.ts).
  const busy = env("PRICE_FEED_BUSY_THRESHOLD");
  if (busy !== undefined) {
    const threshold = parseBusyThreshold(busy);
    if (threshold) limits.busy = threshold;
    else console.error(`PRICE_FEED_BUSY_THRESHOLD="${busy}" is not N/SECONDS: never busy`);
  }
  return limits;
}

const limits = limitsFromEnv();
const upstashUrl = env("UPSTASH_REDIS_REST_URL");
const upstashToken = env("UPSTASH_REDIS_REST_TOKEN");
// Without Upstash each edge node counts alone: better than nothing, and said in the log.
const counters: CounterStore =
  upstashUrl && upstashToken ? new UpstashStore(upstashUrl, upstashToken) : new MemoryStore();
if (!upstashUrl) console.error("UPSTASH_REDIS_REST_URL is not set: rate limits are counted per edge node");
const cache = new FeedCache();
let manifest: { at: number; value: Promise<Manifest> } | null = null;

export default async function edge(request: Request, context: Context): Promise<Response> {
  if (secret === undefined) {
    if (!refusalLogged) {
      refusalLogged = true;
      console.error(
        "PRICE_FEED_INTERNAL_TOKEN is not set: the API answers 503 to every request until it is (set it to a long random string)",
      );
    }
    return refusal(request, notConfigured());
  }
  if (request.headers.get(INTERNAL) === secret) return context.next();
  const origin = new URL(request.url).origin;
  const readFile = async (file: string) => {
    const res = await fetch(`${origin}/${file}`, { headers: { [INTERNAL]: secret } });
    if (res.ok) return res.text();
    await res.body?.cancel();
    return null;
  };
  if (!manifest || Date.now() - manifest.at > 30_000) {
    manifest = { at: Date.now(), value: readFile(MANIFEST_FILE).then((t) => Manifest.parse(JSON.parse(t ?? "null"))) };
    manifest.value.catch(() => (manifest = null));
  }
  const m = manifest.value;
  return handle(request, {
    readFile,
    manifest: () => m,
    counters,
    now: () => Date.now(),
    // The address Netlify's edge saw (what it also sends as x-nf-client-connection-ip), never an
    // X-Forwarded-For hop the client can write; the handler normalises it (edge/client.ts clientKey).
    clientAddress: context.ip,
    limits,
    cache,
  });
}

// Mapped to /api/* and /readyz in netlify.toml ([[edge_functions]]).
