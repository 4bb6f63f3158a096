/**
 * @price-feed/client: a typed client of the price feed that keeps answering when its primary home
 * does not, and says how old what it answers is. It asks the primary (the edge: filters, limits,
 * problems); when the primary fails (a network error, a 5xx, a 429, no answer in time, an error
 * answer that is not the API's own problem document, such as a CDN's HTML 403 or 404, or a body
 * that is not the document asked for) it asks the mirror, the same build served as static files
 * elsewhere, for the pre-filtered files that stand in for the filters; once the primary's back-off
 * has passed, every call asks the primary first again. Every answer carries the age of its build
 * (`generatedAt`, at the client's clock) and the assets the build itself calls stale, so a mirror
 * that kept serving an old build is never handed over as fresh. It is polite: it reuses an answer
 * for its Cache-Control max-age without asking, revalidates with the ETag (a 304 costs no body),
 * and sends nothing to a home before the Retry-After that home gave. It believes a home only within
 * bounds: a Retry-After or a max-age of at most an hour, a body of at most `maxBodyBytes`, and a
 * build instant no later than its own clock allows. Types come from the API's
 * OpenAPI description (./openapi.ts, generated), and every body is checked against them
 * (./shape.ts) before it is returned. No dependency but `fetch`.
 */
import type { components } from "./openapi.js";
import { MAX_BODY_BYTES, freshFor, readBody, retryAfterMs, sleep, systemTimers, type Timers } from "./http.js";
import { FEED_PATH, filterFeed, variantPath, type FeedFilter } from "./mirror.js";
import { SHAPES, mismatch, type DocumentShape, type Mismatch } from "./shape.js";
import {
  SIGNATURE_PATH,
  STATEMENT_PATH,
  checkStatement,
  sha256Hex,
  type Statement,
  type TrustedKey,
} from "./integrity.js";

export type Feed = components["schemas"]["Feed"];
export type Asset = components["schemas"]["Asset"];
export type Index = components["schemas"]["Index"];
export type History = components["schemas"]["History"];
export type Problem = components["schemas"]["Problem"];
export type { FeedFilter, Timers, TrustedKey, Statement };
export { checkStatement } from "./integrity.js";
export { UnknownFilterValue, filterFeed, variantPath } from "./mirror.js";
export {
  MAX_BODY_BYTES,
  MAX_RETRY_AFTER_MS,
  MAX_REUSE_MS,
  freshFor,
  httpDate,
  retryAfterMs,
  systemTimers,
} from "./http.js";

export type Home = "primary" | "mirror";

/**
 * How old a build may be before its answers are `stale`: 2 hours, the API's own rule (/readyz
 * answers 503 when the published build is older, `buildMaxAgeSeconds`).
 */
export const STALE_AFTER_MS = 2 * 3600 * 1000;

/**
 * How far ahead of the client's clock a build instant may be and still count as just made: 5
 * minutes, the CLOCK_SKEW the build allows a quote's observedAt (METHODOLOGY.md, "Accepting quotes",
 * rule 4). Beyond it the two clocks disagree by more than skew, so the build's age is unknown.
 */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

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
  /** How old a build may be, at the client's clock, before an answer of it is `stale` (default 2 h, as /readyz). */
  staleAfterMs?: number;
  /**
   * The largest body read, in bytes (default MAX_BODY_BYTES, 8 MiB). A longer one (announced by its
   * Content-Length, or found while reading) is not read further and counts as that home's failure.
   */
  maxBodyBytes?: number;
  /**
   * Send If-None-Match with the ETag kept (RFC 9110 §13.1.2). Default: outside a browser (no
   * `document`). A browser's HTTP cache revalidates by itself, and the header, not CORS-safelisted,
   * would turn each request to the mirror into a preflight that a static host need not answer.
   */
  conditional?: boolean;
  /**
   * The public keys the app trusts to sign the feed's builds (/.well-known/price-feed-keys.json, or
   * its README): pinned in the app, not fetched from the homes it checks. Several may be given, so
   * that a key can be rotated without an app update: the next key is listed before it signs.
   */
  keys?: readonly TrustedKey[];
  /**
   * Check every document against the signed statement of the build that served it; a file that does
   * not match, or a home whose build is unsigned or wrongly signed, is refused and the other home
   * asked (PriceFeedIntegrityError when none passes). Default: on when `keys` are given.
   */
  verify?: boolean;
  fetch?: typeof globalThis.fetch;
  timers?: Timers;
}

