/**
 * @price-feed/client: a typed client of the price feed that keeps answering when its primary home
 * does not. It asks the primary (the edge: filters, limits, problems); when the primary fails (a
 * network error, a 5xx, no answer in time, or a 429) it asks the mirror, the same build served as
 * static files elsewhere, for the pre-filtered files that stand in for the filters, and it goes
 * back to the primary once the primary may be asked again. It is polite: it reuses an answer for
 * its Cache-Control max-age without asking, revalidates with the ETag (a 304 costs no body), and
 * sends nothing to a home before the Retry-After that home gave. Types come from the API's OpenAPI
 * description (./openapi.ts, generated). No dependency but `fetch`.
 */
import type { components } from "./openapi.js";
import { freshFor, retryAfterMs, sleep, systemTimers, type Timers } from "./http.js";
import { FEED_PATH, filterFeed, variantPath, type FeedFilter } from "./mirror.js";

export type Feed = components["schemas"]["Feed"];
export type Asset = components["schemas"]["Asset"];
export type Index = components["schemas"]["Index"];
export type History = components["schemas"]["History"];
export type Problem = components["schemas"]["Problem"];
export type { FeedFilter, Timers };
export { UnknownFilterValue, filterFeed, variantPath } from "./mirror.js";
export { freshFor, retryAfterMs, systemTimers } from "./http.js";

export type Home = "primary" | "mirror";

export interface ClientOptions {
  /** The primary home's base URL, e.g. `https://prices.example.org`. */
  primary: string;
  /** The mirror's base URL, its path prefix included (the index's `homes.mirror`). */
  mirror?: string | undefined;
  /** A URL or an e-mail address, sent to the primary as X-Contact: it keeps the full rate limit when the service is busy. */
  contact?: string | undefined;
  /** How long a request may take, body included, before it counts as a failure (default 10 s). */
  timeoutMs?: number;
  /** After a failure without Retry-After, how long that home is not asked (default 60 s). */
  failureBackoffMs?: number;
  /** The longest Retry-After the client waits out itself when no other home can answer (default 60 s). */
  maxWaitMs?: number;
  /**
   * Send If-None-Match with the ETag kept (RFC 9110 §13.1.2). Default: outside a browser (no
   * `document`). A browser's HTTP cache revalidates by itself, and the header, not CORS-safelisted,
   * would turn each request to the mirror into a preflight that a static host need not answer.
   */
  conditional?: boolean;
  fetch?: typeof globalThis.fetch;
  timers?: Timers;
}

/** An answer: the body, which home gave it and from which URL, and whether it was reused without a new body. */
export interface Answer<T> {
  body: T;
  home: Home;
  url: string;
  /** True when no new body was read: reused within its max-age, or revalidated by a 304. */
  fromCache: boolean;
  etag: string | null;
}

/** The request itself is wrong (a 4xx other than 429): the server's problem document. Not an outage, so no fallback. */
export class PriceFeedProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
    readonly url: string,
  ) {
    super(problem ? `${problem.status} ${problem.title}: ${problem.detail}` : `${status} from ${url}`);
    this.name = "PriceFeedProblem";
  }
}

/** No home could answer; `causes` says what each did, `retryAt` when one may be asked again (ms since the epoch). */
export class PriceFeedUnavailable extends Error {
  constructor(
    readonly causes: string[],
    readonly retryAt: number,
  ) {
    super(`the price feed did not answer: ${causes.join("; ")}`);
    this.name = "PriceFeedUnavailable";
  }
}

/** A root-relative link of a document (`_self`, `_spec`, `_variants`) on a home whose base URL may carry a prefix. */
export function resolveLink(base: string, link: string): string {
  return `${base.replace(/\/+$/, "")}${link.startsWith("/") ? link : `/${link}`}`;
}

interface Stored {
  body: unknown;
  etag: string | null;
  freshUntil: number;
}
type Failure = { ok: false; reason: string; retryAfter: number | null; refused: PriceFeedProblem | null };
type Outcome = { ok: true; answer: Answer<unknown> } | Failure;

export class PriceFeedClient {
  /** Requests sent to each home (not the answers reused without asking). */
  readonly requests: Record<Home, number> = { primary: 0, mirror: 0 };
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly timers: Timers;
  private readonly stored = new Map<string, Stored>();
  private readonly last = new Map<string, { answer: Answer<unknown>; freshUntil: number }>();
  /** When each home may be asked again, and whether a Retry-After said so. */
  private readonly blocked: Record<Home, { until: number; told: boolean }> = {
    primary: { until: 0, told: false },
    mirror: { until: 0, told: false },
  };

  constructor(private readonly options: ClientOptions) {
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timers = options.timers ?? systemTimers;
  }

  /** The feed, every asset or those the filter chooses (an intersection; slugs or ids, any case). */
  feed(filter: FeedFilter = {}): Promise<Answer<Feed>> {
    const query = new URLSearchParams();
    if (filter.category?.length) query.set("category", filter.category.join(","));
    if (filter.asset?.length) query.set("asset", filter.asset.join(","));
    const path = query.size ? `${FEED_PATH}?${query.toString().replaceAll("%2C", ",")}` : FEED_PATH;
    return this.get<Feed>(path, async () => {
      const variant = variantPath(filter);
      if (variant) {
        const r = await this.ask("mirror", variant);
        // No file by that name (an id, say): the whole feed, filtered here.
        if (r.ok || r.refused?.status !== 404) return r;
      }
      const r = await this.ask("mirror", FEED_PATH);
      return r.ok ? { ok: true, answer: { ...r.answer, body: filterFeed(r.answer.body as Feed, filter) } } : r;
    });
  }

