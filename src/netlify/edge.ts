/**
 * The Netlify Edge Function: a thin adapter over the handler. `npm run build:netlify` bundles it
 * (esbuild) into netlify/edge-functions/api.js; netlify.toml maps it to /api/* and /readyz.
 * Built files are read from the CDN with a secret header that makes this function step aside
 * (`context.next()`), so that reading a file under /api does not call the function again.
 * Not run in tests (no Deno here); the handler it wraps is.
 */
import type { Context } from "@netlify/edge-functions";
import { FeedCache, handle } from "../edge/handler.js";
import { MemoryStore, type CounterStore } from "../edge/counters.js";
import { UpstashStore } from "../edge/upstash-store.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../core/limits.js";
import { MANIFEST_FILE } from "../feed/paths.js";
import { Manifest } from "../schema/outputs.js";

declare const Netlify: { env: { get(name: string): string | undefined } };

const INTERNAL = "x-price-feed-internal";
// Set PRICE_FEED_INTERNAL_TOKEN to a secret: with the default, a client could read files past the limits.
const secret = Netlify.env.get("PRICE_FEED_INTERNAL_TOKEN") ?? "price-feed-internal";
const upstashUrl = Netlify.env.get("UPSTASH_REDIS_REST_URL");
const upstashToken = Netlify.env.get("UPSTASH_REDIS_REST_TOKEN");
// Without Upstash each edge node counts alone: better than nothing, and said in the log.
const counters: CounterStore = upstashUrl && upstashToken ? new UpstashStore(upstashUrl, upstashToken) : new MemoryStore();
if (!upstashUrl) console.error("UPSTASH_REDIS_REST_URL is not set: rate limits are counted per edge node");
const cache = new FeedCache();
let manifest: { at: number; value: Promise<Manifest> } | null = null;

export default async function edge(request: Request, context: Context): Promise<Response> {
  if (request.headers.get(INTERNAL) === secret) return context.next();
  const origin = new URL(request.url).origin;
  const readFile = async (file: string) => {
    const res = await fetch(`${origin}/${file}`, { headers: { [INTERNAL]: secret } });
    return res.ok ? res.text() : null;
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
    clientAddress: context.ip,
    limits: { window: WINDOW_LIMIT, windowSeconds: WINDOW_SECONDS, daily: DAILY_LIMIT },
    cache,
  });
}

// Mapped to /api/* and /readyz in netlify.toml ([[edge_functions]]).