/**
 * An answer: the body, which home gave it and from which URL, whether it was reused without a new
 * body, and how old the build it comes from is, at the client's clock, when it is returned.
 */
export interface Answer<T> {
  body: T;
  home: Home;
  url: string;
  /** True when no new body was read: reused within its max-age, or revalidated by a 304. */
  fromCache: boolean;
  etag: string | null;
  /** When the build was made (the document's `generatedAt`); null for a document that states none (the index, a history). */
  generatedAt: string | null;
  /**
   * Milliseconds from `generatedAt` to the client's `now()`; null without `generatedAt`. 0 for a
   * build up to CLOCK_SKEW_MS (5 min) ahead of the client's clock; negative beyond that: the build
   * says it was made in the future, by that much.
   */
  age: number | null;
  /**
   * True when `age` is over `staleAfterMs` (2 h): the build is older than the API itself would call
   * ready; and when `generatedAt` is more than CLOCK_SKEW_MS ahead of the client's clock: how old
   * that build is cannot be known, so it is not called fresh.
   */
  stale: boolean;
  /** Slugs of the assets whose `freshness.state` is `stale` in the document: no new quote for 8 trading hours, at the build instant. */
  staleAssets: string[];
  /** Slugs of the assets whose `freshness.state` is `delayed` (3 to 8 trading hours), at the build instant. */
  delayedAssets: string[];
  /** True when the body was checked against the signed statement of its build (the `verify` option). */
  verified: boolean;
}

/**
 * The request itself is wrong: a 4xx other than 429 answered with the API's own problem document
 * (application/problem+json). Not an outage, so no fallback.
 */
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

/** A body that is not the document asked for: where it came from, and its first member that is not what the types promise. */
export interface ShapeMismatch extends Mismatch {
  home: Home;
  url: string;
  /** The document asked for: Feed, Index or History. */
  document: string;
}

/**
 * No home gave a usable answer, and at least one answered 200 with a body that is not the document
 * asked for (a member missing or of another kind; `member` is its path, `assets[0].freshness`).
 * `url` and `member` are the first such answer's; `mismatches` lists each; `causes` what each
 * home did. A PriceFeedUnavailable, so code that handles an outage handles this one too.
 */
export class PriceFeedShapeError extends PriceFeedUnavailable {
  readonly url: string;
  readonly member: string;
  constructor(
    causes: string[],
    retryAt: number,
    readonly mismatches: ShapeMismatch[],
  ) {
    super(causes, retryAt);
    const first = mismatches[0]!;
    this.url = first.url;
    this.member = first.member;
    this.name = "PriceFeedShapeError";
    this.message = `the price feed gave no usable ${first.document}: ${causes.join("; ")}`;
  }
}

/** A document a home served that its build's signed statement does not vouch for, or a home whose statement failed. */
export interface IntegrityMismatch {
  home: Home;
  /** The document's URL, or the statement's when the statement itself was refused. */
  url: string;
  /** What was wrong: the digest differs, the file is not listed, the build is unsigned, the signature fails… */
  reason: string;
}

/**
 * No home gave a document its signed statement vouches for (the `verify` option): a file that does
 * not match the statement of its build, a build that is unsigned, or one signed with a key the client
 * does not trust. `mismatches` lists what each home did. A PriceFeedUnavailable, so code that handles
 * an outage handles this one too — but it may be an attack: log it.
 */