  /** The index: endpoints, filter values, limits and the homes (on the mirror, its file /api/v1/index.json). */
  index(): Promise<Answer<Index>> {
    return this.get<Index>("/api/v1", () => this.ask("mirror", "/api/v1/index.json"));
  }

  /** One asset's archive, every day since the data begins (on the mirror by its lower-case slug only). */
  history(slug: string): Promise<Answer<History>> {
    const file = `/api/v1/history/${encodeURIComponent(slug.trim().toLowerCase())}.json`;
    return this.get<History>(file, () => this.ask("mirror", file));
  }

  /** The absolute URL of a root-relative link of a document, on the home that gave it. */
  resolve(link: string, home: Home = "primary"): string {
    return resolveLink(this.base(home), link);
  }

  private base(home: Home): string {
    return home === "primary" ? this.options.primary : (this.options.mirror ?? this.options.primary);
  }

  /** The primary first, the mirror when it fails; a Retry-After waited out when nothing else can answer. */
  private async get<T>(path: string, onMirror: () => Promise<Outcome>): Promise<Answer<T>> {
    const last = this.last.get(path);
    if (last && last.freshUntil > this.timers.now()) return { ...last.answer, fromCache: true } as Answer<T>;
    for (let waited = false; ; waited = true) {
      const causes: string[] = [];
      for (const home of this.options.mirror ? (["primary", "mirror"] as const) : (["primary"] as const)) {
        const b = this.blocked[home];
        if (this.timers.now() < b.until) {
          causes.push(`${home}: not asked before ${new Date(b.until).toISOString()}`);
          continue;
        }
        const r = home === "primary" ? await this.ask("primary", path) : await onMirror();
        if (r.ok) {
          this.last.set(path, { answer: r.answer, freshUntil: this.stored.get(r.answer.url)?.freshUntil ?? 0 });
          return r.answer as Answer<T>;
        }
        if (r.refused) throw r.refused;
        causes.push(`${home}: ${r.reason}`);
        const backoff = r.retryAfter ?? this.options.failureBackoffMs ?? 60_000;
        this.blocked[home] = { until: this.timers.now() + backoff, told: r.retryAfter !== null };
      }
      // Wait only for a home that said when to come back, and not for long; else say why nothing answered.
      const told = Object.values(this.blocked).filter((b) => b.told && b.until > this.timers.now());
      const next = Math.min(...Object.values(this.blocked).map((b) => b.until));
      const wait = Math.min(...told.map((b) => b.until)) - this.timers.now();
      if (waited || told.length === 0 || wait > (this.options.maxWaitMs ?? 60_000))
        throw new PriceFeedUnavailable(causes, next);
      await sleep(this.timers, wait);
    }
  }

  /** One request to one home, conditional when an earlier answer of that URL has an ETag. */
  private async ask(home: Home, path: string): Promise<Outcome> {
    const url = resolveLink(this.base(home), path);
    const stored = this.stored.get(url);
    if (stored && stored.freshUntil > this.timers.now())
      return { ok: true, answer: { body: stored.body, home, url, fromCache: true, etag: stored.etag } };
    const headers: Record<string, string> = { Accept: "application/json" };
    if (stored?.etag && (this.options.conditional ?? !("document" in globalThis)))
      headers["If-None-Match"] = stored.etag;
    if (home === "primary" && this.options.contact) headers["X-Contact"] = this.options.contact;
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const abort = new AbortController();
    const timer = this.timers.setTimeout(() => abort.abort(), timeoutMs);
    this.requests[home]++;
    try {
      const res = await this.fetchFn(url, { headers, signal: abort.signal });
      const now = this.timers.now();
      const fresh = freshFor(res.headers.get("Cache-Control"));
      if (res.status === 304 && stored) {
        await res.body?.cancel();
        stored.freshUntil = now + fresh; // a 304 carries the Cache-Control of the representation
        return { ok: true, answer: { body: stored.body, home, url, fromCache: true, etag: stored.etag } };
      }
      if (res.ok) {
        const body: unknown = await res.json();
        const etag = res.headers.get("ETag");
        this.stored.set(url, { body, etag, freshUntil: now + fresh });
        return { ok: true, answer: { body, home, url, fromCache: false, etag } };
      }
      const retryAfter = retryAfterMs(res.headers.get("Retry-After"), now);
      const text = await res.text();
      if (res.status === 429 || res.status >= 500)
        return { ok: false, reason: `${res.status} ${res.statusText}`.trim(), retryAfter, refused: null };
      return {
        ok: false,
        reason: `${res.status}`,
        retryAfter: null,
        refused: new PriceFeedProblem(res.status, problemOf(text), url),
      };
    } catch (e) {
      const reason = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : `network error: ${messageOf(e)}`;
      return { ok: false, reason, retryAfter: null, refused: null };
    } finally {
      this.timers.clearTimeout(timer);
    }
  }
}

function problemOf(text: string): Problem | null {
  try {
    const p = JSON.parse(text) as Partial<Problem>;
    return typeof p.status === "number" && typeof p.title === "string" ? (p as Problem) : null;
  } catch {
    return null;
  }
}

const messageOf = (e: unknown): string => {
  const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
  return e instanceof Error ? `${e.message}${cause}` : String(e);
};
