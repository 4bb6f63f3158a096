/**
 * /readyz (METHODOLOGY "Freshness"): 503 when the published build is older than BUILD_MAX_AGE or
 * any asset is stale at the request instant; the body says which and how old the build is.
 */
import { BUILD_MAX_AGE_MS } from "../core/methodology.js";
import { freshnessState } from "../rules/freshness.js";
import type { Manifest, Readiness } from "../schema/documents.js";
import type { CategoryCalendar } from "../schema/inputs.js";

export function readiness(manifest: Manifest, nowMs: number): { status: 200 | 503; body: Readiness } {
  const builtMs = Date.parse(manifest.generatedAt);
  const buildAgeSeconds = Math.max(0, Math.round((nowMs - builtMs) / 1000));
  const assets = manifest.assets.map((a) => {
    const cal = manifest.calendar[a.category] as CategoryCalendar | undefined;
    const observed = a.observedAt === null ? null : Date.parse(a.observedAt);
    return { slug: a.slug, state: cal ? freshnessState(observed, nowMs, cal) : "stale" };
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
    },
  };
}