export class PriceFeedIntegrityError extends PriceFeedUnavailable {
  readonly url: string;
  constructor(
    causes: string[],
    retryAt: number,
    readonly mismatches: IntegrityMismatch[],
  ) {
    super(causes, retryAt);
    this.url = mismatches[0]!.url;
    this.name = "PriceFeedIntegrityError";
    this.message = `no home served a document its signed build vouches for: ${causes.join("; ")}`;
  }
}

/** A body over the size limit: where it came from, and its Content-Length when it announced one. */
export interface Oversized {
  home: Home;
  url: string;
  /** The document asked for: Feed, Index or History. */
  document: string;
  /** The Content-Length it announced (refused unread); null when it announced none and was cut off at the limit. */
  announced: number | null;
}

/**
 * No home gave a usable answer, and at least one answered with a body longer than `maxBodyBytes`,
 * which was not read further (no other home answered a body of the wrong shape: then that is
 * PriceFeedShapeError). `url` is the first such answer's, `oversized` lists each, `causes` says
 * what each home did. A PriceFeedUnavailable, so code that handles an outage handles this one too.
 */
export class PriceFeedTooLargeError extends PriceFeedUnavailable {
  readonly url: string;
  constructor(
    causes: string[],
    retryAt: number,
    readonly oversized: Oversized[],
    readonly maxBodyBytes: number,
  ) {
    super(causes, retryAt);
    const first = oversized[0]!;
    this.url = first.url;
    this.name = "PriceFeedTooLargeError";
    this.message = `the price feed gave no ${first.document} within ${maxBodyBytes} bytes: ${causes.join("; ")}`;
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
  /** The SHA-256 of its bytes, when the client verifies. */
  sha: string | null;
}

/** A home's statement, checked: reused for its max-age, then revalidated (ETag, 304). */
interface HomeStatement {
  statement: Statement;
  etag: string | null;
  freshUntil: number;
}
/** What one home gave, before the answer is dated. */
type Got = Pick<Answer<unknown>, "body" | "home" | "url" | "fromCache" | "etag"> & { verified?: boolean };
type Failure = {
  ok: false;
  reason: string;
  /** The HTTP status, null when there was no answer. */
  status: number | null;
  retryAfter: number | null;
  /** The API's own problem: the caller's mistake, thrown as it is. */
  refused: PriceFeedProblem | null;
  /** A 200 whose body is not the document asked for. */
  shape: ShapeMismatch | null;
  /** A 200 whose body is longer than the limit. */
  oversized: Oversized | null;
  /** A body (or a home's statement) the signed statement does not vouch for. */
  integrity: IntegrityMismatch | null;
};
type Outcome = { ok: true; answer: Got } | Failure;

const fail = (reason: string, status: number | null, more: Partial<Failure> = {}): Failure => ({
  ok: false,
  reason,
  status,
  retryAfter: null,
  refused: null,
  shape: null,
  oversized: null,
  integrity: null,
  ...more,
});

export class PriceFeedClient {
  /** Requests sent to each home (not the answers reused without asking). */
  readonly requests: Record<Home, number> = { primary: 0, mirror: 0 };
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly timers: Timers;
  private readonly stored = new Map<string, Stored>();
  private readonly last = new Map<string, { answer: Got; freshUntil: number }>();
  /** When each home may be asked again, and whether a Retry-After said so. */
  private readonly blocked: Record<Home, { until: number; told: boolean }> = {
    primary: { until: 0, told: false },
    mirror: { until: 0, told: false },
  };

  /** Each home's statement, once checked; and the newest build instant trusted of each (a replayed older one is refused). */
  private readonly statements: Record<Home, HomeStatement | null> = { primary: null, mirror: null };
  private readonly newest: Record<Home, number> = { primary: -Infinity, mirror: -Infinity };

  constructor(private readonly options: ClientOptions) {
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timers = options.timers ?? systemTimers;
    if (this.verifying && !options.keys?.length)
      throw new TypeError("verify: true needs the keys to trust (the `keys` option)");
  }

  /** Whether every document is checked against its build's signed statement. */
  get verifying(): boolean {
    return this.options.verify ?? (this.options.keys?.length ?? 0) > 0;
  }

