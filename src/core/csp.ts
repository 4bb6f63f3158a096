/**
 * The pages' Content-Security-Policy, defined once: the header the primary sends with every page
 * (src/edge/headers.ts PAGE_CSP, and netlify.toml for the CDN, held equal by test/edge/handler.test.ts)
 * and the `<meta http-equiv>` every page carries (src/render/pages/page.ts), for a home that sends no
 * headers (the mirror on GitHub Pages: docs/deployment.md "The second home"). The meta is the header
 * without what a meta element may not deliver, so the two cannot drift. Here in core, below both:
 * render does not import edge. No node:* imports: the edge runtime loads this module too.
 */

/**
 * The pages are static HTML with inline styles and inline SVG; their scripts are files of the
 * site (/amount.js, an asset page's field for any amount; /offline.js, which registers the service
 * worker), so `script-src 'self'` and no inline script; the web app's manifest and its service
 * worker are files of the site too (`manifest-src 'self'`, `worker-src 'self'`), and so are the
 * manifest's icons, which Chromium fetches under the page's img-src (`'self'`: a path cannot narrow
 * it, since a source with a path needs the host, which a build does not know: issue 53); nothing
 * else loads, and a page fetches nothing itself (no connect-src: `default-src 'none'`); no `<base>`,
 * no form is submitted, and no site may frame them (clickjacking).
 */
export const PAGE_CSP_DIRECTIVES: ReadonlyArray<readonly [name: string, ...values: string[]]> = [
  ["default-src", "'none'"],
  ["script-src", "'self'"],
  ["style-src", "'unsafe-inline'"],
  ["img-src", "data:", "'self'"],
  ["manifest-src", "'self'"],
  ["worker-src", "'self'"],
  ["base-uri", "'none'"],
  ["form-action", "'none'"],
  ["frame-ancestors", "'none'"],
];

/**
 * Directives a policy delivered by `<meta http-equiv="Content-Security-Policy">` may not hold: a
 * browser ignores them there, with a console error (CSP Level 3 §3.3, "The
 * Content-Security-Policy HTML meta element": frame-ancestors, report-uri and sandbox). Only the
 * header can deliver them.
 */
export const HEADER_ONLY_DIRECTIVES: ReadonlySet<string> = new Set(["frame-ancestors", "report-uri", "sandbox"]);

/** A policy's serialization (CSP Level 3 §2.2.1): directives joined by "; ", a directive's name and values by spaces. */
export function serializePolicy(directives: ReadonlyArray<readonly string[]>): string {
  return directives.map((d) => d.join(" ")).join("; ");
}

/** The same policy as a meta element may deliver it: every directive but the header-only ones, in order. */
export function metaPolicy(directives: ReadonlyArray<readonly string[]>): string {
  return serializePolicy(directives.filter(([name]) => !HEADER_ONLY_DIRECTIVES.has(name!)));
}

/**
 * The service worker's own policy, sent with its script (a worker is governed by the policy of its
 * script's response, CSP Level 3 §"Workers"; the pages' policy does not reach it): it runs no other
 * script and fetches only the site's own files (`connect-src 'self'`), which it keeps for reading
 * offline.
 */
export const WORKER_CSP = serializePolicy([
  ["default-src", "'none'"],
  ["connect-src", "'self'"],
]);

/** The pages' policy as the header sends it. */
export const PAGE_CSP = serializePolicy(PAGE_CSP_DIRECTIVES);

/** The pages' policy as their `<meta http-equiv>` carries it: PAGE_CSP without frame-ancestors. */
export const PAGE_CSP_META = metaPolicy(PAGE_CSP_DIRECTIVES);
