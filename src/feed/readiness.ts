/**
 * /readyz (docs/methodology.md §7.4): 503 when the published build is older than BUILD_MAX_AGE or
 * any asset is stale at the request instant; the body says which and how old the build is. A
 * function of the manifest and an instant only, so the handler answers /readyz with it
 * (src/edge/handler.ts), the OpenAPI description shows the build's own verdict as its example
 * (src/render/openapi/examples.ts), and the live demo and `serve` report it.
 */
import { BUILD_MAX_AGE_MS, DELAYED_MAX_MS } from "../core/methodology.js";
import { SOURCES_PATH } from "./paths.js";
import { freshnessState } from "../rules/freshness.js";
import type { Manifest, Readiness } from "../schema/documents.js";
import type { CategoryCalendar } from "../schema/inputs.js";

/**
 * The local server's command lines, without --now: the one that serves its folder, and the one that
 * builds into it (src/cli/serve.ts localCommands). The hint of a 503 completes them with --now.
 */
export interface LocalCommands {
  serve: string;
  build: string;
}

/**
 * `rateLimiting` is what the request found: "fail-open" when the counter store could not be reached
 * (docs/operating.md "What can go wrong"); it is reported, and does not by itself make the feed unready.
 * `local` are the local server's command lines (HandlerDeps.local): when given, a 503's action ends
 * with what shows this very build's data ready (localHint).
 */
export function readiness(
  manifest: Manifest,
  nowMs: number,
  rateLimiting: Readiness["rateLimiting"] = "enforced",
  local?: LocalCommands,
): { status: 200 | 503; body: Readiness } {
  const builtMs = Date.parse(manifest.generatedAt);
  const buildAgeSeconds = Math.max(0, Math.round((nowMs - builtMs) / 1000));
  const assets = manifest.assets.map((a) => {
    const cal = manifest.calendar[a.category] as CategoryCalendar | undefined;
    const observed = a.observedAt === null ? null : Date.parse(a.observedAt);
    return { slug: a.slug, observedAt: a.observedAt, state: cal ? freshnessState(observed, nowMs, cal) : "stale" };
  });
  const staleAssets = assets.filter((a) => a.state === "stale").map((a) => a.slug);
  const buildTooOld = nowMs - builtMs > BUILD_MAX_AGE_MS;
  const ready = !buildTooOld && staleAssets.length === 0;
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? "ready" : "not-ready",
      checkedAt: new Date(nowMs).toISOString(),
      generatedAt: manifest.generatedAt,
      buildAgeSeconds,
      buildMaxAgeSeconds: BUILD_MAX_AGE_MS / 1000,
      buildTooOld,
      staleAssets,
      assets: Object.fromEntries(assets.map((a) => [a.slug, a.state])),
      rateLimiting,
      staleSince: Object.fromEntries(assets.filter((a) => a.state === "stale").map((a) => [a.slug, a.observedAt])),
      action: ready
        ? null
        : advice(
            manifest.generatedAt,
            buildAgeSeconds,
            buildTooOld,
            assets.filter((a) => a.state === "stale"),
          ) + (local === undefined ? "" : ` ${localHint(manifest, local)}`),
    },
  };
}

/** "3 d 4 h", "5 h 12 min", "40 min": an age as an operator reads it. */
export function humanAge(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const [d, h, min] = [Math.floor(m / 1440), Math.floor((m % 1440) / 60), m % 60];
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return min ? `${h} h ${min} min` : `${h} h`;
  return `${min} min`;
}

/**
 * What the operator reads in a 503: the cause, then what to do. A stale asset means its sources
 * stopped delivering (or the job stopped running); a build too old means the job stopped publishing.
 */
function advice(
  generatedAt: string,
  ageSeconds: number,
  buildTooOld: boolean,
  stale: Array<{ slug: string; observedAt: string | null }>,
): string {
  const parts: string[] = [];
  if (buildTooOld)
    parts.push(
      `The published build is ${humanAge(ageSeconds)} old (made at ${generatedAt}; at most ${humanAge(BUILD_MAX_AGE_MS / 1000)}): the hourly job has stopped publishing. ` +
        "Look at its last run's log, and run it again (ingest, compact, build, publish).",
    );
  if (stale.length) {
    const shown = stale
      .slice(0, 5)
      .map((a) => `${a.slug} (${a.observedAt === null ? "never observed" : `last observed ${a.observedAt}`})`);
    parts.push(
      `${stale.length} asset${stale.length === 1 ? " has" : "s have"} had no new observation for more than ${humanAge(DELAYED_MAX_MS / 1000)} of trading time: ` +
        `${shown.join(", ")}${stale.length > shown.length ? `, and ${stale.length - shown.length} more` : ""}. ` +
        `Check which sources failed or skipped them (${SOURCES_PATH} and the ingest log), fix or disable those in sources.json, then run the hourly job` +
        `${buildTooOld ? "" : " (ingest, compact, build, publish)"}.`,
    );
  }
  return parts.join(" ");
}

/**
 * An instant at which this build answers /readyz 200, or null when there is none: the build's own
 * instant when its data was fresh then; else the newest observation of any asset, then the others'
 * (newest first) — a build made later than its data (`npm run build` on data that ended days ago)
 * is ready at the instant its data was last fresh. Each candidate is checked with readiness() itself,
 * so a hint built on it cannot send the reader back to the same 503.
 */
export function readyInstant(manifest: Manifest): number | null {
  const observed = manifest.assets
    .map((a) => (a.observedAt === null ? NaN : Date.parse(a.observedAt)))
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => b - a);
  for (const t of new Set([Date.parse(manifest.generatedAt), ...observed]))
    if (readiness(manifest, t).status === 200) return t;
  return null;
}

/**
 * What the operator of a local server does to see this build's data ready, as commands to copy, at
 * readyInstant. The instant is never the clock that gave the 503 (issue 26: the hint used to suggest
 * the real clock, which gave the same 503 and the same hint). A build made while its data was fresh
 * is served at its own instant. One made when its data was already stale says so in its documents at
 * any clock: served at an earlier instant, /readyz answered 200 beside a feed of stale assets (issue
 * 44), so its data is built at that instant first, then served there (README "Quick start"). With no
 * such instant, what brings fresh data instead.
 */
export function localHint(manifest: Manifest, local: LocalCommands): string {
  const live = "for a live feed of the simulated market, run `npm start`";
  const t = readyInstant(manifest);
  if (t === null)
    return `No instant makes this build ready (an asset was never observed, or its assets were never fresh together): run the hourly job (ingest, compact, build) for fresh data, or ${live}.`;
  const at = new Date(t).toISOString();
  const serve = `\`${local.serve} --now ${at}\``;
  if (t === Date.parse(manifest.generatedAt))
    return `To look at this build as it was when it was built, serve it with --now ${at}: ${serve}; ${live}.`;
  return (
    `This build was made at ${manifest.generatedAt}, when its data was already stale, and its documents say so at any clock. ` +
    `To look at its data as it was at its newest observation, build it at that instant, then serve it there: ` +
    `\`${local.build} --now ${at}\` (with the --data it was built from), then ${serve}; ${live}.`
  );
}