  /** The feed, every asset or those the filter chooses (an intersection; slugs or ids, any case). */
  feed(filter: FeedFilter = {}): Promise<Answer<Feed>> {
    const query = new URLSearchParams();
    if (filter.category?.length) query.set("category", filter.category.join(","));
    if (filter.asset?.length) query.set("asset", filter.asset.join(","));
    const path = query.size ? `${FEED_PATH}?${query.toString().replaceAll("%2C", ",")}` : FEED_PATH;
    const files = async (home: Home): Promise<Outcome> => {
      const variant = variantPath(filter);
      if (variant) {
        const r = await this.ask(home, variant, SHAPES.feed);
        // No file by that name (an id, say): the whole feed, filtered here.
        if (r.ok || r.status !== 404) return r;
      }
      const r = await this.ask(home, FEED_PATH, SHAPES.feed);
      return r.ok ? { ok: true, answer: { ...r.answer, body: filterFeed(r.answer.body as Feed, filter) } } : r;
    };
    // Verifying, the primary too is asked for the build's files: an answer the edge composes for a
    // query (its `_self` echoes it) is no file of the build, so no statement vouches for its bytes.
    return this.get<Feed>(path, SHAPES.feed, () => files("mirror"), this.verifying ? () => files("primary") : null);
  }

  /** The index: endpoints, filter values, limits and the homes (on the mirror, its file /api/v1/index.json). */
  index(): Promise<Answer<Index>> {
    const file = (home: Home) => () => this.ask(home, "/api/v1/index.json", SHAPES.index);
    return this.get<Index>("/api/v1", SHAPES.index, file("mirror"), this.verifying ? file("primary") : null);
  }

  /** One asset's archive, every day since the data begins (on the mirror by its lower-case slug only). */
  history(slug: string): Promise<Answer<History>> {
    const file = `/api/v1/history/${encodeURIComponent(slug.trim().toLowerCase())}.json`;
    return this.get<History>(file, SHAPES.history, () => this.ask("mirror", file, SHAPES.history));
  }

  /** The absolute URL of a root-relative link of a document, on the home that gave it. */
  resolve(link: string, home: Home = "primary"): string {
    return resolveLink(this.base(home), link);
  }

  private get maxBodyBytes(): number {
    return this.options.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  private base(home: Home): string {
    return home === "primary" ? this.options.primary : (this.options.mirror ?? this.options.primary);
  }

  /**
   * The primary first, the mirror when it fails; a Retry-After waited out when nothing else can
   * answer. An answer is reused within its max-age without asking, except the mirror's once the
   * primary may be asked again: then the primary is asked first, and the mirror's copy (still within
   * its own max-age) answers only if the primary fails again.
   */
  private async get<T>(
    path: string,
    shape: DocumentShape,
    onMirror: () => Promise<Outcome>,
    onPrimary: (() => Promise<Outcome>) | null = null,
  ): Promise<Answer<T>> {
    const last = this.last.get(path);
    const now = this.timers.now();
    if (last && last.freshUntil > now && (last.answer.home === "primary" || now < this.blocked.primary.until))
      return this.dated<T>({ ...last.answer, fromCache: true });
    const homes: Home[] = this.options.mirror ? ["primary", "mirror"] : ["primary"];
    for (let waited = false; ; waited = true) {
      const causes: string[] = [];
      const shapes: ShapeMismatch[] = [];
      const oversized: Oversized[] = [];
      const forged: IntegrityMismatch[] = [];
      for (const home of homes) {
        const b = this.blocked[home];
        if (this.timers.now() < b.until) {
          causes.push(`${home}: not asked before ${new Date(b.until).toISOString()}`);
          continue;
        }
        const r =
          home === "primary" ? await (onPrimary ? onPrimary() : this.ask("primary", path, shape)) : await onMirror();
        if (r.ok) {
          this.last.set(path, { answer: r.answer, freshUntil: this.stored.get(r.answer.url)?.freshUntil ?? 0 });
          return this.dated<T>(r.answer);
        }
        if (r.refused) throw r.refused;
        causes.push(`${home}: ${r.reason}`);
        if (r.shape) shapes.push(r.shape);
        if (r.oversized) oversized.push(r.oversized);
        if (r.integrity) forged.push(r.integrity);
        // A static host's 404 is about that one file (an unknown slug), not the host: the mirror stays asked.
        if (home === "mirror" && r.status === 404) continue;
        const backoff = r.retryAfter ?? this.options.failureBackoffMs ?? 60_000;
        this.blocked[home] = { until: this.timers.now() + backoff, told: r.retryAfter !== null };
      }
      // Wait only for a home that said when to come back, and not for long; else say why nothing answered.
      const blocked = homes.map((home) => this.blocked[home]);
      const told = blocked.filter((b) => b.told && b.until > this.timers.now());
      // When a home may be asked again: now, for a mirror that answered only a 404.
      const next = Math.max(this.timers.now(), Math.min(...blocked.map((b) => b.until)));
      const wait = Math.min(...told.map((b) => b.until)) - this.timers.now();
      if (waited || told.length === 0 || wait > (this.options.maxWaitMs ?? 60_000))
        throw forged.length
          ? new PriceFeedIntegrityError(causes, next, forged)
          : shapes.length
            ? new PriceFeedShapeError(causes, next, shapes)
            : oversized.length
              ? new PriceFeedTooLargeError(causes, next, oversized, this.maxBodyBytes)
              : new PriceFeedUnavailable(causes, next);
      await sleep(this.timers, wait);
    }
  }

  /** The answer with the age of its build at the client's clock, and the assets its build calls stale or delayed. */
  private dated<T>(got: Got): Answer<T> {
    const body = got.body as { generatedAt?: unknown; assets?: unknown };
    const generatedAt = typeof body.generatedAt === "string" ? body.generatedAt : null;
    const built = generatedAt === null ? NaN : Date.parse(generatedAt);
    const age = Number.isNaN(built) ? null : ageOf(this.timers.now() - built);
    const assets = Array.isArray(body.assets) ? (body.assets as Asset[]) : [];
    const inState = (state: Asset["freshness"]["state"]) =>
      assets.filter((a) => a.freshness.state === state).map((a) => a.slug);
    return {
      ...(got as Got & { body: T }),
      generatedAt,
      age,
      // A build from the future is not fresh: its instant is wrong (a clock, or a hostile home) and
      // believing it would keep the answer fresh for staleAfterMs past a date that has not come.
      stale: age !== null && (age < 0 || age > (this.options.staleAfterMs ?? STALE_AFTER_MS)),
      staleAssets: inState("stale"),
      delayedAssets: inState("delayed"),
      verified: got.verified === true,
    };
  }

  /**
   * One request to one home, conditional when an earlier answer of that URL has an ETag. Only a 2xx
   * of JSON that is the document asked for, or a 304, is an answer; an error answer is the caller's
   * mistake only when it is the API's own problem document (a 4xx), and a failure of the home otherwise.
   */
  private async ask(home: Home, path: string, shape: DocumentShape): Promise<Outcome> {
    const url = resolveLink(this.base(home), path);
    const stored = this.stored.get(url);
    if (stored && stored.freshUntil > this.timers.now()) return this.vouched(home, url, path, stored, null);
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
        return this.vouched(home, url, path, stored, 304);
      }
      const type = mediaType(res.headers.get("Content-Type"));
      const status = `${res.status} ${res.statusText}`.trim();
      const max = this.maxBodyBytes;
      if (res.ok) {
        // A CDN's page or a login wall answered 200 in the API's place.
        if (type !== null && !isJson(type)) return discard(res, fail(`${status} with ${type}, not JSON`, res.status));
        const read = await readBody(res, max);
        if (!("text" in read)) {
          const oversized = { home, url, document: shape.name, announced: read.announced };
          return fail(`${status} with ${tooLong(read.announced, max)}`, res.status, { oversized });
        }
        let body: unknown;
        try {
          body = JSON.parse(read.text);
        } catch (e) {
          return fail(`${status} with a body that is not JSON (${messageOf(e)})`, res.status);
        }
        const wrong = mismatch(shape.spec, body);
        if (wrong) {
          const at = wrong.member || "the document";
          const reason = `${url} answered ${status}, not a ${shape.name}: ${at}: expected ${wrong.expected}, got ${wrong.got}`;
          return fail(reason, res.status, { shape: { ...wrong, home, url, document: shape.name } });
        }
        const etag = res.headers.get("ETag");
        const sha = this.verifying ? await sha256Hex(read.text) : null;
        const fresh200: Stored = { body, etag, freshUntil: now + fresh, sha };
        const r = await this.vouched(home, url, path, fresh200, res.status);
        // Kept only once vouched for: a refused body is never reused.
        if (r.ok) this.stored.set(url, fresh200);
        return r.ok ? { ok: true, answer: { ...r.answer, fromCache: false } } : r;
      }
      const retryAfter = retryAfterMs(res.headers.get("Retry-After"), now);
      if (res.status === 429 || res.status >= 500) return discard(res, fail(status, res.status, { retryAfter }));
      // Only a 4xx that says it is the API's problem document is read, and only up to the limit.
      if (type !== PROBLEM_TYPE || res.status < 400 || res.status >= 500) {
        // Anything else (a CDN's HTML 403 or 404, a redirect not followed) is not the API answering.
        return discard(
          res,
          fail(`${status}, ${type ?? "no Content-Type"}: not the API's problem document`, res.status),
        );
      }
      const read = await readBody(res, max);
      if (!("text" in read)) return fail(`${status} with ${tooLong(read.announced, max)}`, res.status);
      const problem = problemOf(read.text);
      if (problem) return fail(status, res.status, { refused: new PriceFeedProblem(res.status, problem, url) });
      return fail(`${status}, ${type}: not the API's problem document`, res.status);
    } catch (e) {
      const reason = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : `network error: ${messageOf(e)}`;
      return fail(reason, null);
    } finally {
      this.timers.clearTimeout(timer);
    }
  }

  /**
   * An answer, once the statement of its home's build vouches for its bytes (when verifying): the
   * statement kept is used within its max-age; a file it does not list as such makes the client ask
   * for the statement again (a new build may have been published meanwhile) before refusing it.
   */
  private async vouched(home: Home, url: string, path: string, s: Stored, status: number | null): Promise<Outcome> {
    const answer: Got = { body: s.body, home, url, fromCache: true, etag: s.etag };
    if (!this.verifying) return { ok: true, answer };
    const file = fileOf(path);
    for (const again of [false, true]) {
      const st = await this.statementOf(home, again);
      if (typeof st === "string")
        return fail(st, status, { integrity: { home, url: this.statementUrl(home), reason: st } });
      const want = Object.hasOwn(st.files, file) ? st.files[file] : undefined;
      if (want !== undefined && want === s.sha) return { ok: true, answer: { ...answer, verified: true } };
      if (!again) continue;
      const reason =
        want === undefined
          ? `${url} is not a file of the signed build of ${st.generatedAt}`
          : `${url} does not match the signed statement of the build of ${st.generatedAt} (SHA-256 ${s.sha}, signed ${want})`;
      return fail(reason, status, { integrity: { home, url, reason } });
    }
    throw new Error("unreachable");
  }

  private statementUrl(home: Home): string {
    return resolveLink(this.base(home), STATEMENT_PATH);
  }

  /** One GET of a statement or its signature, bounded in time and size; a string says why there is no answer. */
  private async fetchText(
    home: Home,
    url: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; text: string } | string> {
    this.requests[home]++;
    const abort = new AbortController();
    const timer = this.timers.setTimeout(() => abort.abort(), this.options.timeoutMs ?? 10_000);
    try {
      const res = await this.fetchFn(url, { headers, signal: abort.signal });
      if (!res.ok) return discard(res, { status: res.status, headers: res.headers, text: "" });
      const read = await readBody(res, this.maxBodyBytes);
      return "text" in read
        ? { status: res.status, headers: res.headers, text: read.text }
        : `${url}: ${tooLong(read.announced, this.maxBodyBytes)}`;
    } catch (e) {
      return `${url}: ${abort.signal.aborted ? "no answer in time" : `network error: ${messageOf(e)}`}`;
    } finally {
      this.timers.clearTimeout(timer);
    }
  }

  /**
   * A home's statement, checked: the one kept while within its max-age (unless `again`), else asked
   * for with its ETag (a 304 keeps it: one download per build), its signature fetched and checked
   * with the trusted keys. A statement of a build older than one this client already trusted from
   * that home is refused: a home that replays an old, genuinely signed build is not believed.
   */
  private async statementOf(home: Home, again: boolean): Promise<Statement | string> {
    const kept = this.statements[home];
    if (kept && !again && kept.freshUntil > this.timers.now()) return kept.statement;
    const url = this.statementUrl(home);
    const headers: Record<string, string> = { Accept: "application/json" };
    if (kept?.etag && (this.options.conditional ?? !("document" in globalThis))) headers["If-None-Match"] = kept.etag;
    const got = await this.fetchText(home, url, headers);
    if (typeof got === "string") return `the build's statement could not be read: ${got}`;
    if (got.status === 304 && kept) {
      kept.freshUntil = this.timers.now() + freshFor(got.headers.get("Cache-Control"));
      return kept.statement;
    }
    if (got.status === 404) return `the build is not signed: ${url} answered 404`;
    if (got.status !== 200) return `the build's statement could not be read: ${url} answered ${got.status}`;
    const sigUrl = resolveLink(this.base(home), SIGNATURE_PATH);
    const sig = await this.fetchText(home, sigUrl, { Accept: "application/json" });
    if (typeof sig === "string" || sig.status !== 200)
      return `the build's signature could not be read: ${typeof sig === "string" ? sig : `${sigUrl} answered ${sig.status}`}`;
    const checked = await checkStatement(got.text, sig.text, this.options.keys ?? []);
    if (typeof checked === "string") return `the build's statement at ${url} is refused: ${checked}`;
    const at = Date.parse(checked.generatedAt);
    if (at < this.newest[home])
      return `the build's statement at ${url} is refused: it is of ${checked.generatedAt}, older than the build this client already trusted from the ${home} (${new Date(this.newest[home]).toISOString()})`;
    this.newest[home] = at;
    this.statements[home] = {
      statement: checked,
      etag: got.headers.get("ETag"),
      freshUntil: this.timers.now() + freshFor(got.headers.get("Cache-Control")),
    };
    return checked;
  }
}

const PROBLEM_TYPE = "application/problem+json";

/** The statement's path of a file asked for: the URL path without its leading slash (no query is asked when verifying). */
const fileOf = (path: string) => path.replace(/^\/+/, "").split("?")[0]!;

/**
 * A build's age from `now - built`: 0 for a build up to CLOCK_SKEW_MS ahead (two honest clocks a
 * little apart), and the difference itself, negative, beyond it: a build that says it was made in
 * the future is said to be, not made to look just built.
 */
const ageOf = (sinceBuilt: number): number => (sinceBuilt >= -CLOCK_SKEW_MS ? Math.max(0, sinceBuilt) : sinceBuilt);

/** A body not read (or not read further): cancelled, so the connection does not stay busy with it; then `result`. */
function discard<T>(res: Response, result: T): T {
  void res.body?.cancel().catch(() => {});
  return result;
}

/** What was too long of a body refused for its size. */
const tooLong = (announced: number | null, max: number): string =>
  announced === null
    ? `a body longer than the limit of ${max} bytes, not read further`
    : `a body of ${announced} bytes announced, more than the limit of ${max}`;

/** The media type of a Content-Type, lower case and without its parameters; null when there is none. */
function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type ? type : null;
}

const isJson = (type: string): boolean => type === "application/json" || type.endsWith("+json");

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
